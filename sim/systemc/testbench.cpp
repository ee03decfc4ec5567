#include "sim/systemc/testbench.h"

#include <systemc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "Vbaresm_top.h"
#include "Vbaresm_top___024root.h"
#include "sim/harness/vl_bits.h"
#include "sim/systemc/fst_trace.h"
#include "sim/systemc/host_port.h"
#include "sim/systemc/mem_port.h"
#include "sim/systemc/sm_lockstep.h"
#include "sim/systemc/sc_types.h"
#include "sim/systemc/timeline_port.h"
#include "verilated.h"

// libsystemc.so calls sc_main from its own main(); every program here has
// its own main() (GoogleTest, the CLI) and drives the kernel with sc_start
// slices, so this one only runs if something starts the SystemC way.
int sc_main(int, char*[]) {
  std::fprintf(stderr, "baresm cosim: nothing to run from sc_main\n");
  return 1;
}

namespace baresm::cosim {

namespace {
constexpr int kLineBits = int(TopParams::kLineBytes) * 8;
constexpr int kIdBits = int(TopParams::kIdBits);
constexpr int kWarpStateBits = int(TopParams::kNumWarps) * 3;
}  // namespace

// ---------------------------------------------------------------------------
// The elaborated design: clock, the device, its memory and the host port.
class TbModule : public sc_core::sc_module {
 public:
  sc_core::sc_clock clk;
  // Pins.
  sc_core::sc_signal<bool> rst_n{"rst_n", false}, sched_gto{"sched_gto"};
  sc_core::sc_signal<bool> mmio_req_valid{"mmio_req_valid"}, mmio_req_ready{"mmio_req_ready"};
  sc_core::sc_signal<uint32_t> mmio_req_addr{"mmio_req_addr"}, mmio_req_wdata{"mmio_req_wdata"};
  sc_core::sc_signal<bool> mmio_req_write{"mmio_req_write"}, mmio_rsp_valid{"mmio_rsp_valid"};
  sc_core::sc_signal<uint32_t> mmio_rsp_rdata{"mmio_rsp_rdata"};
  sc_core::sc_signal<bool> irq{"irq"};
  sc_core::sc_signal<bool> mem_req_valid{"mem_req_valid"}, mem_req_ready{"mem_req_ready"};
  sc_core::sc_signal<vl_t<kIdBits>> mem_req_id{"mem_req_id"}, mem_rsp_id{"mem_rsp_id"};
  sc_core::sc_signal<uint32_t> mem_req_addr{"mem_req_addr"}, mem_req_op{"mem_req_op"},
      mem_req_amo{"mem_req_amo"};
  sc_core::sc_signal<vl_t<kLineBits>> mem_req_wdata{"mem_req_wdata"}, mem_rsp_rdata{"mem_rsp_rdata"};
  sc_core::sc_signal<vl_t<kLineBits / 8>> mem_req_wstrb{"mem_req_wstrb"};
  sc_core::sc_signal<bool> mem_rsp_valid{"mem_rsp_valid"}, mem_rsp_ready{"mem_rsp_ready"};
  sc_core::sc_signal<bool> mem_rsp_err{"mem_rsp_err"};
  // Status.
  sc_core::sc_signal<uint32_t> status{"status"}, cp_state{"cp_state"}, cp_queue{"cp_queue"};
  sc_core::sc_signal<bool> sm_busy{"sm_busy"};
  sc_core::sc_signal<vl_t<kWarpStateBits>> warp_state{"warp_state"};
  sc_core::sc_signal<vl_t<kIdBits + 1>> mem_outstanding{"mem_outstanding"};

  std::vector<uint8_t> memory;
  Vbaresm_top dut;
  DeviceMemoryPort mem;
  HostPort host;
  SmLockstepPort lockstep;
  TimelinePort timeline;
  std::unique_ptr<FstTrace> trace;

