#include "sim/mcu/rv32_iss.h"

namespace baresm::rv32 {

const char* cause_name(Cause c) {
  switch (c) {
    case Cause::kRunning:
      return "running";
    case Cause::kEcall:
      return "ecall";
    case Cause::kEbreak:
      return "ebreak";
    case Cause::kIllegal:
      return "illegal";
    case Cause::kFetchMisaligned:
      return "fetch-misaligned";
    case Cause::kLoadMisaligned:
      return "load-misaligned";
    case Cause::kStoreMisaligned:
      return "store-misaligned";
  }
  return "?";
}

namespace {
int32_t sext(uint32_t v, unsigned bits) {
  uint32_t m = 1u << (bits - 1);
  return static_cast<int32_t>((v ^ m) - m);
}
uint32_t bits(uint32_t v, unsigned hi, unsigned lo) {
  return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}
}  // namespace

Iss::Iss(std::vector<uint32_t>* mem, uint32_t reset_pc)
    : mem_(mem), mask_(static_cast<uint32_t>(mem->size()) - 1), pc_(reset_pc) {}

uint32_t Iss::load_word(uint32_t byte_addr) const {
  return (*mem_)[(byte_addr >> 2) & mask_];
}

bool Iss::step(Retire* r) {
  if (halted()) return false;
  *r = Retire{};
  const uint32_t in = load_word(pc_);
  insn_ = in;
  r->pc = pc_;
  r->insn = in;
  const uint32_t opc = in & 0x7f, rd = bits(in, 11, 7), f3 = bits(in, 14, 12);
  const uint32_t rs1 = bits(in, 19, 15), rs2 = bits(in, 24, 20), f7 = bits(in, 31, 25);
  const uint32_t a = x_[rs1], b = x_[rs2];
  const int32_t imm_i = sext(bits(in, 31, 20), 12);
  const int32_t imm_s = sext((bits(in, 31, 25) << 5) | bits(in, 11, 7), 12);
  const int32_t imm_b = sext(
      (bits(in, 31, 31) << 12) | (bits(in, 7, 7) << 11) | (bits(in, 30, 25) << 5) | (bits(in, 11, 8) << 1),
      13);
  const uint32_t imm_u = in & 0xfffff000u;
  const int32_t imm_j = sext((bits(in, 31, 31) << 20) | (bits(in, 19, 12) << 12) | (bits(in, 20, 20) << 11) |
                                 (bits(in, 30, 21) << 1),
                             21);
  uint32_t next = pc_ + 4;
  bool wr = false;
  uint32_t val = 0;

  auto alu = [&](uint32_t op_b, bool is_op) -> bool {  // false: illegal
    const bool alt = f7 == 0x20;
    if (is_op ? !(f7 == 0 || (alt && (f3 == 0 || f3 == 5)))
              : (f3 == 1 && f7 != 0) || (f3 == 5 && f7 != 0 && !alt))
      return false;
    const uint32_t sh = op_b & 31;
    switch (f3) {
      case 0:
        val = (is_op && alt) ? a - op_b : a + op_b;
        break;
      case 1:
        val = a << sh;
        break;
      case 2:
        val = static_cast<int32_t>(a) < static_cast<int32_t>(op_b);
        break;
      case 3:
        val = a < op_b;
        break;
      case 4:
        val = a ^ op_b;
        break;
      case 5:
        val = alt ? static_cast<uint32_t>(static_cast<int32_t>(a) >> sh) : a >> sh;
        break;
      case 6:
        val = a | op_b;
        break;
      default:
        val = a & op_b;
        break;
    }
    wr = true;
    return true;
  };

  if ((in & 3) != 3) return halt(Cause::kIllegal);
  switch (opc) {
    case 0x37:
      wr = true, val = imm_u;
      break;  // LUI
    case 0x17:
      wr = true, val = pc_ + imm_u;
      break;      // AUIPC
    case 0x6f:    // JAL
    case 0x67: {  // JALR
      if (opc == 0x67 && f3 != 0) return halt(Cause::kIllegal);
      const uint32_t t = opc == 0x6f ? pc_ + imm_j : (a + imm_i) & ~1u;
      if (t & 3) return halt(Cause::kFetchMisaligned);
      wr = true, val = pc_ + 4, next = t;
      break;
    }
    case 0x63: {  // branches
      bool c;
      switch (f3) {
        case 0:
          c = a == b;
          break;
        case 1:
          c = a != b;
          break;
        case 4:
          c = static_cast<int32_t>(a) < static_cast<int32_t>(b);
          break;
        case 5:
          c = static_cast<int32_t>(a) >= static_cast<int32_t>(b);
          break;
        case 6:
          c = a < b;
          break;
        case 7:
          c = a >= b;
          break;
        default:
          return halt(Cause::kIllegal);
      }
      if (c) {
        const uint32_t t = pc_ + imm_b;
        if (t & 3) return halt(Cause::kFetchMisaligned);
        next = t;
      }
      break;
    }
    case 0x03: {  // loads
      if (f3 == 3 || f3 == 6 || f3 == 7) return halt(Cause::kIllegal);
      const uint32_t ad = a + imm_i, size = 1u << (f3 & 3);
      if (ad & (size - 1)) return halt(Cause::kLoadMisaligned);
      const uint32_t w = load_word(ad) >> (8 * (ad & 3));
      if (size == 4)
        val = w;
      else if (size == 2)
        val = (f3 & 4) ? (w & 0xffff) : static_cast<uint32_t>(sext(w & 0xffff, 16));
      else
        val = (f3 & 4) ? (w & 0xff) : static_cast<uint32_t>(sext(w & 0xff, 8));
      wr = true;
      break;
    }
    case 0x23: {  // stores
      if (f3 > 2) return halt(Cause::kIllegal);
      const uint32_t ad = a + imm_s, size = 1u << f3;
      if (ad & (size - 1)) return halt(Cause::kStoreMisaligned);
      const uint32_t sh = 8 * (ad & 3);
      const uint32_t bytes = size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1;
      const uint32_t m = bytes << sh;
      uint32_t& word = (*mem_)[(ad >> 2) & mask_];
      word = (word & ~m) | ((b << sh) & m);
      r->st_we = true;
      r->st_addr = ad >> 2;
      r->st_data = (b << sh) & m;
      r->st_strb = ((1u << size) - 1) << (ad & 3);
      break;
    }
    case 0x13:
      if (!alu(static_cast<uint32_t>(imm_i), false)) return halt(Cause::kIllegal);
      break;
    case 0x33:
      if (!alu(b, true)) return halt(Cause::kIllegal);
      break;
    case 0x0f:
      if (f3 != 0) return halt(Cause::kIllegal);
      break;  // FENCE: a no-op
    case 0x73:
      if (in == 0x00000073) return halt(Cause::kEcall);
      if (in == 0x00100073) return halt(Cause::kEbreak);
      return halt(Cause::kIllegal);
    default:
      return halt(Cause::kIllegal);
  }
  if (wr && rd != 0) {
    x_[rd] = val;
    r->rd_we = true;
    r->rd = rd;
    r->rd_val = val;
  }
  pc_ = next;
  return true;
}

namespace enc {
uint32_t r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return (f7 << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | ((f3 & 7) << 12) | ((rd & 31) << 7) | opc;
}
uint32_t i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return ((static_cast<uint32_t>(imm) & 0xfff) << 20) | ((rs1 & 31) << 15) | ((f3 & 7) << 12) |
         ((rd & 31) << 7) | opc;
}
uint32_t s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (bits(v, 11, 5) << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | ((f3 & 7) << 12) |
         (bits(v, 4, 0) << 7) | opc;
}
uint32_t b(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (bits(v, 12, 12) << 31) | (bits(v, 10, 5) << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) |
         ((f3 & 7) << 12) | (bits(v, 4, 1) << 8) | (bits(v, 11, 11) << 7) | opc;
}
uint32_t u(uint32_t imm20, uint32_t rd, uint32_t opc) {
  return (imm20 << 12) | ((rd & 31) << 7) | opc;
}
uint32_t j(int32_t imm, uint32_t rd, uint32_t opc) {
  const uint32_t v = static_cast<uint32_t>(imm);
  return (bits(v, 20, 20) << 31) | (bits(v, 10, 1) << 21) | (bits(v, 11, 11) << 20) |
         (bits(v, 19, 12) << 12) | ((rd & 31) << 7) | opc;
}
}  // namespace enc

}  // namespace baresm::rv32
