// baresm_msm_fwram: the control core's program and data memory (fw/sm/link.ld:
// code, data, bss and the stack), Depth words with byte strobes. A read
// answers the cycle after it is taken. Two kinds:
//   Spram = 0  block RAM loaded from the firmware image at configuration
//              ($readmemh: iCE40 EBR take their contents from the bitstream,
//              the simulators read the file). The SM alone's tests.
//   Spram = 1  the UP5K's SPRAM (16K x 32: two SB_SPRAM256KA), which a
//              bitstream cannot fill: the image is written through load_i
//              (baresm_flash_loader, from the board's SPI flash) while the
//              core is held in reset. The iCEBreaker, whose 30 EBR cannot
//              hold the whole device's 20 KB of firmware.
`default_nettype none
`include "baresm_mcu_types.svh"

module baresm_msm_fwram #(
  parameter int Depth = 4096,
  parameter InitFile = "",
  parameter bit Spram = 1'b0,
  parameter int AddrW = $clog2(Depth)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  baresm_mcu_req_t req_i,   // addr: word address, its low AddrW bits
  input  baresm_fw_load_t load_i,  // Spram: the image, while load_i.hold
  output baresm_mcu_rsp_t rsp_o
);

  logic [31:0] rdata;
  logic rvalid_q;

  // Plain vectors, no struct member as an index (Icarus).
  logic [AddrW-1:0] addr;
  logic [31:0] wdata;
  logic [3:0] strb;
  logic we, re;
  always_comb begin
    if (Spram && load_i.hold) begin
      addr = load_i.addr[AddrW-1:0];
      wdata = load_i.data;
      strb = 4'hF;
      we = load_i.we;
      re = 1'b0;
    end else begin
      addr = req_i.addr[AddrW-1:0];
      wdata = req_i.wdata;
      strb = req_i.strb;
      we = req_i.valid && req_i.we;
      re = req_i.valid && !req_i.we;
    end
  end

  if (Spram) begin : g_spram
    baresm_spram #(.Depth(Depth), .Width(32)) u_ram (
      .clk_i,
      .en_i   (we || re),
      .we_i   (we),
      .addr_i (addr),
      .wstrb_i(strb),
      .wdata_i(wdata),
      .rdata_o(rdata)
    );
  end else begin : g_ebr
    // Written as baresm_ram_1r1w is, so Yosys maps it to EBR (a write and a
    // read port, byte lanes).
    (* no_rw_check *) logic [31:0] mem_q [Depth];
    logic [31:0] rdata_q;
    initial begin
      if (InitFile != "") $readmemh(InitFile, mem_q);
    end
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
    assign rdata = rdata_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rvalid_q <= 1'b0;
    else rvalid_q <= re;
  end

  assign rsp_o.valid = rvalid_q;
  assign rsp_o.rdata = rdata;

  logic unused;
  assign unused = ^load_i;   // its address bits above AddrW; all of it when Spram = 0

endmodule

`default_nettype wire
