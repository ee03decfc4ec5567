// baresm_msm_fwram: the control core's program and data memory (fw/sm/link.ld:
// code, data, bss and the stack), Depth words with byte strobes, loaded from
// the firmware image at configuration ($readmemh: iCE40 EBR take their
// contents from the bitstream; Verilator and Icarus read the file).
// A read answers the cycle after it is taken.
`default_nettype none
`include "baresm_mcu_types.svh"

module baresm_msm_fwram #(
  parameter int Depth = 4096,
  parameter InitFile = "",
  parameter int AddrW = $clog2(Depth)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  baresm_mcu_req_t req_i,   // addr: word address, its low AddrW bits
  output baresm_mcu_rsp_t rsp_o
);

  logic [31:0] mem_q [Depth];
  logic [31:0] rdata_q;
  logic rvalid_q;

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem_q);
  end

  // The byte strobes as a bit mask (Icarus 11 takes no variable part select
  // of an array word).
  logic [31:0] bmask;
  assign bmask = {{8{req_i.strb[3]}}, {8{req_i.strb[2]}}, {8{req_i.strb[1]}}, {8{req_i.strb[0]}}};
  always_ff @(posedge clk_i) begin
    if (req_i.valid && req_i.we)
      mem_q[req_i.addr[AddrW-1:0]] <= (mem_q[req_i.addr[AddrW-1:0]] & ~bmask) | (req_i.wdata & bmask);
    if (req_i.valid && !req_i.we) rdata_q <= mem_q[req_i.addr[AddrW-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rvalid_q <= 1'b0;
    else rvalid_q <= req_i.valid && !req_i.we;
  end

  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rdata_q;

endmodule

`default_nettype wire
