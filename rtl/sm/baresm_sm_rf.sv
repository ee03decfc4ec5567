// baresm_sm_rf: the register file of all lanes. One entry holds one register
// of NumLanes threads (one beat of a warp register), so every lane of a beat
// reads and writes the same entry.
//
// The entries are spread over Banks synchronous RAMs (baresm_ram_1r1w: iCE40
// EBR, Xilinx block RAM), one read and one write port each, by
// baresm_sm_pkg::rf_bank (a rotation of each row of Banks entries). Three
// read ports (operands a, b, c: data one cycle after the address) and two
// write ports with a lane mask (P: the ALU/FPU pipe, C: the LSU/shuffle
// writer) share the banks: in one cycle at most one address is read and one
// entry written per bank (baresm_sm_exec reads the operands of a beat that
// share a bank in successive cycles, and the writer yields to the pipe),
// which the assertions below check.
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
// instruction in order, beat 0 first, so
//  - a writer fills iff the bit was clear at its beat 0 (the bit is set from
//    then on, so the later beats cannot look it up again);
//  - a reader sees the bit as it was at its beat 0. Why that is enough: a
//    writer clears its scoreboard bit at a cycle c after which each beat b
//    is written before c+2+b (baresm_sm_exec: one cycle before beat 0 when
//    its beats come back to back, one cycle before the last beat when they
//    do not). An instruction that reads (w, r) and issues after c (every one
//    that depends on that write) has its beat 0 read at s >= c+2, sees the
//    bit set, and reads beat b at s+b or later: written. One issued before
//    c was issued before the writer (the scoreboard holds readers of r
//    between the writer's issue and c) or is the writer itself: its beat 0
//    read precedes the writer's beat 0 write, so it sees the bit clear and
//    reads 0 for every beat, the value before the write, even when the bit
//    is set while it still reads (a per-beat look-up would read unwritten
//    beats there, e.g. R1 = R1 + 1 as R1's first write at 1 lane). Any later
//    writer of (w, r) issues after c (the scoreboard holds write-after-write
//    too), so it begins after the fill began and writes each beat after the
//    fill did.
//  a_rd_written checks this in simulation, per entry.
`include "baresm_assert.svh"
`default_nettype none

