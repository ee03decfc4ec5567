// baresm_coalescer: picks the next device-memory request of a warp access,
// from the NumLanes lanes of one beat. Combinational; with nothing pending
// every output is 0 and the per-lane loops are skipped (a verilated idle
// coalescer costs a compare). The leader is the lowest pending lane; for
// loads and stores every pending lane in the leader's MemLineBytes-aligned
// line joins it (one request per distinct line), for atomics the leader goes
// alone (one request per lane, in lane order). With form_i the line is
// form_line_i instead (a request formed from earlier beats, which this beat's
// lanes in that line join; baresm_lsu, docs/lsu.md). For stores, wdata/wstrb
// merge the joining lanes' bytes; when lanes write the same byte the highest
// lane wins, as if the lanes had stored one after another. Atomics:
// wdata[31:0] = b, wdata[63:32] = c, addr = the word's address.
`default_nettype none

module baresm_coalescer #(
  parameter int MemLineBytes = 128,
  parameter int NumLanes     = 32      // lanes looked at (one beat)
) (
  input  logic [NumLanes-1:0]       pend_i,       // lanes still to be requested
  input  logic [32*NumLanes-1:0]    addr_i,       // device byte addresses
  input  logic [32*NumLanes-1:0]    data_i,       // store data / atomic b
  input  logic [32*NumLanes-1:0]    swap_i,       // atomic c
  input  logic [1:0]                size_log2_i,
  input  logic                      atomic_i,
  input  logic                      store_i,      // merge store bytes into wdata/wstrb
  input  logic                      form_i,       // join the line form_line_i (not atomic)
  input  logic [31-$clog2(MemLineBytes):0] form_line_i,  // its line number (address >> log2 line)
  output logic [NumLanes-1:0]       match_o,      // lanes served by this request
  output logic [31:0]               addr_o,
  output logic [MemLineBytes*8-1:0] wdata_o,
  output logic [MemLineBytes-1:0]   wstrb_o
);

  localparam int LineW = $clog2(MemLineBytes);
  localparam int LineWords = MemLineBytes / 4;

  logic [NumLanes-1:0] lead_oh;    // the lowest pending lane, one-hot (pend & -pend)
  logic [31:0] lead_addr;
  logic [31:0] lead_data;
  logic [31:0] lead_swap;
  logic [31:LineW] line_addr;      // the line the lanes join

  assign lead_oh = pend_i & (~pend_i + NumLanes'(1));

  always_comb begin
    lead_addr = '0;
    lead_data = '0;
    lead_swap = '0;
    if (pend_i != '0) begin
      for (int i = 0; i < NumLanes; i++) begin
        lead_addr = lead_addr | ({32{lead_oh[i]}} & addr_i[32*i +: 32]);
        lead_data = lead_data | ({32{lead_oh[i]}} & data_i[32*i +: 32]);
        lead_swap = lead_swap | ({32{lead_oh[i]}} & swap_i[32*i +: 32]);
      end
    end
  end
  assign line_addr = form_i ? form_line_i : lead_addr[31:LineW];

  always_comb begin
    match_o = '0;
    if (pend_i != '0) begin
      for (int i = 0; i < NumLanes; i++) begin
        match_o[i] = atomic_i ? lead_oh[i]
                              : pend_i[i] && (addr_i[32*i + LineW +: 32 - LineW] == line_addr);
      end
    end
  end

  assign addr_o = atomic_i ? lead_addr : {line_addr, {LineW{1'b0}}};

  // Store bytes: lane i covers bytes [off, off + size) of the line, with off
  // naturally aligned, so it stays inside one 32-bit word of the line.
  logic [NumLanes*4-1:0]  lane_be;
  logic [NumLanes*32-1:0] lane_wd;
  always_comb begin
    logic [3:0] be;
    be = (size_log2_i == 2'd0) ? 4'b0001 : (size_log2_i == 2'd1) ? 4'b0011 : 4'b1111;
    lane_be = '0;
    lane_wd = '0;
    if (pend_i != '0 && store_i) begin
      for (int i = 0; i < NumLanes; i++) begin
        lane_be[4*i +: 4] = be << addr_i[32*i +: 2];
        lane_wd[32*i +: 32] = data_i[32*i +: 32] << {addr_i[32*i +: 2], 3'b000};
      end
    end
  end

  // Merged store bytes, one line word at a time: the lanes in that word
  // overwrite its bytes in lane order, so the highest lane wins. Loads skip
  // it (their wdata/wstrb stay 0 and are not used).
  always_comb begin
    logic [31:0] word;
    logic [3:0]  strb;
    word = '0;
    strb = '0;
    wdata_o = '0;
    wstrb_o = '0;
    if (pend_i == '0) begin
      // Nothing pending: no lane matches, every output is 0 (skipped work).
    end else if (atomic_i) begin
      wdata_o[31:0] = lead_data;
      wdata_o[63:32] = lead_swap;
    end else if (store_i) begin
      for (int w = 0; w < LineWords; w++) begin
        word = '0;
        strb = '0;
        for (int i = 0; i < NumLanes; i++) begin
          if (match_o[i] && addr_i[32*i + 2 +: LineW - 2] == (LineW - 2)'(w)) begin
            for (int k = 0; k < 4; k++) begin
              if (lane_be[4*i + k]) word[8*k +: 8] = lane_wd[32*i + 8*k +: 8];
            end
            strb = strb | lane_be[4*i +: 4];
          end
        end
        wdata_o[32*w +: 32] = word;
        wstrb_o[4*w +: 4] = strb;
      end
    end
  end

endmodule

`default_nettype wire
