// baresm_ssm_seq: the thread-serial SM's sequencer (docs/microarchitecture.md,
// "The thread-serial SM"). One warp-instruction at a time, one thread per
// step, every piece of per-thread state in a RAM read one word per cycle:
//
//   CTA init (per warp: stack entry 0, predicates cleared, first thread id)
//   -> shared memory cleared -> pick a warp (round robin) -> read its stack
//   top -> watchdog, pc check -> fetch the word (one memory read) -> decode,
//   legality -> guard and second predicate -> issue, then by class:
//     ALU, S2R, SEL, VOTE.BALLOT: a lane loop (read a, b, c; compute; write)
//     ISETP, VOTE.ANY/ALL: the predicate word, read-modify-write
//     SHFL: a loop that reads each lane's source into a scratch RAM, then a
//           loop that writes rd (rd may be ra)
//     LD/ST/ATOM: a loop that checks every lane (no effect on a fault), then
//           a loop that accesses, one lane at a time (shared memory here,
//           global memory through the one memory port)
//     BRA, EXIT, BAR, TRAP: the reconvergence stack (in RAM), the barrier
//   -> stack top written back, finished entries popped -> barrier release
//   and deadlock check -> next warp.
// The functional model (isa/iss_exec.cpp) is the specification; the order of
// checks and which lane a fault names follow it. Registers a CTA has not
// written read 0 (a valid bit per warp and register; the first write of a
// register writes 0 into the lanes that do not execute).
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_ssm_types.svh"
`include "baresm_mem_types.svh"

module baresm_ssm_seq #(
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int RfDepth = NumWarps * NumRegs * 32,
  parameter int SharedBytes = 2048,
  parameter int StackDepth = 4,
  parameter int MemLineBytes = 16,
  parameter int LsuIdWidth = 2,
  parameter int NumWindows = 4,
  parameter bit HasFpu = 1'b0,
  parameter int SmId = 0,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1
) (
  clk_i,
  rst_ni,
  clear_i,
  start_i,
  entry_i,
  code_base_i,
  code_size_i,
  grid_x_i,
  grid_y_i,
  grid_z_i,
  block_x_i,
  block_y_i,
  block_z_i,
  regs_i,
  smid_i,
  param_addr_i,
  param_size_i,
  shared_i,
  watchdog_i,
  win_base_i,
  win_size_i,
  prot_base_i,
  prot_size_i,
  threads_i,
  warps_per_cta_i,
  cycles_i,
  clock_i,
  mem_req_o,
  mem_req_ready_i,
  mem_rsp_i,
  mem_rsp_ready_o,
  grid_done_o,
  any_cta_o,
  mem_idle_o,
  fault_o,
  fault_kind_o,
  fault_cta_x_o,
  fault_cta_y_o,
  fault_cta_z_o,
  fault_warp_o,
  fault_lane_o,
  fault_pc_o,
  fault_addr_o,
  fault_waiting_o,
  used_o,
  exited_o,
  bar_wait_o,
  ready_o,
  wait_mem_o,
  issue_o,
  issue_fault_o,
  issue_warp_o,
  issue_pc_o,
  issue_tmask_o,
  issue_exec_o,
  cta_x_o,
  cta_y_o,
  cta_z_o,
  diverge_o,
  bar_release_o,
  cta_retire_o,
  ifill_o,
  smem_access_o,
  gmem_req_o,
  rf_we_o,
  rf_waddr_o,
  rf_wdata_o,
  pw_valid_o,
  pw_pd_o,
  pw_mask_o,
  pw_bits_o
);

  // The memory port's types (rtl/prim/baresm_mem_types.svh): a line request
  // (its id always 0) and, one request being in flight, a response without id.
  typedef `BARESM_MEM_REQ_T(LsuIdWidth + 1, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;

  input  logic                          clk_i;
  input  logic                          rst_ni;
  input  logic                          clear_i;        // a launch was accepted
  input  logic                          start_i;        // it checked good: run the grid

  // ---- the launch (baresm_sm_launch) ------------------------------------------
  input  logic [31:0]                   entry_i;
  input  logic [31:0]                   code_base_i;
  input  logic [31:0]                   code_size_i;
  input  logic [31:0]                   grid_x_i;
  input  logic [31:0]                   grid_y_i;
  input  logic [31:0]                   grid_z_i;
  input  logic [15:0]                   block_x_i;
  input  logic [15:0]                   block_y_i;
  input  logic [15:0]                   block_z_i;
  input  logic [7:0]                    regs_i;
  input  logic [7:0]                    smid_i;
  input  logic [31:0]                   param_addr_i;
  input  logic [31:0]                   param_size_i;
  input  logic [31:0]                   shared_i;
  input  logic [63:0]                   watchdog_i;
  input  logic [32*NumWindows-1:0]      win_base_i;
  input  logic [32*NumWindows-1:0]      win_size_i;
  input  logic [31:0]                   prot_base_i;
  input  logic [31:0]                   prot_size_i;
  input  logic [10:0]                   threads_i;
  input  logic [5:0]                    warps_per_cta_i;
  input  logic [63:0]                   cycles_i;       // cycles of this launch (watchdog)
  input  logic [63:0]                   clock_i;        // S2R CLOCK

  // ---- memory port (one request in flight) --------------------------------------
  output mem_req_t                      mem_req_o;
  input  logic                          mem_req_ready_i;
  input  mem_rsp_t                      mem_rsp_i;      // one request in flight: no id
  output logic                          mem_rsp_ready_o;

  // ---- progress and faults ---------------------------------------------------------
  output logic                          grid_done_o;    // every CTA of the grid ran to the end
  output logic                          any_cta_o;      // a CTA is resident
  output logic                          mem_idle_o;     // no memory request in flight
  output logic                          fault_o;        // a fault is held
  output logic [3:0]                    fault_kind_o;
  output logic [31:0]                   fault_cta_x_o;
  output logic [31:0]                   fault_cta_y_o;
  output logic [31:0]                   fault_cta_z_o;
  output logic [7:0]                    fault_warp_o;
  output logic [4:0]                    fault_lane_o;
  output logic [31:0]                   fault_pc_o;
  output logic [31:0]                   fault_addr_o;
  output logic [31:0]                   fault_waiting_o;

  // ---- status (baresm_sm_status) -----------------------------------------------------
  output logic [NumWarps-1:0]           used_o;
  output logic [NumWarps-1:0]           exited_o;
  output logic [NumWarps-1:0]           bar_wait_o;
  output logic [NumWarps-1:0]           ready_o;
  output logic [NumWarps-1:0]           wait_mem_o;
  output logic                          issue_o;        // a warp-instruction issues
  output logic                          issue_fault_o;  // ... or faults at issue
  output logic [WarpW-1:0]              issue_warp_o;
  output logic [31:0]                   issue_pc_o;
  output logic [31:0]                   issue_tmask_o;
  output logic [31:0]                   issue_exec_o;
  output logic [31:0]                   cta_x_o;
  output logic [31:0]                   cta_y_o;
  output logic [31:0]                   cta_z_o;
  output logic                          diverge_o;
  output logic                          bar_release_o;
  output logic                          cta_retire_o;
  output logic                          ifill_o;
  output logic                          smem_access_o;
  output logic                          gmem_req_o;

  // ---- register-file and predicate writes (the lockstep trace) ----------------------
  output logic                          rf_we_o;
  output logic [AddrW-1:0]              rf_waddr_o;
  output logic [31:0]                   rf_wdata_o;
  output logic                          pw_valid_o;
  output logic [2:0]                    pw_pd_o;
  output logic [31:0]                   pw_mask_o;
  output logic [31:0]                   pw_bits_o;

  localparam int LineW = $clog2(MemLineBytes);
  localparam int StackW = (StackDepth > 1) ? $clog2(StackDepth) : 1;
  localparam int DepthW = $clog2(StackDepth + 1);
  localparam int SmemWords = SharedBytes / 4;
  localparam int SmemW = (SmemWords > 1) ? $clog2(SmemWords) : 1;
  localparam int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1;
  localparam logic [5:0] RZ = 6'(baresm_isa_pkg::REG_ZERO);
  localparam int WinW = $clog2(NumWindows + 1);
  localparam int WinIdxW = (NumWindows > 1) ? $clog2(NumWindows) : 1;
  // The per-warp RAM (u_aux): words 0..6 P0..P6, 7 the last BAR's pc, 8 the
  // thread id {y, x} of lane 0, 9 its z, 16 + 4*e + k word k of stack entry e.
  localparam int AuxBlockW = $clog2(16 + 4 * (1 << StackW));
  localparam int AuxW = WarpW + 1 + AuxBlockW;
  localparam logic [3:0] AUX_BAR_PC = 4'd7;
  localparam logic [3:0] AUX_TID_XY = 4'd8;
  localparam logic [3:0] AUX_TID_Z = 4'd9;

  typedef enum logic [5:0] {
    S_IDLE, S_CTA, S_SCLR, S_SCHED, S_TOP_RD, S_TOP, S_FETCH, S_FWAIT, S_DEC, S_GUARD, S_PRED2,
    S_ISSUE, S_LANE, S_PW_RD, S_PW, S_SHFL, S_SHFL_WR, S_MCHK, S_MACC, S_MWAIT, S_RETIRE, S_BPUSH,
    S_EXIT_RD, S_EXIT_WR, S_END, S_TOP_WR, S_POP, S_POP2, S_BAR, S_DEADLOCK, S_DL2, S_CTA_END, S_STOP
  } state_e;

  state_e st_q;

  // ---- the grid and the resident CTA ---------------------------------------------------
  logic [31:0] cta_x_q, cta_y_q, cta_z_q;
  logic [5:0] nw_q;                       // warps of the CTA
  logic [NumWarps-1:0] used_q, exited_q, waiting_q, bar_first_q;
  logic [3:0] bar_id_q [NumWarps];
  logic [15:0] bar_cnt_q [NumWarps];
  logic [DepthW-1:0] depth_q [NumWarps];
  logic [NumRegs-1:0] rv_q [NumWarps];    // the register was written in this CTA

  // ---- the instruction in flight ----------------------------------------------------------
  logic [WarpW-1:0] cw_q;                 // its warp
  entry_t top_q;                          // the warp's stack top
  instr_t in_q;
  logic [31:0] exec_q, p2_q, bits_q;
  logic [4:0] lane_q;
  logic [2:0] ph_q;                       // step of the lane
  logic [31:0] opa_q, opb_q, maddr_q;
  logic [47:0] tid_q;
  logic [WarpW:0] scan_q;                 // CTA init warp / barrier scan
  logic [5:0] sub_q;                      // CTA init step within a warp
  logic [SmemW:0] sclr_q;
  logic [DepthW-1:0] xi_q;                // EXIT: entry being cleared
  logic [2:0] bw_v_q;                     // BRA: the entries (br_e) still to write
  logic [2:0] wd_q;                       // word of a stack entry (or of the warp's top) moved this cycle
  logic [WinW-1:0] win_q;                 // global access check: the window
  logic win_ok_q;                         // ... some window so far holds the access
  logic pass2_q;                          // SHFL / memory: second loop
  logic outstanding_q;                    // a memory request was taken, no response yet
  logic req_q;                            // a memory request is presented
  logic [31:0] req_addr_q;
  logic [1:0] req_op_q;
  logic [MemLineBytes*8-1:0] req_wdata_q;
  logic [MemLineBytes-1:0] req_wstrb_q;
  logic fetch_q;                          // the outstanding request is a fetch

  // The watchdog: the launch's cycle count passes every value once, from 0
  // at its accept, so it has reached a non-zero budget exactly when it has
  // once equalled it (an equality, not a 64-bit magnitude compare).
  logic wd_reached, wd_expired_q, wd_expired;
  assign wd_reached = watchdog_i != 64'd0 && cycles_i == watchdog_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wd_expired_q <= 1'b0;
    else if (clear_i) wd_expired_q <= 1'b0;
    else if (wd_reached) wd_expired_q <= 1'b1;
  end
  assign wd_expired = wd_expired_q || wd_reached;

  // ---- fault record -------------------------------------------------------------------------
  logic fault_q;
  fault_t f_q;

  // ---- RAMs ----------------------------------------------------------------------------------
  logic rf_re, rf_we;
  logic [AddrW-1:0] rf_raddr, rf_waddr;
  logic [31:0] rf_rdata, rf_wdata;
  baresm_ram_1r1w #(.Depth(RfDepth), .Width(32)) u_rf (
    .clk_i, .re_i(rf_re), .raddr_i(rf_raddr), .rdata_o(rf_rdata),
    .we_i(rf_we), .waddr_i(rf_waddr), .wmask_i(1'b1), .wdata_i(rf_wdata));

  // Everything per warp but the registers, in one RAM of 32-bit words read
  // one word per cycle: a block of AuxBlock words per warp (aux_word) --
  // P0..P6; the pc of the warp's last BAR (a deadlock report); its lane 0's
  // thread id {y, x} and z; its reconvergence stack, an entry in four words
  // {pc, rpc, mask, -} -- and after the warps' blocks the SHFL scratch, each
  // lane's source value (so rd may be ra).
  logic ax_re, ax_we;
  logic [AuxW-1:0] ax_raddr, ax_waddr;
  logic [31:0] ax_rdata, ax_wdata;
  baresm_ram_1r1w #(.Depth((NumWarps + 1) << AuxBlockW), .Width(32)) u_aux (
    .clk_i, .re_i(ax_re), .raddr_i(ax_raddr), .rdata_o(ax_rdata),
    .we_i(ax_we), .waddr_i(ax_waddr), .wmask_i(1'b1), .wdata_i(ax_wdata));

  logic sm_re, sm_we;
  logic [SmemW-1:0] sm_raddr, sm_waddr;
  logic [3:0] sm_wmask;
  logic [31:0] sm_rdata, sm_wdata;
  baresm_ram_1r1w #(.Depth(SmemWords), .Width(32), .MaskW(4)) u_smem (
    .clk_i, .re_i(sm_re), .raddr_i(sm_raddr), .rdata_o(sm_rdata),
    .we_i(sm_we), .waddr_i(sm_waddr), .wmask_i(sm_wmask), .wdata_i(sm_wdata));

  // ---- decoded views of the instruction ------------------------------------------------------
  logic [9:0] fl;
  logic is_setp, is_vote, is_ballot, is_shfl, is_mem, is_store, is_atom_i, is_global, is_shared,
        is_ldc, writes_rd;
  logic [2:0] msize;
  assign fl = baresm_isa_pkg::op_flags(in_q.op);
  assign is_setp = in_q.op == baresm_isa_pkg::OP_ISETP;
  assign is_vote = in_q.op == baresm_isa_pkg::OP_VOTE;
  assign is_ballot = is_vote && in_q.mod[1:0] == baresm_isa_pkg::VOTE_BALLOT;
  assign is_shfl = in_q.op == baresm_isa_pkg::OP_SHFL;
  assign is_mem = fl[baresm_isa_pkg::F_MEM];
  assign is_atom_i = baresm_ssm_pkg::is_atom(in_q.op);
  assign is_store = baresm_ssm_pkg::is_store(in_q.op);
  assign is_global = baresm_ssm_pkg::is_global(in_q.op);
  assign is_shared = baresm_ssm_pkg::is_shared(in_q.op);
  assign is_ldc = in_q.op == baresm_isa_pkg::OP_LDC;
  assign writes_rd = (fl[baresm_isa_pkg::F_WRD] || is_ballot) && in_q.rd != RZ;
  assign msize = baresm_ssm_pkg::access_size(in_q.op, in_q.mod[2:0]);

  // The second predicate: SETP's combine input, SEL's select, VOTE's input.
  logic [2:0] p2_idx;
  logic p2_neg;
  always_comb begin
    p2_idx = 3'(baresm_isa_pkg::PRED_TRUE);
    p2_neg = 1'b0;
    if (is_setp) begin
      p2_idx = in_q.rd[5:3];
      p2_neg = in_q.mod[6];
    end else if (in_q.op == baresm_isa_pkg::OP_SEL) begin
      p2_idx = in_q.mod[2:0];
      p2_neg = in_q.mod[3];
    end else if (is_vote) begin
      p2_idx = in_q.ra[2:0];
      p2_neg = in_q.ra[3];
    end
  end
  logic [2:0] pd;
  assign pd = in_q.rd[2:0];
  // A predicate's lanes as read from the file (PT: every lane), before any negation.
  function automatic logic [31:0] pred_word(input logic [2:0] idx, input logic [31:0] ram);
    pred_word = (idx == 3'(baresm_isa_pkg::PRED_TRUE)) ? 32'hFFFF_FFFF : ram;
  endfunction

  // ---- per-warp views ----------------------------------------------------------------------------
  logic [NumWarps-1:0] live, runnable;
  assign live = used_q & ~exited_q;
  assign runnable = live & ~waiting_q;
  logic [WarpW:0] nlive;
  always_comb begin
    nlive = '0;
    for (int w = 0; w < NumWarps; w++) nlive = nlive + (WarpW + 1)'(live[w]);
  end

  // Round robin: the first runnable warp after the current one.
  logic [WarpW-1:0] pick;
  logic pick_ok;
  always_comb begin
    pick = cw_q;
    pick_ok = 1'b0;
    for (int k = NumWarps; k >= 1; k--) begin
      if (runnable[(32'(cw_q) + 32'(k)) % NumWarps]) begin
        pick = WarpW'((32'(cw_q) + 32'(k)) % NumWarps);
        pick_ok = 1'b1;
      end
    end
  end

  // The CTA's last thread mask for warp w.
  function automatic logic [31:0] warp_mask(input logic [10:0] threads, input logic [WarpW:0] w);
    logic [11:0] rem;
    rem = {1'b0, threads} - 12'({w, 5'd0});
    warp_mask = (rem >= 12'd32) ? 32'hFFFF_FFFF : ((32'd1 << rem[4:0]) - 32'd1);
  endfunction

  // ---- the lane's operands and result --------------------------------------------------------------
  // Register r of lane l of the current warp: {warp, r, l}, every warp slot
  // holds NumRegs registers (a launch's registers per thread are at most
  // NumRegs; a field past them is ILLEGAL_INSTR), so no base is added.
  function automatic logic [AddrW-1:0] rf_addr(input logic [RegW-1:0] r, input logic [4:0] l);
    rf_addr = {cw_q, r, l};
  endfunction
  // A register read: RZ and registers this CTA has not written are 0.
  function automatic logic [31:0] reg_val(input logic [5:0] r, input logic [NumRegs-1:0] rv,
                                          input logic [31:0] ram);
    reg_val = (r == RZ || !rv[RegW'(r)]) ? 32'd0 : ram;
  endfunction

  logic [NumRegs-1:0] rv_cw;
  assign rv_cw = rv_q[cw_q];

  logic [31:0] sreg;
  assign sreg = baresm_ssm_pkg::sreg(in_q.mod, tid_q, {block_z_i, block_y_i, block_x_i}, {grid_z_i, grid_y_i, grid_x_i},
                                     {cta_z_q, cta_y_q, cta_x_q}, lane_q, 32'(cw_q),
                                     (smid_i != 8'd0) ? smid_i : 8'(SmId), clock_i);

  // Operand c arrives from the RAM in the execute step.
  logic [31:0] opc_now, alu_out;
  assign opc_now = reg_val(in_q.rc, rv_cw, rf_rdata);
  logic setp_bit;
  // A shared-memory atomic's new word comes from the ALU too, in the cycle
  // the old word is read (S_MWAIT; c is still on the register file's port).
  logic amo_smem;
  assign amo_smem = st_q == S_MWAIT && is_shared && is_atom_i;
  baresm_ssm_alu u_alu (
    .op_i  (in_q.op),
    .mod_i (in_q.mod),
    .amo_i (amo_smem),
    .amo_op_i(in_q.mod[4:0]),
    .a_i   (amo_smem ? sm_rdata : opa_q),
    .b_i   (opb_q),
    .c_i   (opc_now),
    .sel_i (amo_smem || p2_q[lane_q]),
    .sreg_i(sreg),
    .r_o   (alu_out),
    .setp_o(setp_bit)
  );

  // ---- memory checks (isa/iss_exec.cpp exec_mem: misaligned, then range) -------------------------------
  logic [31:0] addr_now;
  assign addr_now = reg_val(in_q.ra, rv_cw, rf_rdata) + in_q.imm;
  // A global access is checked one window per cycle (phases 2.. of the
  // check loop, win_q the window): inside some window of non-zero size,
  // then outside the protected range (the launch's code and parameters).
  logic [31:0] win_b, win_s;
  assign win_b = win_base_i[32*WinIdxW'(win_q) +: 32];
  assign win_s = win_size_i[32*WinIdxW'(win_q) +: 32];
  logic win_hit, prot_hit;   // maddr_q: the lane's address
  assign win_hit = baresm_ssm_pkg::in_window(maddr_q, msize, win_b, win_s);
  assign prot_hit = baresm_ssm_pkg::in_protected(maddr_q, msize, prot_base_i, prot_size_i);
  logic chk_misaligned, chk_range_ok;   // shared memory and parameters: in the phase the address arrives
  always_comb begin
    chk_misaligned = (addr_now & {29'd0, msize - 3'd1}) != 32'd0;
    if (is_shared) chk_range_ok = {1'b0, addr_now} + 33'(msize) <= {1'b0, shared_i};
    else chk_range_ok = {1'b0, addr_now} + 33'(msize) <= {1'b0, param_size_i};
  end

  // The lane's access: its bytes within a word and within a line.
  // A store's data repeated over the word (and the word over the line): the
  // byte strobes pick the bytes, so nothing is shifted into place.
  logic [31:0] st_rep;
  assign st_rep = baresm_ssm_pkg::store_word(msize, opb_q);
  logic [3:0] byte_strb;
  assign byte_strb = baresm_ssm_pkg::store_strb(msize);
  logic [31:0] gaddr;   // the device address of the lane's access
  assign gaddr = is_ldc ? param_addr_i + maddr_q : maddr_q;
  logic [LineW-1:0] goff;
  assign goff = gaddr[LineW-1:0];
  logic [31:0] line_word;  // the response's word that holds the lane's address
  logic [MemLineBytes*8-1:0] rsp_rdata;  // a plain vector: Icarus 11 takes no
  assign rsp_rdata = mem_rsp_i.rdata;     // variable part select of a struct member
  assign line_word = rsp_rdata[32*goff[LineW-1:2] +: 32];

  logic [31:0] pc_next;  // the next instruction's pc: one adder for every state that moves on
  assign pc_next = top_q.pc + 32'd8;

  // ---- BRA (isa/iss_exec.cpp exec_bra), decided at issue --------------------------------------------
  // A divergent branch leaves up to three entries to write (the old top's
  // slot, then the pushes); nt is the new top, nd the new depth.
  logic [31:0] br_t, br_r, br_f, br_rest;
  logic br_same, br_overflow, br_div;
  logic [DepthW:0] br_keep, br_need;
  logic [DepthW-1:0] dtop, br_nd;
  entry_t br_nt;
  logic [3*96-1:0] br_e;
  logic [3*DepthW-1:0] br_i;
  logic [2:0] br_v;
  assign dtop = depth_q[cw_q] - DepthW'(1);
  always_comb begin
    br_t = top_q.pc + {{13{in_q.imm[15]}}, in_q.imm[15:0], 3'd0};
    br_r = (in_q.imm[31:16] == 16'd0) ? baresm_sm_pkg::PC_NONE
                                      : top_q.pc + {{13{in_q.imm[31]}}, in_q.imm[31:16], 3'd0};
    br_f = pc_next;
    br_rest = top_q.mask & ~exec_q;
    br_div = br_rest != 32'd0 && exec_q != 32'd0;
    br_same = br_r == top_q.rpc;
    br_keep = (br_same && br_f == br_r) ? {1'b0, dtop} : {1'b0, dtop} + (DepthW + 1)'(1);
    br_need = br_keep + (DepthW + 1)'(!br_same && br_f != br_r) + (DepthW + 1)'(br_t != br_r);
    br_overflow = br_need > (DepthW + 1)'(StackDepth);
    br_v = '0;
    br_nt = top_q;
    br_nd = DepthW'(br_keep);
    br_e = {3{top_q}};
    br_i = {3{dtop}};
    if (br_same) begin
      if (br_f != br_r) begin
        br_nt = {br_f, br_r, br_rest};
        br_v[0] = 1'b1;
        br_e[0 +: 96] = br_nt;
      end
    end else begin
      br_nt = {br_r, top_q.rpc, top_q.mask};
      br_v[0] = 1'b1;
      br_e[0 +: 96] = br_nt;
      if (br_f != br_r) begin
        br_nt = {br_f, br_r, br_rest};
        br_v[1] = 1'b1;
        br_e[96 +: 96] = br_nt;
        br_i[DepthW +: DepthW] = br_nd;
        br_nd = br_nd + DepthW'(1);
      end
    end
    if (br_t != br_r) begin
      br_nt = {br_t, br_r, exec_q};
      br_v[2] = 1'b1;
      br_e[192 +: 96] = br_nt;
      br_i[2*DepthW +: DepthW] = br_nd;
      br_nd = br_nd + DepthW'(1);
    end
  end

  // VOTE.ANY/ALL: every executing lane gets the same answer.
  logic [31:0] vote_yes;
  logic vote_r;
  assign vote_yes = exec_q & p2_q;
  assign vote_r = (in_q.mod[1:0] == baresm_isa_pkg::VOTE_ANY) ? vote_yes != 32'd0 : vote_yes == exec_q;

  // ---- barrier check of warp scan_q (the first arrival of its id) ---------------------------------------
  logic [WarpW-1:0] sw;
  assign sw = WarpW'(scan_q);
  logic [WarpW:0] arrived;
  logic [NumWarps-1:0] same_id, bar_seen;
  always_comb begin
    arrived = '0;
    for (int w = 0; w < NumWarps; w++) begin
      same_id[w] = waiting_q[w] && bar_id_q[w] == bar_id_q[sw];
      bar_seen[w] = waiting_q[w] && bar_id_q[w] == in_q.imm[3:0];
      arrived = arrived + (WarpW + 1)'(same_id[w]);
    end
  end
  logic [16:0] bar_expect;
  assign bar_expect = (bar_cnt_q[sw] == 16'd0) ? 17'(nlive) : (17'(bar_cnt_q[sw]) + 17'd31) >> 5;
  logic bar_go;
  assign bar_go = st_q == S_BAR && 32'(scan_q) < NumWarps && waiting_q[sw] && bar_first_q[sw] &&
                  17'(arrived) >= bar_expect;

  // The lowest waiting warp (a deadlock names it).
  logic [WarpW-1:0] first_wait;
  always_comb begin
    first_wait = '0;
    for (int w = NumWarps - 1; w >= 0; w--) if (waiting_q[w]) first_wait = WarpW'(w);
  end

  // The next CTA: x fastest. A coordinate is below its grid size, so its
  // successor equals the size exactly when it wraps.
  logic [31:0] cta_x_nx, cta_y_nx, cta_z_nx;
  assign cta_x_nx = cta_x_q + 32'd1;
  assign cta_y_nx = cta_y_q + 32'd1;
  assign cta_z_nx = cta_z_q + 32'd1;
  logic wrap_x, wrap_y, last_cta;
  assign wrap_x = cta_x_nx == grid_x_i;
  assign wrap_y = cta_y_nx == grid_y_i;
  assign last_cta = wrap_x && wrap_y && cta_z_nx == grid_z_i;

  // ---- register reads: only fields the instruction uses (RZ is never read) -------------------------------
  logic [3:0] uf;
  assign uf = baresm_ssm_pkg::used_fields(in_q.op, in_q.bimm, in_q.mod[3:0]);
  logic use_a, use_b, use_c, use_d;
  assign use_a = uf[1] && in_q.ra != RZ;
  assign use_b = uf[2] && in_q.rb != RZ;
  assign use_c = uf[3] && in_q.rc != RZ;
  assign use_d = uf[0] && in_q.rd != RZ;   // a store's data

  logic take_rsp;
  assign take_rsp = mem_rsp_i.valid && outstanding_q;
  logic [31:0] ld_val;
  logic [31:0] ld_word;
  assign ld_word = is_shared ? sm_rdata : line_word;
  assign ld_val = baresm_ssm_pkg::load_extend(in_q.mod[2:0], ld_word >> {gaddr[1:0], 3'd0});
  logic lane_on;
  assign lane_on = exec_q[lane_q];
  logic zero_fill;  // the register's first write: 0 where the lane does not execute
  assign zero_fill = !lane_on && writes_rd && !rv_cw[RegW'(in_q.rd)];

  // verilator lint_off UNUSEDSIGNAL
  logic [5:0] shfl_s;  // [5] is always 0
  // verilator lint_on UNUSEDSIGNAL
  logic [4:0] shfl_lane;
  assign shfl_s = baresm_ssm_pkg::shfl_src(in_q.mod[4:0], lane_q, in_q.bimm ? in_q.imm : reg_val(in_q.rb, rv_cw, rf_rdata));
  assign shfl_lane = shfl_s[4:0];

  // ---- faults (isa/iss_exec.cpp: which check comes first, which lane is named) ----------------------------
  // The lane a fault at issue names: the first executing lane of a TRAP,
  // else the first lane of the warp's mask.
  logic [4:0] first_lane;
  assign first_lane = baresm_sm_pkg::lowest_lane((st_q == S_ISSUE && in_q.op == baresm_isa_pkg::OP_TRAP) ?
                                                 exec_q : top_q.mask);
  logic flt;
  logic flt_issue;  // found at issue (the trace says so; the model faults in the same step)
  logic [3:0] flt_kind;
  logic [4:0] flt_lane;
  logic [31:0] flt_addr;
  always_comb begin
    flt = 1'b0;
    flt_issue = 1'b1;
    flt_kind = baresm_state_pkg::FAULT_NONE;
    flt_lane = first_lane;
    flt_addr = '0;
    unique case (st_q)
      S_FETCH: begin
        if (wd_expired) begin
          flt = 1'b1;
          flt_issue = 1'b0;
          flt_kind = baresm_state_pkg::FAULT_WATCHDOG;
        end else if (top_q.pc[2:0] != 3'd0 || top_q.pc < code_base_i ||
                     {1'b0, top_q.pc} + 33'd8 > {1'b0, code_base_i} + {1'b0, code_size_i}) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_INVALID_PC;
        end
      end
      S_FWAIT: begin
        if (take_rsp && mem_rsp_i.err) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_FETCH_ERROR;
          flt_addr = top_q.pc;
        end
      end
      S_DEC: begin
        if (baresm_ssm_pkg::illegal(in_q.op, in_q.bimm, in_q.mod, {in_q.rc, in_q.rb, in_q.ra, in_q.rd}, HasFpu, regs_i)) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_ILLEGAL_INSTR;
        end
      end
      S_ISSUE: begin
        if (in_q.op == baresm_isa_pkg::OP_TRAP && exec_q != 32'd0) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_TRAP;
          flt_lane = first_lane;  // of exec_q here
        end
        if (in_q.op == baresm_isa_pkg::OP_BRA && br_div && br_overflow) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_STACK_OVERFLOW;
        end
      end
      S_MCHK: begin
        // ph 1: the address arrives (misaligned; shared and parameter range);
        // ph 2, win_q = NumWindows: the global windows were all tried.
        flt_issue = 1'b0;
        flt_lane = lane_q;
        flt_addr = addr_now;
        if (lane_on && ph_q == 3'd1) begin
          if (chk_misaligned) begin
            flt = 1'b1;
            flt_kind = baresm_state_pkg::FAULT_MISALIGNED;
          end else if (!is_global && !chk_range_ok) begin
            flt = 1'b1;
            flt_kind = baresm_state_pkg::FAULT_OUT_OF_WINDOW;
          end
        end
        if (lane_on && ph_q == 3'd2 && 32'(win_q) == NumWindows) begin
          flt_addr = maddr_q;
          if (!win_ok_q || prot_hit) begin
            flt = 1'b1;
            flt_kind = baresm_state_pkg::FAULT_OUT_OF_WINDOW;
          end
        end
      end
      S_MWAIT: begin
        flt_issue = 1'b0;
        flt_lane = lane_q;
        flt_addr = maddr_q;
        if (!is_shared && take_rsp && mem_rsp_i.err) begin
          flt = 1'b1;
          flt_kind = baresm_state_pkg::FAULT_MEMORY_ERROR;
        end
      end
      default: flt_issue = 1'b0;
    endcase
  end

  // ---- u_aux addresses ------------------------------------------------------------------------------------
  function automatic logic [AuxW-1:0] aux_word(input logic [WarpW-1:0] w, input logic [3:0] k);
    aux_word = {1'b0, w, AuxBlockW'(k)};
  endfunction
  function automatic logic [AuxW-1:0] aux_entry(input logic [WarpW-1:0] w, input logic [DepthW-1:0] e,
                                                input logic [1:0] k);
    aux_entry = {1'b0, w, AuxBlockW'(16) + AuxBlockW'({e, k})};
  endfunction
  function automatic logic [AuxW-1:0] aux_scratch(input logic [4:0] l);
    aux_scratch = {1'b1, WarpW'(0), AuxBlockW'(l)};
  endfunction
  // Word k of entry e: {pc, rpc, mask}.
  // (A vector, not an entry_t: Yosys 0.23 cannot pass a struct to a function.)
  function automatic logic [31:0] entry_word(input logic [95:0] e, input logic [1:0] k);
    entry_word = (k == 2'd0) ? e[95:64] : (k == 2'd1) ? e[63:32] : e[31:0];
  endfunction
  logic [DepthW-1:0] bw_idx;     // BRA: the lowest entry still to write
  logic [95:0] bw_entry;
  always_comb begin
    bw_idx = '0;
    bw_entry = '0;
    for (int k = 2; k >= 0; k--) begin
      if (bw_v_q[k]) begin
        bw_idx = br_i[k*DepthW +: DepthW];
        bw_entry = br_e[k*96 +: 96];
      end
    end
  end

  // ---- RAM ports (combinational, from the state) -------------------------------------------------------------
  always_comb begin
    rf_re = 1'b0;
    rf_raddr = rf_addr(RegW'(in_q.ra), lane_q);
    rf_we = 1'b0;
    rf_waddr = rf_addr(RegW'(in_q.rd), lane_q);
    rf_wdata = 32'd0;
    ax_re = 1'b0;
    ax_raddr = aux_word(cw_q, {1'b0, in_q.pg});
    ax_we = 1'b0;
    ax_waddr = aux_word(cw_q, {1'b0, pd});
    ax_wdata = 32'd0;
    sm_re = 1'b0;
    sm_raddr = SmemW'(maddr_q >> 2);
    sm_we = 1'b0;
    sm_waddr = SmemW'(maddr_q >> 2);
    sm_wmask = byte_strb << maddr_q[1:0];
    sm_wdata = st_rep;
    unique case (st_q)
      S_CTA: begin
        // Warp scan_q: step 0 its thread id {y, x}, 1 z; 2..4 stack entry 0;
        // 5..11 P0..P6 cleared.
        ax_we = 32'(scan_q) < 32'(nw_q) && sub_q <= 6'd11;
        ax_waddr = aux_word(WarpW'(scan_q), AUX_TID_XY);
        ax_wdata = tid_q[31:0];
        if (sub_q == 6'd1) begin
          ax_waddr = aux_word(WarpW'(scan_q), AUX_TID_Z);
          ax_wdata = 32'(tid_q[47:32]);
        end
        if (sub_q >= 6'd2 && sub_q <= 6'd4) begin
          ax_waddr = aux_entry(WarpW'(scan_q), '0, 2'(sub_q - 6'd2));
          ax_wdata = entry_word({entry_i, baresm_sm_pkg::PC_NONE, warp_mask(threads_i, scan_q)}, 2'(sub_q - 6'd2));
        end
        if (sub_q >= 6'd5) ax_waddr = aux_word(WarpW'(scan_q), 4'(sub_q - 6'd5));
      end
      S_SCLR: begin
        sm_we = 1'b1;
        sm_waddr = SmemW'(sclr_q);
        sm_wmask = 4'hF;
        sm_wdata = 32'd0;
      end
      // The warp's top: words 0..2 of its top entry, then its thread id (2 words).
      S_TOP_RD, S_TOP: begin
        ax_re = 1'b1;
        ax_raddr = aux_entry(cw_q, dtop, wd_q[1:0]);
        if (wd_q == 3'd3) ax_raddr = aux_word(cw_q, AUX_TID_XY);
        if (wd_q == 3'd4) ax_raddr = aux_word(cw_q, AUX_TID_Z);
        if (st_q == S_TOP) begin
          ax_raddr = aux_entry(cw_q, dtop, 2'(wd_q + 3'd1));
          if (wd_q == 3'd2) ax_raddr = aux_word(cw_q, AUX_TID_XY);
          if (wd_q == 3'd3) ax_raddr = aux_word(cw_q, AUX_TID_Z);
        end
      end
      S_DEC: ax_re = 1'b1;
      S_GUARD: begin
        ax_re = 1'b1;
        ax_raddr = aux_word(cw_q, {1'b0, p2_idx});
      end
      S_LANE: begin
        // ph 0: read a; 1: read b; 2: read c; 3: execute and write.
        if (lane_on) begin
          unique case (ph_q)
            3'd0: rf_re = use_a;
            3'd1: begin
              rf_re = use_b;
              rf_raddr = rf_addr(RegW'(in_q.rb), lane_q);
            end
            3'd2: begin
              rf_re = use_c;
              rf_raddr = rf_addr(RegW'(in_q.rc), lane_q);
            end
            default: begin
              rf_we = writes_rd;
              rf_wdata = alu_out;
            end
          endcase
        end else rf_we = zero_fill;
      end
      S_PW_RD: begin
        ax_re = 1'b1;
        ax_raddr = aux_word(cw_q, {1'b0, pd});
      end
      S_PW: begin
        ax_we = pd != 3'(baresm_isa_pkg::PRED_TRUE);
        ax_wdata = (ax_rdata & ~exec_q) | (bits_q & exec_q);
      end
      S_SHFL: begin
        // Pass 1 (per lane): ph 0 read b; 1 read a of the source lane; 2 keep it.
        // Pass 2: ph 0 read the kept value; 1 write rd.
        if (!pass2_q) begin
          if (lane_on && ph_q == 3'd0) begin
            rf_re = use_b;
            rf_raddr = rf_addr(RegW'(in_q.rb), lane_q);
          end
          if (lane_on && ph_q == 3'd1) begin
            rf_re = use_a;
            rf_raddr = rf_addr(RegW'(in_q.ra),
                               shfl_lane);
          end
          ax_we = lane_on && ph_q == 3'd2;
          ax_waddr = aux_scratch(lane_q);
          ax_wdata = reg_val(in_q.ra, rv_cw, rf_rdata);
        end else begin
          ax_re = lane_on && ph_q == 3'd0;
          ax_raddr = aux_scratch(lane_q);
          if (lane_on && ph_q == 3'd1) begin
            rf_we = writes_rd;
            rf_wdata = ax_rdata;
          end
          if (!lane_on) rf_we = zero_fill;
        end
      end
      S_MCHK: rf_re = lane_on && ph_q == 3'd0 && use_a;
      S_MACC: begin
        // ph 0: read a; 1: read the data (rd of a store, b of an atomic); 2: read c; 3: access.
        if (lane_on) begin
          unique case (ph_q)
            3'd0: rf_re = use_a;
            3'd1: begin
              rf_re = is_store ? use_d : use_b;
              rf_raddr = rf_addr(RegW'(is_store ? in_q.rd : in_q.rb), lane_q);
            end
            3'd2: begin
              rf_re = use_c;
              rf_raddr = rf_addr(RegW'(in_q.rc), lane_q);
            end
            default: begin
              if (is_shared) begin
                sm_we = is_store;
                sm_re = !is_store;
              end
            end
          endcase
        end else rf_we = zero_fill;
      end
      S_MWAIT: begin
        if (is_shared) begin
          // The word read in the access step: a load writes rd, an atomic also the new word.
          rf_we = writes_rd;
          rf_wdata = is_atom_i ? sm_rdata : ld_val;
          sm_we = is_atom_i;
          sm_wmask = 4'hF;
          sm_wdata = alu_out;
        end else if (take_rsp && !mem_rsp_i.err) begin
          rf_we = writes_rd;
          rf_wdata = is_atom_i ? mem_rsp_i.rdata[31:0] : ld_val;
        end
      end
      S_BPUSH: begin
        // The lowest pending entry first, a word per cycle (br_e: top_q is still the branch's).
        ax_we = bw_v_q != 3'd0;
        ax_waddr = aux_entry(cw_q, bw_idx, wd_q[1:0]);
        ax_wdata = entry_word(bw_entry, wd_q[1:0]);
      end
      // EXIT: the lanes leave the mask word of every entry below the top.
      S_EXIT_RD: begin
        ax_re = 1'b1;
        ax_raddr = aux_entry(cw_q, xi_q, 2'd2);
      end
      S_EXIT_WR: begin
        ax_we = 1'b1;
        ax_waddr = aux_entry(cw_q, xi_q, 2'd2);
        ax_wdata = ax_rdata & ~exec_q;
      end
      // The top written back, a word per cycle.
      S_TOP_WR: begin
        ax_we = 1'b1;
        ax_waddr = aux_entry(cw_q, dtop, wd_q[1:0]);
        ax_wdata = entry_word(top_q, wd_q[1:0]);
      end
      S_POP, S_POP2: begin
        ax_re = 1'b1;
        ax_raddr = aux_entry(cw_q, dtop, 2'(wd_q + ((st_q == S_POP2) ? 3'd1 : 3'd0)));
      end
      S_DEADLOCK: begin
        ax_re = 1'b1;
        ax_raddr = aux_word(first_wait, AUX_BAR_PC);
      end
      default: ;
    endcase
    // BAR: the pc of the BAR in word 7 of the warp's predicates.
    if (st_q == S_ISSUE && !flt && in_q.op == baresm_isa_pkg::OP_BAR && exec_q != 32'd0) begin
      ax_we = 1'b1;
      ax_waddr = aux_word(cw_q, AUX_BAR_PC);
      ax_wdata = top_q.pc;
    end
  end

  // ---- the memory request of the state (held by req_q until taken) -------------------------------------------
  logic mreq;
  logic [1:0] mreq_op;
  logic [31:0] mreq_addr;
  logic [MemLineBytes*8-1:0] mreq_wdata;
  logic [MemLineBytes-1:0] mreq_wstrb;
  always_comb begin
    mreq = 1'b0;
    mreq_op = 2'd0;
    mreq_addr = {top_q.pc[31:LineW], LineW'(0)};
    mreq_wdata = '0;
    mreq_wstrb = '0;
    // (Not in the cycle a new launch clears the sequencer: it goes idle.)
    if (st_q == S_FETCH && !flt && !clear_i) mreq = 1'b1;
    if (st_q == S_MACC && lane_on && ph_q == 3'd3 && !is_shared && !clear_i) begin
      mreq = 1'b1;
      if (is_atom_i) begin
        mreq_op = 2'd2;
        mreq_addr = {gaddr[31:2], 2'b00};
        mreq_wdata = (MemLineBytes * 8)'({opc_now, opb_q});
      end else begin
        mreq_addr = {gaddr[31:LineW], LineW'(0)};
        if (is_store) begin
          mreq_op = 2'd1;
          mreq_wdata = {(MemLineBytes / 4){st_rep}};
          mreq_wstrb = MemLineBytes'(byte_strb) << goff;
        end
      end
    end
  end

  // ---- the sequencer --------------------------------------------------------------------------------
  logic [4:0] lane_next;
  assign lane_next = lane_q + 5'd1;
  logic lane_last;
  assign lane_last = lane_q == 5'd31;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;
      used_q <= '0;
      exited_q <= '0;
      waiting_q <= '0;
      bar_first_q <= '0;
      cw_q <= '0;
      fault_q <= 1'b0;
      f_q <= '0;
      outstanding_q <= 1'b0;
      req_q <= 1'b0;
      fetch_q <= 1'b0;
    end else begin
      // The memory port: a request is held until taken; its response ends it.
      if (mreq) begin
        req_q <= 1'b1;
        req_op_q <= mreq_op;
        req_addr_q <= mreq_addr;
        req_wdata_q <= mreq_wdata;
        req_wstrb_q <= mreq_wstrb;
        fetch_q <= st_q == S_FETCH;
      end
      if (req_q && mem_req_ready_i) begin
        req_q <= 1'b0;
        outstanding_q <= 1'b1;
      end
      if (take_rsp) outstanding_q <= 1'b0;

      if (clear_i) begin
        st_q <= S_IDLE;
        used_q <= '0;
        exited_q <= '0;
        waiting_q <= '0;
        fault_q <= 1'b0;
        f_q <= '0;
      end else if (flt) begin
        // The first fault ends the launch: its report, nothing more issued.
        fault_q <= 1'b1;
        f_q <= {flt_kind, flt_lane, flt_addr};
        st_q <= S_STOP;
      end else begin
        unique case (st_q)
          S_IDLE: begin
            if (start_i) begin
              cta_x_q <= '0;
              cta_y_q <= '0;
              cta_z_q <= '0;
              nw_q <= warps_per_cta_i;
              scan_q <= '0;
              sub_q <= '0;
              tid_q <= '0;
              cw_q <= WarpW'(NumWarps - 1);  // round robin starts at warp 0
              st_q <= S_CTA;
            end
          end

          // One warp per 33 cycles (u_aux's words: see the RAM ports): tid_q
          // steps over the warp's 32 threads after its lane 0's id is written.
          S_CTA: begin
            if (sub_q == 6'd0 && 32'(scan_q) < NumWarps) begin
              depth_q[WarpW'(scan_q)] <= DepthW'(1);
              rv_q[WarpW'(scan_q)] <= '0;
              bar_cnt_q[WarpW'(scan_q)] <= '0;
              bar_id_q[WarpW'(scan_q)] <= '0;
            end
            if (sub_q != 6'd0) tid_q <= baresm_sm_pkg::tid_next(tid_q, {block_y_i, block_x_i});
            sub_q <= sub_q + 6'd1;
            if (sub_q == 6'd32) begin
              sub_q <= '0;
              scan_q <= scan_q + (WarpW + 1)'(1);
              if (32'(scan_q) + 1 >= 32'(nw_q)) begin
                for (int w = 0; w < NumWarps; w++) used_q[w] <= 32'(w) < 32'(nw_q);
                exited_q <= '0;
                waiting_q <= '0;
                bar_first_q <= '0;
                sclr_q <= '0;
                st_q <= S_SCLR;
              end
            end
          end

          // Shared memory starts at 0 in every CTA.
          S_SCLR: begin
            sclr_q <= sclr_q + (SmemW + 1)'(1);
            // (A launch with more than SharedBytes of shared memory is refused,
            // so the word count fits sclr_q's width.)
            if (sclr_q + (SmemW + 1)'(1) >= (SmemW + 1)'((shared_i[SmemW+2:0] + (SmemW + 3)'(3)) >> 2) ||
                32'(sclr_q) + 1 >= SmemWords)
              st_q <= S_SCHED;
          end

          S_SCHED: begin
            if (pick_ok) begin
              cw_q <= pick;
              wd_q <= '0;
              st_q <= S_TOP_RD;
            end else begin
              st_q <= S_CTA_END;  // no live warp left (a deadlock stops earlier)
            end
          end

          S_TOP_RD: st_q <= S_TOP;
          S_TOP: begin
            unique case (wd_q)
              3'd0: top_q.pc <= ax_rdata;
              3'd1: top_q.rpc <= ax_rdata;
              3'd2: top_q.mask <= ax_rdata;
              3'd3: tid_q[31:0] <= ax_rdata;
              default: tid_q[47:32] <= ax_rdata[15:0];
            endcase
            wd_q <= wd_q + 3'd1;
            if (wd_q == 3'd4) st_q <= S_FETCH;
          end
          S_FETCH: st_q <= S_FWAIT;  // the watchdog and the pc were checked (flt)
          S_FWAIT: begin
            if (take_rsp) begin
              in_q <= baresm_ssm_pkg::decode(64'(mem_rsp_i.rdata >> {top_q.pc[LineW-1:3], 6'd0}));
              st_q <= S_DEC;
            end
          end
          S_DEC: st_q <= S_GUARD;
          S_GUARD: begin
            exec_q <= top_q.mask & (in_q.pg_neg ? ~pred_word(in_q.pg, ax_rdata) : pred_word(in_q.pg, ax_rdata));
            st_q <= S_PRED2;
          end
          S_PRED2: begin
            p2_q <= p2_neg ? ~pred_word(p2_idx, ax_rdata) : pred_word(p2_idx, ax_rdata);
            st_q <= S_ISSUE;
          end

          // The warp-instruction issues (the lockstep model steps here).
          S_ISSUE: begin
            lane_q <= '0;
            ph_q <= '0;
            pass2_q <= 1'b0;
            bits_q <= '0;
            st_q <= S_END;
            unique case (in_q.op)
              baresm_isa_pkg::OP_TRAP: top_q.pc <= pc_next;  // no lane executes it
              baresm_isa_pkg::OP_BRA: begin
                if (br_rest == 32'd0) top_q.pc <= br_t;
                else if (exec_q == 32'd0) top_q.pc <= br_f;
                else begin
                  bw_v_q <= br_v;
                  wd_q <= '0;
                  st_q <= S_BPUSH;
                end
              end
              baresm_isa_pkg::OP_EXIT: begin
                xi_q <= '0;
                if (exec_q != 32'd0 && dtop != '0) st_q <= S_EXIT_RD;
                else begin
                  top_q.mask <= top_q.mask & ~exec_q;
                  if ((top_q.mask & ~exec_q) != 32'd0) top_q.pc <= pc_next;
                end
              end
              baresm_isa_pkg::OP_BAR: begin
                top_q.pc <= pc_next;
                if (exec_q != 32'd0) begin
                  waiting_q[cw_q] <= 1'b1;
                  bar_id_q[cw_q] <= in_q.imm[3:0];
                  bar_cnt_q[cw_q] <= in_q.imm[31:16];
                  bar_first_q[cw_q] <= bar_seen == '0;  // the first arrival at this id sets the count
                end
              end
              default: begin
                if (in_q.op == baresm_isa_pkg::OP_NOP || exec_q == 32'd0) top_q.pc <= pc_next;
                else if (is_vote && !is_ballot) begin
                  bits_q <= vote_r ? 32'hFFFF_FFFF : 32'd0;
                  st_q <= S_PW_RD;
                end else if (is_setp) st_q <= S_LANE;
                else if (is_shfl) st_q <= S_SHFL;
                else if (is_mem) st_q <= S_MCHK;
                else begin
                  if (is_ballot) opb_q <= vote_yes;
                  st_q <= S_LANE;
                end
              end
            endcase
          end

          // ---- the lane loop of ALU instructions and ISETP ----
          S_LANE: begin
            if (lane_on) begin
              ph_q <= ph_q + 3'd1;
              if (ph_q == 3'd1) opa_q <= reg_val(in_q.ra, rv_cw, rf_rdata);
              if (ph_q == 3'd2 && !is_ballot) opb_q <= in_q.bimm ? in_q.imm : reg_val(in_q.rb, rv_cw, rf_rdata);
              if (ph_q == 3'd3) begin
                ph_q <= '0;
                if (is_setp) bits_q[lane_q] <= setp_bit;
              end
            end
            if (!lane_on || ph_q == 3'd3) begin
              tid_q <= baresm_sm_pkg::tid_next(tid_q, {block_y_i, block_x_i});
              lane_q <= lane_next;
              if (lane_last) begin
                st_q <= is_setp ? S_PW_RD : S_RETIRE;
              end
            end
          end

          S_PW_RD: st_q <= S_PW;
          S_PW: st_q <= S_RETIRE;

          // The lane loops' end: the next pc; rd now holds this CTA's values.
          S_RETIRE: begin
            top_q.pc <= pc_next;
            if (writes_rd) rv_q[cw_q][RegW'(in_q.rd)] <= 1'b1;
            st_q <= S_END;
          end

          // ---- SHFL: two loops ----
          S_SHFL: begin
            if (lane_on) ph_q <= ph_q + 3'd1;
            if (!lane_on || ph_q == (pass2_q ? 3'd1 : 3'd2)) begin
              ph_q <= '0;
              lane_q <= lane_next;
              if (lane_last) begin
                pass2_q <= 1'b1;
                if (pass2_q) st_q <= S_RETIRE;
              end
            end
          end

          // ---- memory: every lane checked first (a fault is taken through flt) ----
          S_MCHK: begin
            if (lane_on && ph_q == 3'd0) ph_q <= 3'd1;
            else if (lane_on && ph_q == 3'd1 && is_global) begin
              maddr_q <= addr_now;
              win_q <= '0;
              win_ok_q <= 1'b0;
              ph_q <= 3'd2;
            end else if (lane_on && ph_q == 3'd2 && 32'(win_q) != NumWindows) begin
              if (win_hit) win_ok_q <= 1'b1;
              win_q <= win_q + WinW'(1);
            end else begin
              ph_q <= '0;
              lane_q <= lane_next;
              if (lane_last) st_q <= S_MACC;
            end
          end

          // ---- ... then accessed, one lane at a time ----
          S_MACC: begin
            if (lane_on) begin
              ph_q <= ph_q + 3'd1;
              if (ph_q == 3'd1) maddr_q <= addr_now;
              if (ph_q == 3'd2) opb_q <= reg_val(is_store ? in_q.rd : in_q.rb, rv_cw, rf_rdata);
              if (ph_q == 3'd3) begin
                ph_q <= '0;
                st_q <= S_MWAIT;
              end
            end else begin
              lane_q <= lane_next;
              if (lane_last) st_q <= S_RETIRE;
            end
          end

          S_MWAIT: begin
            if (is_shared || (take_rsp && !req_q)) begin
              lane_q <= lane_next;
              st_q <= S_MACC;
              if (lane_last) st_q <= S_RETIRE;
            end
          end

          // ---- BRA: a divergent branch writes its entries, one per cycle ----
          S_BPUSH: begin
            if (bw_v_q != 3'd0 && wd_q != 3'd2) wd_q <= wd_q + 3'd1;
            else begin
              wd_q <= '0;
              bw_v_q <= bw_v_q & (bw_v_q - 3'd1);
              if ((bw_v_q & (bw_v_q - 3'd1)) == 3'd0) begin
                depth_q[cw_q] <= br_nd;
                top_q <= br_nt;
                // No entry written: the old top went, the one below is the top.
                if (bw_v_q == 3'd0) begin
                  if (br_nd == '0) begin
                    exited_q[cw_q] <= 1'b1;
                    scan_q <= '0;
                    st_q <= S_BAR;
                  end else st_q <= S_POP;
                end else st_q <= S_END;
              end
            end
          end

          // ---- EXIT: the lanes leave every entry below the top too ----
          S_EXIT_RD: st_q <= S_EXIT_WR;
          S_EXIT_WR: begin
            xi_q <= xi_q + DepthW'(1);
            if (xi_q + DepthW'(1) == dtop) begin
              top_q.mask <= top_q.mask & ~exec_q;
              if ((top_q.mask & ~exec_q) != 32'd0) top_q.pc <= pc_next;
              st_q <= S_END;
            end else st_q <= S_EXIT_RD;
          end

          // ---- the top written back; finished entries popped ----
          S_END: begin
            wd_q <= '0;
            if (top_q.mask != 32'd0 && top_q.pc != top_q.rpc) st_q <= S_TOP_WR;
            else begin
              depth_q[cw_q] <= dtop;
              if (dtop == '0) begin
                exited_q[cw_q] <= 1'b1;
                scan_q <= '0;
                st_q <= S_BAR;
              end else st_q <= S_POP;
            end
          end
          S_TOP_WR: begin
            wd_q <= wd_q + 3'd1;
            if (wd_q == 3'd2) begin
              scan_q <= '0;
              st_q <= S_BAR;
            end
          end
          S_POP: st_q <= S_POP2;
          S_POP2: begin
            unique case (wd_q)
              3'd0: top_q.pc <= ax_rdata;
              3'd1: top_q.rpc <= ax_rdata;
              default: top_q.mask <= ax_rdata;
            endcase
            wd_q <= wd_q + 3'd1;
            if (wd_q == 3'd2) begin
              wd_q <= '0;
              st_q <= S_END;
            end
          end

          // ---- barriers: any id whose arrivals are complete releases ----
          S_BAR: begin
            scan_q <= scan_q + (WarpW + 1)'(1);
            if (bar_go) begin
              for (int w = 0; w < NumWarps; w++) if (same_id[w]) waiting_q[w] <= 1'b0;
            end
            if (32'(scan_q) + 1 >= NumWarps) st_q <= S_DEADLOCK;
          end
          S_DEADLOCK: st_q <= S_DL2;
          S_DL2: begin
            // Deadlock: every live warp waits at a barrier that cannot release.
            if (nlive != '0 && (live & ~waiting_q) == '0) begin
              fault_q <= 1'b1;
              // The report names the lowest waiting warp and the pc of its BAR.
              f_q <= {baresm_state_pkg::FAULT_BARRIER_DEADLOCK, 5'd0, 32'd0};
              cw_q <= first_wait;
              top_q.pc <= ax_rdata;
              st_q <= S_STOP;
            end else st_q <= S_SCHED;
          end

          S_CTA_END: begin
            used_q <= '0;
            if (last_cta) st_q <= S_STOP;
            else begin
              if (!wrap_x) cta_x_q <= cta_x_nx;
              else begin
                cta_x_q <= '0;
                if (!wrap_y) cta_y_q <= cta_y_nx;
                else begin
                  cta_y_q <= '0;
                  cta_z_q <= cta_z_nx;
                end
              end
              scan_q <= '0;
              sub_q <= '0;
              tid_q <= '0;
              cw_q <= WarpW'(NumWarps - 1);
              st_q <= S_CTA;
            end
          end

          S_STOP: ;
          default: st_q <= S_STOP;
        endcase
      end
    end
  end

  // ---- outputs ----------------------------------------------------------------------------------------------
  assign mem_req_o.valid = req_q;
  assign mem_req_o.id = '0;
  assign mem_req_o.addr = req_addr_q;
  assign mem_req_o.op = req_op_q;
  assign mem_req_o.amo = in_q.mod[4:0];
  assign mem_req_o.wdata = req_wdata_q;
  assign mem_req_o.wstrb = req_wstrb_q;
  assign mem_rsp_ready_o = 1'b1;

  assign grid_done_o = st_q == S_STOP && !fault_q;
  assign any_cta_o = st_q != S_IDLE && st_q != S_STOP;
  assign mem_idle_o = !req_q && !outstanding_q;
  assign fault_o = fault_q;
  assign fault_kind_o = f_q.kind;
  // (All 0 until a fault: the report of a launch that ends well is empty.)
  assign fault_cta_x_o = fault_q ? cta_x_q : 32'd0;
  assign fault_cta_y_o = fault_q ? cta_y_q : 32'd0;
  assign fault_cta_z_o = fault_q ? cta_z_q : 32'd0;
  assign fault_warp_o = fault_q ? 8'(cw_q) : 8'd0;
  assign fault_lane_o = f_q.lane;
  assign fault_pc_o = fault_q ? top_q.pc : 32'd0;
  assign fault_addr_o = f_q.addr;
  assign fault_waiting_o = (f_q.kind == baresm_state_pkg::FAULT_BARRIER_DEADLOCK) ? 32'(waiting_q) : 32'd0;

  // The current warp, from its stack top's read to the barrier check.
  logic in_instr;
  assign in_instr = st_q != S_IDLE && st_q != S_CTA && st_q != S_SCLR && st_q != S_SCHED &&
                    st_q != S_CTA_END && st_q != S_STOP;
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      wait_mem_o[w] = in_instr && cw_q == WarpW'(w) &&
                      (st_q == S_FWAIT || (st_q == S_MWAIT && !is_shared));
      ready_o[w] = runnable[w] && !(in_instr && cw_q == WarpW'(w));
    end
  end
  assign used_o = used_q;
  assign exited_o = exited_q;
  assign bar_wait_o = waiting_q;
  assign issue_o = st_q == S_ISSUE && !flt;
  assign issue_fault_o = flt && flt_issue;
  assign issue_warp_o = cw_q;
  assign issue_pc_o = top_q.pc;
  assign issue_tmask_o = top_q.mask;
  assign issue_exec_o = exec_q;
  assign cta_x_o = cta_x_q;
  assign cta_y_o = cta_y_q;
  assign cta_z_o = cta_z_q;
  assign diverge_o = st_q == S_ISSUE && !flt && in_q.op == baresm_isa_pkg::OP_BRA && br_div;
  assign bar_release_o = bar_go;
  assign cta_retire_o = st_q == S_CTA_END;
  assign ifill_o = req_q && mem_req_ready_i && fetch_q;
  assign gmem_req_o = req_q && mem_req_ready_i && !fetch_q;
  assign smem_access_o = st_q == S_MACC && lane_on && ph_q == 3'd3 && is_shared;

  assign rf_we_o = rf_we && lane_on && st_q != S_CTA;  // the trace: executing lanes' writes only
  assign rf_waddr_o = rf_waddr;
  assign rf_wdata_o = rf_wdata;
  assign pw_valid_o = st_q == S_PW && ax_we;
  assign pw_pd_o = pd;
  assign pw_mask_o = exec_q;
  assign pw_bits_o = bits_q;

  // Assertions: one memory request in flight; the port's request is held.
  `BARESM_ASSERT(a_one_request, !(mreq && (req_q || outstanding_q)))
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_o.valid, mem_req_ready_i,
                      {mem_req_o.addr, mem_req_o.op, mem_req_o.wdata, mem_req_o.wstrb})

endmodule

`default_nettype wire
