#include "host_driver/status.h"

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
  // The fault table (isa/faults.def): every error code once, from a fault
  // kind or from the list of the others (a code twice does not compile).
  switch (e) {
#define BSM_FAULT(kind, err, status, desc) \
  case ErrorCode::err:                     \
    return Status::status;
#define BSM_ERR_STATUS(err, status) \
  case ErrorCode::err:              \
    return Status::status;
#include "isa/faults.def"
#undef BSM_FAULT
#undef BSM_ERR_STATUS
  }
  return Status::LAUNCH_FAILED;
}

}  // namespace baresm::drv
