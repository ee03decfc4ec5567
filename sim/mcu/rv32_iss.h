// A reference RV32I instruction-set simulator for the control core
// (rtl/mcu/baresm_mcu_core.sv, docs/mcu.md): the whole RV32I base, FENCE a
// no-op, no CSRs. It stops where the core stops (rv32::Cause, numbered as
// baresm_mcu_cause_e in rtl/prim/baresm_mcu_types.svh); the stopping
// instruction does not retire. Memory is a vector of 32-bit words whose
// index wraps (word address modulo its size, a power of two).
#pragma once

#include <cstdint>
#include <vector>

namespace baresm::rv32 {

enum class Cause : uint8_t {
  kRunning = 0,
  kEcall = 1,
  kEbreak = 2,
  kIllegal = 3,
  kFetchMisaligned = 4,  // a jump or taken branch to an address not 4-aligned
  kLoadMisaligned = 5,
  kStoreMisaligned = 6,
};

const char* cause_name(Cause c);

// One retired instruction, as the core's trace reports it.
struct Retire {
  uint32_t pc = 0;
  uint32_t insn = 0;
  bool rd_we = false;  // wrote rd (rd != 0)
  uint32_t rd = 0;
  uint32_t rd_val = 0;
  bool st_we = false;    // a store: the bytes of st_strb at word st_addr
  uint32_t st_addr = 0;  // word address
  uint32_t st_data = 0;  // the stored bytes in their lanes, 0 elsewhere
  uint32_t st_strb = 0;
};

class Iss {
 public:
  // mem: the memory's words (its size a power of two), shared with the caller.
  Iss(std::vector<uint32_t>* mem, uint32_t reset_pc);

  // Executes one instruction. Returns true when it retired (*r describes it),
  // false when the core is (now) halted: cause() says why, pc() is the
  // stopping instruction's.
  bool step(Retire* r);

  uint32_t pc() const { return pc_; }
  uint32_t reg(unsigned i) const { return x_[i & 31]; }
  // Registers are undefined after reset: a test sets them to what its core
  // holds (x0 stays 0).
  void set_reg(unsigned i, uint32_t v) {
    if ((i & 31) != 0) x_[i & 31] = v;
  }
  Cause cause() const { return cause_; }
  bool halted() const { return cause_ != Cause::kRunning; }
  uint32_t insn() const { return insn_; }  // the last instruction fetched

 private:
  uint32_t load_word(uint32_t byte_addr) const;
  bool halt(Cause c) {
    cause_ = c;
    return false;
  }

  std::vector<uint32_t>* mem_;
  uint32_t mask_;  // word-index mask
  uint32_t pc_;
  uint32_t insn_ = 0;
  uint32_t x_[32] = {};
  Cause cause_ = Cause::kRunning;
};

// Encoders for programs written in C++ (tests, the random generator).
namespace enc {
uint32_t r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc);
uint32_t i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc);
uint32_t s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc = 0x23);
uint32_t b(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc = 0x63);
uint32_t u(uint32_t imm20, uint32_t rd, uint32_t opc);
uint32_t j(int32_t imm, uint32_t rd, uint32_t opc = 0x6f);
}  // namespace enc

}  // namespace baresm::rv32