  TbModule(sc_core::sc_module_name name, const TbOptions& opt)
      : sc_core::sc_module(name),
        clk("clk", sc_core::sc_time(1e9 / double(TopParams::kClockKhz), sc_core::SC_PS)),
        memory(TopParams::kMemBytes, 0),
        dut("dut"),
        mem("mem", memory),
        host("host"),
        lockstep("lockstep", dut, memory, [this] { return host.cycle(); }),
        timeline("timeline", dut, [this] { return host.cycle(); }) {
    lockstep.clk(clk);
    timeline.clk(clk);
    dut.clk_i(clk);
    dut.rst_ni(rst_n);
    dut.sched_gto_i(sched_gto);
    dut.mmio_req_valid_i(mmio_req_valid);
    dut.mmio_req_ready_o(mmio_req_ready);
    dut.mmio_req_addr_i(mmio_req_addr);
    dut.mmio_req_write_i(mmio_req_write);
    dut.mmio_req_wdata_i(mmio_req_wdata);
    dut.mmio_rsp_valid_o(mmio_rsp_valid);
    dut.mmio_rsp_rdata_o(mmio_rsp_rdata);
    dut.irq_o(irq);
    dut.mem_req_valid_o(mem_req_valid);
    dut.mem_req_ready_i(mem_req_ready);
    dut.mem_req_id_o(mem_req_id);
    dut.mem_req_addr_o(mem_req_addr);
    dut.mem_req_op_o(mem_req_op);
    dut.mem_req_amo_o(mem_req_amo);
    dut.mem_req_wdata_o(mem_req_wdata);
    dut.mem_req_wstrb_o(mem_req_wstrb);
    dut.mem_rsp_valid_i(mem_rsp_valid);
    dut.mem_rsp_ready_o(mem_rsp_ready);
    dut.mem_rsp_id_i(mem_rsp_id);
    dut.mem_rsp_rdata_i(mem_rsp_rdata);
    dut.mem_rsp_err_i(mem_rsp_err);
    dut.status_o(status);
    dut.cp_state_o(cp_state);
    dut.cp_queue_o(cp_queue);
    dut.sm_busy_o(sm_busy);
    dut.warp_state_o(warp_state);
    dut.mem_outstanding_o(mem_outstanding);

    mem.clk(clk);
    mem.rst_n(rst_n);
    mem.req_valid(mem_req_valid);
    mem.req_ready(mem_req_ready);
    mem.req_id(mem_req_id);
    mem.req_addr(mem_req_addr);
    mem.req_op(mem_req_op);
    mem.req_amo(mem_req_amo);
    mem.req_wdata(mem_req_wdata);
    mem.req_wstrb(mem_req_wstrb);
    mem.rsp_valid(mem_rsp_valid);
    mem.rsp_ready(mem_rsp_ready);
    mem.rsp_id(mem_rsp_id);
    mem.rsp_rdata(mem_rsp_rdata);
    mem.rsp_err(mem_rsp_err);

    host.clk(clk);
    host.rst_n(rst_n);
    host.sched_gto(sched_gto);
    host.req_valid(mmio_req_valid);
    host.req_ready(mmio_req_ready);
    host.req_addr(mmio_req_addr);
    host.req_write(mmio_req_write);
    host.req_wdata(mmio_req_wdata);
    host.rsp_valid(mmio_rsp_valid);
    host.rsp_rdata(mmio_rsp_rdata);
    host.irq(irq);
    host.cp_state(cp_state);

    mem.configure(opt.mem);
    host.set_gto(opt.gto);
    if (!opt.trace.path.empty()) {
      // Registered with the kernel now; the model is attached after elaboration.
      trace = std::make_unique<FstTrace>([this] { return host.cycle(); }, opt.trace.start_cycle,
                                         opt.trace.end_cycle);
    }
  }
};

// ---------------------------------------------------------------------------
namespace {
Testbench* g_tb = nullptr;

void close_trace_at_exit() {
  if (g_tb) g_tb->close_trace();
}
}  // namespace

Testbench& Testbench::get(const TbOptions& opt) {
  if (!g_tb) {
    g_tb = new Testbench(opt);
    std::atexit(close_trace_at_exit);
  }
  return *g_tb;
}

bool Testbench::exists() {
  return g_tb != nullptr;
}

Testbench::Testbench(const TbOptions& opt) {
  if (std::getenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE") == nullptr)
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  Verilated::traceEverOn(!opt.trace.path.empty());
  m_ = new TbModule("tb", opt);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration done: a trace may be opened
  if (m_->trace) {
    m_->dut.trace(m_->trace.get(), 99);
    m_->trace->open(opt.trace.path.c_str());
    if (!m_->trace->isOpen()) throw std::runtime_error("cannot open trace file " + opt.trace.path);
  }
  power_on(opt.mem, opt.gto, true);
}

uint64_t Testbench::period_ps() const {
  return uint64_t(m_->clk.period().value());
}

uint64_t Testbench::cycle() const {
  return m_->host.cycle();
}

void Testbench::slice(uint64_t max_cycles) {
  ++slices_;
  m_->host.stop_at(cycle() + max_cycles);
  // One more period than needed: the host port pauses exactly at the limit.
  sc_core::sc_start(sc_core::sc_time::from_value(period_ps() * (max_cycles + 1)));
  m_->host.stop_at(~0ull);
}

void Testbench::run_cycles(uint64_t n) {
  const uint64_t end = cycle() + n;
  while (cycle() < end) slice(end - cycle());
}

bool Testbench::run_until_irq(uint64_t n) {
  if (irq()) return true;
  const uint64_t end = cycle() + n;
  m_->host.pause_on_irq(true);
  while (cycle() < end && !irq()) slice(end - cycle());
  m_->host.pause_on_irq(false);
  return irq();
}

bool Testbench::run_until_cp_state(uint32_t state, uint64_t n) {
  if (cp_state() == state) return true;
  const uint64_t end = cycle() + n;
  m_->host.pause_on_cp_state(state);
  while (cycle() < end && !m_->host.cp_state_seen()) slice(end - cycle());
  const bool seen = m_->host.cp_state_seen();
  m_->host.pause_on_cp_state(~0u);
  return seen;
}

bool Testbench::irq() const {
  return m_->irq.read();
}

void Testbench::power_on(const sim::MemModelConfig& mem, bool gto, bool clear_memory) {
  if (clear_memory) std::memset(m_->memory.data(), 0, m_->memory.size());
  m_->mem.configure(mem);
  m_->host.set_gto(gto);
  pin_reset(4);
}

void Testbench::pin_reset(uint32_t cycles) {
  m_->host.hold_reset(cycles ? cycles : 1);
  for (int guard = 0; m_->host.in_reset(); ++guard) {
    if (guard > 100) throw std::runtime_error("the reset pin was not released after " +
                                              std::to_string(cycles) + " cycles");
    slice(cycles + 2);
  }
  run_cycles(2);
}

uint32_t Testbench::mmio_read(uint32_t offset) {
  ++mmio_accesses_;
  m_->host.start_access(offset, false, 0);
  for (int guard = 0; !m_->host.access_done(); ++guard) {
    if (guard > 100) throw std::runtime_error("MMIO read got no response");
    slice(64);
  }
  return m_->host.access_result();
}

void Testbench::mmio_write(uint32_t offset, uint32_t value) {
  ++mmio_accesses_;
  m_->host.start_access(offset, true, value);
  for (int guard = 0; !m_->host.access_done(); ++guard) {
    if (guard > 100) throw std::runtime_error("MMIO write got no response");
    slice(64);
  }
  m_->host.access_result();
}

std::vector<uint8_t>& Testbench::memory() {
  return m_->memory;
}

const std::vector<std::pair<uint32_t, uint32_t>>& Testbench::cp_writes() const {
  return m_->mem.cp_writes();
}

void Testbench::clear_cp_writes() {
  m_->mem.clear_cp_writes();
}

iss::PoisonMap& Testbench::memory_poison() {
  return m_->mem.poison();
}

void Testbench::freeze_memory(uint64_t cycles) {
  m_->mem.freeze(cycles);
}

const sim::MemCounters& Testbench::mem_counters() const {
  return m_->mem.counters();
}

uint32_t Testbench::status() const {
  return m_->status.read();
}

uint32_t Testbench::cp_state() const {
  return m_->cp_state.read();
}

void Testbench::warp_states(std::vector<uint8_t>* out) const {
  const auto v = m_->warp_state.read();
  out->resize(TopParams::kNumWarps);
  for (uint32_t w = 0; w < TopParams::kNumWarps; ++w) {
    uint8_t s = 0;
    for (int b = 0; b < 3; ++b) s |= uint8_t(bit_of(v, int(w * 3) + b)) << b;
    (*out)[w] = s;
  }
}

// The SM's counters are flops inside baresm_sm_status (public in sim.vlt),
// read without disturbing the simulation; the command processor reads the
// same counters through the SM's report port, saturated to 32 bits (the
// counters' bit 32 says "stopped"; a test never reaches it).
SmCounters Testbench::sm_counters() const {
  const Vbaresm_top___024root& r = *m_->dut.rootp;
  SmCounters c;
  c.cycles = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__cyc_q;
  c.instrs = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__instr_q;
  c.stalls = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__stall_q;
  c.smem_passes = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__smem_q;
  c.gmem_reqs = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__gmem_q;
  for (size_t k = 0; k < c.state_cycles.size(); ++k)
    c.state_cycles[k] = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__scnt_q[k];
  c.divergent_branches = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__div_q;
  c.barrier_releases = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__bars_q;
  c.thread_instrs = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__tinstr_q;
  c.ctas = r.baresm_top__DOT__g_wide__DOT__u_sm__DOT__u_status__DOT__ctas_q;
  return c;
}

uint32_t Testbench::mem_outstanding() const {
  return uint32_t(m_->mem_outstanding.read());
}

void Testbench::set_lockstep(bool on) {
  m_->lockstep.enable(on);
}

const std::vector<LockstepLaunch>& Testbench::lockstep_launches() const {
  return m_->lockstep.launches();
}

void Testbench::clear_lockstep() {
  m_->lockstep.clear();
}

void Testbench::start_timeline() {
  m_->timeline.start();
}

bool Testbench::timeline_recording() const {
  return m_->timeline.recording();
}

std::string Testbench::write_timeline(const std::string& path) {
  return m_->timeline.finish(path);
}

bool Testbench::tracing() const {
  return m_->trace && m_->trace->isOpen();
}

void Testbench::close_trace() {
  if (m_->trace && m_->trace->isOpen()) m_->trace->close();
}

}  // namespace baresm::cosim
