// baresm instruction set: opcode table access, instruction fields, 64-bit
// encoding, and the modifier (dot-suffix) vocabulary shared by the assembler,
// the disassembler and the functional model. docs/isa.md is the reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace baresm::isa {

constexpr int kWarpSize = 32;
constexpr int kNumRegFields = 64;   // 6-bit register fields
constexpr int kRegZero = 63;        // RZ: reads 0, writes are dropped
constexpr int kMaxRegsPerThread = 63;
constexpr int kNumPreds = 8;        // P0..P6 and PT
constexpr int kPredTrue = 7;        // PT: always true, writes dropped
constexpr int kInstrBytes = 8;
constexpr uint32_t kArchId = 0x42534D31;  // "BSM1"

enum Format : uint8_t {
  FMT_NONE,  // OP;
  FMT_RB,    // OP rd, b;
  FMT_RA,    // OP rd, ra;
  FMT_RAB,   // OP rd, ra, b;
  FMT_RABC,  // OP rd, ra, rb, rc;
  FMT_SETP,  // OP.cmp.comb pd, ra, b, [!]pc;
  FMT_SEL,   // OP rd, ra, b, [!]pc;
  FMT_S2R,   // OP rd, SR_NAME;
  FMT_LD,    // OP.w rd, [ra + imm];
  FMT_ST,    // OP.w [ra + imm], rs;       (rs lives in the rd field)
  FMT_ATOM,  // OP.op rd, [ra + imm20], rb [, rc];
  FMT_VOTE,  // VOTE.ANY/ALL pd, [!]pa;  VOTE.BALLOT rd, [!]pa;
  FMT_SHFL,  // SHFL.mode rd, ra, b [, width];
  FMT_BRA,   // BRA label;
  FMT_BAR,   // BAR.SYNC id [, count];
};

enum Unit : uint8_t { UNIT_ALU, UNIT_FPU, UNIT_LSU, UNIT_BRU };

enum ModKind : uint8_t {
  MK_NONE, MK_SIGN, MK_CMPI, MK_CMPF, MK_LDW, MK_STW, MK_ATOM, MK_VOTE, MK_SHFL, MK_BAR,
};

enum OpFlags : uint32_t {
  F_WRD = 1u << 0,
  F_WPD = 1u << 1,
  F_RA = 1u << 2,
  F_RB = 1u << 3,
  F_RC = 1u << 4,
  F_RRD = 1u << 5,
  F_BIMM_OK = 1u << 6,
  F_BIMM_ALWAYS = 1u << 7,
  F_MEM = 1u << 8,
  F_CTRL = 1u << 9,
};

enum class Op : uint8_t {
#define OPCODE(name, code, mn, fmt, unit, mk, flags) name = code,
#include "contract/opcodes.def"
#undef OPCODE
};

struct OpInfo {
  Op op;
  uint8_t code;
  const char* mnemonic;
  Format format;
  Unit unit;
  ModKind mod_kind;
  uint32_t flags;
};

// All opcodes in table order.
const std::vector<OpInfo>& all_ops();
// nullptr when the 7-bit code is not an opcode (an illegal instruction).
const OpInfo* op_info(uint8_t code);
const OpInfo& op_info(Op op);
const OpInfo* op_by_mnemonic(std::string_view base);

