// Internal properties of baresm_msm_lane for the proof msm_lane (appended
// inside the module by scripts/formal.sh); fv_msm_lane.sv says what they
// prove and what they assume.
`include "fv_alu_pick.svh"
`ifdef FORMAL
  localparam int FvN = 1 << (WarpW + RegW);   // a lane's registers, all warps
  (* anyconst *) logic [4:0] fv_lane;

  // ---- the tracked lane's registers: a shadow of what was written -------------------
  logic [31:0] fv_rf [FvN];
  logic fv_hit_w;
  assign fv_hit_w = we && waddr[4:0] == fv_lane;
  always_ff @(posedge clk_i) if (fv_hit_w) fv_rf[waddr[AddrW-1:5]] <= wdata;
  // The register file's read contract at that lane (no read of a word
  // written in the same cycle: undefined on the FPGA, left free).
  logic fv_rdv_q;
  logic [31:0] fv_rd_q;
  always_ff @(posedge clk_i) begin
    fv_rdv_q <= re && raddr[4:0] == fv_lane && !(we && waddr == raddr);
    fv_rd_q <= fv_rf[raddr[AddrW-1:5]];
  end
  always @* if (fv_rdv_q) assume (rdata == fv_rd_q);

  // ---- the loop as the spec has it -------------------------------------------------
  logic fv_start;
  assign fv_start = rst_ni && !busy_q && start_i;
  // The lane's registers as the loop starts (after that cycle's writes).
  logic [31:0] fv_s [FvN];
  always_ff @(posedge clk_i)
    if (fv_start)
      for (int k = 0; k < FvN; k++)
        fv_s[k] <= (fv_hit_w && 32'(waddr[AddrW-1:5]) == k) ? wdata : fv_rf[k];
  logic [WarpW-1:0] fv_w;
  assign fv_w = op_i.warp[WarpW-1:0];
  logic [WarpW+RegW-1:0] fv_ka, fv_kb, fv_kc, fv_kd;
  assign fv_ka = {fv_w, op_i.ra[RegW-1:0]};
  assign fv_kb = {fv_w, op_i.rb[RegW-1:0]};
  assign fv_kc = {fv_w, op_i.rc[RegW-1:0]};
  assign fv_kd = {fv_w, op_i.rd[RegW-1:0]};
  logic fv_on, fv_expw;   // the lane executes; the lane's rd is to be written
  assign fv_on = exec[fv_lane];
  assign fv_expw = fv_on ? op_i.write_rd : op_i.zero_fill;
  // The operands: the registers' values at the start.
  logic [31:0] fv_a, fv_b, fv_c;
  assign fv_a = op_i.zero_a ? 32'd0 : fv_s[fv_ka];
  assign fv_b = op_i.bimm ? op_i.imm : op_i.zero_b ? 32'd0 : fv_s[fv_kb];
  assign fv_c = op_i.zero_c ? 32'd0 : fv_s[fv_kc];
  // S2R: lane l's thread id is lane 0's stepped once per lane before it by
  // the block's x and y (kept here as the loop walks the lanes).
  logic [47:0] fv_tid_q;
  logic [31:0] fv_sreg;
  assign fv_sreg = baresm_ssm_pkg::sreg(op_i.mod, fv_tid_q, 48'd0, 96'd0, 96'd0, fv_lane, 32'd0, 8'd0, clock_i);

  // The lane's step of the loop: its write, the loop's last step.
  logic fv_at, fv_exec_l, fv_step, fv_fin;
  assign fv_at = busy_q && lane_q == fv_lane;
  assign fv_exec_l = fv_at && lane_on && ph_q == 2'd3;
  assign fv_step = busy_q && (!lane_on || ph_q == 2'd3);
  assign fv_fin = fv_step && last;

  // Per loop: written yet; the op's fields for the checks after the loop.
  logic fv_wrote_q, fv_expw_q, fv_on_q, fv_setp_q, fv_end_q, fv_bknown_q, fv_bexp_q;
  logic [WarpW+RegW-1:0] fv_kd_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_wrote_q <= 1'b0;
      fv_end_q <= 1'b0;
      fv_bknown_q <= 1'b1;   // bits_o is 0 after a reset
      fv_bexp_q <= 1'b0;
    end else begin
      fv_end_q <= fv_fin;
      if (busy_q && fv_hit_w) fv_wrote_q <= 1'b1;
      if (fv_exec_l) fv_setp_q <= setp;
      if (fv_fin) begin
        fv_bknown_q <= 1'b1;
        fv_bexp_q <= fv_on && (fv_exec_l ? setp : fv_setp_q);
      end
      if (fv_step) fv_tid_q <= baresm_sm_pkg::tid_next(fv_tid_q, block_xy_i);
      if (fv_start) begin
        fv_tid_q <= op_i.tid0;
        fv_wrote_q <= 1'b0;
        fv_bknown_q <= 1'b0;
        fv_expw_q <= exec[fv_lane] ? op_i.write_rd : op_i.zero_fill;
        fv_on_q <= exec[fv_lane];
        fv_kd_q <= {op_i.warp[WarpW-1:0], op_i.rd[RegW-1:0]};
      end
    end
  end

  // ---- (a) writes while the loop runs ------------------------------------------------
  always @* if (rst_ni && busy_q && we) assert (waddr[AddrW-1:5] == fv_kd);
  always @* if (rst_ni && busy_q && fv_hit_w) assert (!fv_wrote_q && fv_expw && lane_q == fv_lane);
  always @* if (rst_ni && busy_q && fv_hit_w && !fv_on) assert (wdata == 32'd0);
  // At the loop's end: written as the op says; the lane's other registers
  // (every warp) as they were at the start.
  always @* if (rst_ni && fv_end_q) assert (fv_wrote_q == fv_expw_q);
  always @* if (rst_ni && fv_end_q)
    for (int k = 0; k < FvN; k++) if (!(fv_expw_q && k == 32'(fv_kd_q))) assert (fv_rf[k] == fv_s[k]);

  // ---- (b) the executing lane's result: the ALU on the lane's operands ------------------
  // (The proof's ALU is tests/formal/fv_alu_stub.sv: it returns one of its
  // inputs, the solver's choice, so this checks every input it is given.)
  always @* if (rst_ni && busy_q && fv_hit_w && fv_on)
    assert (wdata == fv_alu_pick(op_i.op, op_i.mod, 1'b0, amo_op_i, fv_a, fv_b, fv_c, sel[fv_lane], fv_sreg));
  // Between loops the ALU computes an atomic's new word: ATOM's op on the
  // old word, b, c.
  always @* if (rst_ni && !busy_q)
    assert (amo_new_o == fv_alu_pick(7'd0, {3'd0, amo_op_i}, 1'b1, amo_op_i, amo_old_i, amo_b_i, amo_c_i, 1'b1, sreg));

  // ---- (c) ISETP's bits ---------------------------------------------------------------
  always @* if (rst_ni && !busy_q && fv_bknown_q) assert (bits_o[fv_lane] == fv_bexp_q);

  // ---- (d) the trace: the executing lanes' rd writes -----------------------------------
  always @* if (rst_ni) assert (trace_we_o == (busy_q && we && lane_on));
  always @* if (rst_ni && trace_we_o) assert (trace_addr_o == waddr && trace_data_o == wdata);

  // ---- (e) no single-register write while the loop runs --------------------------------
  always @* if (rst_ni && busy_q && wr_we_i && !(lane_on ? ph_q == 2'd3 && op_i.write_rd : op_i.zero_fill))
    assert (!we);

  // ---- induction invariants ------------------------------------------------------------
  always @* if (rst_ni && busy_q && !lane_on) assert (ph_q == 2'd0);
  always @* if (rst_ni && busy_q) assert (tid_q == fv_tid_q);
  always @* if (rst_ni && busy_q) assert (fv_expw_q == fv_expw && fv_on_q == fv_on && fv_kd_q == fv_kd);
  always @* if (rst_ni && busy_q) assert (!fv_bknown_q && !fv_end_q);
  always @* if (rst_ni && busy_q && (lane_q < fv_lane || (lane_q == fv_lane && ph_q != 2'd3)))
    assert (!fv_wrote_q && bits_q[fv_lane] == 1'b0);
  always @* if (rst_ni && busy_q && (lane_q < fv_lane || (lane_q == fv_lane && ph_q != 2'd3)))
    for (int k = 0; k < FvN; k++) assert (fv_rf[k] == fv_s[k]);
  always @* if (rst_ni && busy_q && lane_q > fv_lane)
    assert (fv_wrote_q == fv_expw && bits_q[fv_lane] == (fv_on && fv_setp_q));
  always @* if (rst_ni && busy_q && lane_q > fv_lane)
    for (int k = 0; k < FvN; k++) if (!(fv_expw && k == 32'(fv_kd))) assert (fv_rf[k] == fv_s[k]);
  always @* if (rst_ni && fv_at && lane_on && ph_q == 2'd1 && !op_i.zero_a)
    assert (fv_rdv_q && fv_rd_q == fv_s[fv_ka]);
  always @* if (rst_ni && fv_at && lane_on && ph_q >= 2'd2) assert (a_q == fv_a);
  always @* if (rst_ni && fv_at && lane_on && ph_q == 2'd2 && !op_i.bimm && !op_i.zero_b)
    assert (fv_rdv_q && fv_rd_q == fv_s[fv_kb]);
  always @* if (rst_ni && fv_at && lane_on && ph_q == 2'd3) assert (b_q == fv_b);
  always @* if (rst_ni && fv_at && lane_on && ph_q == 2'd3 && !op_i.zero_c)
    assert (fv_rdv_q && fv_rd_q == fv_s[fv_kc]);
`endif
