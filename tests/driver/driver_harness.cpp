#include "tests/driver/driver_harness.h"

#include <cstring>
#include <mutex>
#include <random>

#include "contract/regs.h"
#include "isa/assembler.h"

namespace baresm::drvtest {

namespace {
struct Built {
  isa::Module module;
  std::vector<uint8_t> image;
};
Built& built(const std::string& name) {
  static std::mutex m;
  static std::map<std::string, Built> cache;
  std::lock_guard<std::mutex> g(m);
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const std::string path = std::string(BARESM_SOURCE_DIR) + "/kernels/" + name + ".s";
  isa::AsmResult r = isa::assemble_file(path);
  Built b;
  if (!r.ok()) {
    ADD_FAILURE() << "assembling " << path << ":\n" << r.format_errors();
  } else {
    b.module = r.module;
    b.image = isa::write_module(r.module);
  }
  return cache.emplace(name, std::move(b)).first->second;
}
}  // namespace

const std::vector<uint8_t>& kernel_image(const std::string& name) {
  return built(name).image;
}
const isa::Module& kernel_module(const std::string& name) {
  return built(name).module;
}

uint32_t first_offset_of(const isa::Module& m, isa::Op op) {
  for (size_t i = 0; i < m.code.size(); ++i)
    if ((m.code[i] & 0x7F) == uint64_t(op)) return uint32_t(i * isa::kInstrBytes);
  ADD_FAILURE() << "opcode not found in module";
  return 0;
}

// ---- Harness ---------------------------------------------------------------------------
Harness::~Harness() {
  dev.close();
}

drv::Status Harness::open(std::unique_ptr<drv::Transport> t, const drv::DeviceOptions& o) {
  transport = std::move(t);
  dev.set_completion_hook(&Harness::hook, this);
  return dev.open(transport.get(), o);
}

void Harness::hook(void* self, const drv::LaunchReport& r) {
  Harness* h = static_cast<Harness*>(self);
  h->reports.push_back(r);
  h->reports.back().raw = nullptr;
  ++h->times_reported[r.token];
  if (h->scoreboard && r.raw && r.queue < drv::kMaxQueues)
    h->scoreboard->observe(r.queue, h->consumed_[r.queue]++, *r.raw);
}

void Harness::expect(drv::Stream s, drv::Context c, uint64_t token, cq::CplStatus st,
                     const cq::ExpectedCounters* counters) {
  if (!scoreboard) return;
  drv::Stream stream = s;
  if (!stream.id) dev.ctx_default_stream(c, &stream);
  uint32_t q = 0;
  ASSERT_EQ(dev.stream_queue(stream, &q), drv::Status::OK);
  cq::Expectation e;
  e.token = token;
  e.status = st;
  if (counters) {
    e.check_counters = true;
    e.counters = *counters;
  }
  scoreboard->expect(q, submitted_[q]++, e);
}

void Harness::scoreboard_reset() {
  if (scoreboard) scoreboard->reset();
  for (auto& x : submitted_) x = 0;
  for (auto& x : consumed_) x = 0;
}

const drv::LaunchReport* Harness::report_for(uint64_t token) const {
  for (const auto& r : reports)
    if (r.token == token) return &r;
  return nullptr;
}

uint32_t Harness::reg(uint32_t offset) {
  uint32_t v = 0xDEADBEEF;
  EXPECT_EQ(transport->mmio_read32(offset, &v), drv::Status::OK);
  return v;
}

std::string Harness::last_error_text() const {
  const drv::ErrorInfo& e = dev.last_error();
  return std::string(drv::status_name(e.status)) + " [" + drv::layer_name(e.layer) + "] " + e.detail;
}

// ---- VecAdd --------------------------------------------------------------------------------
std::vector<uint32_t> fault_kernel_params(const std::string& kernel, drv::DevPtr buf, uint32_t nwords,
                                          uint32_t target_cta, uint32_t target_tid) {
  std::vector<uint32_t> pv;
  if (kernel == "fault_out_of_window" || kernel == "fault_misaligned") pv.push_back(buf);
  if (kernel == "fault_out_of_window") pv.push_back(nwords);
  pv.push_back(target_cta);
  if (kernel != "fault_barrier_deadlock") pv.push_back(target_tid);
  return pv;
}

uint32_t next_ring_slot(drv::Transport* t, uint32_t q, bool completion_ring) {
  using R = regs::QpReg;
  uint32_t base = 0, size = 0, tail = 0;
  t->mmio_read32(regs::qp(q, completion_ring ? R::CQ_BASE : R::SQ_BASE), &base);
  t->mmio_read32(regs::qp(q, completion_ring ? R::CQ_SIZE : R::SQ_SIZE), &size);
  t->mmio_read32(regs::qp(q, completion_ring ? R::CQ_TAIL : R::SQ_TAIL), &tail);
  if (size == 0) return 0;
  return base + (tail % size) * (completion_ring ? cq::kCPL_BYTES : cq::kDESC_BYTES);
}

drv::Status VecAdd::setup(drv::Device& dev, drv::Context ctx, uint32_t count, uint32_t seed) {
  n = count;
  const auto& img = kernel_image("vec_add");
  drv::Status st = dev.module_load_data(ctx, img.data(), img.size(), &mod);
  if (!drv::ok(st)) return st;
  if (!drv::ok(st = dev.module_get_function(mod, "vec_add", &fn))) return st;
  const uint32_t bytes = n * 4;
  if (!drv::ok(st = dev.mem_alloc(ctx, bytes, &a)) || !drv::ok(st = dev.mem_alloc(ctx, bytes, &b)) ||
      !drv::ok(st = dev.mem_alloc(ctx, bytes, &c)))
    return st;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
  ha.resize(n);
  hb.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    ha[i] = dist(rng);
    hb[i] = dist(rng);
  }
  if (!drv::ok(st = dev.memcpy_htod(ctx, a, ha.data(), bytes)) ||
      !drv::ok(st = dev.memcpy_htod(ctx, b, hb.data(), bytes)) ||
      !drv::ok(st = dev.memset_d8(ctx, c, 0xFF, bytes)))
    return st;
  return drv::Status::OK;
}

