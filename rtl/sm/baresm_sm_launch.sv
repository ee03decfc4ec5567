// baresm_sm_launch: the SM's launch control. It takes one launch descriptor
// (launch_valid_i/launch_ready_o, a baresm_launch_t), holds it for
// the whole launch and hands out its fields, and walks the engine through
//   IDLE -> INIT -> CHECK -> RUN -> (DRAIN) -> DONE -> IDLE.
// INIT sizes the launch one warp slot and one CTA slot per cycle (max of
// NumWarps, CtaSlots cycles): a running sum of register-file entries and
// shared bytes says which slots fit, their register-file base and shared
// base. Doing it serially keeps a multiplier per slot out of the hardware;
// the cycles are few and once per launch. CHECK refuses what this SM cannot
// run (cfg_error_o with done_o, nothing executed): no registers or too many,
// an empty or oversized block or grid, more warps per CTA than usable warp
// slots, too much shared memory, or windows past NumWindows. RUN ends at the
// first fault (DRAIN: until the LSU and fetch have no memory response to
// wait for) or when the dispatcher is done and no CTA is left.
// HeldRecord = 1 (the thread-serial SM on the board): the launch's source
// holds launch_i from the accept until done_o (the command processor's
// descriptor registers do), so the record is read from the port, not kept
// in some 860 flip-flops of its own.
`default_nettype none
`include "baresm_assert.svh"
`include "baresm_launch_types.svh"

module baresm_sm_launch #(
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,
  parameter int RfDepth = NumWarps * NumRegs * (32 / NumLanes),
  parameter int SharedBytes = 16384,
  parameter int CtaSlots = 8,
  parameter int NumWindows = 4,
  parameter bit HeldRecord = 1'b0,  // 1: launch_i is held from the accept until done_o
  parameter int AddrW = (RfDepth > 1) ? $clog2(RfDepth) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  input  logic                          launch_valid_i,
  output logic                          launch_ready_o,
  input  baresm_launch_t                launch_i,

  // ---- what ends the run ------------------------------------------------------
  input  logic                          fault_i,        // a fault is held (sticky)
  input  logic                          new_fault_i,    // ... or is taken this cycle
  input  logic                          disp_done_i,    // every CTA of the grid placed
  input  logic                          any_cta_i,      // a CTA slot is in use
  input  logic                          lsu_idle_i,
  input  logic                          fetch_idle_i,

  // ---- engine state ---------------------------------------------------------------
  output logic                          clear_o,        // launch accepted: per-launch state starts empty
  output logic                          start_o,        // the launch checked good: dispatch starts
  output logic                          running_o,      // RUN and no fault
  output logic                          drain_o,        // DRAIN
  output logic                          busy_o,         // not IDLE
  output logic                          done_o,         // DONE (one cycle)
  output logic                          cfg_error_o,    // the launch could not run

  // ---- the descriptor's fields ------------------------------------------------------
  output logic [31:0]                   entry_o,
  output logic [31:0]                   code_base_o,
  output logic [31:0]                   code_size_o,
  output logic [31:0]                   grid_x_o,
  output logic [31:0]                   grid_y_o,
  output logic [31:0]                   grid_z_o,
  output logic [15:0]                   block_x_o,
  output logic [15:0]                   block_y_o,
  output logic [15:0]                   block_z_o,
  output logic [7:0]                    regs_o,
  output logic [7:0]                    smid_o,
  output logic [31:0]                   param_addr_o,
  output logic [31:0]                   param_size_o,
  output logic [31:0]                   shared_o,
  output logic [63:0]                   watchdog_o,
  output logic [32*NumWindows-1:0]      win_base_o,
  output logic [32*NumWindows-1:0]      win_size_o,
  output logic [31:0]                   prot_base_o,
  output logic [31:0]                   prot_size_o,

  // ---- launch constants (from INIT on) -------------------------------------------------
  output logic [10:0]                   threads_o,      // threads per CTA
  output logic [5:0]                    warps_per_cta_o,
  output logic [NumWarps-1:0]           warp_usable_o,  // the warp slot's registers fit
  output logic [NumWarps*AddrW-1:0]     rf_base_o,      // its register-file base
  output logic [CtaSlots-1:0]           cta_usable_o,   // the CTA slot's shared memory fits
  input  logic [CtaW-1:0]               sbase_cta_i,    // read port: a CTA slot's
  output logic [31:0]                   sbase_o         // shared-memory base
);

  localparam int Beats = 32 / NumLanes;
  localparam int InitSteps = (NumWarps > CtaSlots) ? NumWarps : CtaSlots;
  localparam int InitW = $clog2(InitSteps + 1);

  typedef enum logic [2:0] { S_IDLE, S_INIT, S_CHECK, S_RUN, S_DRAIN, S_DONE } state_e;
  state_e state_q;

  baresm_launch_t lq;  // the accepted descriptor
  if (HeldRecord) begin : g_held
    assign lq = launch_i;
  end else begin : g_kept
    baresm_launch_t lq_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) lq_q <= '0;
      else if (launch_valid_i && launch_ready_o) lq_q <= launch_i;
    end
    assign lq = lq_q;
  end
  logic [31:0] l_grid_x, l_grid_y, l_grid_z, l_shared;
  logic [15:0] l_block_x, l_block_y, l_block_z;
  logic [7:0] l_regs;
  assign l_grid_x = lq.grid_x;
  assign l_grid_y = lq.grid_y;
  assign l_grid_z = lq.grid_z;
  assign l_block_x = lq.block_x;
  assign l_block_y = lq.block_y;
  assign l_block_z = lq.block_z;
  assign l_regs = lq.regs;
  assign l_shared = lq.shared;

  assign entry_o = lq.entry_pc;
  assign code_base_o = lq.code_base;
  assign code_size_o = lq.code_size;
  assign grid_x_o = l_grid_x;
  assign grid_y_o = l_grid_y;
  assign grid_z_o = l_grid_z;
  assign block_x_o = l_block_x;
  assign block_y_o = l_block_y;
  assign block_z_o = l_block_z;
  assign regs_o = l_regs;
  assign smid_o = lq.smid;
  assign param_addr_o = lq.param_addr;
  assign param_size_o = lq.param_size;
  assign shared_o = l_shared;
  assign watchdog_o = lq.watchdog;
  assign win_base_o = lq.win_base[0 +: 32*NumWindows];
  assign win_size_o = lq.win_size[0 +: 32*NumWindows];
  assign prot_base_o = lq.prot_base;
  assign prot_size_o = lq.prot_size;

  // Launch constants computed at S_INIT.
  logic [47:0] threads_full;
  logic [10:0] threads;
  logic [5:0]  warps_per_cta;
  logic [31:0] rf_per_warp;   // register-file entries of one warp
  logic [31:0] smem_per_cta;  // shared bytes of one CTA, 16-byte granules
  assign threads_full = 48'(l_block_x) * 48'(l_block_y) * 48'(l_block_z);
  assign threads = threads_full[10:0];
  assign warps_per_cta = 6'((threads + 11'd31) >> 5);
  assign rf_per_warp = 32'(l_regs) * 32'(Beats);
  assign smem_per_cta = (l_shared + 32'd15) & ~32'd15;
  assign threads_o = threads;
  assign warps_per_cta_o = warps_per_cta;

  logic accept;
  assign launch_ready_o = state_q == S_IDLE;
  assign accept = launch_valid_i && launch_ready_o;
  assign clear_o = accept;

  logic [InitW-1:0] init_i_q;
  logic [31:0] init_rf_q, init_sm_q;
  logic [6:0] nusable_q;
  logic cfg_err_q;

  logic [NumWarps-1:0] warp_usable_q;
  logic [NumWarps*AddrW-1:0] rf_base_q;
  logic [CtaSlots-1:0] cta_usable_q;
  logic [31:0] cta_sbase_q [CtaSlots];

  // A window past the SM's NumWindows with a nonzero size: the launch asks for
  // more windows than this SM checks, and is refused (the CP never sends one:
  // it refuses a window_count above CONFIG1.MAX_WINDOWS). One flop taken at
  // accept, so lq's slots past NumWindows are not kept (synthesis drops them).
  logic extra_windows;
  if (NumWindows < baresm_launch_pkg::MAX_WINDOWS) begin : g_extra_windows
    localparam int Rest = 32 * (baresm_launch_pkg::MAX_WINDOWS - NumWindows);
    logic extra_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) extra_q <= 1'b0;
      else if (accept) extra_q <= |launch_i.win_size[32*NumWindows +: Rest];
    end
    assign extra_windows = extra_q;
    logic unused_windows;
    assign unused_windows = ^{lq.win_base[32*NumWindows +: Rest],
                              lq.win_size[32*NumWindows +: Rest]};
  end else begin : g_no_extra_windows
    assign extra_windows = 1'b0;
  end

  logic cfg_bad;
  assign cfg_bad = l_regs == 8'd0 || 32'(l_regs) > 32'(NumRegs) || threads_full == 48'd0 ||
                   threads_full > 48'd1024 || l_grid_x == 32'd0 || l_grid_y == 32'd0 ||
                   l_grid_z == 32'd0 || {1'b0, warps_per_cta} > nusable_q ||
                   l_shared > 32'(SharedBytes) || extra_windows;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      init_i_q <= '0;
      init_rf_q <= '0;
      init_sm_q <= '0;
      nusable_q <= '0;
      cfg_err_q <= 1'b0;
    end else begin
      unique case (state_q)
        S_IDLE: begin
          if (accept) begin
            state_q <= S_INIT;
            init_i_q <= '0;
            init_rf_q <= '0;
            init_sm_q <= '0;
            nusable_q <= '0;
            cfg_err_q <= 1'b0;
          end
        end
        S_INIT: begin
          init_i_q <= init_i_q + InitW'(1);
          init_rf_q <= init_rf_q + rf_per_warp;
          init_sm_q <= init_sm_q + smem_per_cta;
          if (init_i_q < InitW'(NumWarps) && init_rf_q + rf_per_warp <= 32'(RfDepth))
            nusable_q <= nusable_q + 7'd1;
          if (init_i_q == InitW'(InitSteps - 1)) state_q <= S_CHECK;
        end
        S_CHECK: begin
          if (cfg_bad) begin
            cfg_err_q <= 1'b1;
            state_q <= S_DONE;
          end else begin
            state_q <= S_RUN;
          end
        end
        S_RUN: begin
          if (fault_i || new_fault_i) state_q <= S_DRAIN;
          else if (disp_done_i && !any_cta_i) state_q <= S_DONE;
        end
        S_DRAIN: begin
          if (lsu_idle_i && fetch_idle_i) state_q <= S_DONE;
        end
        S_DONE: state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      warp_usable_q <= '0;
      rf_base_q <= '0;
      cta_usable_q <= '0;
    end else if (state_q == S_INIT) begin
      for (int w = 0; w < NumWarps; w++) begin
        if (init_i_q == InitW'(w)) begin
          rf_base_q[w*AddrW +: AddrW] <= AddrW'(init_rf_q);
          warp_usable_q[w] <= init_rf_q + rf_per_warp <= 32'(RfDepth);
        end
      end
      for (int c = 0; c < CtaSlots; c++) begin
        if (init_i_q == InitW'(c)) cta_usable_q[c] <= init_sm_q + smem_per_cta <= 32'(SharedBytes);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (state_q == S_INIT) begin
      for (int c = 0; c < CtaSlots; c++) begin
        if (init_i_q == InitW'(c)) cta_sbase_q[c] <= init_sm_q;
      end
    end
  end

  assign start_o = state_q == S_CHECK && !cfg_bad;
  assign running_o = state_q == S_RUN && !fault_i;
  assign drain_o = state_q == S_DRAIN;
  assign busy_o = state_q != S_IDLE;
  assign done_o = state_q == S_DONE;
  assign cfg_error_o = cfg_err_q;
  assign warp_usable_o = warp_usable_q;
  assign rf_base_o = rf_base_q;
  assign cta_usable_o = cta_usable_q;
  assign sbase_o = cta_sbase_q[sbase_cta_i];

`ifndef SYNTHESIS
  // A held record does not change while the launch runs.
  baresm_launch_t held_q;
  always_ff @(posedge clk_i) if (accept) held_q <= launch_i;
  `BARESM_ASSERT(a_record_held, !HeldRecord || state_q == S_IDLE || launch_i == held_q)
`endif

  // One done pulse per launch.
  `BARESM_ASSERT_PULSE(a_done_pulse, done_o)
  `BARESM_ASSERT(a_num_windows, NumWindows >= 1 && NumWindows <= baresm_launch_pkg::MAX_WINDOWS)

endmodule

`default_nettype wire
