// Formal check, riscv-formal style: the control core (baresm_mcu_core,
// docs/mcu.md) against an RV32I specification written in
// tests/formal/mcu_core_inner.svh from the instruction word the bus
// returned for the fetch and the source operands the core read (the two
// register-file RAMs' outputs). PcW 16 (the board's), ResetPc 0; the bus is
// free: any number of wait states before a request is taken and before a
// read's answer, any word in an answer. The only assumption is the core's
// own a_rsp_awaited (a response only while the core waits for one, the bus
// contract of baresm_mcu_types.svh). For each retired instruction:
//   - its register write: rd written exactly when the instruction writes
//     one and rd != 0, with the specification's value (LUI, AUIPC, JAL,
//     JALR, OP-IMM, OP; a load's byte, half or word from the answer,
//     extended as its funct3 says);
//   - its next pc: the next fetch is at pc + 4, the branch's or jump's
//     target (JALR's with bit 0 cleared) modulo 2^PcW, and comes once;
//   - its memory request (loads and stores, checked whenever offered):
//     address rs1 + imm, the byte enables of its width and offset, the store
//     data on those bytes, a write exactly for a store; no other write;
//   - it is legal RV32I and does not trap: ECALL, EBREAK, an encoding
//     outside RV32I, a misaligned load or store, a jump or taken branch to
//     an address not 4-aligned never retire; the core halts instead, with
//     that cause, pc and word in status_o.
// The operands: rs1 and rs2 are the values the core read; a tracked
// register (any one, fv_reg) checks that they are the register's last
// written value (riscv-formal's "reg" check), x0 reading 0.
// BMC from reset and k-induction: the register RAMs' arrays are wired to
// the inner file's fv_rf1 / fv_rf2 by the proof's Yosys script, for the
// invariants that relate them to the operands and the tracked register.
`include "baresm_mcu_types.svh"
`default_nettype none

module fv_mcu_core (
  input logic        clk_i,
  input logic        rst_ni,
  input logic        req_ready_i,
  input logic        rsp_valid_i,
  input logic [31:0] rsp_rdata_i
);
  baresm_mcu_req_t req_o;
  baresm_mcu_ls_t ls_o;
  baresm_mcu_rsp_t rsp_i;
  baresm_mcu_status_t status_o;
  baresm_mcu_trace_t trace_o;
  always_comb begin
    rsp_i.valid = rsp_valid_i;
    rsp_i.rdata = rsp_rdata_i;
  end

  baresm_mcu_core #(.ResetPc(0), .PcW(16)) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;
`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
`endif

  logic unused;
  assign unused = ^{req_o, ls_o, status_o, trace_o};
endmodule

`default_nettype wire
