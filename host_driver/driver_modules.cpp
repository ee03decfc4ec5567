// The host driver (driver.h): modules: loading (validation against the
// device, code in the protected pool), functions, attributes, occupancy.
#include "host_driver/driver_impl.h"

namespace baresm::drv {

// ---- modules ----------------------------------------------------------------------------------
namespace {
Status load_status(isa::LoadStatus s) {
  switch (s) {
    case isa::LoadStatus::OK:
      return Status::OK;
    case isa::LoadStatus::INVALID_IMAGE:
      return Status::INVALID_IMAGE;
    case isa::LoadStatus::NO_BINARY_FOR_DEVICE:
      return Status::NO_BINARY_FOR_DEVICE;
  }
  return Status::INVALID_IMAGE;
}
}  // namespace

Status Device::module_load_data(Context c, const void* image, size_t size, Module* out) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ContextRec* C = ctx_rec(c);
  if (!C) return fail(Status::INVALID_HANDLE, Layer::API, "invalid context");
  if (!out || (!image && size)) return fail(Status::INVALID_VALUE, Layer::API, "null image or output");
  if (C->sticky != Status::OK)
    return fail(C->sticky, status_layer(C->sticky), "context error is sticky: %s", status_message(C->sticky));
  // The module is checked against the hardware's own limits (CONFIG), not constants.
  isa::DeviceLimits lim;
  lim.arch_id = props_.arch_id;
  lim.max_regs_per_thread = props_.max_regs_per_thread;
  lim.max_shared_per_cta = props_.shared_bytes;
  lim.units = props_.has_fpu ? isa::kUnitFpu : 0;
  const isa::LoadResult r = isa::read_module(static_cast<const uint8_t*>(image), size, &lim);
  if (r.status != isa::LoadStatus::OK)
    return fail(load_status(r.status), Layer::LOAD, "%s: %s", isa::load_status_name(r.status),
                r.message.c_str());
  const isa::Module& m = r.module;
  if (m.kernels.size() > size_t(kMaxKernels))
    return fail(Status::OUT_OF_RESOURCES, Layer::LOAD, "module has %zu kernels, the driver holds %d",
                m.kernels.size(), kMaxKernels);
  for (const auto& k : m.kernels) {
    if (k.params.size() > size_t(kMaxParams))
      return fail(Status::OUT_OF_RESOURCES, Layer::LOAD, "kernel %s has %zu parameters, the driver holds %d",
                  k.name.c_str(), k.params.size(), kMaxParams);
    if (k.name.size() >= size_t(kMaxNameLen))
      return fail(Status::OUT_OF_RESOURCES, Layer::LOAD, "kernel name %s longer than %d", k.name.c_str(),
                  kMaxNameLen - 1);
    // A kernel with local memory takes the local buffer as a hidden 4-byte parameter.
    const uint32_t pbytes = k.param_bytes + (k.local_bytes ? 4 : 0);
    if (pbytes > opt_.max_param_bytes)
      return fail(Status::OUT_OF_RESOURCES, Layer::LOAD, "kernel %s takes %u parameter bytes, slots hold %u",
                  k.name.c_str(), pbytes, opt_.max_param_bytes);
  }
  const int mi = modules_.free_slot();
  if (mi < 0) return fail(Status::OUT_OF_RESOURCES, Layer::API, "module table full");
  const uint32_t code_bytes = uint32_t(m.code.size() * isa::kInstrBytes);
  if (code_bytes == 0) return fail(Status::INVALID_IMAGE, Layer::LOAD, "module has no code");
  const int ci = ctxs_.index(C);
  DevPtr code = 0;
  if (!priv_.alloc(code_bytes, uint16_t(ci + 1), KIND_CODE, true, &code))
    return fail(Status::OUT_OF_MEMORY, Layer::LOAD,
                "no room for %u bytes of code in the protected code pool (largest free block %u; "
                "DeviceOptions::code_pool_bytes)",
                code_bytes, priv_.largest_free());
  // Instruction words are little-endian in device memory, like the host.
  if (!ok(transport_->mem_write(code, m.code.data(), code_bytes))) {
    priv_.free(code);
    return fail(Status::TRANSPORT_ERROR, Layer::TRANSPORT, "copying the code into device memory failed");
  }
  const uint32_t handle = modules_.create(mi);
  ModuleRec& M = modules_[mi];
  M.ctx = uint8_t(ci);
  M.code = code;
  M.code_bytes = code_bytes;
  M.num_kernels = uint32_t(m.kernels.size());
  for (uint32_t i = 0; i < M.num_kernels; ++i) {
    const isa::KernelInfo& k = m.kernels[i];
    KernelRec& K = M.kernels[i];
    std::snprintf(K.name, sizeof K.name, "%s", k.name.c_str());
    K.entry = k.entry;
    K.code_bytes = k.code_bytes;
    K.regs = k.regs;
    K.shared_bytes = k.shared_bytes;
    K.param_bytes = k.param_bytes;
    K.local_bytes = k.local_bytes;
    K.num_params = uint32_t(k.params.size());
    for (uint32_t j = 0; j < K.num_params; ++j)
      K.params[j] = ParamRec{k.params[j].offset, k.params[j].size, k.params[j].align};
  }
  *out = Module{handle};
  return succeed();
}

