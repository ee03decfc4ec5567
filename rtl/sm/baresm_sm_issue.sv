// baresm_sm_issue: the issue stage, for the warp the scheduler granted.
// It reads the warp's buffered instruction (baresm_sm_ibuf), its stack top
// and its predicates, and in the same cycle
//   - evaluates the guard: exec = stack-top mask & guard, and the second
//     predicate (ballot = exec & that predicate);
//   - resolves what needs no pipe: issue-time faults (bad pc, fetch error,
//     illegal word, TRAP in a live lane, a branch that would overflow the
//     stack), the branch target and reconvergence point for the stack,
//     EXIT, BAR arrival;
//   - picks operand b: the immediate for ALU/FPU/SHFL with bimm (memory
//     instructions use imm as the address offset and read b as store data or
//     the atomic operand), VOTE.BALLOT's ballot, VOTE.ANY/ALL's answer;
//   - reads the warp-uniform special registers (block and grid sizes, CTA
//     id, warp id, SM id, clock), so the pipe carries one value, not lanes.
// Resolving control at issue is what lets a warp issue every other cycle
// without a branch unit in the pipe; the cost is this stage's width (the
// guard and mask are 32 lanes whatever NumLanes is).
// An issue (issue_o) is a grant without a fault; a grant with a fault
// issues nothing and reports it (iss_fault_o) to baresm_sm_faults.
`default_nettype none

module baresm_sm_issue #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int SmId = 0,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                    running_i,
  input  logic                    grant_valid_i,
  input  logic [WarpW-1:0]        sel_i,          // the granted warp

  // ---- its buffered instruction -------------------------------------------------
  input  logic [63:0]             word_i,
  input  logic [baresm_sm_pkg::DEC_W-1:0] dec_i,
  input  logic                    bad_i,
  input  logic                    ferr_i,

  // ---- its predicates (baresm_sm_pred read ports) -----------------------------------
  output logic [2:0]              pred_a_o,       // guard predicate
  output logic [2:0]              pred_b_o,       // second predicate
  input  logic [31:0]             pred_a_i,
  input  logic [31:0]             pred_b_i,

  // ---- every warp (the granted one is selected here) -----------------------------------
  input  logic [NumWarps*32-1:0]  warp_pc_i,      // stack top
  input  logic [NumWarps*32-1:0]  warp_mask_i,
  input  logic [NumWarps*32-1:0]  warp_rpc_i,
  input  logic                    overflow_i,      // a branch now would overflow the warp's stack
  input  logic [NumWarps*CtaW-1:0] warp_cta_i,
  input  logic [NumWarps*5-1:0]   warp_wic_i,
  input  logic [CtaSlots*32-1:0]  cta_x_i,
  input  logic [CtaSlots*32-1:0]  cta_y_i,
  input  logic [CtaSlots*32-1:0]  cta_z_i,

  // ---- launch ---------------------------------------------------------------------------
  input  logic [15:0]             block_x_i,
  input  logic [15:0]             block_y_i,
  input  logic [15:0]             block_z_i,
  input  logic [31:0]             grid_x_i,
  input  logic [31:0]             grid_y_i,
  input  logic [31:0]             grid_z_i,
  input  logic [7:0]              smid_i,
  input  logic [63:0]             clock_i,        // cycles since reset

  // ---- issue ----------------------------------------------------------------------------------
  output logic                    issue_o,        // an instruction issues (no fault)
  output logic                    pipe_o,         // ... to the pipe (not CL_CTRL)
  output logic                    arrive_o,       // ... a BAR with a live lane
  output logic                    next_ok_o,      // the warp's next word is at pc + 8
  output logic [31:0]             next_pc_o,
  output logic [6:0]              op_o,
  output logic [7:0]              mod_o,
  output logic [2:0]              class_o,
  output logic [5:0]              sa_o,
  output logic [5:0]              sb_o,
  output logic [5:0]              sc_o,
  output logic [5:0]              rd_o,
  output logic [2:0]              pd_o,
  output logic [3:0]              bar_id_o,       // BAR: barrier id
  output logic [15:0]             bar_count_o,    // ... and thread count (0: the whole CTA)
  output logic                    use_imm_o,      // operand b is bval_o
  output logic [31:0]             bval_o,
  output logic [31:0]             sreg_o,
  output logic [31:0]             pc_o,
  output logic [31:0]             tmask_o,        // lanes of the stack top
  output logic [31:0]             guard_o,
  output logic [31:0]             exec_o,         // ... whose guard is true
  output logic [31:0]             ppv_o,          // second predicate
  output logic [CtaW-1:0]         cta_o,
  output logic [1:0]              stk_kind_o,     // stack operation: 0 none, 1 BRA, 2 EXIT
  output logic [31:0]             target_o,
  output logic [31:0]             reconv_o,

  // ---- issue-time fault -------------------------------------------------------------------
  output logic                    fault_o,
  output logic [3:0]              fault_kind_o,
  output logic [4:0]              fault_lane_o
);

  logic [63:0] iw;
  logic [baresm_sm_pkg::DEC_W-1:0] idec;
  logic [6:0] i_op;
  logic [7:0] i_mod;
  logic [2:0] i_class, i_pg, i_pp, i_pd;
  logic i_bimm, i_pgn, i_ill, i_ppn;
  logic [31:0] i_imm, i_pc, i_tmask, i_guard, i_exec, i_ppv, i_ballot;
  logic [CtaW-1:0] i_cta;

  assign iw = word_i;
  assign idec = dec_i;
  assign i_op = iw[6:0];
  assign i_bimm = iw[7];
  assign i_pgn = iw[11];
  assign i_mod = iw[31:24];
  assign i_imm = i_bimm ? iw[63:32] : {{12{iw[63]}}, iw[63:44]};
  assign i_class = idec[36:34];
  assign i_pg = idec[9:7];
  assign i_pp = idec[6:4];
  assign i_pd = idec[3:1];
  assign i_ill = idec[0];
  assign i_pc = warp_pc_i[sel_i*32 +: 32];
  assign i_tmask = warp_mask_i[sel_i*32 +: 32];
  assign i_cta = warp_cta_i[sel_i*CtaW +: CtaW];

  assign pred_a_o = i_pg;
  assign pred_b_o = i_pp;
  always_comb begin
    i_guard = pred_a_i;
    if (i_pgn) i_guard = ~i_guard;
    i_ppn = 1'b0;
    if (i_op == baresm_isa_pkg::OP_SEL) i_ppn = i_mod[3];
    if (i_op == baresm_isa_pkg::OP_ISETP || i_op == baresm_isa_pkg::OP_FSETP) i_ppn = i_mod[6];
    if (i_op == baresm_isa_pkg::OP_VOTE) i_ppn = iw[21];  // ra[3]
    i_ppv = pred_b_i;
    if (i_ppn) i_ppv = ~i_ppv;
  end
  assign i_exec = i_tmask & i_guard;
  assign i_ballot = i_exec & i_ppv;

  // Branch target and reconvergence point.
  assign target_o = i_pc + {{13{iw[47]}}, iw[47:32], 3'b000};
  assign reconv_o = (iw[63:48] == 16'd0) ? baresm_sm_pkg::PC_NONE
                                         : i_pc + {{13{iw[63]}}, iw[63:48], 3'b000};

  // Issue-time faults.
  logic iss_fault;
  logic [3:0] iss_fkind;
  logic [4:0] iss_flane;
  always_comb begin
    iss_fault = 1'b0;
    iss_fkind = baresm_state_pkg::FAULT_NONE;
    iss_flane = baresm_sm_pkg::lowest_lane(i_tmask);
    if (bad_i) begin
      iss_fault = 1'b1;
      iss_fkind = ferr_i ? baresm_state_pkg::FAULT_FETCH_ERROR : baresm_state_pkg::FAULT_INVALID_PC;
    end else if (i_ill) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_ILLEGAL_INSTR;
    end else if (i_op == baresm_isa_pkg::OP_TRAP && i_exec != 32'd0) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_TRAP;
      iss_flane = baresm_sm_pkg::lowest_lane(i_exec);
    end else if (i_op == baresm_isa_pkg::OP_BRA && overflow_i) begin
      iss_fault = 1'b1;
      iss_fkind = baresm_state_pkg::FAULT_STACK_OVERFLOW;
    end
    if (!grant_valid_i) iss_fault = 1'b0;
  end
  assign fault_o = iss_fault;
  assign fault_kind_o = iss_fkind;
  assign fault_lane_o = iss_flane;

  logic issue;
  assign issue = grant_valid_i && !iss_fault;
  assign issue_o = issue;
  assign next_pc_o = i_pc + 32'd8;
  assign next_ok_o = issue && running_i && i_op != baresm_isa_pkg::OP_BRA &&
                     i_op != baresm_isa_pkg::OP_EXIT && next_pc_o != warp_rpc_i[sel_i*32 +: 32];

  assign pipe_o = issue && i_class != baresm_sm_pkg::CL_CTRL;
  assign arrive_o = issue && i_op == baresm_isa_pkg::OP_BAR && i_exec != 32'd0;

  // Warp-uniform special registers.
  always_comb begin
    unique case (i_mod)
      baresm_isa_pkg::SR_NTID_X: sreg_o = {16'd0, block_x_i};
      baresm_isa_pkg::SR_NTID_Y: sreg_o = {16'd0, block_y_i};
      baresm_isa_pkg::SR_NTID_Z: sreg_o = {16'd0, block_z_i};
      baresm_isa_pkg::SR_CTAID_X: sreg_o = cta_x_i[i_cta*32 +: 32];
      baresm_isa_pkg::SR_CTAID_Y: sreg_o = cta_y_i[i_cta*32 +: 32];
      baresm_isa_pkg::SR_CTAID_Z: sreg_o = cta_z_i[i_cta*32 +: 32];
      baresm_isa_pkg::SR_NCTAID_X: sreg_o = grid_x_i;
      baresm_isa_pkg::SR_NCTAID_Y: sreg_o = grid_y_i;
      baresm_isa_pkg::SR_NCTAID_Z: sreg_o = grid_z_i;
      baresm_isa_pkg::SR_WARPID: sreg_o = {27'd0, warp_wic_i[sel_i*5 +: 5]};
      baresm_isa_pkg::SR_SMID: sreg_o = (smid_i != 8'd0) ? {24'd0, smid_i} : 32'(SmId);
      baresm_isa_pkg::SR_CLOCK: sreg_o = clock_i[31:0];
      baresm_isa_pkg::SR_CLOCKHI: sreg_o = clock_i[63:32];
      default: sreg_o = 32'd0;
    endcase
  end

  // Operand b is the immediate for ALU/FPU/SHFL with bimm; memory
  // instructions use imm as the address offset (b is the store data / the
  // atomic operand); VOTE.BALLOT passes the ballot as b, VOTE.ANY/ALL its
  // answer (all ones or 0: the same in every lane, written to the predicate
  // by the ALU at the end of the pipe like ISETP's).
  logic vote_answer;
  assign vote_answer = (i_mod[1:0] == baresm_isa_pkg::VOTE_ANY) ? (i_ballot != 32'd0) : (i_ballot == i_exec);
  assign use_imm_o = (i_bimm && i_class != baresm_sm_pkg::CL_LSU) || i_op == baresm_isa_pkg::OP_VOTE;
  assign bval_o = (i_op != baresm_isa_pkg::OP_VOTE) ? i_imm :
                  (i_mod[1:0] == baresm_isa_pkg::VOTE_BALLOT) ? i_ballot : {32{vote_answer}};

  assign stk_kind_o = (i_op == baresm_isa_pkg::OP_BRA) ? 2'd1 :
                      (i_op == baresm_isa_pkg::OP_EXIT) ? 2'd2 : 2'd0;

  assign op_o = i_op;
  assign mod_o = i_mod;
  assign class_o = i_class;
  assign sa_o = idec[33:28];
  assign sb_o = idec[27:22];
  assign sc_o = idec[21:16];
  assign rd_o = idec[15:10];
  assign pd_o = i_pd;
  assign bar_id_o = i_imm[3:0];
  assign bar_count_o = i_imm[31:16];
  assign pc_o = i_pc;
  assign tmask_o = i_tmask;
  assign guard_o = i_guard;
  assign exec_o = i_exec;
  assign ppv_o = i_ppv;
  assign cta_o = i_cta;

  // The word's register fields and guard are read through the pre-decode.
  logic unused_word;
  assign unused_word = ^iw[23:8];

endmodule

`default_nettype wire
