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

  (* no_rw_check *) logic [31:0] mem_q [Depth];
  logic [31:0] rdata_q;
  logic rvalid_q;

  initial begin
    if (InitFile != "") $readmemh(InitFile, mem_q);
  end

  // Written as baresm_ram_1r1w is, so Yosys maps it to EBR (a write and a
  // read port, byte lanes) and Icarus takes it: plain vectors, no struct
  // member as an index.
  logic [AddrW-1:0] addr;
  logic [31:0] wdata;
  logic [3:0] strb;
  logic we, re;
  assign addr = req_i.addr[AddrW-1:0];
  assign wdata = req_i.wdata;
  assign strb = req_i.strb;
  assign we = req_i.valid && req_i.we;
  assign re = req_i.valid && !req_i.we;
  always_ff @(posedge clk_i) begin
    if (we) begin
      for (int k = 0; k < 4; k++) begin
        if (strb[k]) mem_q[addr][k*8 +: 8] <= wdata[k*8 +: 8];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (re) rdata_q <= mem_q[addr];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rvalid_q <= 1'b0;
    else rvalid_q <= req_i.valid && !req_i.we;
  end

  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rdata_q;

endmodule

`default_nettype wire
