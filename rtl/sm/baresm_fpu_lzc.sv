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
  // cnt[i] = its leading zeros (its size when all zero). A function, called
  // from a continuous assignment, so the in-place updates happen on local
  // variables rather than on signals (Icarus 11 can re-trigger an
  // always_comb that rewrites its own signals without end).
  function automatic logic [CntW-1:0] f_lzc(input logic [Width-1:0] data);
    logic [Leaves-1:0]       padded;
    logic [Leaves-1:0]       zero;
    logic [Leaves*NodeW-1:0] cnt;
    // Pad below with ones so that the count never exceeds Width.
    padded = '1;
    padded[Leaves-1 -: Width] = data;
    // Leaves, most significant bit first.
    for (int leaf = 0; leaf < Leaves; leaf++) begin
      zero[leaf]               = ~padded[Leaves-1-leaf];
      cnt[leaf*NodeW +: NodeW] = padded[Leaves-1-leaf] ? '0 : NodeW'(1);
    end
    // Level lv merges pairs of subtrees of 2**lv leaves. Node n reads 2n and
    // 2n+1 before anything at or above index n+1 is written, so in place works.
    for (int lv = 0; lv < Levels; lv++) begin
      for (int node = 0; node < Leaves / 2; node++) begin
        if (node < (Leaves >> (lv + 1))) begin  // constant loop bound for Icarus
          if (zero[2*node]) begin
            cnt[node*NodeW +: NodeW] = NodeW'(1 << lv) + cnt[(2*node+1)*NodeW +: NodeW];
          end else begin
            cnt[node*NodeW +: NodeW] = cnt[2*node*NodeW +: NodeW];
          end
          zero[node] = zero[2*node] & zero[2*node+1];
        end
      end
    end
    f_lzc = cnt[CntW-1:0];
  endfunction

  assign cnt_o = f_lzc(data_i);

endmodule

`default_nettype wire
