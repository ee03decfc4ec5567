// baresm_sm_ibuf: the instruction buffer, one instruction per warp slot,
// and the fetch requests that fill it.
// A warp asks the fetch unit for the word at its stack top's pc when it is
// live, its CTA runs, its stack top is settled and its entry is empty. The
// warp that issues this cycle may ask for its next word at once when it is
// sure to be at pc + 8 (not a branch or exit, and no pop follows): its next
// instruction can then issue 2 cycles later instead of 3.
// A word is pre-decoded as it is written (predecode below): the scoreboard
// checks every warp's operands each cycle, so those fields are decoded once
// per word instead of once per warp per cycle. Out of the buffer come every
// entry's pre-decode (for the scoreboard and the warp states) and the
// granted warp's whole entry (a read port, for the issue stage).
`default_nettype none

module baresm_sm_ibuf #(
  parameter int NumWarps = 16,
  parameter bit HasFpu = 1'b1,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    clear_i,
  input  logic                    running_i,
  input  logic [7:0]              regs_i,         // registers per thread of the launch

  // ---- fetch requests ------------------------------------------------------------
  input  logic [NumWarps-1:0]     can_fetch_i,    // live, CTA running, stack top settled
  input  logic [NumWarps*32-1:0]  warp_pc_i,      // stack-top pcs
  input  logic                    next_ok_i,      // the issuing warp fetches ahead
  input  logic [31:0]             next_pc_i,
  output logic [NumWarps-1:0]     want_o,
  output logic [NumWarps*32-1:0]  pc_o,

  // ---- fill (from fetch) and empty (on issue or placement) -------------------------
  input  logic                    f_valid_i,
  input  logic [WarpW-1:0]        f_warp_i,
  input  logic [63:0]             f_word_i,
  input  logic                    f_bad_i,        // bad pc: the entry only faults
  input  logic                    f_ferr_i,       // ... by a memory error
  input  logic                    issue_i,
  input  logic [WarpW-1:0]        sel_i,          // the granted warp
  input  logic                    place_i,
  input  logic [WarpW-1:0]        place_warp_i,

  // ---- every entry ------------------------------------------------------------------
  output logic [NumWarps-1:0]     valid_o,
  output logic [NumWarps*baresm_sm_pkg::DEC_W-1:0] dec_o,
  output logic [NumWarps-1:0]     ctrl_o,         // of class CL_CTRL (resolved at issue)
  output logic [NumWarps-1:0]     bar_o,          // a legal BAR

  // ---- the granted warp's entry ---------------------------------------------------------
  output logic [63:0]             sel_word_o,
  output logic [baresm_sm_pkg::DEC_W-1:0] sel_dec_o,
  output logic                    sel_bad_o,
  output logic                    sel_ferr_o
);

  localparam int DecW = baresm_sm_pkg::DEC_W;
  localparam logic [5:0] RZ = 6'd63;
  localparam logic [2:0] PT = 3'd7;

  // Pre-decode: what the scoreboard and the issue stage need of a word
  // (fields: baresm_sm_pkg::DEC_W).
  function automatic logic [DecW-1:0] predecode(input logic [43:0] w, input logic [7:0] regs);
    logic [6:0] op;
    logic [9:0] fl;
    logic [1:0] unit;
    logic bimm, atom, cas, ill;
    logic [5:0] rd, ra, rb, rc, sa, sb, sc, dst;
    logic [2:0] cls, pp, pd;
    logic [3:0] mod;
    op = w[6:0];
    bimm = w[7];
    rd = w[17:12];
    ra = w[23:18];
    mod = w[27:24];
    rb = w[37:32];
    rc = w[43:38];
    fl = baresm_isa_pkg::op_flags(op);
    unit = baresm_isa_pkg::op_unit(op);
    atom = op == baresm_isa_pkg::OP_ATOMG || op == baresm_isa_pkg::OP_ATOMS;
    cas = atom && mod[3:0] == baresm_isa_pkg::ATOM_CAS;
    sa = fl[baresm_isa_pkg::F_RA] ? ra : RZ;
    sb = fl[baresm_isa_pkg::F_RRD] ? rd : ((fl[baresm_isa_pkg::F_RB] && !bimm) ? rb : RZ);
    sc = (fl[baresm_isa_pkg::F_RC] && (!atom || cas)) ? rc : RZ;
    dst = fl[baresm_isa_pkg::F_WRD] ? rd : RZ;
    pp = PT;
    pd = fl[baresm_isa_pkg::F_WPD] ? rd[2:0] : PT;
    if (op == baresm_isa_pkg::OP_SEL) pp = mod[2:0];
    if (op == baresm_isa_pkg::OP_ISETP || op == baresm_isa_pkg::OP_FSETP) pp = rd[5:3];
    if (op == baresm_isa_pkg::OP_VOTE) begin
      pp = ra[2:0];
      if (mod[1:0] == baresm_isa_pkg::VOTE_BALLOT) dst = rd;
      else pd = rd[2:0];
    end
    // The registers the instruction uses must exist in this launch (isa
    // used_regs: RZ excluded).
    ill = !baresm_sm_pkg::word_legal(op, bimm, w[31:24]);
    // An SM built without the FPU (HasFpu 0) has no FPU instructions: they
    // fault at issue like an undefined word (the model's has_fpu = false).
    if (!HasFpu && unit == baresm_isa_pkg::UNIT_FPU) ill = 1'b1;
    if ((dst != RZ && 8'(dst) >= regs) || (sa != RZ && 8'(sa) >= regs) ||
        (sb != RZ && 8'(sb) >= regs) || (sc != RZ && 8'(sc) >= regs))
      ill = 1'b1;
    unique case (unit)
      baresm_isa_pkg::UNIT_FPU: cls = baresm_sm_pkg::CL_FPU;
      baresm_isa_pkg::UNIT_LSU: cls = baresm_sm_pkg::CL_LSU;
      baresm_isa_pkg::UNIT_BRU: cls = baresm_sm_pkg::CL_CTRL;
      default: begin
        if (op == baresm_isa_pkg::OP_SHFL) cls = baresm_sm_pkg::CL_SHFL;
        else if (op == baresm_isa_pkg::OP_NOP) cls = baresm_sm_pkg::CL_CTRL;
        else cls = baresm_sm_pkg::CL_ALU;
      end
    endcase
    if (ill) begin
      cls = baresm_sm_pkg::CL_CTRL;
      sa = RZ;
      sb = RZ;
      sc = RZ;
      dst = RZ;
      pp = PT;
      pd = PT;
    end
    predecode = {cls, sa, sb, sc, dst, ill ? PT : w[10:8], pp, pd, ill};
  endfunction

  logic [NumWarps-1:0] ib_valid_q, ib_bad_q, ib_ferr_q;
  logic [63:0] ib_word_q [NumWarps];
  logic [DecW-1:0] ib_dec_q [NumWarps];

  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      want_o[w] = running_i && can_fetch_i[w] && !ib_valid_q[w];
    end
    pc_o = warp_pc_i;
    if (next_ok_i) begin
      want_o[sel_i] = 1'b1;
      pc_o[sel_i*32 +: 32] = next_pc_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ib_valid_q <= '0;
    end else if (clear_i) begin
      ib_valid_q <= '0;
    end else begin
      if (issue_i) ib_valid_q[sel_i] <= 1'b0;
      if (f_valid_i && running_i) ib_valid_q[f_warp_i] <= 1'b1;
      if (place_i) ib_valid_q[place_warp_i] <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (f_valid_i) begin
      ib_word_q[f_warp_i] <= f_word_i;
      ib_bad_q[f_warp_i] <= f_bad_i;
      ib_ferr_q[f_warp_i] <= f_ferr_i;
      // A bad pc has no operands: it only faults.
      ib_dec_q[f_warp_i] <= f_bad_i ? {baresm_sm_pkg::CL_CTRL, RZ, RZ, RZ, RZ, PT, PT, PT, 1'b1}
                                    : predecode(f_word_i[43:0], regs_i);
    end
  end

  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      dec_o[w*DecW +: DecW] = ib_dec_q[w];
      ctrl_o[w] = ib_dec_q[w][36:34] == baresm_sm_pkg::CL_CTRL;
      // BAR is a memory fence for its warp (the scoreboard holds it until
      // the warp's loads and stores are done).
      bar_o[w] = ib_word_q[w][6:0] == baresm_isa_pkg::OP_BAR && !ib_dec_q[w][0] && !ib_bad_q[w];
    end
  end
  assign valid_o = ib_valid_q;

  assign sel_word_o = ib_word_q[sel_i];
  assign sel_dec_o = ib_dec_q[sel_i];
  assign sel_bad_o = ib_bad_q[sel_i];
  assign sel_ferr_o = ib_ferr_q[sel_i];

endmodule

`default_nettype wire
