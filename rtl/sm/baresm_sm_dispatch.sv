// baresm_sm_dispatch: places the CTAs of a launch, in linear order (x
// fastest), as resources free up. A CTA needs one free CTA slot and
// warps_i free warp slots (the caller passes only slots that are free and
// usable for this launch: registers and shared memory decide how many are).
// Once both are there, its warps are placed (lowest free slot first) and the
// CTA runs when its last warp is placed.
//
// Each warp's lane-0 thread id is the previous warp's advanced by 32 threads
// through the block's x/y/z. The advance is sequential, one row of the block
// (or the rest of the 32 threads) per cycle, so placing a warp takes one
// cycle plus one for each row end its 32 threads cross beyond the first
// (none when block x is a multiple of 32; 32 when it is 1). Done in one
// cycle, as 32 chained increments, it was 4,900 LUT4 of the dispatcher.
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
  logic [5:0] adv_q;    // threads tid_q must still advance by (0: it is the next warp's)

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

  // One step of the advance: the rest of the current row, or all of it.
  logic [47:0] step_from, tid_step;
  logic [5:0] left_from, adv_step;
  logic [16:0] room;   // threads to the end of the row
  logic [15:0] y_inc;
  always_comb begin
    step_from = tid_q;
    left_from = place_valid_o ? 6'd32 : adv_q;
    room = {1'b0, block_i[15:0]} - {1'b0, step_from[15:0]};
    tid_step = step_from;
    adv_step = 6'd0;
    y_inc = step_from[31:16] + 16'd1;
    if ({11'd0, left_from} < room) begin
      tid_step[15:0] = step_from[15:0] + {10'd0, left_from};
    end else begin
      adv_step = left_from - room[5:0];
      tid_step[15:0] = 16'd0;
      if (y_inc >= block_i[31:16]) begin
        tid_step[31:16] = 16'd0;
        tid_step[47:32] = step_from[47:32] + 16'd1;
      end else begin
        tid_step[31:16] = y_inc;
      end
    end
  end

  logic can_start, last_warp, last_cta;
  assign can_start = state_q == D_WAIT && !stop_i && any_c && nfree >= {1'b0, warps_i};
  assign last_warp = k_q == 5'(warps_i - 6'd1);
  // The CTA coordinates stay inside the grid, so the last of a row is an
  // equality (cheaper than comparing the incremented coordinate).
  logic last_x, last_y;
  assign last_x = cx_q == grid_x_i - 32'd1;
  assign last_y = cy_q == grid_y_i - 32'd1;
  assign last_cta = last_x && last_y && cz_q == grid_z_i - 32'd1;

  assign place_valid_o = state_q == D_PLACE && !stop_i && adv_q == 6'd0;
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
      adv_q <= '0;
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
            adv_q <= '0;
          end
        end
        D_PLACE: begin
          if (stop_i) begin
            state_q <= D_DONE;
          end else if (!place_valid_o) begin
            tid_q <= tid_step;
            adv_q <= adv_step;
          end else begin
            k_q <= k_q + 5'd1;
            left_q <= left_q - 11'd32;
            tid_q <= tid_step;
            adv_q <= last_warp ? 6'd0 : adv_step;
            if (last_warp) begin
              state_q <= last_cta ? D_DONE : D_WAIT;
              if (!last_x) begin
                cx_q <= cx_q + 32'd1;
              end else begin
                cx_q <= '0;
                if (!last_y) begin
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
  // The next warp's lane 0 is a thread of the block, and an advance is at
  // most one warp.
  `BARESM_ASSERT(a_tid_in_block, state_q != D_PLACE || (tid_q[15:0] < block_i[15:0] &&
                                  tid_q[31:16] < block_i[31:16]))
  `BARESM_ASSERT(a_adv_bound, adv_q <= 6'd32)
  `BARESM_ASSUME(m_warps_of_threads, (state_q != D_WAIT && state_q != D_PLACE) ||
                                     {1'b0, warps_i} == 7'((12'(threads_i) + 12'd31) >> 5))

endmodule

`default_nettype wire
