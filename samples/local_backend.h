// What the backends that keep device memory in this process share (the
// functional model, model_backend.h, and the bare verilated SM,
// sim/harness/rtl_backend.h): the heap, module placement and the launch
// checks. One heap for both (first fit from kHeapBase in kGranule steps) is
// what makes the same calls give the same addresses on both, so their
// memories can be compared byte for byte.
#pragma once

#include <map>
#include <string>

#include "samples/backend.h"

namespace baresm::samples {

class LocalBackend : public Backend {
 public:
  // Allocations start above 0 so a null pointer is never inside a buffer, and
  // are rounded to a granule so neighbouring buffers never share a line.
  static constexpr uint32_t kHeapBase = 0x1000;
  static constexpr uint32_t kGranule = 256;

  std::string last_error() const override { return error_; }

  Status alloc(uint32_t bytes, Buffer* out) override;
  Status free(const Buffer& b) override;
  Status write(const Buffer& b, uint32_t offset, const void* src, uint32_t bytes) override;
  Status read(const Buffer& b, uint32_t offset, void* dst, uint32_t bytes) override;
  Status load_module(const std::vector<uint8_t>& image, ModuleHandle* out) override;
  Status unload_module(ModuleHandle m) override;

 protected:
  explicit LocalBackend(uint32_t memory_bytes);

  // The device memory behind the heap; ranges are always inside it.
  virtual void mem_write(uint32_t addr, const void* src, uint32_t bytes) = 0;
  virtual void mem_read(uint32_t addr, void* dst, uint32_t bytes) = 0;

  // A launch that passed prepare_launch(); finish_launch() frees its
  // parameter buffer.
  struct PreparedLaunch {
    const isa::KernelInfo* kernel = nullptr;
    Buffer code;    // the module's code in device memory
    Buffer params;  // the packed parameters, size 0 when there are none
    Buffer local;   // the launch's local-memory frames, size 0 when the kernel has none
    std::vector<Buffer> windows;  // the caller's, and the local buffer's last
  };
  // Checks the launch (module, kernel, parameter size, dims against
  // max_threads_per_cta(), at most max_windows windows, each inside a live
  // allocation) and places the parameters in device memory. A kernel with
  // local memory gets a buffer of local_bytes per thread for every warp of
  // the grid (docs/module-format.md "Local memory"), its address appended to
  // the parameters as the hidden one, and one more window over it.
  Status prepare_launch(ModuleHandle m, const std::string& kernel, const LaunchConfig& cfg,
                        const std::vector<uint8_t>& params, uint32_t max_windows, PreparedLaunch* out);
  void finish_launch(const PreparedLaunch& p);

  Status fail(Status s, std::string msg);
  static std::string dim_text(const iss::Dim3& d);  // "(x,y,z)"

 private:
  bool owns(const Buffer& b) const;

  struct LoadedModule {
    isa::Module module;
    Buffer code;
  };
  struct Allocation {
    uint32_t size = 0;      // what the caller asked for (the window a launch may get)
    uint32_t reserved = 0;  // rounded up to the allocation granule
  };
  std::map<uint32_t, uint32_t> free_;    // free ranges: addr -> size (coalesced)
  std::map<uint32_t, Allocation> used_;  // live allocations by address
  std::map<ModuleHandle, LoadedModule> modules_;
  ModuleHandle next_module_ = 1;
  std::string error_;
};

}  // namespace baresm::samples
