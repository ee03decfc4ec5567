#include "isa/isa.h"

#include <array>
#include <cstring>

namespace baresm::isa {

namespace {

const std::vector<OpInfo> kOps = {
#define OPCODE(name, code, mn, fmt, unit, mk, flags) {Op::name, code, mn, fmt, unit, mk, flags},
#include "contract/opcodes.def"
#undef OPCODE
};

struct OpLookup {
  std::array<const OpInfo*, 128> by_code{};
  OpLookup() {
    for (const auto& o : kOps) by_code[o.code] = &o;
  }
};
const OpLookup& lookup() {
  static const OpLookup l;
  return l;
}

const char* const kSRegNames[SR_COUNT] = {
    "SR_TID.X",    "SR_TID.Y",    "SR_TID.Z",    "SR_NTID.X",   "SR_NTID.Y",  "SR_NTID.Z",
    "SR_CTAID.X",  "SR_CTAID.Y",  "SR_CTAID.Z",  "SR_NCTAID.X", "SR_NCTAID.Y", "SR_NCTAID.Z",
    "SR_LANEID",   "SR_WARPID",   "SR_SMID",     "SR_CLOCK",    "SR_CLOCKHI",
};

const char* const kCmpNames[14] = {"EQ", "NE",  "LT",  "LE",  "GT",  "GE",  "NUM",
                                   "NAN", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU"};
const char* const kCombNames[3] = {"AND", "OR", "XOR"};
const char* const kLdwNames[5] = {"U8", "S8", "U16", "S16", "32"};
const char* const kAtomNames[8] = {"ADD", "MIN", "MAX", "EXCH", "CAS", "AND", "OR", "XOR"};
const char* const kVoteNames[3] = {"ANY", "ALL", "BALLOT"};
const char* const kShflNames[4] = {"IDX", "UP", "DOWN", "BFLY"};

int find_name(const char* const* names, int count, const std::string& s) {
  for (int i = 0; i < count; ++i)
    if (s == names[i]) return i;
  return -1;
}
#define FIND(names, s) find_name(names, int(sizeof(names) / sizeof(names[0])), s)

// True when mod holds a value the opcode's modifier kind can produce.
bool mod_valid(ModKind mk, uint8_t mod) {
  switch (mk) {
    case MK_NONE: return mod == 0;
    case MK_SIGN: return mod <= 1;
    case MK_CMPI: {
      // cmp in [2:0] (EQ..GE), .U32 in [3], comb in [5:4], !pc in [6]
      return (mod & 0x80) == 0 && ((mod >> 4) & 3) <= 2 && (mod & 7) <= 5;
    }
    case MK_CMPF: return (mod & 0x80) == 0 && ((mod >> 4) & 3) <= 2 && (mod & 0xF) <= 13;
    case MK_LDW: return mod <= 4;
    case MK_STW: return mod == LDW_U8 || mod == LDW_U16 || mod == LDW_32;
    case MK_ATOM: {
      uint8_t op = mod & 0xF;
      if (mod & ~0x1F) return false;
      if (op > ATOM_XOR) return false;
      return !(mod & kAtomUnsigned) || op == ATOM_MIN || op == ATOM_MAX;
    }
    case MK_VOTE: return mod <= 2;
    case MK_SHFL: return (mod & ~0x1F) == 0 && ((mod >> 2) & 7) <= 5;
    case MK_BAR: return mod == 0;
  }
  return false;
}

}  // namespace

const std::vector<OpInfo>& all_ops() { return kOps; }

const OpInfo* op_info(uint8_t code) { return code < 128 ? lookup().by_code[code] : nullptr; }

const OpInfo& op_info(Op op) { return *lookup().by_code[static_cast<uint8_t>(op)]; }

const OpInfo* op_by_mnemonic(std::string_view base) {
  for (const auto& o : kOps)
    if (base == o.mnemonic) return &o;
  return nullptr;
}

const char* sreg_name(uint8_t id) { return id < SR_COUNT ? kSRegNames[id] : nullptr; }

std::optional<uint8_t> sreg_by_name(std::string_view name) {
  for (uint8_t i = 0; i < SR_COUNT; ++i)
    if (name == kSRegNames[i]) return i;
  return std::nullopt;
}

uint64_t encode(const Instr& in) {
  uint64_t w = 0;
  w |= uint64_t(static_cast<uint8_t>(in.op) & 0x7F);
  w |= uint64_t(in.bimm) << 7;
  w |= uint64_t(in.pg & 7) << 8;
  w |= uint64_t(in.pg_neg) << 11;
  w |= uint64_t(in.rd & 63) << 12;
  w |= uint64_t(in.ra & 63) << 18;
  w |= uint64_t(in.mod) << 24;
  if (in.bimm) {
    w |= uint64_t(in.imm) << 32;
  } else {
    w |= uint64_t(in.rb & 63) << 32;
    w |= uint64_t(in.rc & 63) << 38;
    w |= uint64_t(in.imm & 0xFFFFF) << 44;
  }
  return w;
}

std::optional<Instr> decode(uint64_t w) {
  const OpInfo* info = op_info(uint8_t(w & 0x7F));
  if (!info) return std::nullopt;
  Instr in;
  in.op = info->op;
  in.bimm = (w >> 7) & 1;
  in.pg = (w >> 8) & 7;
  in.pg_neg = (w >> 11) & 1;
  in.rd = (w >> 12) & 63;
  in.ra = (w >> 18) & 63;
  in.mod = uint8_t(w >> 24);
  if (in.bimm) {
    in.imm = uint32_t(w >> 32);
    in.rb = kRegZero;
    in.rc = kRegZero;
  } else {
    in.rb = (w >> 32) & 63;
    in.rc = (w >> 38) & 63;
    uint32_t imm20 = uint32_t(w >> 44) & 0xFFFFF;
    in.imm = (imm20 & 0x80000) ? (imm20 | 0xFFF00000u) : imm20;
  }
  // SEL and S2R have no dot-suffixes but keep operands in mod: pc/!pc and the
  // special-register id.
  if (info->op == Op::S2R) {
    if (in.mod >= SR_COUNT) return std::nullopt;
  } else if (info->op == Op::SEL) {
    if (in.mod > 15) return std::nullopt;
  } else if (!mod_valid(info->mod_kind, in.mod)) {
    return std::nullopt;
  }
  if (in.bimm && !(info->flags & (F_BIMM_OK | F_BIMM_ALWAYS))) return std::nullopt;
  if (!in.bimm && (info->flags & F_BIMM_ALWAYS)) return std::nullopt;
  return in;
}

std::string mnemonic_text(const Instr& in) {
  const OpInfo& info = op_info(in.op);
  std::string s = info.mnemonic;
  auto add = [&s](const char* t) {
    s += '.';
    s += t;
  };
  switch (info.mod_kind) {
    case MK_NONE: break;
    case MK_SIGN:
      if (in.mod & 1) add("U32");
      break;
    case MK_CMPI:
      add(kCmpNames[in.mod & 7]);
      if (in.mod & kCmpUnsigned) add("U32");
      add(kCombNames[(in.mod >> 4) & 3]);
      break;
    case MK_CMPF:
      add(kCmpNames[in.mod & 0xF]);
      add(kCombNames[(in.mod >> 4) & 3]);
      break;
    case MK_LDW:
      if (in.mod != LDW_32) add(kLdwNames[in.mod]);
      break;
    case MK_STW:
      if (in.mod == LDW_U8) add("8");
      if (in.mod == LDW_U16) add("16");
      break;
    case MK_ATOM:
      add(kAtomNames[in.mod & 0xF]);
      if (in.mod & kAtomUnsigned) add("U32");
      break;
    case MK_VOTE: add(kVoteNames[in.mod & 3]); break;
    case MK_SHFL: add(kShflNames[in.mod & 3]); break;
    case MK_BAR: add("SYNC"); break;
  }
  return s;
}

std::string parse_suffixes(const std::vector<std::string>& sfx, Instr* in) {
  const OpInfo& info = op_info(in->op);
  const std::string base = info.mnemonic;
  auto unknown = [&](const std::string& s) { return "unknown modifier '." + s + "' for " + base; };
  in->mod = 0;
  switch (info.mod_kind) {
    case MK_NONE:
      if (!sfx.empty()) return unknown(sfx[0]);
      return {};
    case MK_SIGN:
      for (const auto& s : sfx) {
        if (s == "U32") in->mod = 1;
        else if (s == "S32") in->mod = 0;
        else return unknown(s);
      }
      return {};
    case MK_CMPI:
    case MK_CMPF: {
      bool have_cmp = false;
      int ncmp = info.mod_kind == MK_CMPI ? 6 : 14;
      for (const auto& s : sfx) {
        int c = find_name(kCmpNames, ncmp, s);
        int k = FIND(kCombNames, s);
        if (c >= 0 && !have_cmp) {
          in->mod = uint8_t((in->mod & ~0xF) | (in->mod & kCmpUnsigned) | c);
          have_cmp = true;
        } else if (k >= 0) {
          in->mod = uint8_t((in->mod & ~0x30) | (k << 4));
        } else if (info.mod_kind == MK_CMPI && s == "U32") {
          in->mod |= kCmpUnsigned;
        } else if (info.mod_kind == MK_CMPI && s == "S32") {
        } else if (info.mod_kind == MK_CMPF && s == "F32") {
        } else {
          return unknown(s);
        }
      }
      if (!have_cmp) return base + " needs a comparison (." + std::string(kCmpNames[0]) + ", .LT, ...)";
      return {};
    }
    case MK_LDW:
      in->mod = LDW_32;
      for (const auto& s : sfx) {
        int w = FIND(kLdwNames, s);
        if (w < 0) return unknown(s);
        in->mod = uint8_t(w);
      }
      return {};
    case MK_STW:
      in->mod = LDW_32;
      for (const auto& s : sfx) {
        if (s == "8" || s == "U8" || s == "S8") in->mod = LDW_U8;
        else if (s == "16" || s == "U16" || s == "S16") in->mod = LDW_U16;
        else if (s == "32") in->mod = LDW_32;
        else return unknown(s);
      }
      return {};
    case MK_ATOM: {
      bool have = false;
      for (const auto& s : sfx) {
        int a = FIND(kAtomNames, s);
        if (a >= 0 && !have) {
          in->mod = uint8_t((in->mod & kAtomUnsigned) | a);
          have = true;
        } else if (s == "U32") {
          in->mod |= kAtomUnsigned;
        } else if (s == "S32") {
        } else {
          return unknown(s);
        }
      }
      if (!have) return base + " needs an operation (.ADD, .MIN, .MAX, .EXCH, .CAS, .AND, .OR, .XOR)";
      uint8_t op = in->mod & 0xF;
      if ((in->mod & kAtomUnsigned) && op != ATOM_MIN && op != ATOM_MAX)
        return ".U32 applies only to " + base + ".MIN and " + base + ".MAX";
      return {};
    }
    case MK_VOTE:
    case MK_SHFL: {
      bool have = false;
      for (const auto& s : sfx) {
        int m = info.mod_kind == MK_VOTE ? FIND(kVoteNames, s) : FIND(kShflNames, s);
        if (m < 0 || have) return unknown(s);
        in->mod = uint8_t(m);
        have = true;
      }
      if (!have)
        return base + (info.mod_kind == MK_VOTE ? " needs a mode (.ANY, .ALL, .BALLOT)"
                                                 : " needs a mode (.IDX, .UP, .DOWN, .BFLY)");
      if (info.mod_kind == MK_SHFL) in->mod |= 5 << 2;  // width 32 unless an operand says otherwise
      return {};
    }
    case MK_BAR:
      if (sfx.size() != 1 || sfx[0] != "SYNC") return base + " is written BAR.SYNC";
      return {};
  }
  return "internal: unknown modifier kind";
}

}  // namespace baresm::isa
