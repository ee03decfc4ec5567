// Internal invariants of baresm_ssm_seq for the proof ssm_port (appended
// inside the module by scripts/formal.sh): the memory port is busy only in
// the two states that wait for it, and never twice.
`ifdef FORMAL
  always @(posedge clk_i) if (rst_ni) assert (!(req_q && outstanding_q));
  always @(posedge clk_i)
    if (rst_ni && !(st_q == S_FWAIT || (st_q == S_MWAIT && !is_shared)))
      assert (!req_q && !outstanding_q);
`endif