// ---- modifier vocabularies (values stored in the mod field) ----------------
enum CmpI : uint8_t { CMP_EQ = 0, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };
constexpr uint8_t kCmpUnsigned = 8;  // ISETP: add to CmpI for .U32
// FSETP: 0..5 ordered (false when either is NaN), 6 NUM, 7 NAN, 8..13 unordered.
constexpr uint8_t kCmpFNum = 6, kCmpFNan = 7, kCmpFUnordered = 8;
enum Comb : uint8_t { COMB_AND = 0, COMB_OR = 1, COMB_XOR = 2 };
enum LdWidth : uint8_t { LDW_U8 = 0, LDW_S8 = 1, LDW_U16 = 2, LDW_S16 = 3, LDW_32 = 4 };
enum AtomOp : uint8_t {
  ATOM_ADD = 0, ATOM_MIN, ATOM_MAX, ATOM_EXCH, ATOM_CAS, ATOM_AND, ATOM_OR, ATOM_XOR,
};
constexpr uint8_t kAtomUnsigned = 0x10;  // MIN/MAX .U32
enum VoteMode : uint8_t { VOTE_ANY = 0, VOTE_ALL = 1, VOTE_BALLOT = 2 };
enum ShflMode : uint8_t { SHFL_IDX = 0, SHFL_UP = 1, SHFL_DOWN = 2, SHFL_BFLY = 3 };

enum SReg : uint8_t {
  SR_TID_X = 0, SR_TID_Y, SR_TID_Z,
  SR_NTID_X, SR_NTID_Y, SR_NTID_Z,
  SR_CTAID_X, SR_CTAID_Y, SR_CTAID_Z,
  SR_NCTAID_X, SR_NCTAID_Y, SR_NCTAID_Z,
  SR_LANEID, SR_WARPID, SR_SMID, SR_CLOCK, SR_CLOCKHI,
  SR_COUNT
};
const char* sreg_name(uint8_t id);                 // "SR_TID.X"; nullptr if invalid
std::optional<uint8_t> sreg_by_name(std::string_view name);

// ---- one decoded instruction ---------------------------------------------------
// Field layout (docs/isa.md):
//   [6:0] op  [7] bimm  [10:8] pg  [11] pg_neg  [17:12] rd  [23:18] ra  [31:24] mod
//   bimm=1: [63:32] imm32
//   bimm=0: [37:32] rb  [43:38] rc  [63:44] imm20 (signed)
struct Instr {
  Op op = Op::NOP;
  bool bimm = false;
  uint8_t pg = kPredTrue;
  bool pg_neg = false;
  uint8_t rd = kRegZero, ra = kRegZero, rb = kRegZero, rc = kRegZero;
  uint8_t mod = 0;
  uint32_t imm = 0;  // imm32 when bimm, else imm20 sign-extended to 32 bits

  // Convenience accessors for modifier-carrying fields.
  uint8_t setp_pd() const { return rd & 7; }
  uint8_t setp_pc() const { return (rd >> 3) & 7; }
  bool setp_pc_neg() const { return (mod >> 6) & 1; }
  uint8_t setp_cmp() const { return mod & 0xF; }
  uint8_t setp_comb() const { return (mod >> 4) & 3; }
  uint8_t sel_pc() const { return mod & 7; }
  bool sel_pc_neg() const { return (mod >> 3) & 1; }
  uint8_t vote_pa() const { return ra & 7; }
  bool vote_pa_neg() const { return (ra >> 3) & 1; }
  uint8_t shfl_mode() const { return mod & 3; }
  uint32_t shfl_width() const { return 1u << ((mod >> 2) & 7); }
  uint8_t bar_id() const { return imm & 0xF; }
  uint32_t bar_count() const { return imm >> 16; }
  int32_t bra_target_delta() const { return int16_t(imm & 0xFFFF); }  // instructions
  int32_t bra_reconv_delta() const { return int16_t(imm >> 16); }     // 0: none
};

uint64_t encode(const Instr& in);
// Returns nullopt for an opcode that is not in the table.
std::optional<Instr> decode(uint64_t word);

// Mnemonic with suffixes, e.g. "ISETP.LT.U32.AND", "LDG.U8", "SHFL.DOWN".
std::string mnemonic_text(const Instr& in);
// Parses the dot-suffixes after the base mnemonic into in->mod (in->op must be
// set). Returns an error message, or empty on success.
std::string parse_suffixes(const std::vector<std::string>& suffixes, Instr* in);

inline bool fits_imm20(int64_t v) { return v >= -(1 << 19) && v < (1 << 19); }

}  // namespace baresm::isa
