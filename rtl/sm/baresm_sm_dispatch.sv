// baresm_sm_dispatch: places the CTAs of a launch, in linear order (x
// fastest), as resources free up. A CTA needs one free CTA slot and
// warps_i free warp slots (the caller passes only slots that are free and
// usable for this launch: registers and shared memory decide how many are).
// Once both are there, its warps are placed one per cycle (lowest free slot
// first) and the CTA runs when its last warp is placed.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_dispatch #(
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int CtaW = (CtaSlots > 1) ? $clog2(CtaSlots) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                start_i,
  input  logic                stop_i,

  input  logic [31:0]         grid_x_i,
  input  logic [31:0]         grid_y_i,
  input  logic [31:0]         grid_z_i,
  input  logic [31:0]         block_i,     // {y, x}, 16 bits each
  input  logic [10:0]         threads_i,   // threads per CTA (1..1024)
  input  logic [5:0]          warps_i,     // warps per CTA (1..32)

  input  logic [NumWarps-1:0] warp_free_i,
  input  logic [CtaSlots-1:0] cta_free_i,

  output logic                place_valid_o,
  output logic [WarpW-1:0]    place_warp_o,
  output logic [CtaW-1:0]     place_cta_o,
  output logic [4:0]          place_wic_o,   // warp index in the CTA
  output logic [31:0]         place_mask_o,  // lanes that exist
  output logic [47:0]         place_tid_o,   // {z, y, x} of the warp's lane 0
  output logic                cta_start_o,   // a CTA takes slot start_cta_o (coords cta_*_o)
  output logic [CtaW-1:0]     start_cta_o,
  output logic [31:0]         cta_x_o,
  output logic [31:0]         cta_y_o,
  output logic [31:0]         cta_z_o,
  output logic                cta_run_o,     // last warp of the CTA placed this cycle
  output logic                done_o         // every CTA placed (or stopped)
);

  typedef enum logic [1:0] { D_IDLE, D_WAIT, D_PLACE, D_DONE } dstate_e;
  dstate_e state_q;

  logic [31:0] cx_q, cy_q, cz_q;
  logic [CtaW-1:0] cta_q;
  logic [4:0] k_q;
  logic [10:0] left_q;  // threads of the CTA not yet placed
  logic [47:0] tid_q;

  // Lowest free slots and how many warps are free.
  logic [WarpW-1:0] free_w;
  logic [CtaW-1:0] free_c;
  logic any_c;
  logic [6:0] nfree;
  always_comb begin
    free_w = '0;
    free_c = '0;
    any_c = 1'b0;
    nfree = '0;
    for (int w = NumWarps - 1; w >= 0; w--) begin
      if (warp_free_i[w]) free_w = WarpW'(w);
    end
    for (int w = 0; w < NumWarps; w++) nfree = nfree + {6'd0, warp_free_i[w]};
    for (int c = CtaSlots - 1; c >= 0; c--) begin
      if (cta_free_i[c]) begin
        free_c = CtaW'(c);
        any_c = 1'b1;
      end
    end
  end

  // Lane 0 of the next warp: 32 threads on.
  logic [47:0] tid_next32;
  always_comb begin
    tid_next32 = tid_q;
    if (state_q == D_PLACE) begin
      for (int i = 0; i < 32; i++) tid_next32 = baresm_sm_pkg::tid_next(tid_next32, block_i[31:0]);
    end
  end

  logic can_start, last_warp, last_cta;
  assign can_start = state_q == D_WAIT && !stop_i && any_c && nfree >= {1'b0, warps_i};
  assign last_warp = k_q == 5'(warps_i - 6'd1);
  assign last_cta = cx_q == grid_x_i - 32'd1 && cy_q == grid_y_i - 32'd1 &&
                    cz_q == grid_z_i - 32'd1;

  assign place_valid_o = state_q == D_PLACE && !stop_i;
  assign place_warp_o = free_w;
  assign place_cta_o = cta_q;
  assign place_wic_o = k_q;
  assign place_mask_o = (left_q >= 11'd32) ? 32'hFFFF_FFFF : ((32'd1 << left_q[4:0]) - 32'd1);
  assign place_tid_o = tid_q;
  assign cta_start_o = can_start;
  assign start_cta_o = free_c;
  assign cta_x_o = cx_q;
  assign cta_y_o = cy_q;
  assign cta_z_o = cz_q;
  assign cta_run_o = place_valid_o && last_warp;
  assign done_o = state_q == D_DONE;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= D_IDLE;
      cx_q <= '0;
      cy_q <= '0;
      cz_q <= '0;
      cta_q <= '0;
      k_q <= '0;
      left_q <= '0;
      tid_q <= '0;
    end else if (start_i) begin
      state_q <= D_WAIT;
      cx_q <= '0;
      cy_q <= '0;
      cz_q <= '0;
    end else begin
      unique case (state_q)
        D_WAIT: begin
          if (stop_i) begin
            state_q <= D_DONE;
          end else if (can_start) begin
            state_q <= D_PLACE;
            cta_q <= free_c;
            k_q <= '0;
            left_q <= threads_i;
            tid_q <= '0;
          end
        end
        D_PLACE: begin
          if (stop_i) begin
            state_q <= D_DONE;
          end else begin
            k_q <= k_q + 5'd1;
            left_q <= left_q - 11'd32;
            tid_q <= tid_next32;
            if (last_warp) begin
              state_q <= last_cta ? D_DONE : D_WAIT;
              if (cx_q + 32'd1 < grid_x_i) begin
                cx_q <= cx_q + 32'd1;
              end else begin
                cx_q <= '0;
                if (cy_q + 32'd1 < grid_y_i) begin
                  cy_q <= cy_q + 32'd1;
                end else begin
                  cy_q <= '0;
                  cz_q <= cz_q + 32'd1;
                end
              end
            end
          end
        end
        default: ;
      endcase
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // A warp is placed only into a free slot (the CTA started with enough free
  // slots and nothing else takes them), a CTA only into a free CTA slot.
  `BARESM_ASSERT(a_place_free_slot, !place_valid_o || warp_free_i[place_warp_o])
  `BARESM_ASSERT(a_start_free_cta, !cta_start_o || cta_free_i[start_cta_o])
  // No counter wraps: the threads left never underflow (warps_i is
  // ceil(threads_i / 32)), the warp index stays below warps_i, and the CTA
  // coordinates stay inside the grid.
  `BARESM_ASSERT(a_place_threads_left, !place_valid_o || (left_q != 11'd0 &&
                                        (!last_warp || left_q <= 11'd32)))
  `BARESM_ASSERT(a_place_wic_in_cta, !place_valid_o || {1'b0, k_q} < warps_i)
  `BARESM_ASSERT(a_cta_in_grid, (state_q != D_WAIT && state_q != D_PLACE) ||
                                (cx_q < grid_x_i && cy_q < grid_y_i && cz_q < grid_z_i))
  `BARESM_ASSUME(m_warps_of_threads, (state_q != D_WAIT && state_q != D_PLACE) ||
                                     {1'b0, warps_i} == 7'((12'(threads_i) + 12'd31) >> 5))

endmodule

`default_nettype wire
