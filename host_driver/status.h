// Driver status codes, CUDA style: every call returns one; no exceptions.
// Each code belongs to the layer that failed (docs/driver.md).
#pragma once

#include <cstdint>

#include "contract/rings.h"
#include "isa/iss.h"

namespace baresm::drv {

// Where a failure happened, from the bottom up.
enum class Layer : uint8_t {
  NONE,           // success, or a query's "not yet"
  API,            // the caller passed something invalid (handles, pointers, sizes)
  TRANSPORT,      // the transport could not reach the device
  DEVICE,         // the device is not one we support, or broke its register contract
  LOAD,           // module load: image, target, kernel lookup
  LAUNCH_CONFIG,  // launch configuration checked against the device's limits, before queuing
  EXECUTION,      // the kernel ran and failed (a failed completion entry)
  TIMEOUT,        // a wait ran out of time while the device was still progressing
  CONTEXT_LOST,   // the device was reset; pending work was reported failed
};

// STATUS(name, layer, message)
#define BARESM_DRV_STATUS_LIST(STATUS)                                                             \
  STATUS(OK, NONE, "no error")                                                                     \
  STATUS(NOT_READY, NONE, "the work has not completed yet")                                        \
  STATUS(INVALID_VALUE, API, "invalid value")                                                      \
  STATUS(INVALID_HANDLE, API, "invalid handle")                                                    \
  STATUS(NOT_INITIALIZED, API, "the device is not open")                                           \
  STATUS(OUT_OF_MEMORY, API, "out of device memory")                                               \
  STATUS(OUT_OF_RESOURCES, API, "a driver table is full")                                          \
  STATUS(TRANSPORT_ERROR, TRANSPORT, "the transport could not reach the device")                   \
  STATUS(UNSUPPORTED_DEVICE, DEVICE, "the device's ID or VERSION is not one this driver supports") \
  STATUS(DEVICE_ERROR, DEVICE, "the device did not behave as its register contract says")          \
  STATUS(INVALID_IMAGE, LOAD, "invalid module image")                                              \
  STATUS(NO_BINARY_FOR_DEVICE, LOAD, "no binary for this device")                                  \
  STATUS(NOT_FOUND, LOAD, "named kernel not found in the module")                                  \
  STATUS(INVALID_CONFIGURATION, LAUNCH_CONFIG, "invalid configuration argument")                   \
  STATUS(LAUNCH_OUT_OF_RESOURCES, LAUNCH_CONFIG, "too many resources requested for launch")        \
  STATUS(BAD_DESCRIPTOR, LAUNCH_CONFIG, "the device rejected the launch descriptor")               \
  STATUS(ILLEGAL_INSTRUCTION, EXECUTION, "an illegal instruction was encountered")                 \
  STATUS(INVALID_PC, EXECUTION, "the program counter left the kernel's code")                      \
  STATUS(ILLEGAL_ADDRESS, EXECUTION, "an illegal memory access was encountered (out of window)")   \
  STATUS(MISALIGNED_ADDRESS, EXECUTION, "a misaligned memory access was encountered")              \
  STATUS(TRAP, EXECUTION, "the kernel executed TRAP")                                              \
  STATUS(STACK_OVERFLOW, EXECUTION, "the reconvergence stack overflowed")                          \
  STATUS(BARRIER_DEADLOCK, EXECUTION, "the warps of a CTA deadlocked at barriers")                 \
  STATUS(LAUNCH_TIMEOUT, EXECUTION, "the launch exceeded its watchdog budget")                     \
  STATUS(LAUNCH_FAILED, EXECUTION, "the launch failed inside the device")                          \
  STATUS(MEMORY_ERROR, EXECUTION, "an uncorrectable device-memory error was encountered")          \
  STATUS(TIMEOUT, TIMEOUT, "the wait timed out while the device was still making progress")        \
  STATUS(CONTEXT_LOST, CONTEXT_LOST, "the device was reset; the context's pending work was lost")

enum class Status : uint8_t {
#define BARESM_DRV_STATUS_ENUM(name, layer, msg) name,
  BARESM_DRV_STATUS_LIST(BARESM_DRV_STATUS_ENUM)
#undef BARESM_DRV_STATUS_ENUM
};

const char* status_name(Status s);     // "INVALID_CONFIGURATION"
const char* status_message(Status s);  // "invalid configuration argument"
Layer status_layer(Status s);          // the layer the code belongs to
const char* layer_name(Layer l);       // "LAUNCH_CONFIG"

// The driver status a failed completion maps to (OK for ERR_OK).
Status status_for_error(cq::ErrorCode e);

// The fault table (contract/faults.def) read backwards, from its rows: the SM
// fault kind whose launches complete with error e (NONE for ERR_OK); false
// for the error codes no SM fault produces (the command processor's and the
// driver's: BAD_DESCRIPTOR, CONTEXT_LOST, INTERNAL, RING_ERROR).
bool fault_for_error(cq::ErrorCode e, iss::FaultKind* kind);
// The status and the layer a launch that takes fault k is reported with.
Status fault_status(iss::FaultKind k);
Layer fault_layer(iss::FaultKind k);

struct LaunchReport;
// A launch report's fault, as the functional model states one: kind from the
// error code (fault_for_error), place, and the address word where the table
// says it holds one (FaultInfo::addr or waiting_warps, iss::fault_addr_of).
// false, with *out left as no fault, when the report's error is no SM fault.
bool fault_info(const LaunchReport& r, iss::FaultInfo* out);

inline bool ok(Status s) {
  return s == Status::OK;
}

}  // namespace baresm::drv