module baresm_sm_rf #(
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int NumRegs = 63,      // architectural registers per warp (r < NumRegs)
  parameter int Depth = 1024,
  parameter int Banks = 8,         // RAM banks: a power of two, 1..16; 32/NumLanes is 1 or >= Banks
  parameter int AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,

  input  logic                   clr_i,       // a warp was placed: its registers read 0
  input  logic [WarpW-1:0]       clr_warp_i,

  // Reads: one instruction's three operands, each port enabled on its own;
  // the register numbers say which valid bits apply (a register >= NumRegs,
  // RZ, reads its entry unchecked; the exec stage replaces it by 0).
  input  logic [2:0]             ren_i,       // ports c, b, a
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
  input  logic                   we_p_i,      // P: the ALU/FPU pipe
  input  logic                   wfirst_p_i,  // beat 0 of the instruction
  input  logic [WarpW-1:0]       wwarp_p_i,
  input  logic [5:0]             wreg_p_i,
  input  logic [AddrW-1:0]       waddr_p_i,
  input  logic [NumLanes-1:0]    wmask_p_i,
  input  logic [NumLanes*32-1:0] wdata_p_i,
  input  logic                   we_c_i,      // C: the LSU/shuffle writer
  input  logic                   wfirst_c_i,
  input  logic [WarpW-1:0]       wwarp_c_i,
  input  logic [5:0]             wreg_c_i,
  input  logic [AddrW-1:0]       waddr_c_i,
  input  logic [NumLanes-1:0]    wmask_c_i,
  input  logic [NumLanes*32-1:0] wdata_c_i
);

  localparam int NumBits = NumWarps * NumRegs;
  localparam int LW = NumLanes * 32;
  localparam int Beats = 32 / NumLanes;
  localparam int BankBits = (Banks > 1) ? $clog2(Banks) : 0;
  localparam int BankW = (Banks > 1) ? BankBits : 1;
  localparam int Rows = (Depth + Banks - 1) / Banks;
  localparam int RowW = (Rows > 1) ? $clog2(Rows) : 1;

  function automatic logic [BankW-1:0] bank_of(input logic [AddrW-1:0] e);
    bank_of = BankW'(baresm_sm_pkg::rf_bank(16'(e), BankBits, $clog2(Beats)));
  endfunction
  function automatic logic [RowW-1:0] row_of(input logic [AddrW-1:0] e);
    row_of = RowW'(e >> BankBits);
  endfunction

  logic [NumBits-1:0] valid_q;   // bit w*NumRegs + r: register r of warp slot w written

  // Reads valid_q itself rather than taking it as an argument: Verilator
  // would copy the NumBits-wide vector on every call.
  function automatic logic valid_of(input logic [WarpW-1:0] w, input logic [5:0] r);
    valid_of = (32'(r) < NumRegs) ? valid_q[32'(w) * NumRegs + 32'(r)] : 1'b0;
  endfunction

  // ---- write fill decisions -------------------------------------------------------
  // fill_*: this write is the register's first (decided at beat 0, held).
  logic fill_p, fill_c;
  logic fill_p_q, fill_c_q;
  assign fill_p = wfirst_p_i ? !valid_of(wwarp_p_i, wreg_p_i) : fill_p_q;
  assign fill_c = wfirst_c_i ? !valid_of(wwarp_c_i, wreg_c_i) : fill_c_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fill_p_q <= 1'b0;
      fill_c_q <= 1'b0;
    end else begin
      if (we_p_i) fill_p_q <= fill_p;
      if (we_c_i) fill_c_q <= fill_c;
    end
  end

  // Lanes written: the masked ones, or all of them (zeros outside the mask)
  // on a first write.
  logic [NumLanes-1:0] wlanes_p, wlanes_c;
  logic [LW-1:0] wval_p, wval_c;
  always_comb begin
    for (int p = 0; p < NumLanes; p++) begin
      wlanes_p[p] = wmask_p_i[p] || fill_p;
      wlanes_c[p] = wmask_c_i[p] || fill_c;
      wval_p[p*32 +: 32] = wmask_p_i[p] ? wdata_p_i[p*32 +: 32] : 32'd0;
      wval_c[p*32 +: 32] = wmask_c_i[p] ? wdata_c_i[p*32 +: 32] : 32'd0;
    end
  end

  // ---- the banks ----------------------------------------------------------------------
  logic [BankW-1:0] rbank_a, rbank_b, rbank_c, wbank_p, wbank_c;
  assign rbank_a = bank_of(raddr_a_i);
  assign rbank_b = bank_of(raddr_b_i);
  assign rbank_c = bank_of(raddr_c_i);
  assign wbank_p = bank_of(waddr_p_i);
  assign wbank_c = bank_of(waddr_c_i);

  logic [LW-1:0] bank_rdata [Banks];

  for (genvar k = 0; k < Banks; k++) begin : g_bank
    logic re, we, wp;
    logic [RowW-1:0] raddr;
    // The read of this bank: the first enabled port that names it (another
    // port naming it in the same cycle names the same entry).
    always_comb begin
      re = 1'b1;
      if (ren_i[0] && rbank_a == BankW'(k)) raddr = row_of(raddr_a_i);
      else if (ren_i[1] && rbank_b == BankW'(k)) raddr = row_of(raddr_b_i);
      else if (ren_i[2] && rbank_c == BankW'(k)) raddr = row_of(raddr_c_i);
      else begin
        re = 1'b0;
        raddr = '0;
      end
    end
    assign wp = we_p_i && wbank_p == BankW'(k);
    assign we = wp || (we_c_i && wbank_c == BankW'(k));

    baresm_ram_1r1w #(
      .Depth(Rows),
      .Width(LW),
      .MaskW(NumLanes),
      .AddrW(RowW)
    ) u_ram (
      .clk_i,
      .re_i   (re),
      .raddr_i(raddr),
      .rdata_o(bank_rdata[k]),
      .we_i   (we),
      .waddr_i(wp ? row_of(waddr_p_i) : row_of(waddr_c_i)),
      .wmask_i(wp ? wlanes_p : wlanes_c),
      .wdata_i(wp ? wval_p : wval_c)
    );
  end

  // ---- reads --------------------------------------------------------------------------
  // Each port's data is its bank's output register, which holds until that
  // bank is read again (the cycle the data is used at the earliest).
  logic [BankW-1:0] bank_a_q, bank_b_q, bank_c_q;
  logic va_q, vb_q, vc_q;   // the operands' valid bits at the instruction's beat 0

  always_ff @(posedge clk_i) begin
    if (ren_i[0]) bank_a_q <= rbank_a;
    if (ren_i[1]) bank_b_q <= rbank_b;
    if (ren_i[2]) bank_c_q <= rbank_c;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      va_q <= 1'b0;
      vb_q <= 1'b0;
      vc_q <= 1'b0;
    end else if (rfirst_i) begin
      if (ren_i[0]) va_q <= valid_of(rwarp_i, rreg_a_i);
      if (ren_i[1]) vb_q <= valid_of(rwarp_i, rreg_b_i);
      if (ren_i[2]) vc_q <= valid_of(rwarp_i, rreg_c_i);
    end
  end

  assign rdata_a_o = va_q ? bank_rdata[bank_a_q] : '0;
  assign rdata_b_o = vb_q ? bank_rdata[bank_b_q] : '0;
  assign rdata_c_o = vc_q ? bank_rdata[bank_c_q] : '0;

  // ---- valid bits ---------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      if (clr_i) begin
        for (int w = 0; w < NumWarps; w++) begin
          if (clr_warp_i == WarpW'(w)) valid_q[w*NumRegs +: NumRegs] <= '0;
        end
      end
      if (we_p_i) valid_q[32'(wwarp_p_i) * NumRegs + 32'(wreg_p_i)] <= 1'b1;
      if (we_c_i) valid_q[32'(wwarp_c_i) * NumRegs + 32'(wreg_c_i)] <= 1'b1;
    end
  end

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // One write and one read address per bank and cycle (the exec stage
  // schedules them); a warp slot is cleared only when nothing of its last
  // warp is in the pipe.
  `BARESM_ASSERT(a_wr_one_per_bank, !(we_p_i && we_c_i && wbank_p == wbank_c))
  `BARESM_ASSERT(a_rd_one_per_bank,
                 !(ren_i[0] && ren_i[1] && rbank_a == rbank_b && raddr_a_i != raddr_b_i) &&
                 !(ren_i[0] && ren_i[2] && rbank_a == rbank_c && raddr_a_i != raddr_c_i) &&
                 !(ren_i[1] && ren_i[2] && rbank_b == rbank_c && raddr_b_i != raddr_c_i))
  `BARESM_ASSERT(a_clr_idle, !clr_i || ((ren_i == '0 || rwarp_i != clr_warp_i) &&
                                        (!we_p_i || wwarp_p_i != clr_warp_i) &&
                                        (!we_c_i || wwarp_c_i != clr_warp_i)))
  // Every warp and register inside the valid bits (writes never name RZ).
  `BARESM_ASSERT(a_bits_in_range, (!clr_i || 32'(clr_warp_i) < NumWarps) &&
                                  (ren_i == '0 || 32'(rwarp_i) < NumWarps) &&
                                  (!we_p_i || (32'(wwarp_p_i) < NumWarps && 32'(wreg_p_i) < NumRegs)) &&
                                  (!we_c_i || (32'(wwarp_c_i) < NumWarps && 32'(wreg_c_i) < NumRegs)))
  // Every address inside the memory (Depth need not be a power of two).
  `BARESM_ASSERT(a_addr_in_range, (!ren_i[0] || 32'(raddr_a_i) < Depth) &&
                                  (!ren_i[1] || 32'(raddr_b_i) < Depth) &&
                                  (!ren_i[2] || 32'(raddr_c_i) < Depth) &&
                                  (!we_p_i || 32'(waddr_p_i) < Depth) &&
                                  (!we_c_i || 32'(waddr_c_i) < Depth))
  // An entry is never read in the cycle it is written (an FPGA RAM returns
  // undefined data then; the scoreboard orders every read after the write
  // it depends on, and before a later write).
  `BARESM_ASSERT(a_no_read_while_written,
                 !(ren_i[0] && ((we_p_i && waddr_p_i == raddr_a_i) || (we_c_i && waddr_c_i == raddr_a_i))) &&
                 !(ren_i[1] && ((we_p_i && waddr_p_i == raddr_b_i) || (we_c_i && waddr_c_i == raddr_b_i))) &&
                 !(ren_i[2] && ((we_p_i && waddr_p_i == raddr_c_i) || (we_c_i && waddr_c_i == raddr_c_i))))

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
    if (we_p_i && (wmask_p_i != '0 || fill_p)) stamp_q[waddr_p_i] <= slot_epoch_q[wwarp_p_i];
    if (we_c_i && (wmask_c_i != '0 || fill_c)) stamp_q[waddr_c_i] <= slot_epoch_q[wwarp_c_i];
  end

  // The valid decision of this read: looked up now at beat 0, held after.
  logic rva, rvb, rvc;
  assign rva = rfirst_i ? valid_of(rwarp_i, rreg_a_i) : va_q;
  assign rvb = rfirst_i ? valid_of(rwarp_i, rreg_b_i) : vb_q;
  assign rvc = rfirst_i ? valid_of(rwarp_i, rreg_c_i) : vc_q;
  always_comb begin
    rd_unwritten = '0;
    if (ren_i != '0 && 32'(rwarp_i) < NumWarps) begin
      rd_unwritten[0] = ren_i[0] && rva && stamp_q[raddr_a_i] != slot_epoch_q[rwarp_i];
      rd_unwritten[1] = ren_i[1] && rvb && stamp_q[raddr_b_i] != slot_epoch_q[rwarp_i];
      rd_unwritten[2] = ren_i[2] && rvc && stamp_q[raddr_c_i] != slot_epoch_q[rwarp_i];
    end
  end
  `BARESM_ASSERT(a_rd_written, rd_unwritten == '0)
`endif

endmodule

`default_nettype wire