Status Device::module_load_file(Context c, const char* path, Module* out) {
  if (!path) return fail(Status::INVALID_VALUE, Layer::API, "null path");
  // Bounded by the module limit: an endless file (a device node) is refused, not read to exhaustion.
  std::string data, error;
  const isa::FileReadResult rr = isa::read_file(path, isa::kMaxModuleBytes, &data, &error);
  if (rr.status == isa::FileRead::TOO_LARGE)
    return fail(Status::INVALID_IMAGE, Layer::LOAD, "module_load_file: %s: %s (the module limit)", path,
                error.c_str());
  if (!rr) return fail(Status::INVALID_VALUE, Layer::API, "module_load_file: %s: %s", path, error.c_str());
  return module_load_data(c, data.data(), data.size(), out);
}

Status Device::module_unload(Module m) {
  if (!transport_) return fail(Status::NOT_INITIALIZED, Layer::API, "device not open");
  ModuleRec* M = module_rec(m);
  if (!M) return fail(Status::INVALID_HANDLE, Layer::API, "invalid module");
  // Launches of this module may still be queued: its code outlives them (the
  // same deferred release as mem_free); the handle is invalid at once.
  free_after_queued(M->ctx, M->code, true);
  M->used = false;
  return succeed();
}

Status Device::module_get_function(Module m, const char* name, Function* out) {
  ModuleRec* M = module_rec(m);
  if (!M) return fail(Status::INVALID_HANDLE, Layer::API, "invalid module");
  if (!name || !out) return fail(Status::INVALID_VALUE, Layer::API, "null name or output");
  for (uint32_t i = 0; i < M->num_kernels; ++i)
    if (std::strcmp(M->kernels[i].name, name) == 0) {
      *out = Function{make_function(modules_.index(M), i, M->gen)};
      return succeed();
    }
  return fail(Status::NOT_FOUND, Layer::LOAD, "no kernel named %s in the module", name);
}

Status Device::module_code_range(Module m, DevPtr* base, uint32_t* bytes) const {
  const ModuleRec* M = const_cast<Device*>(this)->module_rec(m);
  if (!M) return Status::INVALID_HANDLE;
  if (base) *base = M->code;
  if (bytes) *bytes = M->code_bytes;
  return Status::OK;
}

Status Device::func_get_attributes(Function fn, FunctionAttrs* out) const {
  const ModuleRec* M = nullptr;
  const KernelRec* K = kernel_rec(fn, &M);
  if (!K) return Status::INVALID_HANDLE;
  if (!out) return Status::INVALID_VALUE;
  out->regs = K->regs;
  out->shared_bytes = K->shared_bytes;
  out->param_bytes = K->param_bytes;
  out->num_params = K->num_params;
  out->code_bytes = K->code_bytes;
  out->local_bytes = K->local_bytes;
  // The largest block whose registers fit in the register file, within the device's limit.
  uint32_t t = props_.max_threads_per_block;
  const uint32_t regs = K->regs ? K->regs : 1;
  while (t > 32 && uint64_t((t + 31) / 32) * 32 * regs > props_.regfile_regs) t -= 32;
  if (uint64_t((t + 31) / 32) * 32 * regs > props_.regfile_regs) t = 0;
  out->max_threads_per_block = t;
  return Status::OK;
}

Status Device::occupancy(Function fn, Dim3 block, uint32_t dynamic_shared, uint32_t regs,
                         uint32_t* ctas) const {
  const ModuleRec* M = nullptr;
  const KernelRec* K = kernel_rec(fn, &M);
  if (!K) return Status::INVALID_HANDLE;
  if (!ctas || block.count() == 0) return Status::INVALID_VALUE;
  if (!regs) regs = K->regs ? K->regs : 1;
  const uint64_t warps = (block.count() + 31) / 32;
  const uint64_t shared = uint64_t(K->shared_bytes) + dynamic_shared;
  uint64_t n = props_.cta_slots;
  n = std::min<uint64_t>(n, props_.num_warps / warps);
  n = std::min<uint64_t>(n, props_.regfile_regs / (warps * 32 * regs));
  if (shared) n = std::min<uint64_t>(n, props_.shared_bytes / shared);
  *ctas = uint32_t(n);
  return Status::OK;
}

}  // namespace baresm::drv
