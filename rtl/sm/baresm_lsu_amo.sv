// baresm_lsu_amo: the atomic read-modify-write ALU (docs/isa.md, ATOM mod).
// Combinational: new value from the old memory word and the operands b, c.
// The same function the device-memory model applies to ATOMG.
`default_nettype none

module baresm_lsu_amo (
  input  logic [4:0]  amo_i,   // ATOM mod[4:0]: [3:0] op, [4] .U32 (MIN/MAX)
  input  logic [31:0] old_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] new_o
);

  logic b_lt_old;  // b < old, signed or unsigned per .U32
  assign b_lt_old = amo_i[baresm_isa_pkg::ATOM_UNSIGNED_BIT] ? (b_i < old_i)
                                                             : ($signed(b_i) < $signed(old_i));

  always_comb begin
    new_o = old_i;
    case (amo_i[3:0])
      baresm_isa_pkg::ATOM_ADD:  new_o = old_i + b_i;
      baresm_isa_pkg::ATOM_MIN:  new_o = b_lt_old ? b_i : old_i;
      baresm_isa_pkg::ATOM_MAX:  new_o = b_lt_old ? old_i : b_i;
      baresm_isa_pkg::ATOM_EXCH: new_o = b_i;
      baresm_isa_pkg::ATOM_CAS:  new_o = (old_i == b_i) ? c_i : old_i;
      baresm_isa_pkg::ATOM_AND:  new_o = old_i & b_i;
      baresm_isa_pkg::ATOM_OR:   new_o = old_i | b_i;
      baresm_isa_pkg::ATOM_XOR:  new_o = old_i ^ b_i;
      default:                   new_o = old_i;  // not an encodable op: no change
    endcase
  end

endmodule

`default_nettype wire
