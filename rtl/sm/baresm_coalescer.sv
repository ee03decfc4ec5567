// baresm_coalescer: picks the next device-memory request of a warp access.
// Combinational. The leader is the lowest pending lane; for loads and stores
// every pending lane in the leader's MemLineBytes-aligned line joins it (one
// request per distinct line), for atomics the leader goes alone (one request
// per lane, in lane order). For stores, wdata/wstrb merge the joining lanes'
// bytes; when lanes write the same byte the highest lane wins, as if the
// lanes had stored one after another. Atomics: wdata[31:0] = b,
// wdata[63:32] = c, addr = the word's address.
`default_nettype none

module baresm_coalescer #(
  parameter int MemLineBytes = 128
) (
  input  logic [31:0]               pend_i,       // lanes still to be requested
  input  logic [32*32-1:0]          addr_i,       // device byte addresses
  input  logic [32*32-1:0]          data_i,       // store data / atomic b
  input  logic [32*32-1:0]          swap_i,       // atomic c
  input  logic [1:0]                size_log2_i,
  input  logic                      atomic_i,
  output logic [31:0]               match_o,      // lanes served by this request
  output logic [31:0]               addr_o,
  output logic [MemLineBytes*8-1:0] wdata_o,
  output logic [MemLineBytes-1:0]   wstrb_o
);

  localparam int LineW = $clog2(MemLineBytes);
  localparam int LineWords = MemLineBytes / 4;

  logic [4:0]  leader;
  logic [31:0] lead_addr;
  logic [31:0] lead_line;

  always_comb begin
    leader = '0;
    for (int i = 31; i >= 0; i--) begin
      if (pend_i[i]) leader = 5'(i);
    end
  end

  assign lead_addr = addr_i[32*leader +: 32];
  assign lead_line = {lead_addr[31:LineW], {LineW{1'b0}}};

  always_comb begin
    match_o = '0;
    for (int i = 0; i < 32; i++) begin
      if (atomic_i) match_o[i] = pend_i[i] && (5'(i) == leader);
      else match_o[i] = pend_i[i] && (addr_i[32*i + LineW +: 32 - LineW] == lead_addr[31:LineW]);
    end
  end

  assign addr_o = atomic_i ? lead_addr : lead_line;

  // Store bytes: lane i covers bytes [off, off + size) of the line, with off
  // naturally aligned, so it stays inside one 32-bit word of the line.
  always_comb begin
    logic [LineW-1:0] a;  // offset of the lane in the line
    logic [3:0]  be;
    logic [31:0] d;
    a = '0;
    be = '0;
    d = '0;
    wdata_o = '0;
    wstrb_o = '0;
    if (atomic_i) begin
      wdata_o[31:0] = data_i[32*leader +: 32];
      wdata_o[63:32] = swap_i[32*leader +: 32];
    end else begin
      for (int w = 0; w < LineWords; w++) begin
        for (int i = 0; i < 32; i++) begin
          a = addr_i[32*i +: LineW];
          be = (size_log2_i == 2'd0) ? 4'b0001 : (size_log2_i == 2'd1) ? 4'b0011 : 4'b1111;
          be = be << a[1:0];
          d = data_i[32*i +: 32] << {a[1:0], 3'b000};
          if (match_o[i] && a[LineW-1:2] == (LineW - 2)'(w)) begin
            for (int k = 0; k < 4; k++) begin
              if (be[k]) begin
                wdata_o[32*w + 8*k +: 8] = d[8*k +: 8];
                wstrb_o[4*w + k] = 1'b1;
              end
            end
          end
        end
      end
    end
  end

endmodule

`default_nettype wire
