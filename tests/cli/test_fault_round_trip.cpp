// Every fault kind of the fault table (contract/faults.def), taken by a real launch
// on the functional device model, read back by every place that turns a
// completion's error code into a fault: the driver's report (error code,
// status, layer), the `baresm run` sample path (drv::fault_info, which
// SampleContext::launch reads every launch with) and `baresm launch`'s
// report (cli::format_fault).
// The table's rows are the oracle; the inverse maps under test are generated
// from the same rows (drv::fault_for_error, drv::fault_info).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "host_driver/model_transport.h"
#include "host_driver/status.h"
#include "isa/assembler.h"
#include "isa/iss.h"
#include "isa/module.h"
#include "host_driver/devices.h"
#include "sim/launch_fault.h"
#include "tests/driver/driver_harness.h"

namespace baresm {
namespace {

struct Row {
  iss::FaultKind kind;
  cq::ErrorCode error;
  drv::Status status;
  iss::FaultAddr addr;
};
const Row kRows[] = {
#define BSM_FAULT(kind, err, status, addr, desc) \
  {iss::FaultKind::kind, cq::ErrorCode::err, drv::Status::status, iss::FaultAddr::addr},
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
};

TEST(FaultTable, EveryErrorCodeReadsBackToItsFaultKindOrToNone) {
  ASSERT_EQ(int(std::size(kRows)), iss::kNumFaultKinds);
  for (int e = 0; e < 256; ++e) {
    const cq::ErrorCode err = cq::ErrorCode(e);
    const Row* row = nullptr;
    for (const Row& r : kRows)
      if (r.error == err) row = &r;
    iss::FaultKind k = iss::FaultKind::TRAP;
    EXPECT_EQ(drv::fault_for_error(err, &k), row != nullptr) << cq::error_code_name(err);
    if (row) {
      EXPECT_EQ(k, row->kind) << cq::error_code_name(err);
      EXPECT_EQ(drv::status_for_error(err), row->status);
      EXPECT_EQ(drv::fault_status(k), row->status);
      EXPECT_EQ(drv::fault_layer(k), drv::status_layer(row->status));
      EXPECT_EQ(iss::fault_addr_of(k), row->addr);
    }
  }
  for (const Row& r : kRows) {
    if (r.kind != iss::FaultKind::NONE) {
      EXPECT_EQ(drv::fault_layer(r.kind), drv::Layer::EXECUTION) << iss::fault_kind_name(r.kind);
    }
  }
}

// A kernel whose lanes split at 20 nested branches: more reconvergence
// entries than the device's stack holds.
std::string nested_branches_source() {
  std::string s = ".kernel deep\n.regs 2\n    S2R R0, SR_TID.X;\n";
  for (int k = 1; k <= 20; ++k)
    s += "    ISETP.LT.U32 P0, R0, " + std::to_string(k) + ";\n    @P0 BRA j" + std::to_string(k) + ";\n";
  s += "    NOP;\n";
  for (int k = 20; k >= 1; --k) s += "j" + std::to_string(k) + ":\n    NOP;\n";
  return s + "    EXIT;\n.end\n";
}

// A kernel that runs off the end of its code: the assembler refuses to
// write one, so its EXIT is cut from the assembled module.
isa::Module no_exit_module() {
  isa::AsmResult r = isa::assemble(".kernel no_exit\n.regs 1\n    NOP;\n    EXIT;\n.end\n", "no_exit.s");
  EXPECT_TRUE(r.ok()) << r.format_errors();
  r.module.code.pop_back();
  r.module.kernels[0].code_bytes = uint32_t(r.module.code.size() * isa::kInstrBytes);
  r.module.lines.resize(1);
  return r.module;
}

class FaultRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    d = drv::open_model_device({}, &error);
    ASSERT_TRUE(d) << error;
  }
  drv::Device& dev() { return d->device; }
  iss::PoisonMap& poison() {
    return static_cast<drv::ModelTransport&>(*d->transport).device().memory().poison();
  }
  // A context of its own for each kind: a fault makes a context's error sticky.
  void fresh_context() {
    if (ctx.id) dev().ctx_destroy(ctx);
    ASSERT_EQ(dev().ctx_create(&ctx), drv::Status::OK) << dev().last_error().detail;
    loaded.clear();
  }
  const isa::Module& module_of(const std::string& name) {
    if (name == "no_exit") {
      inline_modules.push_back(no_exit_module());
      return inline_modules.back();
    }
    if (name == "deep") {
      isa::AsmResult r = isa::assemble(nested_branches_source(), "deep.s");
      EXPECT_TRUE(r.ok()) << r.format_errors();
      inline_modules.push_back(r.module);
      return inline_modules.back();
    }
    return drvtest::kernel_module(name);
  }
  // Launches `kernel` on `ctas` x `block` threads with 4-byte args (these
  // hand-written kernels take 4-byte pointers), granted exactly `windows`,
  // waits for it, and reads its fault as `baresm run` does (drv::fault_info
  // into `fault`; false in `is_fault` when the error is not an SM fault).
  drv::LaunchReport launch(const std::string& kernel, uint32_t ctas, uint32_t block, std::vector<uint32_t> args,
                           std::vector<drv::Window> windows, uint32_t watchdog = 0) {
    // Each module is loaded once per context (its code stays where it was placed).
    if (!loaded.count(kernel)) {
      const isa::Module& m = module_of(kernel);
      const std::vector<uint8_t> image = isa::write_module(m);
      drv::Module h;
      EXPECT_EQ(dev().module_load_data(ctx, image.data(), image.size(), &h), drv::Status::OK)
          << dev().last_error().detail;
      loaded[kernel] = {h, &m};
    }
    const drv::Module h = loaded[kernel].first;
    module = loaded[kernel].second;
    drv::Function fn;
    EXPECT_EQ(dev().module_get_function(h, kernel.c_str(), &fn), drv::Status::OK) << dev().last_error().detail;
    std::vector<drv::LaunchArg> largs;
    for (const uint32_t& a : args) largs.push_back(drv::LaunchArg{&a, 4});
    if (windows.empty()) windows.push_back(drv::Window{0, 0});  // grants nothing
    drv::LaunchConfig cfg;
    cfg.grid = {ctas, 1, 1};
    cfg.block = {block, 1, 1};
    cfg.windows = windows.data();
    cfg.num_windows = uint32_t(windows.size());
    cfg.watchdog = watchdog;
    uint64_t token = 0;
    status = dev().launch(fn, cfg, largs.data(), uint32_t(largs.size()), &token);
    EXPECT_EQ(status, drv::Status::OK) << dev().last_error().detail;
    dev().ctx_synchronize(ctx);
    drv::LaunchReport r;
    EXPECT_EQ(dev().launch_result(token, &r), drv::Status::OK) << dev().last_error().detail;
    EXPECT_EQ(dev().module_code_range(h, &code_base, nullptr), drv::Status::OK);
    fault = iss::FaultInfo{};
    is_fault = drv::fault_info(r, &fault);
    return r;
  }
  drv::Window buffer(uint32_t bytes) {
    drv::Window b{0, bytes};
    EXPECT_EQ(dev().mem_alloc(ctx, bytes, &b.base), drv::Status::OK) << dev().last_error().detail;
    std::vector<uint8_t> fill(bytes, 1);
    EXPECT_EQ(dev().memcpy_htod(ctx, b.base, fill.data(), bytes), drv::Status::OK) << dev().last_error().detail;
    return b;
  }
  // A launch of vec_add on 256 elements.
  drv::LaunchReport vec_add() {
    const drv::Window a = buffer(1024), b = buffer(1024), c = buffer(1024);
    return launch("vec_add", 2, 128, {a.base, b.base, c.base, 256}, {a, b, c});
  }
  drv::LaunchReport take(iss::FaultKind k) {
    const uint32_t cta = 1, tid = 37;
    switch (k) {
      case iss::FaultKind::NONE:
        return launch("fault_trap", 3, 64, {99, tid}, {});
      case iss::FaultKind::ILLEGAL_INSTR:
        return launch("fault_illegal_opcode", 3, 64, {cta, tid}, {});
      case iss::FaultKind::INVALID_PC:
        return launch("no_exit", 1, 32, {}, {});
      case iss::FaultKind::OUT_OF_WINDOW: {
        const drv::Window b = buffer(400);
        return launch("fault_out_of_window", 3, 64, {b.base, 100, cta, tid}, {b});
      }
      case iss::FaultKind::MISALIGNED: {
        const drv::Window b = buffer(64);
        return launch("fault_misaligned", 3, 64, {b.base, cta, tid}, {b});
      }
      case iss::FaultKind::TRAP:
        return launch("fault_trap", 3, 64, {cta, tid}, {});
      case iss::FaultKind::STACK_OVERFLOW:
        return launch("deep", 1, 32, {}, {});
      case iss::FaultKind::BARRIER_DEADLOCK:
        return launch("fault_barrier_deadlock", 3, 128, {cta}, {});
      case iss::FaultKind::WATCHDOG:
        return launch("fault_endless_loop", 3, 64, {cta, tid}, {}, 20000);
      case iss::FaultKind::FETCH_ERROR: {
        vec_add();  // where the code lies
        EXPECT_TRUE(is_fault && fault.ok()) << fault.describe();
        poison().poison(code_base, 1);
        return vec_add();
      }
      case iss::FaultKind::MEMORY_ERROR: {
        const drv::Window a = buffer(1024), b = buffer(1024), c = buffer(1024);
        poison().poison(a.base + 4 * 100, 4);
        return launch("vec_add", 2, 128, {a.base, b.base, c.base, 256}, {a, b, c});
      }
    }
    ADD_FAILURE() << "no launch takes fault " << iss::fault_kind_name(k);
    return {};
  }

