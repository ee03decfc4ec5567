#include "samples/context.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "isa/assembler.h"
#include "isa/ptx.h"

namespace baresm::samples {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

uint32_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

namespace {
std::string dim_text(const drv::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// The statement of a source line, without its comment.
std::string trim(std::string s) {
  for (const char* c : {"//", "#"}) {
    const size_t p = s.find(c);
    if (p != std::string::npos) s.resize(p);
  }
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}
}  // namespace

Arg Arg::f32(float v) {
  return u32(f32_bits(v));
}

SampleContext::SampleContext(const Sample& s, drv::Device& dev, const RunOptions& o, SampleResult* r)
    : sample_(s), dev_(dev), opts_(o), result_(r), rng_(o.seed * 0x100000001B3ull + 12345) {
  if (opts_.kernels_dir.empty()) opts_.kernels_dir = default_kernels_dir();
}

// Destroying the context frees its buffers and module; after a fault it
// also resets the stopped device for the next sample.
SampleContext::~SampleContext() {
  if (ctx_.id) dev_.ctx_destroy(ctx_);
}

bool SampleContext::prepare() {
  const bool cuda = opts_.source == KernelSource::CUDA;
  if (kernel_file().empty()) {
    fail(cuda ? "sample " + sample_.name + " has no CUDA version (kernels/cuda/" + sample_.name + ".cu)"
              : "sample " + sample_.name + " exists only in CUDA: run it with --source cuda");
    return false;
  }
  const std::string path = opts_.kernels_dir + "/" + kernel_file();
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    fail("cannot read kernel file " + path + " (use --kernels DIR to point at kernels/)");
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  {
    std::istringstream lines(src);
    std::string line;
    while (std::getline(lines, line)) source_lines_.push_back(line);
  }
  if (cuda) {
    isa::PtxResult p = isa::translate_ptx(src, kernel_file());
    if (!p.ok()) {
      fail("kernel " + path + " does not translate:\n" + p.format_errors());
      return false;
    }
    module_ = std::move(p.module);
  } else {
    isa::AsmResult a = isa::assemble(src, kernel_file());
    if (!a.ok()) {
      fail("kernel " + path + " does not assemble:\n" + a.format_errors());
      return false;
    }
    module_ = std::move(a.module);
  }
  const std::vector<uint8_t> image = isa::write_module(module_);
  try {
    check(dev_.ctx_create(&ctx_), "ctx_create");
    check(dev_.module_load_data(ctx_, image.data(), image.size(), &mod_), "module_load_data");
    check(dev_.module_code_range(mod_, &code_base_, nullptr), "module_code_range");
  } catch (const SampleAbort&) {
    return false;
  }
  return true;
}

void SampleContext::check(drv::Status s, const char* what) {
  if (s == drv::Status::OK) return;
  const drv::ErrorInfo& e = dev_.last_error();
  fail(std::string(what) + " failed: " + drv::status_name(s) + " (" + drv::layer_name(e.layer) + "): " + e.detail);
  throw SampleAbort{};
}

Buffer SampleContext::alloc(uint32_t bytes) {
  Buffer b;
  b.size = bytes ? bytes : 4;
  check(dev_.mem_alloc(ctx_, b.size, &b.addr), "mem_alloc");
  return b;
}

void SampleContext::release(const Buffer& b) {
  check(dev_.mem_free(ctx_, b.addr), "mem_free");
}

const LaunchRecord& SampleContext::launch(const std::string& kernel, drv::Dim3 grid, drv::Dim3 block,
                                          const std::vector<Arg>& args, const std::vector<Buffer>& windows,
                                          const std::string& note, uint32_t watchdog) {
  const isa::KernelInfo* k = module_.find_kernel(kernel);
  if (!k) {
    fail("no kernel '" + kernel + "' in " + kernel_file());
    throw SampleAbort{};
  }
  drv::Function fn;
  check(dev_.module_get_function(mod_, kernel.c_str(), &fn), "module_get_function");
  // Each argument at its parameter's size; the driver checks the count and
  // the sizes and packs them at the parameter table's offsets.
  std::vector<uint64_t> values(args.size());
  std::vector<drv::LaunchArg> largs(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const bool wide = args[i].pointer && i < k->params.size() && k->params[i].size == 8;
    values[i] = args[i].value;  // little-endian: the low 4 bytes are the 32-bit value
    largs[i] = drv::LaunchArg{&values[i], wide ? 8u : 4u};
  }
  std::vector<drv::Window> wins;
  for (const Buffer& w : windows) wins.push_back(drv::Window{w.addr, w.size});
  // No windows at all: the driver would grant the context's allocations; an
  // empty window grants nothing, as the sample asked.
  if (wins.empty()) wins.push_back(drv::Window{0, 0});
  drv::LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.watchdog = watchdog;
  cfg.windows = wins.data();
  cfg.num_windows = uint32_t(wins.size());
  uint64_t token = 0;
  check(dev_.launch(fn, cfg, largs.data(), uint32_t(largs.size()), &token), "launch");
  // A faulted launch makes the context's error sticky and synchronize
  // return it; the launch's result says what happened. Without a result
  // the wait itself went wrong (a timeout, a link that broke): that is the
  // error to show.
  dev_.ctx_synchronize(ctx_);
  const drv::ErrorInfo sync_error = dev_.last_error();
  LaunchRecord rec;
  rec.kernel = kernel;
  rec.grid = grid;
  rec.block = block;
  rec.note = note;
  rec.code_base = code_base_;
  if (dev_.launch_result(token, &rec.report) != drv::Status::OK) {
    fail(std::string("waiting for the launch failed: ") + drv::status_name(sync_error.status) + " (" +
         drv::layer_name(sync_error.layer) + "): " + sync_error.detail);
    throw SampleAbort{};
  }
  rec.report.raw = nullptr;  // valid only inside the completion hook
  if (!rec.report.from_device) {
    fail(std::string("the launch was lost: ") + drv::status_name(rec.report.status));
    throw SampleAbort{};
  }
  // The fault table read backwards (drv::fault_info, from contract/faults.def):
  // an SM fault is the launch's result, any other error a failed call.
  if (!drv::fault_info(rec.report, &rec.fault)) {
    fail(std::string("the device failed the launch: ") + cq::error_code_name(rec.report.error) + " (" +
         drv::status_name(rec.report.status) + ")");
    throw SampleAbort{};
  }
  result_->launches.push_back(std::move(rec));
  const LaunchRecord& r = result_->launches.back();
  if (!r.fault.ok() && !result_->faulted) {
    result_->faulted = true;
    result_->fault = r.fault;
    result_->fault_report = fault_report(r);
  }
  return r;
}

bool SampleContext::completed(const LaunchRecord& r) {
  if (r.fault.ok()) return true;
  const LaunchRecord& rec = result_->launches.back();
  fail("launch of " + rec.kernel + " grid " + dim_text(rec.grid) + " block " + dim_text(rec.block) +
       " faulted: " + r.fault.describe());
  return false;
}

std::string SampleContext::where(uint32_t off) const {
  std::string s = module_.offset_name(off);
  if (const isa::LineEntry* le = module_.line_for(off)) {
    s += " (" + kernel_file() + ":" + std::to_string(le->line);
    if (le->line >= 1 && le->line <= source_lines_.size())
      s += ": `" + trim(source_lines_[le->line - 1]) + "`";
    s += ")";
  }
  return s;
}

std::string SampleContext::fault_report(const LaunchRecord& r) const {
  const iss::FaultInfo& f = r.fault;
  std::string s = "fault: " + std::string(iss::fault_kind_name(f.kind)) + "\n";
  s += "  where:  cta " + dim_text(f.cta) + " warp " + std::to_string(f.warp) + " lane " +
       std::to_string(f.lane) + " (thread " + std::to_string(f.warp * 32 + f.lane) + " of the CTA)\n";
  s += "  pc:     " + hex32(f.pc);
  if (f.pc >= r.code_base && f.pc - r.code_base < module_.code.size() * isa::kInstrBytes)
    s += " = " + where(f.pc - r.code_base);
  s += "\n";
  if (f.kind == iss::FaultKind::OUT_OF_WINDOW || f.kind == iss::FaultKind::MISALIGNED)
    s += "  addr:   " + hex32(f.addr) + "\n";
  if (f.kind == iss::FaultKind::BARRIER_DEADLOCK) {
    s += "  waiting warps:";
    for (int w = 0; w < 64; ++w)
      if ((f.waiting_warps >> w) & 1) s += " " + std::to_string(w);
    s += "\n";
  }
  if (!f.detail.empty()) s += "  detail: " + f.detail + "\n";
  return s;
}

void SampleContext::expect_fault(const LaunchRecord& r, const Expect& e) {
  const iss::FaultInfo& f = r.fault;
  std::string want = iss::fault_kind_name(e.kind);
  if (e.pcs.empty()) {
    fail("internal: no expected PC found in " + kernel_file());
    return;
  }
  want += " at " + where(e.pcs[0]);
  for (size_t i = 1; i < e.pcs.size(); ++i) want += " or " + where(e.pcs[i]);
  if (f.ok()) {
    fail("expected " + want + ", but the launch completed without a fault");
    return;
  }
  std::vector<std::string> wrong;
  if (f.kind != e.kind) wrong.push_back(std::string("kind ") + iss::fault_kind_name(f.kind));
  const uint32_t off = f.pc - r.code_base;
  bool pc_ok = false;
  for (uint32_t p : e.pcs) pc_ok |= (f.pc >= r.code_base && off == p);
  if (!pc_ok) wrong.push_back("pc " + hex32(f.pc));
  if (e.cta_x >= 0 && (f.cta.x != e.cta_x || f.cta.y != 0 || f.cta.z != 0))
    wrong.push_back("cta " + dim_text(f.cta) + " (expected " + std::to_string(e.cta_x) + ")");
  if (e.warp >= 0 && f.warp != e.warp)
    wrong.push_back("warp " + std::to_string(f.warp) + " (expected " + std::to_string(e.warp) + ")");
  if (e.lane >= 0 && f.lane != e.lane)
    wrong.push_back("lane " + std::to_string(f.lane) + " (expected " + std::to_string(e.lane) + ")");
  if (e.addr >= 0 && f.addr != uint32_t(e.addr))
    wrong.push_back("addr " + hex32(f.addr) + " (expected " + hex32(uint32_t(e.addr)) + ")");
  if (wrong.empty()) {
    pass("expected fault observed: " + want);
    return;
  }
  std::string msg = "expected " + want + ", got";
  for (size_t i = 0; i < wrong.size(); ++i) msg += (i ? ", " : " ") + wrong[i];
  fail(msg);
}

void SampleContext::pass(const std::string& msg) {
  if (failed_) return;
  result_->passed = true;
  result_->message = msg;
}

void SampleContext::fail(const std::string& msg) {
  if (failed_) return;  // the first failure is the one worth reading
  failed_ = true;
  result_->passed = false;
  result_->message = msg;
}

}  // namespace baresm::samples
