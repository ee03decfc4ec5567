// `baresm info`: what the device says about itself, as CUDA's deviceQuery
// prints it. Everything comes from the driver after Device::open -- the
// ID/VERSION/CONFIG registers (props()), what the driver set up on them
// (options(), the protected range) and mem_get_info() -- never from the
// CLI's idea of a configuration, so the model and the RTL each show their own.
#include <cstdio>
#include <iostream>

#include "sim/cli_commands.h"
#include "sim/cli_device.h"
#include "sim/cli_util.h"

namespace baresm::cli {

namespace {

std::string arch_text(uint32_t id) {
  char text[5] = {char(id >> 24), char(id >> 16), char(id >> 8), char(id), 0};
  for (int i = 0; i < 4; ++i)
    if (text[i] < 0x20 || text[i] > 0x7e) text[i] = '?';
  char b[32];
  std::snprintf(b, sizeof b, "0x%08x (\"%s\")", id, text);
  return b;
}

std::string bytes_text(uint64_t b) {
  char s[64];
  if (b >= (1u << 20) && b % (1u << 20) == 0)
    std::snprintf(s, sizeof s, "%llu bytes (%llu MiB)", (unsigned long long)b, (unsigned long long)(b >> 20));
  else if (b >= 1024 && b % 1024 == 0)
    std::snprintf(s, sizeof s, "%llu bytes (%llu KiB)", (unsigned long long)b, (unsigned long long)(b >> 10));
  else
    std::snprintf(s, sizeof s, "%llu bytes", (unsigned long long)b);
  return s;
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  po::options_description desc(
      "usage: baresm info [--backend model|rtl|serial] [--port PATH] [--baud N]\n"
      "Opens the device through the host driver and prints what it reports about\n"
      "itself (ID, VERSION and CONFIG registers) and what the driver set up on it,\n"
      "like CUDA's deviceQuery.\n\noptions");
  desc.add_options()("help,h", "show this help")("backend", po::value<std::string>()->default_value("model"),
                                                 "which device: model (functional device model), rtl "
                                                 "(verilated device under SystemC) or serial (an FPGA board "
                                                 "over --port)");
  add_serial_options(&desc);
  po::variables_map vm;
  int rc = 0;
  if (!parse("info", args, desc, "extra", &vm, &rc)) return rc;
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return kExitOk;
  }
  if (vm.count("extra"))
    return usage_error("info", "unexpected argument '" + vm["extra"].as<std::string>() + "'");
  const drv::DeviceEntry* be = find_device_backend("info", vm["backend"].as<std::string>(), &rc);
  if (!be) return rc;
  drv::DeviceSettings settings;
  if ((rc = read_serial_options("info", vm, be->name, &settings)) != kExitOk) return rc;
  std::unique_ptr<drv::OpenDevice> d = open_device("info", *be, settings, be->options);
  if (!d) return kExitFail;
  const drv::DeviceProps& p = d->device.props();
  const drv::DeviceOptions& o = d->device.options();
  uint32_t free_bytes = 0, total_bytes = 0;
  if (d->device.mem_get_info(&free_bytes, &total_bytes) != drv::Status::OK) {
    std::cerr << "baresm info: mem_get_info: " << d->device.last_error().detail << "\n";
    return kExitFail;
  }
  const uint32_t queues_used = o.queues && o.queues < p.num_queues ? o.queues : p.num_queues;
  const auto row = [](const char* name, const std::string& value) {
    std::printf("  %-26s %s\n", name, value.c_str());
  };
  const auto num = [](uint64_t v) { return std::to_string(v); };
  std::printf("device 0 (backend %s, transport %s)\n", be->name.c_str(), d->transport->name());
  row("architecture", arch_text(p.arch_id));
  row("register map version", num(p.version_major) + "." + num(p.version_minor));
  row("ring format version", num(p.ring_version));
  row("clock", num(p.clock_khz) + " kHz");
  std::printf(" SM\n");
  // A warp's 32 threads go through the lanes in 32 / lanes passes.
  const uint32_t passes = p.num_lanes ? (p.warp_size + p.num_lanes - 1) / p.num_lanes : 0;
  row("lanes", num(p.num_lanes) + " (a warp-instruction takes " + num(passes) + " pass" +
                   (passes == 1 ? "" : "es") + " through them)");
  row("warp size", num(p.warp_size));
  row("FPU", p.has_fpu ? "yes (f32 add, mul, fma, min/max, conversions)" : "none (modules that use it are refused)");
  row("warp slots",
      num(p.num_warps) + " (" + num(uint64_t(p.num_warps) * p.warp_size) + " threads resident)");
  row("CTA slots", num(p.cta_slots));
  row("registers per thread", num(p.max_regs_per_thread) + " at most");
  row("register file", num(p.regfile_regs) + " registers of 4 bytes");
  row("shared memory", bytes_text(p.shared_bytes) + " (also the most one CTA may use)");
  row("shared-memory banks", num(p.num_banks) + " of 4 bytes");
  row("reconvergence stack", num(p.stack_depth) + " entries per warp");
  std::printf(" launches\n");
  row("max threads per block", num(p.max_threads_per_block));
  row("max block", num(p.max_block.x) + " x " + num(p.max_block.y) + " x " + num(p.max_block.z));
  row("max grid", num(p.max_grid.x) + " x " + num(p.max_grid.y) + " x " + num(p.max_grid.z));
  row("address windows", num(p.max_windows) + " per launch");
  row("queue pairs", num(p.num_queues) + " (the driver uses " + num(queues_used) + ", " + num(o.sq_entries) +
                         " submission / " + num(o.cq_entries) + " completion entries each)");
  row("parameter bytes", num(o.max_param_bytes) + " per launch at most");
  std::printf(" memory\n");
  row("device memory", bytes_text(p.mem_bytes));
  row("free for contexts", bytes_text(free_bytes) + " of " + bytes_text(total_bytes));
  char range[64];
  std::snprintf(range, sizeof range, "[0x%08x, 0x%08llx)", p.protected_base,
                (unsigned long long)p.protected_base + p.protected_bytes);
  row("protected range", std::string(range) + " rings, descriptors, parameters, module code");
  return kExitOk;
}

}  // namespace baresm::cli
