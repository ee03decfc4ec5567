// baresm_sm_slots: the warp-slot and CTA-slot tables. The dispatcher
// (baresm_sm_dispatch) decides where a CTA and its warps go; this block
// remembers it: per warp slot whether it is used, its CTA slot, its index
// in the CTA and its lane-0 thread id; per CTA slot whether it is used,
// whether it runs (all its warps placed: a barrier must see every warp of
// its CTA) and its CTA id in the grid.
// A CTA retires, freeing its CTA slot and its warps' slots in the same
// cycle, when every warp of it has exited and nothing of theirs is in
// flight (drained_i: no pending register or predicate write, no memory
// instruction, nothing in the pipe). The tables are small (NumWarps and
// CtaSlots entries) and every entry is read every cycle by someone
// (scheduler, barrier unit, issue, fault report), so they are flops.
`default_nettype none
`include "baresm_assert.svh"

module baresm_sm_slots #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     clear_i,

  // ---- from the dispatcher ----------------------------------------------------------
  input  logic                     place_i,        // a warp is placed
  input  logic [WarpW-1:0]         place_warp_i,
  input  logic [CtaW-1:0]          place_cta_i,
  input  logic [4:0]               place_wic_i,
  input  logic [47:0]              place_tid_i,
  input  logic                     cta_start_i,    // a CTA takes a slot
  input  logic [CtaW-1:0]          start_cta_i,
  input  logic [31:0]              cta_x_i,
  input  logic [31:0]              cta_y_i,
  input  logic [31:0]              cta_z_i,
  input  logic                     cta_run_i,      // place_cta_i's CTA runs (its last warp placed)

  // ---- what retires a CTA ----------------------------------------------------------------
  input  logic [NumWarps-1:0]      exited_i,       // the warp's stack is empty
  input  logic [NumWarps-1:0]      drained_i,      // nothing of the warp in flight

  // ---- tables ---------------------------------------------------------------------------------
  output logic [NumWarps-1:0]      warp_used_o,
  output logic [NumWarps*CtaW-1:0] warp_cta_o,
  output logic [NumWarps*5-1:0]    warp_wic_o,     // warp index in the CTA
  output logic [NumWarps-1:0]      warp_cta_run_o, // the warp's CTA runs
  input  logic [WarpW-1:0]         tid_warp_i,     // read port: a warp's
  output logic [47:0]              tid_o,          // lane-0 thread id
  output logic [CtaSlots-1:0]      cta_used_o,
  output logic [CtaSlots-1:0]      cta_run_o,
  output logic [CtaSlots*32-1:0]   cta_x_o,
  output logic [CtaSlots*32-1:0]   cta_y_o,
  output logic [CtaSlots*32-1:0]   cta_z_o,
  output logic [CtaSlots-1:0]      cta_retire_o,   // CTAs retiring this cycle
  output logic                     any_cta_o       // a CTA slot is in use
);

  logic [NumWarps-1:0] slot_used_q;
  logic [NumWarps*CtaW-1:0] slot_cta_q;
  logic [NumWarps*5-1:0] slot_wic_q;
  logic [47:0] slot_tid_q [NumWarps];
  logic [CtaSlots-1:0] cta_used_q, cta_run_q;
  logic [CtaSlots*32-1:0] cta_x_q, cta_y_q, cta_z_q;

  logic [CtaSlots-1:0] cta_retire;
  logic [NumWarps-1:0] warp_retire;
  always_comb begin
    cta_retire = cta_run_q;
    for (int w = 0; w < NumWarps; w++) begin
      if (slot_used_q[w] && !(exited_i[w] && drained_i[w]))
        cta_retire[slot_cta_q[w*CtaW +: CtaW]] = 1'b0;
    end
    for (int w = 0; w < NumWarps; w++) begin
      warp_retire[w] = slot_used_q[w] && cta_retire[slot_cta_q[w*CtaW +: CtaW]];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      slot_used_q <= '0;
      cta_used_q <= '0;
      cta_run_q <= '0;
    end else if (clear_i) begin
      slot_used_q <= '0;
      cta_used_q <= '0;
      cta_run_q <= '0;
    end else begin
      slot_used_q <= (slot_used_q & ~warp_retire) |
                     (place_i ? (NumWarps'(1) << place_warp_i) : '0);
      cta_used_q <= (cta_used_q & ~cta_retire) | (cta_start_i ? (CtaSlots'(1) << start_cta_i) : '0);
      cta_run_q <= (cta_run_q & ~cta_retire) | (cta_run_i ? (CtaSlots'(1) << place_cta_i) : '0);
    end
  end

  always_ff @(posedge clk_i) begin
    if (cta_start_i) begin
      cta_x_q[start_cta_i*32 +: 32] <= cta_x_i;
      cta_y_q[start_cta_i*32 +: 32] <= cta_y_i;
      cta_z_q[start_cta_i*32 +: 32] <= cta_z_i;
    end
    if (place_i) begin
      slot_cta_q[place_warp_i*CtaW +: CtaW] <= place_cta_i;
      slot_wic_q[place_warp_i*5 +: 5] <= place_wic_i;
      slot_tid_q[place_warp_i] <= place_tid_i;
    end
  end

  always_comb begin
    for (int w = 0; w < NumWarps; w++) warp_cta_run_o[w] = cta_run_q[slot_cta_q[w*CtaW +: CtaW]];
  end

  assign warp_used_o = slot_used_q;
  assign warp_cta_o = slot_cta_q;
  assign warp_wic_o = slot_wic_q;
  assign tid_o = slot_tid_q[tid_warp_i];
  assign cta_used_o = cta_used_q;
  assign cta_run_o = cta_run_q;
  assign cta_x_o = cta_x_q;
  assign cta_y_o = cta_y_q;
  assign cta_z_o = cta_z_q;
  assign cta_retire_o = cta_retire;
  assign any_cta_o = cta_used_q != '0;

  // A CTA slot is started only when free and runs only while used.
  `BARESM_ASSERT(a_cta_start_free, !cta_start_i || !cta_used_q[start_cta_i])
  `BARESM_ASSERT(a_cta_run_used, (cta_run_q & ~cta_used_q) == '0)

endmodule

`default_nettype wire
