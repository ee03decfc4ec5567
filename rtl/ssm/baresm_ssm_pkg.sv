// baresm_ssm_pkg: the thread-serial SM's decoded instruction and the pure
// functions of its sequencer (docs/microarchitecture.md, "The thread-serial
// SM"). The field positions come from baresm_isa_pkg (generated from the
// opcode table), the ALU and legality rules from baresm_sm_pkg: the serial
// SM decodes exactly what the wide one does.
`default_nettype none
`include "baresm_ssm_types.svh"

package baresm_ssm_pkg;


  // The word's fields, in instr_t's order (a plain vector: Yosys 0.23 cannot
  // size a function that returns a struct).
  function automatic logic [75:0] decode(input logic [63:0] w);
    decode = {w[baresm_isa_pkg::OP_LSB +: 7], w[baresm_isa_pkg::BIMM_BIT], w[baresm_isa_pkg::PG_LSB +: 3],
              w[baresm_isa_pkg::PG_NEG_BIT], w[baresm_isa_pkg::RD_LSB +: 6], w[baresm_isa_pkg::RA_LSB +: 6],
              w[baresm_isa_pkg::MOD_LSB +: 8], w[baresm_isa_pkg::RB_LSB +: 6], w[baresm_isa_pkg::RC_LSB +: 6],
              w[baresm_isa_pkg::BIMM_BIT] ? w[baresm_isa_pkg::IMM32_LSB +: 32]
                                          : {{12{w[63]}}, w[baresm_isa_pkg::IMM20_LSB +: 20]}};
  endfunction

  function automatic logic is_atom(input logic [6:0] op);
    is_atom = op == baresm_isa_pkg::OP_ATOMG || op == baresm_isa_pkg::OP_ATOMS;
  endfunction

  // The memory instructions by space, and the stores.
  function automatic logic is_global(input logic [6:0] op);
    is_global = op == baresm_isa_pkg::OP_LDG || op == baresm_isa_pkg::OP_STG || op == baresm_isa_pkg::OP_ATOMG;
  endfunction
  function automatic logic is_shared(input logic [6:0] op);
    is_shared = op == baresm_isa_pkg::OP_LDS || op == baresm_isa_pkg::OP_STS || op == baresm_isa_pkg::OP_ATOMS;
  endfunction
  function automatic logic is_store(input logic [6:0] op);
    is_store = op == baresm_isa_pkg::OP_STG || op == baresm_isa_pkg::OP_STS;
  endfunction

  // S2R's special register `id` for one thread (isa/iss_exec.cpp sreg):
  // tid, block, grid and cta are {z, y, x}; smid the SM's id as reported.
  function automatic logic [31:0] sreg(input logic [7:0] id, input logic [47:0] tid, input logic [47:0] block,
                                       input logic [95:0] grid, input logic [95:0] cta, input logic [4:0] lane,
                                       input logic [31:0] warp, input logic [7:0] smid, input logic [63:0] clock);
    unique case (id)
      baresm_isa_pkg::SR_TID_X: sreg = {16'd0, tid[15:0]};
      baresm_isa_pkg::SR_TID_Y: sreg = {16'd0, tid[31:16]};
      baresm_isa_pkg::SR_TID_Z: sreg = {16'd0, tid[47:32]};
      baresm_isa_pkg::SR_NTID_X: sreg = {16'd0, block[15:0]};
      baresm_isa_pkg::SR_NTID_Y: sreg = {16'd0, block[31:16]};
      baresm_isa_pkg::SR_NTID_Z: sreg = {16'd0, block[47:32]};
      baresm_isa_pkg::SR_CTAID_X: sreg = cta[31:0];
      baresm_isa_pkg::SR_CTAID_Y: sreg = cta[63:32];
      baresm_isa_pkg::SR_CTAID_Z: sreg = cta[95:64];
      baresm_isa_pkg::SR_NCTAID_X: sreg = grid[31:0];
      baresm_isa_pkg::SR_NCTAID_Y: sreg = grid[63:32];
      baresm_isa_pkg::SR_NCTAID_Z: sreg = grid[95:64];
      baresm_isa_pkg::SR_LANEID: sreg = {27'd0, lane};
      baresm_isa_pkg::SR_WARPID: sreg = warp;
      baresm_isa_pkg::SR_SMID: sreg = {24'd0, smid};
      baresm_isa_pkg::SR_CLOCK: sreg = clock[31:0];
      baresm_isa_pkg::SR_CLOCKHI: sreg = clock[63:32];
      default: sreg = 32'd0;
    endcase
  endfunction

  // The register fields an instruction uses (isa/iss_exec.cpp used_regs), as
  // a 4-bit mask over {rc, rb, ra, rd}. (Fields, not an instr_t: Yosys 0.23
  // cannot pass a struct to a function.)
  function automatic logic [3:0] used_fields(input logic [6:0] op, input logic bimm, input logic [3:0] mod);
    logic [9:0] f;
    logic [3:0] u;
    f = baresm_isa_pkg::op_flags(op);
    u = '0;
    if (op == baresm_isa_pkg::OP_VOTE) begin
      u[0] = mod[1:0] == baresm_isa_pkg::VOTE_BALLOT;
    end else begin
      u[0] = f[baresm_isa_pkg::F_WRD] || f[baresm_isa_pkg::F_RRD];
      u[1] = f[baresm_isa_pkg::F_RA];
      u[2] = f[baresm_isa_pkg::F_RB] && !bimm;
      u[3] = f[baresm_isa_pkg::F_RC] && (!is_atom(op) || mod[3:0] == baresm_isa_pkg::ATOM_CAS);
    end
    used_fields = u;
  endfunction

  // A used register field names a register the launch has (RZ always).
  function automatic logic reg_ok(input logic used, input logic [5:0] r, input logic [7:0] regs);
    reg_ok = !used || r == 6'(baresm_isa_pkg::REG_ZERO) || {2'b0, r} < regs;
  endfunction

  // ILLEGAL_INSTR: the word does not decode, needs an FPU the SM lacks, or
  // names a register at or past the launch's registers per thread.
  function automatic logic illegal(input logic [6:0] op, input logic bimm, input logic [7:0] mod,
                                   input logic [23:0] regs_dabc, input logic has_fpu, input logic [7:0] regs);
    logic [3:0] u;
    logic bad;
    u = used_fields(op, bimm, mod[3:0]);
    bad = !baresm_sm_pkg::word_legal(op, bimm, mod);
    if (!has_fpu && baresm_isa_pkg::op_unit(op) == baresm_isa_pkg::UNIT_FPU) bad = 1'b1;
    for (int k = 0; k < 4; k++) if (!reg_ok(u[k], regs_dabc[6*k +: 6], regs)) bad = 1'b1;
    illegal = bad;
  endfunction

  // Bytes of a load or store (LDW_* / STW_*).
  function automatic logic [2:0] access_size(input logic [6:0] op, input logic [2:0] mod);
    if (is_atom(op) || mod == baresm_isa_pkg::LDW_32) access_size = 3'd4;
    else if (mod >= baresm_isa_pkg::LDW_U16) access_size = 3'd2;
    else access_size = 3'd1;
  endfunction

  // A global access of `size` bytes at a: inside the window {base, wsize}
  // (a window of size 0 holds nothing), and touching the protected range.
  function automatic logic in_window(input logic [31:0] a, input logic [2:0] size, input logic [31:0] base,
                                     input logic [31:0] wsize);
    in_window = wsize != 32'd0 && a >= base && {1'b0, a} + 33'(size) <= {1'b0, base} + {1'b0, wsize};
  endfunction
  function automatic logic in_protected(input logic [31:0] a, input logic [2:0] size, input logic [31:0] base,
                                        input logic [31:0] psize);
    in_protected = psize != 32'd0 && {1'b0, a} < {1'b0, base} + {1'b0, psize} && {1'b0, a} + 33'(size) > {1'b0, base};
  endfunction

  // A store's data repeated over the word, and its byte strobes at offset 0:
  // the strobes pick the bytes, so nothing is shifted into place.
  function automatic logic [31:0] store_word(input logic [2:0] size, input logic [31:0] v);
    store_word = (size == 3'd4) ? v : (size == 3'd2) ? {2{v[15:0]}} : {4{v[7:0]}};
  endfunction
  function automatic logic [3:0] store_strb(input logic [2:0] size);
    store_strb = (size == 3'd4) ? 4'hF : (size == 3'd2) ? 4'h3 : 4'h1;
  endfunction

  // A loaded value, sign- or zero-extended as the modifier says.
  function automatic logic [31:0] load_extend(input logic [2:0] mod, input logic [31:0] v);
    unique case (mod)
      baresm_isa_pkg::LDW_U8: load_extend = {24'd0, v[7:0]};
      baresm_isa_pkg::LDW_S8: load_extend = {{24{v[7]}}, v[7:0]};
      baresm_isa_pkg::LDW_U16: load_extend = {16'd0, v[15:0]};
      baresm_isa_pkg::LDW_S16: load_extend = {{16{v[15]}}, v[15:0]};
      default: load_extend = v;
    endcase
  endfunction

  // The SHFL source lane (isa/iss_exec.cpp, Op::SHFL), in [4:0].
  function automatic logic [5:0] shfl_src(input logic [4:0] mod, input logic [4:0] lane,
                                          input logic [31:0] b);
    logic [5:0] width, base, l, s;
    width = 6'd1 << mod[4:2];
    l = {1'b0, lane};
    base = l & ~(width - 6'd1);
    s = l;
    unique case (mod[1:0])
      baresm_isa_pkg::SHFL_IDX: s = base + (b[5:0] & (width - 6'd1));
      baresm_isa_pkg::SHFL_UP: s = (b > {26'd0, l - base}) ? l : l - b[5:0];
      baresm_isa_pkg::SHFL_DOWN: s = ({27'd0, l} + {1'b0, b} >= {27'd0, base + width}) ? l : l + b[5:0];
      default: s = l ^ (b[5:0] & (width - 6'd1));
    endcase
    shfl_src = s;
  endfunction

endpackage

`default_nettype wire