  std::unique_ptr<drv::OpenDevice> d;
  drv::Context ctx;
  std::vector<isa::Module> inline_modules{};
  std::map<std::string, std::pair<drv::Module, const isa::Module*>> loaded;
  const isa::Module* module = nullptr;
  drv::Status status = drv::Status::OK;
  drv::DevPtr code_base = 0;
  iss::FaultInfo fault;
  bool is_fault = false;
};

TEST_F(FaultRoundTrip, EveryKindThroughTheDriverRunAndLaunch) {
  inline_modules.reserve(8);
  for (const Row& row : kRows) {
    const std::string name = iss::fault_kind_name(row.kind);
    SCOPED_TRACE(name);
    fresh_context();
    const drv::LaunchReport r = take(row.kind);
    poison().clear();
    // `baresm run`: a fault is the launch's result, not a failed call.
    ASSERT_EQ(status, drv::Status::OK) << dev().last_error().detail;
    ASSERT_TRUE(is_fault) << cq::error_code_name(r.error);
    EXPECT_EQ(fault.kind, row.kind) << fault.describe();
    // The driver's report.
    EXPECT_TRUE(r.from_device);
    EXPECT_EQ(r.error, row.error) << cq::error_code_name(r.error);
    EXPECT_EQ(r.status, row.status) << drv::status_name(r.status);
    EXPECT_EQ(drv::status_layer(r.status), drv::fault_layer(row.kind));
    // `baresm launch`'s report: the error, and for a fault its place and address word.
    const std::string text = cli::format_fault(*module, {}, r, code_base);
    EXPECT_NE(text.find(std::string("fault:  ") + cq::error_code_name(row.error)), std::string::npos) << text;
    const bool sm_fault = row.kind != iss::FaultKind::NONE;
    EXPECT_EQ(text.find("where:  cta") != std::string::npos, sm_fault) << text;
    EXPECT_EQ(text.find("pc:") != std::string::npos, sm_fault) << text;
    EXPECT_EQ(text.find("addr:") != std::string::npos, row.addr == iss::FaultAddr::ADDRESS) << text;
    EXPECT_EQ(text.find("waiting warps:") != std::string::npos, row.addr == iss::FaultAddr::WAITING_WARPS)
        << text;
    if (!sm_fault) continue;
    EXPECT_EQ(fault.pc, r.fault_pc);
    EXPECT_EQ(fault.warp, r.fault_warp);
    EXPECT_EQ(fault.lane, r.fault_lane);
    EXPECT_EQ(fault.cta.x, r.fault_cta_xyz.x);
    if (row.addr == iss::FaultAddr::ADDRESS) {
      EXPECT_EQ(fault.addr, r.fault_addr);
      EXPECT_NE(fault.describe().find("address"), std::string::npos) << fault.describe();
    }
    if (row.addr == iss::FaultAddr::WAITING_WARPS) {
      EXPECT_EQ(fault.waiting_warps, r.fault_addr);
    }
    if (row.kind == iss::FaultKind::FETCH_ERROR) {
      EXPECT_EQ(r.fault_addr, r.fault_pc);
    }
  }
}

}  // namespace
}  // namespace baresm
