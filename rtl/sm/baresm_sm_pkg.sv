// baresm_sm_pkg: constants and pure functions of the SM core (everything the
// opcode table and the state and launch tables do not generate):
// instruction legality and the integer lane ALU.
// docs/microarchitecture.md describes where each is used.
`default_nettype none

package baresm_sm_pkg;

  // "No reconvergence point": never a valid (8-byte aligned) pc.
  localparam logic [31:0] PC_NONE = 32'hFFFF_FFFF;

  // Fault kinds (FAULT_*) and warp states (WS_*): baresm_state_pkg, generated
  // from contract/faults.def and contract/states.def.

  // Issue classes of a decoded instruction.
  localparam logic [2:0] CL_CTRL = 3'd0;  // resolved at issue: BRA EXIT BAR TRAP NOP, faults
  localparam logic [2:0] CL_ALU = 3'd1;   // lane ALU through the beat pipe
  localparam logic [2:0] CL_FPU = 3'd2;   // FPU through the beat pipe
  localparam logic [2:0] CL_SHFL = 3'd3;  // operands gathered over all beats, then shuffled
  localparam logic [2:0] CL_LSU = 3'd4;   // operands gathered, then handed to the LSU

  // Pre-decoded instruction (baresm_sm_ibuf's predecode), per buffered word:
  //   [36:34] class  [33:28] sa  [27:22] sb  [21:16] sc  [15:10] rd (63 none)
  //   [9:7] guard pred  [6:4] second pred read  [3:1] pred written  [0] illegal
  localparam int DEC_W = 37;

  // ---- decode -------------------------------------------------------------------
  // True when the modifier byte holds a value the opcode accepts (isa.cpp
  // mod_valid, plus the SEL and S2R operand rules).
  function automatic logic mod_ok(input logic [6:0] op, input logic [7:0] mod);
    logic ok;
    ok = 1'b0;
    unique case (op)
      baresm_isa_pkg::OP_IMULHI, baresm_isa_pkg::OP_IMIN, baresm_isa_pkg::OP_IMAX,
      baresm_isa_pkg::OP_I2F, baresm_isa_pkg::OP_F2I:
        ok = mod[7:1] == 7'd0;
      baresm_isa_pkg::OP_ISETP:
        ok = !mod[7] && mod[5:4] != 2'd3 && mod[2:0] <= 3'd5;
      baresm_isa_pkg::OP_FSETP:
        ok = !mod[7] && mod[5:4] != 2'd3 && mod[3:0] <= 4'd13;
      baresm_isa_pkg::OP_LDG, baresm_isa_pkg::OP_LDS, baresm_isa_pkg::OP_LDC:
        ok = mod <= 8'd4;
      baresm_isa_pkg::OP_STG, baresm_isa_pkg::OP_STS:
        ok = mod == 8'd0 || mod == 8'd2 || mod == 8'd4;
      baresm_isa_pkg::OP_ATOMG, baresm_isa_pkg::OP_ATOMS:
        ok = mod[7:5] == 3'd0 && mod[3:0] <= 4'd7 &&
             (!mod[4] || mod[3:0] == 4'd1 || mod[3:0] == 4'd2);
      baresm_isa_pkg::OP_VOTE: ok = mod <= 8'd2;
      baresm_isa_pkg::OP_SHFL: ok = mod[7:5] == 3'd0 && mod[4:2] <= 3'd5;
      baresm_isa_pkg::OP_S2R: ok = mod < 8'd17;
      baresm_isa_pkg::OP_SEL: ok = mod <= 8'd15;
      default: ok = mod == 8'd0;  // NONE and BAR kinds
    endcase
    mod_ok = ok;
  endfunction

  // The word decodes (isa::decode succeeds): opcode, modifier and bimm rules.
  function automatic logic word_legal(input logic [6:0] op, input logic bimm,
                                      input logic [7:0] mod);
    logic [9:0] fl;
    logic ok;
    fl = baresm_isa_pkg::op_flags(op);
    ok = baresm_isa_pkg::op_legal(op) && mod_ok(op, mod);
    if (bimm && !fl[baresm_isa_pkg::F_BIMM_OK] && !fl[baresm_isa_pkg::F_BIMM_ALWAYS]) ok = 1'b0;
    if (!bimm && fl[baresm_isa_pkg::F_BIMM_ALWAYS]) ok = 1'b0;
    word_legal = ok;
  endfunction

  // ---- integer lane ALU --------------------------------------------------------
  // ISETP comparison (cmp: EQ NE LT LE GT GE).
  function automatic logic icmp(input logic [2:0] cmp, input logic uns, input logic [31:0] a,
                                input logic [31:0] b);
    logic lt, eq, r;
    eq = a == b;
    lt = uns ? (a < b) : ($signed(a) < $signed(b));
    unique case (cmp)
      3'd0: r = eq;
      3'd1: r = !eq;
      3'd2: r = lt;
      3'd3: r = lt || eq;
      3'd4: r = !lt && !eq;
      default: r = !lt;
    endcase
    icmp = r;
  endfunction

  // SETP predicate combining (AND OR XOR).
  function automatic logic pcomb(input logic [1:0] comb, input logic r, input logic pc);
    unique case (comb)
      2'd0: pcomb = r & pc;
      2'd1: pcomb = r | pc;
      default: pcomb = r ^ pc;
    endcase
  endfunction

  function automatic logic [5:0] clz32(input logic [31:0] a);
    logic [5:0] n;
    logic found;
    n = 6'd0;
    found = 1'b0;
    for (int i = 31; i >= 0; i--) begin
      if (a[i]) found = 1'b1;
      if (!found) n = n + 6'd1;
    end
    clz32 = n;
  endfunction

  function automatic logic [5:0] popc32(input logic [31:0] a);
    logic [5:0] n;
    n = 6'd0;
    for (int i = 0; i < 32; i++) n = n + {5'd0, a[i]};
    popc32 = n;
  endfunction

  // A warp slot's state this cycle (baresm_state_pkg::WS_*), the first that
  // matches: idle > exited > waiting at a barrier > issued > ready > waiting
  // on memory > waiting on the scoreboard (baresm_sm_status says when each holds).
  function automatic logic [2:0] warp_state(input logic used, input logic exited, input logic bar_wait,
                                            input logic issued, input logic ready, input logic wait_mem);
    if (!used) warp_state = baresm_state_pkg::WS_IDLE;
    else if (exited) warp_state = baresm_state_pkg::WS_EXITED;
    else if (bar_wait) warp_state = baresm_state_pkg::WS_WAIT_BAR;
    else if (issued) warp_state = baresm_state_pkg::WS_ISSUED;
    else if (ready) warp_state = baresm_state_pkg::WS_READY;
    else if (wait_mem) warp_state = baresm_state_pkg::WS_WAIT_MEM;
    else warp_state = baresm_state_pkg::WS_WAIT_SB;
  endfunction

  // One lane of the integer ALU. uns is mod[0] (.U32); sel is the lane's SEL
  // predicate (already negated as the instruction says); sreg the lane's
  // special register for S2R.
  function automatic logic [31:0] alu(input logic [6:0] op, input logic uns,
                                      input logic [31:0] a, input logic [31:0] b,
                                      input logic [31:0] c, input logic sel,
                                      input logic [31:0] sreg);
    logic [63:0] prod;
    logic [31:0] hi_s, r;
    prod = {32'd0, a} * {32'd0, b};
    // Signed high word from the unsigned product: subtract b (a) when a (b) is negative.
    hi_s = prod[63:32] - (a[31] ? b : 32'd0) - (b[31] ? a : 32'd0);
    r = 32'd0;
    unique case (op)
      baresm_isa_pkg::OP_MOV: r = b;
      baresm_isa_pkg::OP_IADD: r = a + b;
      baresm_isa_pkg::OP_ISUB: r = a - b;
      baresm_isa_pkg::OP_IMUL: r = prod[31:0];
      baresm_isa_pkg::OP_IMULHI: r = uns ? prod[63:32] : hi_s;
      baresm_isa_pkg::OP_IMAD: r = prod[31:0] + c;
      baresm_isa_pkg::OP_IMIN:
        r = (uns ? (a < b) : ($signed(a) < $signed(b))) ? a : b;
      baresm_isa_pkg::OP_IMAX:
        r = (uns ? (a > b) : ($signed(a) > $signed(b))) ? a : b;
      baresm_isa_pkg::OP_IABS: r = a[31] ? (32'd0 - a) : a;
      baresm_isa_pkg::OP_AND: r = a & b;
      baresm_isa_pkg::OP_OR: r = a | b;
      baresm_isa_pkg::OP_XOR: r = a ^ b;
      baresm_isa_pkg::OP_NOT: r = ~a;
      baresm_isa_pkg::OP_SHL: r = (b[31:5] != 27'd0) ? 32'd0 : (a << b[4:0]);
      baresm_isa_pkg::OP_SHR: r = (b[31:5] != 27'd0) ? 32'd0 : (a >> b[4:0]);
      baresm_isa_pkg::OP_SHRA:
        r = (b[31:5] != 27'd0) ? {32{a[31]}} : 32'($signed(a) >>> b[4:0]);
      baresm_isa_pkg::OP_POPC: r = {26'd0, popc32(a)};
      baresm_isa_pkg::OP_CLZ: r = {26'd0, clz32(a)};
      baresm_isa_pkg::OP_SEL: r = sel ? a : b;
      baresm_isa_pkg::OP_S2R: r = sreg;
      baresm_isa_pkg::OP_VOTE: r = b;  // BALLOT: the ballot arrives as operand b
      default: r = 32'd0;
    endcase
    alu = r;
  endfunction

  // ---- thread ids ----------------------------------------------------------------
  // {z, y, x} (16 bits each) of the next thread in linear order for block
  // dims {ny, nx}: x fastest (z never wraps inside a block).
  function automatic logic [47:0] tid_next(input logic [47:0] t, input logic [31:0] dims);
    logic [15:0] x, y, z;
    x = t[15:0] + 16'd1;
    y = t[31:16];
    z = t[47:32];
    if (x >= dims[15:0]) begin
      x = 16'd0;
      y = y + 16'd1;
      if (y >= dims[31:16]) begin
        y = 16'd0;
        z = z + 16'd1;
      end
    end
    tid_next = {z, y, x};
  endfunction

  // Lowest set bit of a lane mask (0 when empty). A binary search, five
  // halvings, rather than a 32-step scan: the same value for every mask, in
  // a few operations of a verilated model instead of 32 conditional steps
  // (the LSU's response lanes are in the input region, evaluated on every
  // clock edge; docs/cosim.md, simulation speed).
  function automatic logic [4:0] lowest_lane(input logic [31:0] m);
    // Each step keeps the lower half when it has a set bit, else the upper
    // half less its top bit (that bit is the answer when the rest is clear).
    logic [14:0] m16;
    logic [6:0]  m8;
    logic [2:0]  m4;
    logic        m1;
    logic        b4, b3, b2, b1, b0;
    b4 = m[15:0] == 16'd0;
    m16 = b4 ? m[30:16] : m[14:0];
    b3 = m16[7:0] == 8'd0;
    m8 = b3 ? m16[14:8] : m16[6:0];
    b2 = m8[3:0] == 4'd0;
    m4 = b2 ? m8[6:4] : m8[2:0];
    b1 = m4[1:0] == 2'd0;
    m1 = b1 ? m4[2] : m4[0];
    b0 = !m1;
    lowest_lane = (m == 32'd0) ? 5'd0 : {b4, b3, b2, b1, b0};
  endfunction

  // ---- register-file banks (baresm_sm_rf) -----------------------------------------
  // Entry e (base + r * Beats + beat) lives in bank (e + (e >> shift)) mod
  // 2^bank_bits, shift = max(bank_bits, beat_bits), at row e >> bank_bits of
  // that bank: each row of 2^bank_bits entries is rotated by an amount of its
  // own. With a warp base that is a multiple of Beats, the bank of beat b of
  // register r is (b + base / Beats + r) mod banks when Beats >= banks, and
  // a function of r alone when Beats is 1: two registers of one instruction
  // share a bank at every beat or at none, so baresm_sm_exec schedules an
  // instruction's reads once for all its beats.
  function automatic logic [3:0] rf_bank(input logic [15:0] e, input int unsigned bank_bits,
                                        input int unsigned beat_bits);
    logic [15:0] rot;
    rot = e + (e >> ((bank_bits > beat_bits) ? bank_bits : beat_bits));
    rf_bank = 4'(rot & ((16'd1 << bank_bits) - 16'd1));
  endfunction

endpackage

`default_nettype wire
