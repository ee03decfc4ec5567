#include "samples/backend.h"

#include <cstring>

#include "samples/model_backend.h"

namespace baresm::samples {

const char* status_name(Status s) {
  switch (s) {
    case Status::OK:
      return "OK";
    case Status::OUT_OF_MEMORY:
      return "OUT_OF_MEMORY";
    case Status::INVALID_VALUE:
      return "INVALID_VALUE";
    case Status::INVALID_IMAGE:
      return "INVALID_IMAGE";
    case Status::NO_BINARY_FOR_DEVICE:
      return "NO_BINARY_FOR_DEVICE";
    case Status::NOT_FOUND:
      return "NOT_FOUND";
    case Status::DEVICE_ERROR:
      return "DEVICE_ERROR";
  }
  return "UNKNOWN";
}

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
  static std::vector<BackendEntry> r = {
      {"model", "golden functional model (isa/iss), in process",
       [] { return std::unique_ptr<Backend>(new ModelBackend()); },
       {}},
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

const BackendEntry* find_backend(const std::string& name) {
  for (const auto& x : registry())
    if (x.name == name) return &x;
  return nullptr;
}

}  // namespace baresm::samples
