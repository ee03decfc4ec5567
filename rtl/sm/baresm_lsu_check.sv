// baresm_lsu_check: the fault check of one warp memory instruction, for
// NumLanes lanes at once (one beat of the warp; baresm_lsu checks the beats
// one per cycle, all of them before any access is made; docs/isa.md, Faults).
// Per lane, misalignment is checked before the window; the lowest faulting
// lane is reported with its kind and effective address. A global access
// that touches the protected range [prot_base_i, +prot_size_i) is out of
// window whatever the windows say (the driver keeps its rings, descriptors,
// parameter buffers and module code there). Combinational. lane_o is the
// lane's index inside the beat.
`default_nettype none

module baresm_lsu_check #(
  parameter int NumWindows = 4,
  parameter int NumLanes   = 32     // lanes checked at once (1..32)
) (
  input  logic [1:0]                    space_i,      // SPACE_GLOBAL/SHARED/PARAM
  input  logic [1:0]                    size_log2_i,  // 0: 1 byte, 1: 2, 2: 4
  input  logic [NumLanes-1:0]           mask_i,
  input  logic [32*NumLanes-1:0]        addr_i,       // effective addresses
  input  logic [31:0]                   smem_size_i,
  input  logic [31:0]                   param_size_i,
  input  logic [32*NumWindows-1:0]      win_base_i,
  input  logic [32*NumWindows-1:0]      win_size_i,
  input  logic [31:0]                   prot_base_i,
  input  logic [31:0]                   prot_size_i,
  output logic                          fault_o,
  output logic [3:0]                    kind_o,       // iss::FaultKind numbering
  output logic [4:0]                    lane_o,
  output logic [31:0]                   addr_o
);

  localparam logic [1:0] SPACE_GLOBAL = 2'd0;
  localparam logic [1:0] SPACE_SHARED = 2'd1;

  logic [NumLanes-1:0] misaligned;
  logic [NumLanes-1:0] outside;

  logic [32:0] prot_end;
  assign prot_end = {1'b0, prot_base_i} + {1'b0, prot_size_i};

  // Sizes and ends in 33 bits: an access running past 2**32 is outside.
  always_comb begin
    logic [31:0] a;
    logic [32:0] a_end;
    logic [32:0] limit;
    logic        in_win;
    logic        in_prot;
    a = '0;
    a_end = '0;
    limit = '0;
    in_win = 1'b0;
    in_prot = 1'b0;
    misaligned = '0;
    outside = '0;
    // No active lane, no fault: skip the per-lane checks (simulation speed).
    if (mask_i != '0) for (int i = 0; i < NumLanes; i++) begin
      a = addr_i[32*i +: 32];
      a_end = {1'b0, a} + (33'd1 << size_log2_i);
      misaligned[i] = (size_log2_i == 2'd1 && a[0]) || (size_log2_i == 2'd2 && a[1:0] != 2'b00);
      if (space_i == SPACE_GLOBAL) begin
        in_win = 1'b0;
        for (int w = 0; w < NumWindows; w++) begin
          limit = {1'b0, win_base_i[32*w +: 32]} + {1'b0, win_size_i[32*w +: 32]};
          if (a >= win_base_i[32*w +: 32] && a_end <= limit) in_win = 1'b1;
        end
        in_prot = prot_size_i != 32'd0 && {1'b0, a} < prot_end && a_end > {1'b0, prot_base_i};
        if (in_prot) in_win = 1'b0;
      end else begin
        limit = {1'b0, (space_i == SPACE_SHARED) ? smem_size_i : param_size_i};
        in_win = a_end <= limit;
      end
      outside[i] = !in_win;
    end
  end

  // The lowest faulting lane, one-hot (f & -f), then its index and address.
  logic [NumLanes-1:0] faulty;
  logic [NumLanes-1:0] first;
  assign faulty = mask_i & (misaligned | outside);
  assign first = faulty & (~faulty + NumLanes'(1));
  assign fault_o = |faulty;
  assign kind_o = |(first & misaligned) ? baresm_state_pkg::FAULT_MISALIGNED : baresm_state_pkg::FAULT_OUT_OF_WINDOW;

  always_comb begin
    lane_o = '0;
    addr_o = '0;
    if (first != '0) for (int i = 0; i < NumLanes; i++) begin
      lane_o = lane_o | ({5{first[i]}} & 5'(i));
      addr_o = addr_o | ({32{first[i]}} & addr_i[32*i +: 32]);
    end
  end

endmodule

`default_nettype wire
