// Every fault kind of the fault table (isa/faults.def), taken by a real launch
// on the functional device model, read back by every place that turns a
// completion's error code into a fault: the driver's report (error code,
// status, layer), the `baresm run` sample path (samples::DriverBackend's
// LaunchReport::fault) and `baresm launch`'s report (cli::format_fault).
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
#include "samples/driver_backend.h"
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
#include "isa/faults.def"
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
    be = samples::make_model_backend();
    ASSERT_TRUE(be->ok()) << be->last_error();
  }
  iss::PoisonMap& poison() {
    return static_cast<drv::ModelTransport&>(be->transport()).device().memory().poison();
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
  // Launches `kernel` on `ctas` x `block` threads with u32 args (a Buffer
  // argument is given by its index in bufs, which are its windows).
  samples::LaunchReport launch(const std::string& kernel, uint32_t ctas, uint32_t block,
                               const std::vector<samples::Arg>& args, const std::vector<samples::Buffer>& bufs,
                               uint64_t watchdog = 0) {
    // Each module is loaded once (its code stays where it was placed).
    if (!loaded.count(kernel)) {
      const isa::Module& m = module_of(kernel);
      samples::ModuleHandle h = 0;
      EXPECT_EQ(be->load_module(isa::write_module(m), &h), drv::Status::OK) << be->last_error();
      loaded[kernel] = {h, &m};
    }
    const samples::ModuleHandle h = loaded[kernel].first;
    const isa::Module& m = *loaded[kernel].second;
    std::vector<uint8_t> params;
    std::string error;
    EXPECT_TRUE(samples::pack_params(*m.find_kernel(kernel), args, &params, &error)) << error;
    samples::LaunchConfig cfg;
    cfg.grid = {ctas, 1, 1};
    cfg.block = {block, 1, 1};
    cfg.windows = bufs;
    cfg.watchdog = watchdog;
    samples::LaunchReport rep;
    status = be->launch(h, kernel, cfg, params, &rep);
    module = &m;
    return rep;
  }
  samples::Buffer buffer(uint32_t bytes) {
    samples::Buffer b;
    EXPECT_EQ(be->alloc(bytes, &b), drv::Status::OK) << be->last_error();
    std::vector<uint8_t> zero(bytes, 1);
    EXPECT_EQ(be->write(b, 0, zero.data(), bytes), drv::Status::OK) << be->last_error();
    return b;
  }
  // A launch of vec_add on 256 elements.
  samples::LaunchReport vec_add() {
    const samples::Buffer a = buffer(1024), b = buffer(1024), c = buffer(1024);
    return launch("vec_add", 2, 128,
                  {samples::Arg::ptr(a), samples::Arg::ptr(b), samples::Arg::ptr(c), samples::Arg::u32(256)},
                  {a, b, c});
  }
  samples::LaunchReport take(iss::FaultKind k) {
    using samples::Arg;
    const Arg cta = Arg::u32(1), tid = Arg::u32(37);
    switch (k) {
      case iss::FaultKind::NONE:
        return launch("fault_trap", 3, 64, {Arg::u32(99), tid}, {});
      case iss::FaultKind::ILLEGAL_INSTR:
        return launch("fault_illegal_opcode", 3, 64, {cta, tid}, {});
      case iss::FaultKind::INVALID_PC:
        return launch("no_exit", 1, 32, {}, {});
      case iss::FaultKind::OUT_OF_WINDOW: {
        const samples::Buffer b = buffer(400);
        return launch("fault_out_of_window", 3, 64, {Arg::ptr(b), Arg::u32(100), cta, tid}, {b});
      }
      case iss::FaultKind::MISALIGNED: {
        const samples::Buffer b = buffer(64);
        return launch("fault_misaligned", 3, 64, {Arg::ptr(b), cta, tid}, {b});
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
        const samples::LaunchReport ok = vec_add();  // where the code lies
        EXPECT_TRUE(ok.fault.ok()) << ok.fault.describe();
        poison().poison(ok.code_base, 1);
        return vec_add();
      }
      case iss::FaultKind::MEMORY_ERROR: {
        const samples::Buffer a = buffer(1024), b = buffer(1024), c = buffer(1024);
        poison().poison(a.addr + 4 * 100, 4);
        return launch("vec_add", 2, 128, {Arg::ptr(a), Arg::ptr(b), Arg::ptr(c), Arg::u32(256)}, {a, b, c});
      }
    }
    ADD_FAILURE() << "no launch takes fault " << iss::fault_kind_name(k);
    return {};
  }

  std::unique_ptr<samples::DriverBackend> be;
  std::vector<isa::Module> inline_modules{};
  std::map<std::string, std::pair<samples::ModuleHandle, const isa::Module*>> loaded;
  const isa::Module* module = nullptr;
  drv::Status status = drv::Status::OK;
};

TEST_F(FaultRoundTrip, EveryKindThroughTheDriverRunAndLaunch) {
  inline_modules.reserve(8);
  for (const Row& row : kRows) {
    const std::string name = iss::fault_kind_name(row.kind);
    SCOPED_TRACE(name);
    const samples::LaunchReport rep = take(row.kind);
    poison().clear();
    // `baresm run`: a fault is the launch's result, not a failed call.
    ASSERT_EQ(status, drv::Status::OK) << be->last_error();
    EXPECT_EQ(rep.fault.kind, row.kind) << rep.fault.describe();
    // The driver's report.
    const drv::LaunchReport& r = be->last_report();
    EXPECT_TRUE(r.from_device);
    EXPECT_EQ(r.error, row.error) << cq::error_code_name(r.error);
    EXPECT_EQ(r.status, row.status) << drv::status_name(r.status);
    EXPECT_EQ(drv::status_layer(r.status), drv::fault_layer(row.kind));
    // `baresm launch`'s report: the error, and for a fault its place and address word.
    const std::string text = cli::format_fault(*module, {}, r, rep.code_base);
    EXPECT_NE(text.find(std::string("fault:  ") + cq::error_code_name(row.error)), std::string::npos) << text;
    const bool fault = row.kind != iss::FaultKind::NONE;
    EXPECT_EQ(text.find("where:  cta") != std::string::npos, fault) << text;
    EXPECT_EQ(text.find("pc:") != std::string::npos, fault) << text;
    EXPECT_EQ(text.find("addr:") != std::string::npos, row.addr == iss::FaultAddr::ADDRESS) << text;
    EXPECT_EQ(text.find("waiting warps:") != std::string::npos, row.addr == iss::FaultAddr::WAITING_WARPS)
        << text;
    if (!fault) continue;
    EXPECT_EQ(rep.fault.pc, r.fault_pc);
    EXPECT_EQ(rep.fault.warp, r.fault_warp);
    EXPECT_EQ(rep.fault.lane, r.fault_lane);
    EXPECT_EQ(rep.fault.cta.x, r.fault_cta_xyz.x);
    if (row.addr == iss::FaultAddr::ADDRESS) {
      EXPECT_EQ(rep.fault.addr, r.fault_addr);
      EXPECT_NE(rep.fault.describe().find("address"), std::string::npos) << rep.fault.describe();
    }
    if (row.addr == iss::FaultAddr::WAITING_WARPS) {
      EXPECT_EQ(rep.fault.waiting_warps, r.fault_addr);
    }
    if (row.kind == iss::FaultKind::FETCH_ERROR) {
      EXPECT_EQ(r.fault_addr, r.fault_pc);
    }
  }
}

}  // namespace
}  // namespace baresm
