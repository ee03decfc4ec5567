#include "isa/params.h"

#include <cstdio>
#include <cstring>

namespace baresm::isa {

PackResult pack_params(const ParamSlot* params, uint32_t num_params, uint32_t param_bytes,
                       const ParamArg* args, uint32_t num_args, uint8_t* out, size_t out_bytes) {
  PackResult r;
  auto error = [&](PackError e, uint32_t index, uint32_t want, uint32_t got) {
    r.error = e;
    r.index = index;
    r.want = want;
    r.got = got;
    return r;
  };
  // The argument list must match the kernel's parameter table exactly.
  if (num_args != num_params) return error(PackError::COUNT, 0, num_params, num_args);
  if (num_args && !args) return error(PackError::NO_ARGS, 0, 0, 0);
  if (param_bytes > out_bytes || (param_bytes && !out))
    return error(PackError::BUFFER, 0, param_bytes, uint32_t(out ? out_bytes : 0));
  if (param_bytes) std::memset(out, 0, param_bytes);
  uint64_t off = 0;
  for (uint32_t i = 0; i < num_args; ++i) {
    const ParamSlot& p = params[i];
    if (args[i].size != p.size || !args[i].ptr) return error(PackError::SIZE, i, p.size, args[i].size);
    // Natural alignment: each parameter at the next multiple of its alignment.
    const uint64_t align = p.align ? p.align : 1;
    off = (off + align - 1) / align * align;
    if (off != p.offset) return error(PackError::LAYOUT, i, p.offset, uint32_t(off));
    if (off + p.size > param_bytes) return error(PackError::OVERRUN, i, param_bytes, 0);
    std::memcpy(out + off, args[i].ptr, p.size);
    off += p.size;
  }
  return r;
}

PackResult pack_params(const KernelInfo& k, const ParamArg* args, uint32_t num_args,
                       std::vector<uint8_t>* out) {
  std::vector<ParamSlot> slots;
  slots.reserve(k.params.size());
  for (const ParamInfo& p : k.params) slots.push_back(ParamSlot{p.offset, p.size, p.align});
  out->assign(k.param_bytes, 0);
  return pack_params(slots.data(), uint32_t(slots.size()), k.param_bytes, args, num_args, out->data(),
                     out->size());
}

const char* pack_error_text(const PackResult& r, const char* kernel, char* buf, size_t n) {
  if (!buf || !n) return buf;
  switch (r.error) {
    case PackError::OK:
      buf[0] = 0;
      break;
    case PackError::COUNT:
      std::snprintf(buf, n, "kernel %s takes %u parameters, %u given", kernel, r.want, r.got);
      break;
    case PackError::NO_ARGS:
      std::snprintf(buf, n, "null argument list");
      break;
    case PackError::BUFFER:
      std::snprintf(buf, n, "parameter buffer too large (%u bytes, %u available)", r.want, r.got);
      break;
    case PackError::SIZE:
      std::snprintf(buf, n, "parameter %u of %s is %u bytes, argument has %u", r.index, kernel, r.want,
                    r.got);
      break;
    case PackError::LAYOUT:
      std::snprintf(buf, n, "parameter %u of %s: natural alignment places it at %u, the module says %u",
                    r.index, kernel, r.got, r.want);
      break;
    case PackError::OVERRUN:
      std::snprintf(buf, n, "parameter %u of %s overruns the %u-byte buffer", r.index, kernel, r.want);
      break;
  }
  return buf;
}

std::string pack_error_text(const PackResult& r, const std::string& kernel) {
  char buf[256];
  return pack_error_text(r, kernel.c_str(), buf, sizeof buf);
}

}  // namespace baresm::isa
