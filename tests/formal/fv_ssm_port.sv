// Formal proof: the thread-serial SM's memory port (baresm_ssm_seq, 2 warps,
// 4 registers, 2 stack entries, 1 window; every launch input free). The
// sequencer's own assertions (rtl/ssm/baresm_ssm_seq.sv) are proved:
//   - a_one_request: a new request only when none is presented or in flight,
//   - a_mem_req_held: a presented request holds its payload until taken,
// with one promise of the environment: a launch is accepted (clear_i) only
// once the port is idle (baresm_sm_launch waits for that before DONE).
// Responses are free: the sequencer takes one only for a request in flight. The states where the
// port may be busy are few (ssm_port_inner.svh), so the induction step
// proves the properties from every state, including those a bounded run
// from reset never reaches (a CTA's set-up alone takes 32 cycles a warp).
`include "baresm_mem_types.svh"
`default_nettype none

module fv_ssm_port (
  input logic          clk_i,
  input logic          rst_ni,
  input logic          clear_i,
  input logic          start_i,
  input logic [31:0]   entry_i,
  input logic [31:0]   code_base_i,
  input logic [31:0]   code_size_i,
  input logic [31:0]   grid_x_i,
  input logic [31:0]   grid_y_i,
  input logic [31:0]   grid_z_i,
  input logic [15:0]   block_x_i,
  input logic [15:0]   block_y_i,
  input logic [15:0]   block_z_i,
  input logic [7:0]    regs_i,
  input logic [7:0]    smid_i,
  input logic [31:0]   param_addr_i,
  input logic [31:0]   param_size_i,
  input logic [31:0]   shared_i,
  input logic [63:0]   watchdog_i,
  input logic [31:0]   win_base_i,
  input logic [31:0]   win_size_i,
  input logic [31:0]   prot_base_i,
  input logic [31:0]   prot_size_i,
  input logic [10:0]   threads_i,
  input logic [5:0]    warps_per_cta_i,
  input logic [15:0]   rf_base_i,
  input logic [63:0]   cycles_i,
  input logic [63:0]   clock_i,
  input logic          mem_req_ready_i,
  input logic          mem_rsp_valid_i,
  input logic [127:0]  mem_rsp_rdata_i,
  input logic          mem_rsp_err_i
);
  logic mem_rsp_ready_o, grid_done_o, any_cta_o, mem_idle_o, fault_o;
  // The sequencer's memory port (rtl/prim/baresm_mem_types.svh): LsuIdWidth 2,
  // 16-byte lines; the response's fields are free.
  typedef `BARESM_MEM_REQ_T(3, 16) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(16) mem_rsp_t;
  mem_req_t mem_req_o;
  mem_rsp_t mem_rsp_i;
  always_comb begin
    mem_rsp_i.valid = mem_rsp_valid_i;
    mem_rsp_i.rdata = mem_rsp_rdata_i;
    mem_rsp_i.err = mem_rsp_err_i;
  end
  logic [3:0] fault_kind_o;
  logic [31:0] fault_cta_x_o, fault_cta_y_o, fault_cta_z_o, fault_pc_o, fault_addr_o, fault_waiting_o;
  logic [7:0] fault_warp_o;
  logic [4:0] fault_lane_o;
  logic [1:0] used_o, exited_o, bar_wait_o, ready_o, wait_mem_o;
  logic issue_o, issue_fault_o, issue_warp_o, diverge_o, bar_release_o, cta_retire_o, ifill_o,
        smem_access_o, gmem_req_o, rf_we_o, pw_valid_o;
  logic [31:0] issue_pc_o, issue_tmask_o, issue_exec_o, cta_x_o, cta_y_o, cta_z_o, rf_wdata_o,
               pw_mask_o, pw_bits_o;
  logic [7:0] rf_waddr_o;
  logic [2:0] pw_pd_o;

  baresm_ssm_seq #(
    .NumWarps(2), .NumRegs(4), .SharedBytes(64), .StackDepth(2), .MemLineBytes(16),
    .LsuIdWidth(2), .NumWindows(1)
  ) dut (.*);

  logic init_q = 1'b1;
  always_ff @(posedge clk_i) init_q <= 1'b0;

`ifdef FORMAL
  always @* if (init_q) assume (!rst_ni);
  always @* if (rst_ni) assume (!clear_i || mem_idle_o);
`endif

  logic unused;
  assign unused = ^{mem_rsp_ready_o, grid_done_o, any_cta_o, fault_o, mem_req_o, fault_kind_o,
                    fault_cta_x_o, fault_cta_y_o, fault_cta_z_o, fault_pc_o, fault_addr_o,
                    fault_waiting_o, fault_warp_o, fault_lane_o, used_o, exited_o, bar_wait_o,
                    ready_o, wait_mem_o, issue_o, issue_fault_o, issue_warp_o, diverge_o,
                    bar_release_o, cta_retire_o, ifill_o, smem_access_o, gmem_req_o, rf_we_o,
                    pw_valid_o, issue_pc_o, issue_tmask_o, issue_exec_o, cta_x_o, cta_y_o, cta_z_o,
                    rf_wdata_o, pw_mask_o, pw_bits_o, rf_waddr_o, pw_pd_o};
endmodule

`default_nettype wire
