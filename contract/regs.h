// C++ view of the register map (contract/regmap.def): offsets, fields,
// reset values, and a table for tools (gen_regs) and tests. docs/registers.md
// is generated from the same table.
#pragma once

#include <cstdint>

namespace baresm::regs {

enum class Access : uint8_t { RO, RW, W1C, WO };
const char* access_name(Access a);  // "RO", "RW", "W1C", "WO"

// Reset value of a register/field that is a hardware parameter (CONFIG*).
constexpr uint64_t HWPARAM = ~0ull;

#define BSM_CONST(name, value, desc) constexpr uint32_t name = value;
#define BSM_REG(name, off, acc, reset, desc)
#define BSM_QREG(name, off, acc, reset, desc)
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD

// Global register offsets: regs::CONTROL, regs::STATUS, ...
enum GlobalReg : uint32_t {
#define BSM_CONST(name, value, desc)
#define BSM_REG(name, off, acc, reset, desc) name = off,
#define BSM_QREG(name, off, acc, reset, desc)
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};

// Queue-pair register offsets inside a block: regs::QpReg::SQ_BASE, ...
enum class QpReg : uint32_t {
#define BSM_CONST(name, value, desc)
#define BSM_REG(name, off, acc, reset, desc)
#define BSM_QREG(name, off, acc, reset, desc) name = off,
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};

constexpr uint32_t qp(uint32_t q, QpReg r) {
  return QP_BASE + q * QP_STRIDE + uint32_t(r);
}

struct Field {
  uint8_t msb, lsb;
  constexpr uint32_t width() const { return uint32_t(msb) - lsb + 1; }
  constexpr uint32_t mask() const { return width() >= 32 ? 0xFFFFFFFFu : ((1u << width()) - 1) << lsb; }
  constexpr uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }
  constexpr uint32_t put(uint32_t value) const { return (value << lsb) & mask(); }
};

// Fields: regs::f::CONTROL_ENABLE, regs::f::CONFIG0_NUM_WARPS, ...
namespace f {
#define BSM_CONST(name, value, desc)
#define BSM_REG(name, off, acc, reset, desc)
#define BSM_QREG(name, off, acc, reset, desc)
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc) constexpr Field reg##_##name{msb, lsb};
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
}  // namespace f

// ---- the table, for generators, docs and tests --------------------------------
struct FieldInfo {
  const char* reg;
  const char* name;
  uint8_t msb, lsb;
  Access access;
  uint64_t reset;  // HWPARAM for hardware parameters
  const char* desc;
};
struct RegInfo {
  const char* name;
  uint32_t offset;  // for queue-pair registers: the offset inside the block
  bool per_queue;
  Access access;
  uint64_t reset;
  const char* desc;
};
struct ConstInfo {
  const char* name;
  uint32_t value;
  const char* desc;
};

const RegInfo* reg_table(int* count);
const FieldInfo* field_table(int* count);
const ConstInfo* const_table(int* count);

}  // namespace baresm::regs
