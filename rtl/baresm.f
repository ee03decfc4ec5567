// The RTL of baresm, in compilation order: packages first, then each module
// after the modules it instantiates, the top last. This is the one list:
// CMake reads it (cmake/BaresmRtl.cmake), so do the scripts
// (scripts/rtl-files.sh: lint, synthesis, area, mutation), and Verilator
// (-f) and Icarus (-c) take it as it is, from the repository root. A test
// (rtl_file_list) fails when an .sv file under rtl/ is missing here.
+incdir+rtl/prim

// ---- packages ----------------------------------------------------------------
rtl/sm/baresm_isa_pkg.sv        // opcodes (generated from contract/opcodes.def)
rtl/sm/baresm_state_pkg.sv      // fault kinds, warp and CP states (generated from contract/faults.def, contract/states.def)
rtl/sm/baresm_launch_pkg.sv     // launch descriptor layout (generated from contract/launch.def)
rtl/sm/baresm_smcfg_pkg.sv      // the SM's ID/CONFIG word layout (generated from contract/sm_config.def)
rtl/sm/baresm_sm_pkg.sv         // issue classes, decode and ALU functions
rtl/cp/baresm_regs_pkg.sv       // register map (generated from contract/regmap.def)
rtl/cp/baresm_ring_pkg.sv       // ring formats (generated from contract/rings.def)
rtl/fpga/baresm_serial_pkg.sv   // serial-link frames (generated from contract/serial_protocol.def)

// ---- primitives ----------------------------------------------------------------
rtl/prim/baresm_ram_1r1w.sv     // synchronous RAM (iCE40 EBR, Xilinx block RAM)
rtl/prim/baresm_fifo.sv         // a FIFO in one such RAM (the whole device's UART bytes)

// ---- the SM (top: baresm_sm) ---------------------------------------------------
rtl/sm/baresm_fpu.sv
rtl/sm/baresm_sm_rf.sv
rtl/sm/baresm_sm_exec.sv
rtl/sm/baresm_lsu_amo.sv
rtl/sm/baresm_lsu_check.sv
rtl/sm/baresm_coalescer.sv
rtl/sm/baresm_smem.sv
rtl/sm/baresm_lsu.sv
rtl/sm/baresm_mem_arb.sv
rtl/sm/baresm_sm_barrier.sv
rtl/sm/baresm_sm_dispatch.sv
rtl/sm/baresm_sm_fetch.sv
rtl/sm/baresm_sm_sched.sv
rtl/sm/baresm_sm_stacks.sv
rtl/sm/baresm_sm_launch.sv      // launch control, descriptor, launch constants
rtl/sm/baresm_sm_slots.sv       // warp and CTA slot tables, CTA retirement
rtl/sm/baresm_sm_ibuf.sv        // instruction buffer, pre-decode, fetch requests
rtl/sm/baresm_sm_scoreboard.sv  // pending registers/predicates, LSU counts, ready
rtl/sm/baresm_sm_pred.sv        // predicate file
rtl/sm/baresm_sm_issue.sv       // issue stage of the granted warp
rtl/sm/baresm_sm_faults.sv      // fault state and reports
rtl/sm/baresm_sm_status.sv      // warp states and counters
rtl/sm/baresm_sm.sv

// ---- the thread-serial SM (top: baresm_ssm; docs/microarchitecture.md) ------------
rtl/ssm/baresm_ssm_pkg.sv       // decoded instruction, sequencer functions
rtl/ssm/baresm_ssm_alu.sv       // the integer ALU of one lane
rtl/ssm/baresm_ssm_seq.sv       // the sequencer: one warp-instruction, one thread per step
rtl/ssm/baresm_ssm_status.sv    // warp states and the launch's counters, in a RAM
rtl/ssm/baresm_ssm.sv

// ---- the control core (top: baresm_mcu_core; docs/mcu.md) ----------------------------
rtl/mcu/baresm_mcu_core.sv      // multi-cycle RV32I: runs the microprogrammed SM's firmware

// ---- the microprogrammed SM and the whole device as one program (tops: baresm_msm,
// baresm_mdev; docs/microarchitecture.md "The choice revisited again") ---------------
rtl/msm/baresm_msm_io_pkg.sv    // its I/O map (generated from contract/msm_io.def)
rtl/msm/baresm_msm_fwram.sv     // the firmware's RAM
rtl/msm/baresm_msm_lane.sv      // register file, ALU loop, S2R
rtl/msm/baresm_msm_lsu.sv       // memory loop, shared memory's port
rtl/msm/baresm_msm_io.sv        // the SM's I/O registers
rtl/msm/baresm_msm_launch_io.sv // the launch port's (the SM alone)
rtl/msm/baresm_mdev_io.sv       // the host side's (the whole device)
rtl/msm/baresm_msm.sv
rtl/msm/baresm_mdev.sv

// ---- the command processor (top: baresm_cp) -------------------------------------
rtl/cp/baresm_cp_regs.sv        // register block (generated from contract/regmap.def)
rtl/cp/baresm_cp_mul.sv         // serial multiplier (checks, fault CTA)
rtl/cp/baresm_cp_check.sv
rtl/cp/baresm_cp_fault_cta.sv
rtl/cp/baresm_cp_queues.sv
rtl/cp/baresm_cp.sv
rtl/cp/baresm_cp_memarb.sv

// ---- the device (top: baresm_top) -----------------------------------------------
rtl/baresm_top.sv

// ---- the FPGA board (top: baresm_icebreaker_top) ---------------------------------
rtl/fpga/baresm_uart_rx.sv
rtl/fpga/baresm_uart_tx.sv
rtl/fpga/baresm_uart_bridge.sv
rtl/fpga/baresm_fpga_link.sv       // reset + UART + bridge, shared by the board tops
rtl/fpga/baresm_spram.sv
rtl/fpga/baresm_bram.sv            // inferred block RAM (Artix-7, ECP5): the bigger boards' memory
rtl/fpga/baresm_fpga_mem.sv
rtl/fpga/baresm_flash_loader.sv     // the firmware device's firmware from the SPI flash
rtl/fpga/baresm_icebreaker_top.sv
rtl/fpga/baresm_icebreaker_link_top.sv  // link and memory bring-up (docs/fpga.md)

// ---- the bigger boards (tops: baresm_arty_top, baresm_ulx3s_top, baresm_tangnano20k_top; docs/fpga.md) ----
rtl/fpga/baresm_fpga_board.sv      // link + device + block-RAM memory + LEDs
rtl/fpga/baresm_arty_top.sv        // Digilent Arty A7-100T (Artix-7)
rtl/fpga/baresm_ulx3s_top.sv       // ULX3S 85F (ECP5)
rtl/fpga/baresm_tangnano20k_top.sv // Sipeed Tang Nano 20K (Gowin GW2AR-18)
