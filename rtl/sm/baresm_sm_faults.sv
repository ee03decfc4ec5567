// baresm_sm_faults: the SM's fault state. Four sources can end a launch; in
// one cycle the oldest wins:
//   1. an LSU fault (misaligned, out of window, memory error): its
//      instruction was issued before anything below;
//   2. an issue-time fault (bad pc, fetch error, illegal word, TRAP, stack
//      overflow) of the warp being granted;
//   3. a barrier deadlock: reported as the waiting warp with the lowest
//      index in the CTA, with the waiting warps as a mask of CTA warp indices;
//   4. the watchdog (launch cycles reached the descriptor's limit): the
//      lowest live warp, where it stands.
// Only while running; the first fault is kept (sticky) until the next
// launch clears it, and its report (kind, CTA, warp, lane, pc, address,
// waiting warps) is what the SM's fault_*_o ports show. The report is
// resolved to grid coordinates here, once, so the rest of the SM carries
// only a warp slot.
`default_nettype none

module baresm_sm_faults #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      clear_i,
  input  logic                      running_i,

  // ---- sources ----------------------------------------------------------------
  input  logic                      lsu_fault_i,
  input  logic [3:0]                lsu_kind_i,
  input  logic [WarpW-1:0]          lsu_warp_i,
  input  logic [4:0]                lsu_lane_i,
  input  logic [31:0]               lsu_pc_i,
  input  logic [31:0]               lsu_addr_i,
  input  logic                      iss_fault_i,
  input  logic [3:0]                iss_kind_i,
  input  logic [WarpW-1:0]          iss_warp_i,
  input  logic [4:0]                iss_lane_i,
  input  logic [31:0]               iss_pc_i,
  input  logic                      deadlock_i,
  input  logic [NumWarps-1:0]       deadlock_warps_i,
  input  logic [NumWarps*32-1:0]    bar_pc_i,       // per warp: the pc of its BAR
  input  logic [63:0]               watchdog_i,     // cycle limit (0: none)
  input  logic [63:0]               cycles_i,       // cycles of this launch

  // ---- where each warp stands -----------------------------------------------------
  input  logic [NumWarps-1:0]       live_i,
  input  logic [NumWarps*32-1:0]    warp_pc_i,
  input  logic [NumWarps*32-1:0]    warp_mask_i,
  input  logic [NumWarps*CtaW-1:0]  warp_cta_i,
  input  logic [NumWarps*5-1:0]     warp_wic_i,     // warp index in the CTA
  input  logic [CtaSlots*32-1:0]    cta_x_i,
  input  logic [CtaSlots*32-1:0]    cta_y_i,
  input  logic [CtaSlots*32-1:0]    cta_z_i,

  // ---- state and report ---------------------------------------------------------------
  output logic                      new_fault_o,    // a fault is taken this cycle
  output logic                      fault_o,        // a fault is held
  output logic [3:0]                kind_o,
  output logic [31:0]               cta_x_o,
  output logic [31:0]               cta_y_o,
  output logic [31:0]               cta_z_o,
  output logic [7:0]                warp_o,
  output logic [4:0]                lane_o,
  output logic [31:0]               pc_o,
  output logic [31:0]               addr_o,
  output logic [31:0]               waiting_o
);

  logic        fault_q;
  logic [3:0]  f_kind_q;
  logic [31:0] f_cta_x_q, f_cta_y_q, f_cta_z_q, f_pc_q, f_addr_q, f_wait_q;
  logic [7:0]  f_warp_q;
  logic [4:0]  f_lane_q;

  logic        new_fault;
  logic [3:0]  nf_kind;
  logic [WarpW-1:0] nf_slot;
  logic [4:0]  nf_lane;
  logic [31:0] nf_pc, nf_addr, nf_wait;

  // Deadlock report: the waiting warp with the lowest index in the CTA, the
  // waiting warps as a mask of CTA warp indices.
  logic [WarpW-1:0] dl_slot;
  logic [31:0] dl_mask;
  logic [5:0] dl_best;
  always_comb begin
    dl_slot = '0;
    dl_mask = '0;
    dl_best = 6'd32;
    for (int w = 0; w < NumWarps; w++) begin
      if (deadlock_warps_i[w]) begin
        dl_mask[warp_wic_i[w*5 +: 5]] = 1'b1;
        if ({1'b0, warp_wic_i[w*5 +: 5]} < dl_best) begin
          dl_best = {1'b0, warp_wic_i[w*5 +: 5]};
          dl_slot = WarpW'(w);
        end
      end
    end
  end

  // Watchdog report: the lowest live warp, where it stands.
  logic [WarpW-1:0] wd_slot;
  logic watchdog;
  always_comb begin
    wd_slot = '0;
    for (int w = NumWarps - 1; w >= 0; w--) begin
      if (live_i[w]) wd_slot = WarpW'(w);
    end
  end
  // The cycle count stops at 2^32 (baresm_sm_status): a budget beyond it
  // (never from the command processor, whose budgets are 32-bit) fires there.
  assign watchdog = watchdog_i != 64'd0 && (cycles_i >= watchdog_i || cycles_i[32]);

  always_comb begin
    new_fault = 1'b0;
    nf_kind = baresm_state_pkg::FAULT_NONE;
    nf_slot = '0;
    nf_lane = '0;
    nf_pc = '0;
    nf_addr = '0;
    nf_wait = '0;
    if (lsu_fault_i) begin
      // The oldest instruction: it was issued before anything below.
      new_fault = 1'b1;
      nf_kind = lsu_kind_i;
      nf_slot = lsu_warp_i;
      nf_lane = lsu_lane_i;
      nf_pc = lsu_pc_i;
      nf_addr = lsu_addr_i;
    end else if (iss_fault_i) begin
      new_fault = 1'b1;
      nf_kind = iss_kind_i;
      nf_slot = iss_warp_i;
      nf_lane = iss_lane_i;
      nf_pc = iss_pc_i;
      if (iss_kind_i == baresm_state_pkg::FAULT_FETCH_ERROR) nf_addr = iss_pc_i;
    end else if (deadlock_i) begin
      new_fault = 1'b1;
      nf_kind = baresm_state_pkg::FAULT_BARRIER_DEADLOCK;
      nf_slot = dl_slot;
      nf_pc = bar_pc_i[dl_slot*32 +: 32];
      nf_wait = dl_mask;
    end else if (watchdog) begin
      new_fault = 1'b1;
      nf_kind = baresm_state_pkg::FAULT_WATCHDOG;
      nf_slot = wd_slot;
      nf_lane = baresm_sm_pkg::lowest_lane(warp_mask_i[wd_slot*32 +: 32]);
      nf_pc = warp_pc_i[wd_slot*32 +: 32];
    end
    if (!running_i) new_fault = 1'b0;
  end

  logic [CtaW-1:0] nf_cta;
  assign nf_cta = warp_cta_i[nf_slot*CtaW +: CtaW];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fault_q <= 1'b0;
      f_kind_q <= '0;
      f_cta_x_q <= '0;
      f_cta_y_q <= '0;
      f_cta_z_q <= '0;
      f_warp_q <= '0;
      f_lane_q <= '0;
      f_pc_q <= '0;
      f_addr_q <= '0;
      f_wait_q <= '0;
    end else if (clear_i) begin
      fault_q <= 1'b0;
      f_kind_q <= '0;
      f_cta_x_q <= '0;
      f_cta_y_q <= '0;
      f_cta_z_q <= '0;
      f_warp_q <= '0;
      f_lane_q <= '0;
      f_pc_q <= '0;
      f_addr_q <= '0;
      f_wait_q <= '0;
    end else if (new_fault) begin
      fault_q <= 1'b1;
      f_kind_q <= nf_kind;
      f_cta_x_q <= cta_x_i[nf_cta*32 +: 32];
      f_cta_y_q <= cta_y_i[nf_cta*32 +: 32];
      f_cta_z_q <= cta_z_i[nf_cta*32 +: 32];
      f_warp_q <= {3'd0, warp_wic_i[nf_slot*5 +: 5]};
      f_lane_q <= nf_lane;
      f_pc_q <= nf_pc;
      f_addr_q <= nf_addr;
      f_wait_q <= nf_wait;
    end
  end

  assign new_fault_o = new_fault;
  assign fault_o = fault_q;
  assign kind_o = f_kind_q;
  assign cta_x_o = f_cta_x_q;
  assign cta_y_o = f_cta_y_q;
  assign cta_z_o = f_cta_z_q;
  assign warp_o = f_warp_q;
  assign lane_o = f_lane_q;
  assign pc_o = f_pc_q;
  assign addr_o = f_addr_q;
  assign waiting_o = f_wait_q;

endmodule

`default_nettype wire
