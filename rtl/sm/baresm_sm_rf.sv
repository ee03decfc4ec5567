// baresm_sm_rf: the register file of all lanes. One entry holds one register
// of NumLanes threads (one beat of a warp register), so every lane of a beat
// reads and writes the same entry. Three synchronous read ports (operands a,
// b, c: data one cycle after the address), three write ports with a lane
// mask (ALU writeback, FPU writeback, LSU/shuffle writer; the scoreboard
// keeps them on different entries).
//
// Registers start at 0 without a clearing pass: one valid bit per (warp
// slot, architectural register), NumWarps x NumRegs flip-flops rather than
// one per entry (an entry array without per-entry state can become RAM). A
// placed warp's bits are cleared in one cycle (clr_i). A register whose bit
// is clear reads as 0; the first write of it writes every lane of every beat
// (zeros outside the mask, and beats with an empty mask too) and sets the
// bit when it begins.
//
// Both decisions are taken once per instruction, at its beat 0, and held for
// its other beats (rfirst_i, wfirst_*_i): each port sees the beats of one
// instruction on consecutive cycles, beat 0 first (baresm_sm_exec: the
// sequencer and the writers never stall), so
//  - a writer fills iff the bit was clear at its beat 0 (the bit is set from
//    then on, so the later beats cannot look it up again);
//  - a reader sees the bit as it was at its beat 0. Why that is enough: let
//    the first write of (w, r) clear its scoreboard bit at cycle c and write
//    beat b at c+1+b (the exec pipe's contract). An instruction that reads
//    (w, r) and issues after c (every one that depends on that write) has
//    its beat 0 read at s >= c+2, sees the bit set, and reads beat b at
//    s+b > c+1+b: written. One issued before c was issued before the
//    writer (the scoreboard holds readers of r between the writer's issue
//    and c) or is the writer itself: its beat 0 read precedes the writer's
//    beat 0 write (which comes at least two cycles after the writer's own
//    beat 0 read), so it sees the bit clear and reads 0 for every beat, the
//    value before the write, even when the bit is set while it still reads
//    (a per-beat look-up would read unwritten beats there, e.g. R1 = R1 + 1
//    as R1's first write at 1 lane). Any later writer of (w, r) issues
//    after c (the scoreboard holds write-after-write too), so it begins
//    after the fill began and writes each beat after the fill did.
//  a_rd_written checks this in simulation, per entry.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_rf #(
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,      // architectural registers per warp (r < NumRegs)
  parameter int Depth = 1024,
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   clr_i,       // a warp was placed: its registers read 0
  input  logic [WarpW-1:0]       clr_warp_i,

  // Reads: one instruction's three operands; the register numbers say which
  // valid bits apply (a register >= NumRegs, RZ, reads its entry unchecked;
  // the exec stage replaces it by 0).
  input  logic                   ren_i,
  input  logic                   rfirst_i,    // beat 0 of the instruction
  input  logic [WarpW-1:0]       rwarp_i,
  input  logic [5:0]             rreg_a_i,
  input  logic [5:0]             rreg_b_i,
  input  logic [5:0]             rreg_c_i,
  input  logic [AddrW-1:0]       raddr_a_i,
  input  logic [AddrW-1:0]       raddr_b_i,
  input  logic [AddrW-1:0]       raddr_c_i,
  output logic [NumLanes*32-1:0] rdata_a_o,
  output logic [NumLanes*32-1:0] rdata_b_o,
  output logic [NumLanes*32-1:0] rdata_c_o,

  // Writes: we_*_i is high for every beat of a register write, an empty
  // lane mask included (the first write fills those beats with 0).
  input  logic                   we_a_i,
  input  logic                   wfirst_a_i,  // beat 0 of the instruction
  input  logic [WarpW-1:0]       wwarp_a_i,
  input  logic [5:0]             wreg_a_i,
  input  logic [AddrW-1:0]       waddr_a_i,
  input  logic [NumLanes-1:0]    wmask_a_i,
  input  logic [NumLanes*32-1:0] wdata_a_i,
  input  logic                   we_b_i,
  input  logic                   wfirst_b_i,
  input  logic [WarpW-1:0]       wwarp_b_i,
  input  logic [5:0]             wreg_b_i,
  input  logic [AddrW-1:0]       waddr_b_i,
  input  logic [NumLanes-1:0]    wmask_b_i,
  input  logic [NumLanes*32-1:0] wdata_b_i,
  input  logic                   we_c_i,
  input  logic                   wfirst_c_i,
  input  logic [WarpW-1:0]       wwarp_c_i,
  input  logic [5:0]             wreg_c_i,
  input  logic [AddrW-1:0]       waddr_c_i,
  input  logic [NumLanes-1:0]    wmask_c_i,
  input  logic [NumLanes*32-1:0] wdata_c_i
);

  localparam int NumBits = NumWarps * NumRegs;

  logic [NumLanes*32-1:0] mem_q [Depth];
  logic [NumBits-1:0] valid_q;   // bit w*NumRegs + r: register r of warp slot w written

  function automatic logic valid_of(input logic [NumBits-1:0] v, input logic [WarpW-1:0] w,
                                    input logic [5:0] r);
    valid_of = (32'(r) < NumRegs) ? v[32'(w) * NumRegs + 32'(r)] : 1'b0;
  endfunction

  // ---- reads --------------------------------------------------------------------------
  logic [NumLanes*32-1:0] ra_q, rb_q, rc_q;
  logic va_q, vb_q, vc_q;   // the operands' valid bits at the instruction's beat 0

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
    end else if (ren_i && rfirst_i) begin
      va_q <= valid_of(valid_q, rwarp_i, rreg_a_i);
      vb_q <= valid_of(valid_q, rwarp_i, rreg_b_i);
      vc_q <= valid_of(valid_q, rwarp_i, rreg_c_i);
    end
  end

  assign rdata_a_o = va_q ? ra_q : '0;
  assign rdata_b_o = vb_q ? rb_q : '0;
  assign rdata_c_o = vc_q ? rc_q : '0;

  // ---- writes -------------------------------------------------------------------------
  // fill_*: this write is the register's first (decided at beat 0, held).
  logic fill_a, fill_b, fill_c;
  logic fill_a_q, fill_b_q, fill_c_q;
  assign fill_a = wfirst_a_i ? !valid_of(valid_q, wwarp_a_i, wreg_a_i) : fill_a_q;
  assign fill_b = wfirst_b_i ? !valid_of(valid_q, wwarp_b_i, wreg_b_i) : fill_b_q;
  assign fill_c = wfirst_c_i ? !valid_of(valid_q, wwarp_c_i, wreg_c_i) : fill_c_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fill_a_q <= 1'b0;
      fill_b_q <= 1'b0;
      fill_c_q <= 1'b0;
    end else begin
      if (we_a_i) fill_a_q <= fill_a;
      if (we_b_i) fill_b_q <= fill_b;
      if (we_c_i) fill_c_q <= fill_c;
    end
  end

  // Lanes written: the masked ones, or all of them (zeros outside the mask)
  // on a first write.
  always_ff @(posedge clk_i) begin
    if (we_a_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_a_i[p] || fill_a)
          mem_q[waddr_a_i][p*32 +: 32] <= wmask_a_i[p] ? wdata_a_i[p*32 +: 32] : 32'd0;
      end
    end
    if (we_b_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_b_i[p] || fill_b)
          mem_q[waddr_b_i][p*32 +: 32] <= wmask_b_i[p] ? wdata_b_i[p*32 +: 32] : 32'd0;
      end
    end
    if (we_c_i) begin
      for (int p = 0; p < NumLanes; p++) begin
        if (wmask_c_i[p] || fill_c)
          mem_q[waddr_c_i][p*32 +: 32] <= wmask_c_i[p] ? wdata_c_i[p*32 +: 32] : 32'd0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      if (clr_i) begin
        for (int w = 0; w < NumWarps; w++) begin
          if (clr_warp_i == WarpW'(w)) valid_q[w*NumRegs +: NumRegs] <= '0;
        end
      end
      if (we_a_i) valid_q[32'(wwarp_a_i) * NumRegs + 32'(wreg_a_i)] <= 1'b1;
      if (we_b_i) valid_q[32'(wwarp_b_i) * NumRegs + 32'(wreg_b_i)] <= 1'b1;
      if (we_c_i) valid_q[32'(wwarp_c_i) * NumRegs + 32'(wreg_c_i)] <= 1'b1;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // The scoreboard keeps the three write ports on different entries; a warp
  // slot is cleared only when nothing of its last warp is in the pipe.
  `BARESM_ASSERT(a_wr_ab_distinct, !(we_a_i && we_b_i && waddr_a_i == waddr_b_i))
  `BARESM_ASSERT(a_wr_ac_distinct, !(we_a_i && we_c_i && waddr_a_i == waddr_c_i))
  `BARESM_ASSERT(a_wr_bc_distinct, !(we_b_i && we_c_i && waddr_b_i == waddr_c_i))
  `BARESM_ASSERT(a_clr_idle, !clr_i || ((!ren_i || rwarp_i != clr_warp_i) &&
                                        (!we_a_i || wwarp_a_i != clr_warp_i) &&
                                        (!we_b_i || wwarp_b_i != clr_warp_i) &&
                                        (!we_c_i || wwarp_c_i != clr_warp_i)))
  // Every warp and register inside the valid bits (writes never name RZ).
  `BARESM_ASSERT(a_bits_in_range, (!clr_i || 32'(clr_warp_i) < NumWarps) &&
                                  (!ren_i || 32'(rwarp_i) < NumWarps) &&
                                  (!we_a_i || (32'(wwarp_a_i) < NumWarps && 32'(wreg_a_i) < NumRegs)) &&
                                  (!we_b_i || (32'(wwarp_b_i) < NumWarps && 32'(wreg_b_i) < NumRegs)) &&
                                  (!we_c_i || (32'(wwarp_c_i) < NumWarps && 32'(wreg_c_i) < NumRegs)))
  // Every address inside the memory (Depth need not be a power of two).
  `BARESM_ASSERT(a_addr_in_range, (!ren_i || (32'(raddr_a_i) < Depth && 32'(raddr_b_i) < Depth &&
                                              32'(raddr_c_i) < Depth)) &&
                                  (!we_a_i || 32'(waddr_a_i) < Depth) &&
                                  (!we_b_i || 32'(waddr_b_i) < Depth) &&
                                  (!we_c_i || 32'(waddr_c_i) < Depth))

`ifndef SYNTHESIS
  // Simulation only: a register read as valid reads entries written since
  // its warp was placed. Each placement gets a new number (epoch); an entry
  // keeps the epoch of its warp at its last write (with any lane written).
  logic [31:0] epoch_q;
  logic [31:0] slot_epoch_q [NumWarps];
  logic [31:0] stamp_q [Depth];
  logic [2:0] rd_unwritten;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      epoch_q <= 32'd1;
      for (int w = 0; w < NumWarps; w++) slot_epoch_q[w] <= 32'd0;
    end else if (clr_i) begin
      epoch_q <= epoch_q + 32'd1;
      slot_epoch_q[clr_warp_i] <= epoch_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (we_a_i && (wmask_a_i != '0 || fill_a)) stamp_q[waddr_a_i] <= slot_epoch_q[wwarp_a_i];
    if (we_b_i && (wmask_b_i != '0 || fill_b)) stamp_q[waddr_b_i] <= slot_epoch_q[wwarp_b_i];
    if (we_c_i && (wmask_c_i != '0 || fill_c)) stamp_q[waddr_c_i] <= slot_epoch_q[wwarp_c_i];
  end

  // The valid decision of this beat: looked up now at beat 0, held after.
  logic rva, rvb, rvc;
  assign rva = rfirst_i ? valid_of(valid_q, rwarp_i, rreg_a_i) : va_q;
  assign rvb = rfirst_i ? valid_of(valid_q, rwarp_i, rreg_b_i) : vb_q;
  assign rvc = rfirst_i ? valid_of(valid_q, rwarp_i, rreg_c_i) : vc_q;
  always_comb begin
    rd_unwritten = '0;
    if (ren_i && 32'(rwarp_i) < NumWarps) begin
      rd_unwritten[0] = rva && stamp_q[raddr_a_i] != slot_epoch_q[rwarp_i];
      rd_unwritten[1] = rvb && stamp_q[raddr_b_i] != slot_epoch_q[rwarp_i];
      rd_unwritten[2] = rvc && stamp_q[raddr_c_i] != slot_epoch_q[rwarp_i];
    end
  end
  `BARESM_ASSERT(a_rd_written, rd_unwritten == '0)
`endif

endmodule

`default_nettype wire
