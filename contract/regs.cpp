#include "contract/regs.h"

namespace baresm::regs {

const char* access_name(Access a) {
  switch (a) {
    case Access::RO:
      return "RO";
    case Access::RW:
      return "RW";
    case Access::W1C:
      return "W1C";
    case Access::WO:
      return "WO";
  }
  return "?";
}

namespace {
constexpr Access RO = Access::RO, RW = Access::RW, W1C = Access::W1C, WO = Access::WO;

const RegInfo kRegs[] = {
#define BSM_CONST(name, value, desc)
#define BSM_REG(name, off, acc, reset, desc) {#name, off, false, acc, reset, desc},
#define BSM_QREG(name, off, acc, reset, desc) {#name, off, true, acc, reset, desc},
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};

const FieldInfo kFields[] = {
#define BSM_CONST(name, value, desc)
#define BSM_REG(name, off, acc, reset, desc)
#define BSM_QREG(name, off, acc, reset, desc)
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc) {#reg, #name, msb, lsb, acc, reset, desc},
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};

const ConstInfo kConsts[] = {
#define BSM_CONST(name, value, desc) {#name, value, desc},
#define BSM_REG(name, off, acc, reset, desc)
#define BSM_QREG(name, off, acc, reset, desc)
#define BSM_FIELD(reg, name, msb, lsb, acc, reset, desc)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};
}  // namespace

const RegInfo* reg_table(int* count) {
  *count = int(sizeof kRegs / sizeof kRegs[0]);
  return kRegs;
}
const FieldInfo* field_table(int* count) {
  *count = int(sizeof kFields / sizeof kFields[0]);
  return kFields;
}
const ConstInfo* const_table(int* count) {
  *count = int(sizeof kConsts / sizeof kConsts[0]);
  return kConsts;
}

}  // namespace baresm::regs
