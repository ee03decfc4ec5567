// baresm_fpu_lzc: leading-zero count of a vector, as a balanced tree.
//
// cnt_o is the number of zeros above the most significant one of data_i, or
// Width when data_i is 0. Purely combinational; log2(Width) levels of 2:1
// muxes. The tree is built procedurally (each level overwrites the entries
// of the level below it in place) so that it needs neither hierarchical
// references between generate blocks nor one vector whose bits feed each
// other through continuous assignments, which the three tools treat
// differently.
`default_nettype none

module baresm_fpu_lzc #(
  parameter int Width = 76,
  parameter int CntW  = $clog2(Width + 1)
) (
  input  logic [Width-1:0] data_i,
  output logic [CntW-1:0]  cnt_o
);

  localparam int Levels = (Width > 1) ? $clog2(Width) : 1;
  localparam int Leaves = 1 << Levels;
  localparam int NodeW  = Levels + 1;  // a subtree of up to Leaves bits

  // Node i of the current level: zero[i] = the subtree is all zeros,
  // cnt[i] = its leading zeros (its size when all zero).
  logic [Leaves-1:0]       padded;
  logic [Leaves-1:0]       zero;
  logic [Leaves*NodeW-1:0] cnt;

  always_comb begin
    // Pad below with ones so that the count never exceeds Width.
    padded = '1;
    padded[Leaves-1 -: Width] = data_i;
    // Leaves, most significant bit first.
    for (int i = 0; i < Leaves; i++) begin
      zero[i]               = ~padded[Leaves-1-i];
      cnt[i*NodeW +: NodeW] = padded[Leaves-1-i] ? '0 : NodeW'(1);
    end
    // Level lv merges pairs of subtrees of 2**lv leaves. Node i reads 2i and
    // 2i+1 before anything at or above index i+1 is written, so in place works.
    for (int lv = 0; lv < Levels; lv++) begin
      for (int i = 0; i < Leaves / 2; i++) begin
        if (i < (Leaves >> (lv + 1))) begin  // constant loop bound for Icarus
          if (zero[2*i]) begin
            cnt[i*NodeW +: NodeW] = NodeW'(1 << lv) + cnt[(2*i+1)*NodeW +: NodeW];
          end else begin
            cnt[i*NodeW +: NodeW] = cnt[2*i*NodeW +: NodeW];
          end
          zero[i] = zero[2*i] & zero[2*i+1];
        end
      end
    end
    cnt_o = cnt[CntW-1:0];
  end

endmodule

`default_nettype wire
