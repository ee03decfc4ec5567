// baresm_sm_rf: the register file of all lanes. One entry holds one register
// of NumLanes threads (one beat of a warp register), so every lane of a beat
// reads and writes the same entry. Three synchronous read ports (operands a,
// b, c: data one cycle after the address), three write ports with a lane
// mask (ALU writeback, FPU writeback, LSU/shuffle writer; the scoreboard
// keeps them on different entries).
//
// Registers start at 0 without a clearing pass: every entry has a valid bit,
// a warp's entries are invalidated in one cycle when it is placed, an invalid
// entry reads as 0, and the first write to it fills the lanes outside the
// write mask with 0.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_rf #(
  parameter int NumLanes = 32,
  parameter int Depth = 1024,
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   inval_i,     // invalidate [inval_lo_i, inval_hi_i)
  input  logic [AddrW:0]         inval_lo_i,
  input  logic [AddrW:0]         inval_hi_i,

  input  logic                   ren_i,
  input  logic [AddrW-1:0]       raddr_a_i,
  input  logic [AddrW-1:0]       raddr_b_i,
  input  logic [AddrW-1:0]       raddr_c_i,
  output logic [NumLanes*32-1:0] rdata_a_o,
  output logic [NumLanes*32-1:0] rdata_b_o,
  output logic [NumLanes*32-1:0] rdata_c_o,

  input  logic                   we_a_i,
  input  logic [AddrW-1:0]       waddr_a_i,
  input  logic [NumLanes-1:0]    wmask_a_i,
  input  logic [NumLanes*32-1:0] wdata_a_i,
  input  logic                   we_b_i,
  input  logic [AddrW-1:0]       waddr_b_i,
  input  logic [NumLanes-1:0]    wmask_b_i,
  input  logic [NumLanes*32-1:0] wdata_b_i,
  input  logic                   we_c_i,
  input  logic [AddrW-1:0]       waddr_c_i,
  input  logic [NumLanes-1:0]    wmask_c_i,
  input  logic [NumLanes*32-1:0] wdata_c_i
);

  logic [NumLanes*32-1:0] mem_q [Depth];
  logic [Depth-1:0] valid_q;

  logic [NumLanes*32-1:0] ra_q, rb_q, rc_q;
  logic va_q, vb_q, vc_q;

  always_ff @(posedge clk_i) begin
    if (ren_i) begin
      ra_q <= mem_q[raddr_a_i];
      rb_q <= mem_q[raddr_b_i];
      rc_q <= mem_q[raddr_c_i];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      va_q <= 1'b0;
      vb_q <= 1'b0;
      vc_q <= 1'b0;
    end else if (ren_i) begin
      va_q <= valid_q[raddr_a_i];
      vb_q <= valid_q[raddr_b_i];
      vc_q <= valid_q[raddr_c_i];
    end
  end

  assign rdata_a_o = va_q ? ra_q : '0;
  assign rdata_b_o = vb_q ? rb_q : '0;
  assign rdata_c_o = vc_q ? rc_q : '0;

  // Lanes written: the masked ones, or all of them (zeros outside the mask)
  // when the entry is still invalid.
  always_ff @(posedge clk_i) begin
    if (we_a_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_a_i[p] || !valid_q[waddr_a_i])
          mem_q[waddr_a_i][p*32 +: 32] <= wmask_a_i[p] ? wdata_a_i[p*32 +: 32] : 32'd0;
      end
    end
    if (we_b_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_b_i[p] || !valid_q[waddr_b_i])
          mem_q[waddr_b_i][p*32 +: 32] <= wmask_b_i[p] ? wdata_b_i[p*32 +: 32] : 32'd0;
      end
    end
    if (we_c_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_c_i[p] || !valid_q[waddr_c_i])
          mem_q[waddr_c_i][p*32 +: 32] <= wmask_c_i[p] ? wdata_c_i[p*32 +: 32] : 32'd0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      if (inval_i) begin
        for (int i = 0; i < Depth; i++) begin
          if ((AddrW + 1)'(i) >= inval_lo_i && (AddrW + 1)'(i) < inval_hi_i) valid_q[i] <= 1'b0;
        end
      end
      if (we_a_i) valid_q[waddr_a_i] <= 1'b1;
      if (we_b_i) valid_q[waddr_b_i] <= 1'b1;
      if (we_c_i) valid_q[waddr_c_i] <= 1'b1;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The scoreboard keeps the three write ports on different entries, and no
  // write lands in a range being invalidated (a slot is reused only when
  // nothing of its last warp is in the pipe).
  `BARESM_ASSERT(a_wr_ab_distinct, !(we_a_i && we_b_i && waddr_a_i == waddr_b_i))
  `BARESM_ASSERT(a_wr_ac_distinct, !(we_a_i && we_c_i && waddr_a_i == waddr_c_i))
  `BARESM_ASSERT(a_wr_bc_distinct, !(we_b_i && we_c_i && waddr_b_i == waddr_c_i))
  `BARESM_ASSERT(a_inval_range, !inval_i || (inval_lo_i <= inval_hi_i &&
                                            32'(inval_hi_i) <= Depth))
  `BARESM_ASSERT(a_wr_a_not_inval, !(inval_i && we_a_i && {1'b0, waddr_a_i} >= inval_lo_i &&
                                     {1'b0, waddr_a_i} < inval_hi_i))
  `BARESM_ASSERT(a_wr_b_not_inval, !(inval_i && we_b_i && {1'b0, waddr_b_i} >= inval_lo_i &&
                                     {1'b0, waddr_b_i} < inval_hi_i))
  `BARESM_ASSERT(a_wr_c_not_inval, !(inval_i && we_c_i && {1'b0, waddr_c_i} >= inval_lo_i &&
                                     {1'b0, waddr_c_i} < inval_hi_i))
  // Every address inside the memory (Depth need not be a power of two).
  `BARESM_ASSERT(a_addr_in_range, (!ren_i || (32'(raddr_a_i) < Depth && 32'(raddr_b_i) < Depth &&
                                              32'(raddr_c_i) < Depth)) &&
                                  (!we_a_i || 32'(waddr_a_i) < Depth) &&
                                  (!we_b_i || 32'(waddr_b_i) < Depth) &&
                                  (!we_c_i || 32'(waddr_c_i) < Depth))

endmodule

`default_nettype wire