drv::Status VecAdd::launch(drv::Device& dev, drv::Stream s, uint64_t* token, uint32_t block) {
  drv::LaunchConfig cfg;
  cfg.block = drv::Dim3{block, 1, 1};
  cfg.grid = drv::Dim3{(n + block - 1) / block, 1, 1};
  cfg.stream = s;
  drv::LaunchArg args[4] = {{&a, 4}, {&b, 4}, {&c, 4}, {&n, 4}};
  return dev.launch(fn, cfg, args, 4, token);
}

::testing::AssertionResult VecAdd::check(drv::Device& dev, drv::Context ctx) {
  std::vector<float> hc(n);
  drv::Status st = dev.memcpy_dtoh(ctx, hc.data(), c, n * 4);
  if (!drv::ok(st)) return ::testing::AssertionFailure() << "memcpy_dtoh: " << drv::status_name(st);
  for (uint32_t i = 0; i < n; ++i) {
    const float want = ha[i] + hb[i];
    uint32_t wb, gb;
    std::memcpy(&wb, &want, 4);
    std::memcpy(&gb, &hc[i], 4);
    if (wb != gb)
      return ::testing::AssertionFailure() << "c[" << i << "] = " << hc[i] << ", expected " << want;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult vec_add_runs(Harness& h, drv::Context ctx, uint32_t n, uint32_t seed) {
  VecAdd va;
  if (!drv::ok(va.setup(h.dev, ctx, n, seed)))
    return ::testing::AssertionFailure() << "vec_add setup: " << h.last_error_text();
  if (!drv::ok(va.launch(h.dev, drv::Stream{}, nullptr)))
    return ::testing::AssertionFailure() << "vec_add launch: " << h.last_error_text();
  if (!drv::ok(h.dev.ctx_synchronize(ctx)))
    return ::testing::AssertionFailure() << "vec_add synchronize: " << h.last_error_text();
  return va.check(h.dev, ctx);
}

::testing::AssertionResult RawVecAddQueue::setup(drv::Device& dev, drv::Context ctx, TransportBus* bus,
                                                 uint32_t queue, uint32_t sq_entries, uint32_t cq_entries,
                                                 uint32_t n, uint32_t seed) {
  auto failed = [](const char* what, drv::Status st) {
    return ::testing::AssertionFailure() << what << ": " << drv::status_name(st);
  };
  drv::Status st = va.setup(dev, ctx, n, seed);
  if (!drv::ok(st)) return failed("vec_add setup", st);
  drv::DevPtr code = 0, params = 0;
  uint32_t code_bytes = 0;
  if (!drv::ok(st = dev.module_code_range(va.mod, &code, &code_bytes)))
    return failed("module_code_range", st);
  if (!drv::ok(st = dev.mem_alloc(ctx, sq_entries * cq::kDESC_BYTES, &sq_ring)) ||
      !drv::ok(st = dev.mem_alloc(ctx, cq_entries * cq::kCPL_BYTES, &cq_ring)) ||
      !drv::ok(st = dev.mem_alloc(ctx, 16, &params)) ||
      !drv::ok(st = dev.mem_alloc(ctx, cq::kWIN_BYTES, &window_table)))
    return failed("mem_alloc", st);
  const uint32_t pv[4] = {va.a, va.b, va.c, va.n};
  if (!drv::ok(st = dev.memcpy_htod(ctx, params, pv, 16))) return failed("memcpy_htod", st);
  // One window over a, b and c (allocated one after another).
  const cq::WindowEntry w{va.a, va.c + va.n * 4 - va.a};
  if (!drv::ok(st = dev.memcpy_htod(ctx, window_table, &w, cq::kWIN_BYTES))) return failed("memcpy_htod", st);
  qp.attach(bus->transport(), drv::QueuePairLayout{queue, sq_ring, sq_entries, cq_ring, cq_entries});
  if (!qp.program()) return ::testing::AssertionFailure() << "programming queue pair " << queue << " failed";
  desc = cq::LaunchDescriptor{};
  desc.entry_pc = code;
  desc.code_base = code;
  desc.code_size = code_bytes;
  desc.grid_x = (n + 31) / 32;
  desc.block_x = 32;
  desc.regs = uint8_t(kernel_module("vec_add").kernels[0].regs);
  desc.param_addr = params;
  desc.param_size = 16;
  desc.window_table = window_table;
  desc.window_count = 1;
  return ::testing::AssertionSuccess();
}

}  // namespace baresm::drvtest
