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
  switch (e) {
    case ErrorCode::OK:
      return Status::OK;
    case ErrorCode::BAD_DESCRIPTOR:
      return Status::BAD_DESCRIPTOR;
    case ErrorCode::ILLEGAL_INSTR:
      return Status::ILLEGAL_INSTRUCTION;
    case ErrorCode::INVALID_PC:
      return Status::INVALID_PC;
    case ErrorCode::OUT_OF_WINDOW:
      return Status::ILLEGAL_ADDRESS;
    case ErrorCode::MISALIGNED:
      return Status::MISALIGNED_ADDRESS;
    case ErrorCode::TRAP:
      return Status::TRAP;
    case ErrorCode::STACK_OVERFLOW:
      return Status::STACK_OVERFLOW;
    case ErrorCode::BARRIER_DEADLOCK:
      return Status::BARRIER_DEADLOCK;
    case ErrorCode::WATCHDOG_TIMEOUT:
      return Status::LAUNCH_TIMEOUT;
    case ErrorCode::CONTEXT_LOST:
      return Status::CONTEXT_LOST;
    case ErrorCode::INTERNAL:
      return Status::LAUNCH_FAILED;
    case ErrorCode::FETCH_ERROR:
    case ErrorCode::MEMORY_ERROR:
    case ErrorCode::RING_ERROR:
      return Status::MEMORY_ERROR;
  }
  return Status::LAUNCH_FAILED;
}

}  // namespace baresm::drv
