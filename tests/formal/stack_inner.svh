// Included at the end of a scratch copy of baresm_sm_stacks (scripts/formal.sh),
// instantiated with one warp slot.
//   - depth bound: never more than Depth entries;
//   - overflow flagged exactly when a diverging BRA needs more than Depth
//     entries (the need recomputed here from the top entry on the ports:
//     entries kept, minus the top when it is popped, plus the fall-through
//     and taken pushes);
//   - a flagged overflow leaves the stack as it was; a diverging BRA that
//     fits leaves exactly the needed entries; otherwise the depth only drops,
//     one entry per cycle (pops), or becomes 1 (init) or 0 (clear).
`ifdef FORMAL
  logic [31:0] fv_taken, fv_rest;
  logic fv_div, fv_pop, fv_pf, fv_pt;
  logic [7:0] fv_need;
  assign fv_taken = top_mask_o & op_guard_i;
  assign fv_rest = top_mask_o & ~op_guard_i;
  assign fv_div = fv_taken != 32'd0 && fv_rest != 32'd0;
  assign fv_pop = op_reconv_i == top_rpc_o && top_pc_o + 32'd8 == op_reconv_i;
  assign fv_pf = op_reconv_i != top_rpc_o && top_pc_o + 32'd8 != op_reconv_i;
  assign fv_pt = op_target_i != op_reconv_i;
  assign fv_need = 8'(depth_o) - (fv_pop ? 8'd1 : 8'd0) + (fv_pf ? 8'd1 : 8'd0) + (fv_pt ? 8'd1 : 8'd0);

  logic fv_ok_q, fv_bra_q, fv_ovf_q, fv_op_q, fv_init_q, fv_clear_q;
  logic [7:0] fv_need_q, fv_depth_q;
  always_ff @(posedge clk_i) begin
    fv_ok_q <= rst_ni;
    fv_op_q <= op_valid_i;
    fv_bra_q <= op_valid_i && op_kind_i == OP_BRA && fv_div;
    fv_ovf_q <= bra_overflow_o;
    fv_init_q <= init_i;
    fv_clear_q <= clear_i;
    fv_need_q <= fv_need;
    fv_depth_q <= 8'(depth_o);
  end
  logic fv_step;   // the last cycle and this one are out of reset, no clear/init last cycle
  assign fv_step = rst_ni && fv_ok_q && !fv_clear_q && !fv_init_q;

  always @* if (rst_ni) assert (32'(depth_o) <= Depth);
  always @* if (rst_ni) assert (bra_overflow_o == (fv_div && 32'(fv_need) > Depth));
  always @* if (rst_ni) assert (bra_diverge_o == fv_div);
  always @* if (rst_ni && settled_o) assert (!empty_o);
  always @* if (rst_ni) assert (empty_o == (depth_o == '0));
  always @* if (fv_step && fv_bra_q && fv_ovf_q) assert (8'(depth_o) == fv_depth_q);
  always @* if (fv_step && fv_bra_q && !fv_ovf_q) assert (8'(depth_o) == fv_need_q);
  always @* if (fv_step && !fv_bra_q && fv_op_q) assert (8'(depth_o) == fv_depth_q);
  always @* if (fv_step && !fv_op_q) assert (8'(depth_o) == fv_depth_q || 8'(depth_o) + 8'd1 == fv_depth_q);
  always @* if (rst_ni && fv_ok_q && fv_clear_q) assert (depth_o == '0);
  always @* if (rst_ni && fv_ok_q && !fv_clear_q && fv_init_q) assert (depth_o == DepthW'(1));
`endif
