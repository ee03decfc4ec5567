// An FST trace of the verilated device registered with the SystemC kernel
// (like Verilator's VerilatedFstSc, which is final and always dumps), that
// dumps only the clock cycles inside a window: a long run can be traced
// around the interesting part without writing gigabytes.
#pragma once

#include <systemc.h>

#include <cstdint>
#include <functional>

#include "verilated_fst_c.h"

namespace baresm::cosim {

class FstTrace final : public sc_core::sc_trace_file, public VerilatedFstC {
 public:
  // cycle() tells the current clock cycle; [start, end] is the window.
  FstTrace(std::function<uint64_t()> cycle, uint64_t start, uint64_t end);
  ~FstTrace() override { close(); }
  FstTrace(const FstTrace&) = delete;
  FstTrace& operator=(const FstTrace&) = delete;

  uint64_t dumps() const { return dumps_; }

  // Called by the SystemC kernel at the end of each time step.
  void cycle(bool delta_cycle) override;

 private:
  std::function<uint64_t()> cycle_;
  uint64_t start_, end_;
  uint64_t dumps_ = 0;

  // The sc_trace_file interface is for SystemC's own traces; this one traces
  // the verilated model only.
  void set_time_unit(double, sc_core::sc_time_unit) override {}
  void write_comment(const std::string&) override {}
  void trace(const unsigned int&, const std::string&, const char**) override {}
#define BARESM_NO_TRACE_A(tp) \
  void trace(const tp&, const std::string&) override {}
#define BARESM_NO_TRACE_B(tp) \
  void trace(const tp&, const std::string&, int) override {}
  BARESM_NO_TRACE_A(sc_core::sc_event)
  BARESM_NO_TRACE_A(sc_core::sc_time)
  BARESM_NO_TRACE_A(bool)
  BARESM_NO_TRACE_A(sc_dt::sc_bit)
  BARESM_NO_TRACE_A(sc_dt::sc_logic)
  BARESM_NO_TRACE_B(unsigned char)
  BARESM_NO_TRACE_B(unsigned short)
  BARESM_NO_TRACE_B(unsigned int)
  BARESM_NO_TRACE_B(unsigned long)
  BARESM_NO_TRACE_B(char)
  BARESM_NO_TRACE_B(short)
  BARESM_NO_TRACE_B(int)
  BARESM_NO_TRACE_B(long)
  BARESM_NO_TRACE_B(sc_dt::int64)
  BARESM_NO_TRACE_B(sc_dt::uint64)
  BARESM_NO_TRACE_A(float)
  BARESM_NO_TRACE_A(double)
  BARESM_NO_TRACE_A(sc_dt::sc_int_base)
  BARESM_NO_TRACE_A(sc_dt::sc_uint_base)
  BARESM_NO_TRACE_A(sc_dt::sc_signed)
  BARESM_NO_TRACE_A(sc_dt::sc_unsigned)
  BARESM_NO_TRACE_A(sc_dt::sc_fxval)
  BARESM_NO_TRACE_A(sc_dt::sc_fxval_fast)
  BARESM_NO_TRACE_A(sc_dt::sc_fxnum)
  BARESM_NO_TRACE_A(sc_dt::sc_fxnum_fast)
  BARESM_NO_TRACE_A(sc_dt::sc_bv_base)
  BARESM_NO_TRACE_A(sc_dt::sc_lv_base)
#undef BARESM_NO_TRACE_A
#undef BARESM_NO_TRACE_B
};

}  // namespace baresm::cosim
