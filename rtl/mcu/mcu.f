// The control core's RTL (docs/mcu.md), in compilation order. A list of its
// own, not in rtl/baresm.f: every CMake design stamp and whole-list script
// (fpga.sh, the verilated device's stamp) hashes the files of rtl/baresm.f,
// so listing the core there would re-verilate and re-synthesize the device on
// every edit of it. scripts/rtl-files.sh --check accepts the files listed here.
+incdir+rtl/prim
rtl/prim/baresm_ram_1r1w.sv
rtl/mcu/baresm_mcu_core.sv
