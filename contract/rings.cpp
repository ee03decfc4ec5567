#include "contract/rings.h"

namespace baresm::cq {

const char* error_code_name(ErrorCode e) {
  switch (e) {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name)
#define RING_ENUM_ERR(name) \
  case ErrorCode::name:     \
    return #name;
#define RING_ENUM_CPL_STATUS(name)
#define RING_ENUM_DCHK(name)
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
  }
  return "ERR_UNKNOWN";
}

const char* error_code_message(ErrorCode e) {
  switch (e) {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name, desc)
#define RING_ENUM_ERR(name, desc) \
  case ErrorCode::name:           \
    return desc;
#define RING_ENUM_CPL_STATUS(name, desc)
#define RING_ENUM_DCHK(name, desc)
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
  }
  return "unknown error code";
}

const char* cpl_status_name(CplStatus s) {
  switch (s) {
    case CplStatus::PENDING:
      return "PENDING";
    case CplStatus::COMPLETED:
      return "COMPLETED";
    case CplStatus::FAILED:
      return "FAILED";
  }
  return "STATUS_UNKNOWN";
}

const char* desc_check_name(DescCheck c) {
  switch (c) {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name)
#define RING_ENUM_ERR(name)
#define RING_ENUM_CPL_STATUS(name)
#define RING_ENUM_DCHK(name) \
  case DescCheck::name:      \
    return #name;
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
  }
  return "DCHK_UNKNOWN";
}

}  // namespace baresm::cq
