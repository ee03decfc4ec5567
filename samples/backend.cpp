#include "samples/backend.h"

#include <cstring>

#include "host_driver/model_transport.h"
#include "host_driver/serial_transport.h"

namespace baresm::samples {

Arg Arg::u32(uint32_t v) {
  Arg a;
  a.bytes = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  return a;
}

Arg Arg::f32(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return u32(bits);
}

bool pack_params(const isa::KernelInfo& k, const std::vector<Arg>& args, std::vector<uint8_t>* out,
                 std::string* error) {
  if (args.size() != k.params.size()) {
    *error = "kernel '" + k.name + "' takes " + std::to_string(k.params.size()) + " parameters, got " +
             std::to_string(args.size());
    return false;
  }
  out->assign(k.param_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const isa::ParamInfo& p = k.params[i];
    std::vector<uint8_t> bytes = args[i].bytes;
    if (args[i].pointer && p.size == 8 && bytes.size() == 4) bytes.resize(8, 0);  // a 64-bit CUdeviceptr
    if (bytes.size() != p.size) {
      *error = "parameter '" + p.name + "' of kernel '" + k.name + "' is " + std::to_string(p.size) +
               " bytes, got " + std::to_string(bytes.size());
      return false;
    }
    if (uint64_t(p.offset) + p.size > k.param_bytes) {
      *error = "parameter '" + p.name + "' lies outside the parameter buffer";
      return false;
    }
    std::memcpy(out->data() + p.offset, bytes.data(), p.size);
  }
  return true;
}

namespace {
std::vector<BackendEntry>& registry() {
  // The functional device model: cq_model's command processor around the
  // golden ISS, with its default configuration. Its watchdog counts
  // warp-instructions; its completion entries carry no SM counters.
  static std::vector<BackendEntry> r = {
      {"model", "functional device model (cq_model + isa/iss) through the host driver",
       [](const DeviceSettings&, std::string*) {
         return std::unique_ptr<drv::Transport>(new drv::ModelTransport(cq::ModelDeviceConfig{}));
       },
       kDefaultWatchdogInstrs, 0},
      // An FPGA board (rtl/fpga) over its UART (docs/serial-protocol.md). Its
      // watchdog counts cycles like the RTL's; the driver's own timeout is
      // device time too (the bridge's cycle counter), so 10 s of the board.
      {"serial", "an FPGA board (or its simulation) over a serial port: --port PATH [--baud N]",
       [](const DeviceSettings& s, std::string* error) -> std::unique_ptr<drv::Transport> {
         if (s.serial_port.empty()) {
           *error = "serial link: no port given (--port PATH)";
           return nullptr;
         }
         drv::SerialOptions o;
         o.baud = s.serial_baud;
         return drv::SerialTransport::open(s.serial_port, o, error);
       },
       kDefaultWatchdogCycles, 10'000'000'000ull},
  };
  return r;
}
}  // namespace

void register_backend(BackendEntry e) {
  for (auto& x : registry()) {
    if (x.name == e.name) {
      x = std::move(e);
      return;
    }
  }
  registry().push_back(std::move(e));
}

const std::vector<BackendEntry>& backends() {
  return registry();
}

std::string backend_names() {
  std::string s;
  for (const auto& b : registry()) s += (s.empty() ? "" : ", ") + b.name;
  return s;
}

const BackendEntry* find_backend(const std::string& name) {
  for (const auto& x : registry())
    if (x.name == name) return &x;
  return nullptr;
}

}  // namespace baresm::samples
