#include "host_driver/status.h"

#include "host_driver/driver.h"

namespace baresm::drv {

const char* status_name(Status s) {
  switch (s) {
#define BARESM_DRV_STATUS_NAME(name, layer, msg) \
  case Status::name:                             \
    return #name;
    BARESM_DRV_STATUS_LIST(BARESM_DRV_STATUS_NAME)
#undef BARESM_DRV_STATUS_NAME
  }
  return "UNKNOWN_STATUS";
}

const char* status_message(Status s) {
  switch (s) {
#define BARESM_DRV_STATUS_MSG(name, layer, msg) \
  case Status::name:                            \
    return msg;
    BARESM_DRV_STATUS_LIST(BARESM_DRV_STATUS_MSG)
#undef BARESM_DRV_STATUS_MSG
  }
  return "unknown status";
}

Layer status_layer(Status s) {
  switch (s) {
#define BARESM_DRV_STATUS_LAYER(name, layer, msg) \
  case Status::name:                              \
    return Layer::layer;
    BARESM_DRV_STATUS_LIST(BARESM_DRV_STATUS_LAYER)
#undef BARESM_DRV_STATUS_LAYER
  }
  return Layer::NONE;
}

const char* layer_name(Layer l) {
  switch (l) {
    case Layer::NONE:
      return "NONE";
    case Layer::API:
      return "API";
    case Layer::TRANSPORT:
      return "TRANSPORT";
    case Layer::DEVICE:
      return "DEVICE";
    case Layer::LOAD:
      return "LOAD";
    case Layer::LAUNCH_CONFIG:
      return "LAUNCH_CONFIG";
    case Layer::EXECUTION:
      return "EXECUTION";
    case Layer::TIMEOUT:
      return "TIMEOUT";
    case Layer::CONTEXT_LOST:
      return "CONTEXT_LOST";
  }
  return "UNKNOWN_LAYER";
}

Status status_for_error(cq::ErrorCode e) {
  using cq::ErrorCode;
  // The fault table (contract/faults.def): every error code once, from a fault
  // kind or from the list of the others (a code twice does not compile).
  switch (e) {
#define BSM_FAULT(kind, err, status, addr, desc) \
  case ErrorCode::err:                     \
    return Status::status;
#define BSM_ERR_STATUS(err, status) \
  case ErrorCode::err:              \
    return Status::status;
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return Status::LAUNCH_FAILED;
}

bool fault_for_error(cq::ErrorCode e, iss::FaultKind* kind) {
  switch (e) {  // the fault table read backwards (a code twice does not compile)
#define BSM_FAULT(k, err, status, addr, desc) \
  case cq::ErrorCode::err:                    \
    *kind = iss::FaultKind::k;                \
    return true;
#define BSM_ERR_STATUS(err, status) \
  case cq::ErrorCode::err:          \
    return false;
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return false;
}

Status fault_status(iss::FaultKind k) {
  switch (k) {
#define BSM_FAULT(kind, err, status, addr, desc) \
  case iss::FaultKind::kind:                     \
    return Status::status;
#define BSM_ERR_STATUS(err, status)
#include "contract/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return Status::LAUNCH_FAILED;
}

Layer fault_layer(iss::FaultKind k) {
  return status_layer(fault_status(k));
}

bool fault_info(const LaunchReport& r, iss::FaultInfo* out) {
  *out = iss::FaultInfo{};
  iss::FaultKind kind = iss::FaultKind::NONE;
  if (!fault_for_error(r.error, &kind)) return false;
  out->kind = kind;
  if (kind == iss::FaultKind::NONE) return true;
  out->cta = iss::Dim3{r.fault_cta_xyz.x, r.fault_cta_xyz.y, r.fault_cta_xyz.z};
  out->warp = r.fault_warp;
  out->lane = r.fault_lane;
  out->pc = r.fault_pc;
  switch (iss::fault_addr_of(kind)) {
    case iss::FaultAddr::NONE:
      break;
    case iss::FaultAddr::ADDRESS:
      out->addr = r.fault_addr;
      break;
    case iss::FaultAddr::WAITING_WARPS:
      out->waiting_warps = r.fault_addr;
      break;
  }
  return true;
}

}  // namespace baresm::drv
