// The parameter packer: a kernel's arguments into its parameter buffer, each
// at the offset the kernel's parameter table gives it (natural alignment,
// docs/module-format.md), the gaps zero. The one packer of the tree: the
// driver's Device::launch (drv::LaunchArg is isa::ParamArg), progen's
// load_program and the bench all pack through it. No exceptions and no
// allocation in the table form, so the driver can call it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "isa/module.h"

namespace baresm::isa {

// One parameter of a kernel's table: where its bytes go.
struct ParamSlot {
  uint32_t offset = 0, size = 0, align = 0;  // align 0 counts as 1
};

// One kernel argument: its bytes, in parameter-table order.
struct ParamArg {
  const void* ptr = nullptr;
  uint32_t size = 0;
};

enum class PackError : uint8_t {
  OK,
  COUNT,    // num_args differs from the table's count (want: parameters, got: arguments)
  NO_ARGS,  // a null argument list with arguments to take
  BUFFER,   // the parameter buffer is larger than the output (want: param_bytes, got: out_bytes)
  SIZE,     // argument `index` has another size than its parameter, or no bytes (want, got: sizes)
  LAYOUT,   // natural alignment puts parameter `index` at `got`, the table at `want`
  OVERRUN,  // parameter `index` ends past the buffer (want: param_bytes)
};

struct PackResult {
  PackError error = PackError::OK;
  uint32_t index = 0;  // the parameter the error is about
  uint32_t want = 0, got = 0;
  bool ok() const { return error == PackError::OK; }
};

// Packs num_args arguments against the table params[0..num_params) of a
// kernel whose parameter buffer is param_bytes long into out[0..param_bytes)
// (out_bytes available). On an error out may be partly written.
PackResult pack_params(const ParamSlot* params, uint32_t num_params, uint32_t param_bytes,
                       const ParamArg* args, uint32_t num_args, uint8_t* out, size_t out_bytes);

// The same against kernel k of a module: out is resized to k.param_bytes.
PackResult pack_params(const KernelInfo& k, const ParamArg* args, uint32_t num_args,
                       std::vector<uint8_t>* out);

// One line saying what r found wrong with the arguments of `kernel` ("" when
// r is OK), into buf (always terminated); returns buf.
const char* pack_error_text(const PackResult& r, const char* kernel, char* buf, size_t n);
std::string pack_error_text(const PackResult& r, const std::string& kernel);

}  // namespace baresm::isa
