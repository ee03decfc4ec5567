// hello_device: the smallest complete host program on an installed baresm.
// It assembles a kernel with the toolchain library, opens a device through
// the host driver (the functional model, or the verilated RTL under SystemC
// with --backend rtl), copies two vectors in, launches c[i] = 3*a[i] + b[i],
// waits, copies c back and checks every element. One line of output; exit
// status 0 only when the result is right.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cq_model/model_device.h"
#include "host_driver/driver.h"
#include "host_driver/model_transport.h"
#include "isa/assembler.h"
#include "isa/module.h"
#if HELLO_HAVE_RTL
#include "sim/systemc/sc_transport.h"
#endif

namespace {

using namespace baresm;

// One thread per element; the grid is rounded up to whole CTAs, so threads
// past n leave at once.
constexpr const char* kKernel = R"(
.kernel axpb
.param a, 4
.param b, 4
.param c, 4
.param n, 4
.regs 8
    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;        // i = ctaid.x * ntid.x + tid.x
    LDC R3, [PARAM(n)];
    ISETP.GE.U32 P0, R0, R3;
    @P0 EXIT;
    SHL R4, R0, 2;
    LDC R5, [PARAM(a)];
    IADD R5, R5, R4;
    LDG R5, [R5];
    LDC R6, [PARAM(b)];
    IADD R6, R6, R4;
    LDG R6, [R6];
    MOV R1, 3;
    IMAD R5, R5, R1, R6;        // 3*a[i] + b[i]
    LDC R7, [PARAM(c)];
    IADD R7, R7, R4;
    STG [R7], R5;
    EXIT;
.end
)";

int fail(const char* what, const drv::Device& dev, drv::Status st) {
  std::printf("hello_device: FAIL: %s: %s (%s)\n", what, drv::status_name(st), dev.last_error().detail);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string backend = "model";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
      backend = argv[++i];
    } else {
      std::printf("usage: %s [--backend model|rtl]\n", argv[0]);
      return 2;
    }
  }

  std::unique_ptr<drv::Transport> transport;
  if (backend == "model") {
    transport = std::make_unique<drv::ModelTransport>(cq::ModelDeviceConfig{});
  } else if (backend == "rtl") {
#if HELLO_HAVE_RTL
    transport = cosim::open_rtl_device();
#else
    std::printf("hello_device: FAIL: built without baresm::cosim (no --backend rtl)\n");
    return 2;
#endif
  } else {
    std::printf("hello_device: FAIL: unknown backend '%s' (model, rtl)\n", backend.c_str());
    return 2;
  }

  isa::AsmResult as = isa::assemble(kKernel, "axpb.s");
  if (!as.ok()) {
    std::printf("hello_device: FAIL: assembler: %s\n", as.format_errors().c_str());
    return 1;
  }
  const std::vector<uint8_t> image = isa::write_module(as.module);

  drv::Device dev;
  drv::Status st = dev.open(transport.get());
  if (st != drv::Status::OK) return fail("open", dev, st);
  drv::Context ctx;
  if ((st = dev.ctx_create(&ctx)) != drv::Status::OK) return fail("ctx_create", dev, st);

  // Not a multiple of the block size: the tail CTA's bounds check runs too.
  const uint32_t n = 1000, bytes = n * 4;
  std::vector<uint32_t> a(n), b(n), c(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = i * 7 + 1;
    b[i] = 0x10000u - i;
  }
  drv::DevPtr da = 0, db = 0, dc = 0;
  if ((st = dev.mem_alloc(ctx, bytes, &da)) != drv::Status::OK ||
      (st = dev.mem_alloc(ctx, bytes, &db)) != drv::Status::OK ||
      (st = dev.mem_alloc(ctx, bytes, &dc)) != drv::Status::OK)
    return fail("mem_alloc", dev, st);
  if ((st = dev.memcpy_htod(ctx, da, a.data(), bytes)) != drv::Status::OK ||
      (st = dev.memcpy_htod(ctx, db, b.data(), bytes)) != drv::Status::OK ||
      (st = dev.memset_d8(ctx, dc, 0, bytes)) != drv::Status::OK)
    return fail("copy in", dev, st);

  drv::Module mod;
  drv::Function fn;
  if ((st = dev.module_load_data(ctx, image.data(), image.size(), &mod)) != drv::Status::OK)
    return fail("module_load_data", dev, st);
  if ((st = dev.module_get_function(mod, "axpb", &fn)) != drv::Status::OK)
    return fail("module_get_function", dev, st);

  drv::LaunchConfig cfg;
  cfg.block.x = 128;
  cfg.grid.x = (n + cfg.block.x - 1) / cfg.block.x;
  const drv::LaunchArg args[] = {{&da, 4}, {&db, 4}, {&dc, 4}, {&n, 4}};
  if ((st = dev.launch(fn, cfg, args, 4)) != drv::Status::OK) return fail("launch", dev, st);
  if ((st = dev.ctx_synchronize(ctx)) != drv::Status::OK) return fail("synchronize", dev, st);
  if ((st = dev.memcpy_dtoh(ctx, c.data(), dc, bytes)) != drv::Status::OK) return fail("copy out", dev, st);

  uint32_t wrong = 0, first = n;
  for (uint32_t i = 0; i < n; ++i) {
    if (c[i] != 3 * a[i] + b[i]) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong != 0) {
    std::printf("hello_device: FAIL on %s: %u of %u wrong, first c[%u] = %u, expected %u\n",
                transport->name(), wrong, n, first, c[first], 3 * a[first] + b[first]);
    return 1;
  }
  std::printf("hello_device: OK on %s: c[i] = 3*a[i] + b[i] for %u elements, %u CTAs of %u threads\n",
              transport->name(), n, cfg.grid.x, cfg.block.x);
  return 0;
}
