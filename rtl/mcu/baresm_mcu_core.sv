// baresm_mcu_core: a small multi-cycle RV32I core for the board's firmware
// (docs/mcu.md): the command processor and the narrow SM's control written in
// C, next to the hardware lanes. Built for a small iCE40 area, at about two
// cycles an instruction.
//
//   ISA      the whole RV32I base: LUI AUIPC JAL JALR, branches, loads,
//            stores, OP-IMM, OP; FENCE is a no-op. No CSRs, no interrupts.
//   stops    ECALL, EBREAK, an encoding outside RV32I, a jump or taken branch
//            to an address that is not 4-aligned, a misaligned load or store:
//            the core halts (status_o.halted) with status_o.cause
//            (baresm_mcu_cause_e) and the pc and word of that instruction,
//            which does not retire. Only a reset starts it again.
//   bus      one bus for fetch and data (baresm_mcu_types.svh): any number of
//            wait states before a request is taken and before a read's
//            response. Nothing in req_o depends combinationally on an input.
//   datapath x1..x31 in two copies of a RAM (baresm_ram_1r1w, 32 x 32: iCE40
//            EBR), both written on every write: rs1 and rs2 are read in the
//            same cycle, as the instruction arrives; x0 is RAM word 0,
//            written with zero once after reset. One 32-bit adder for
//            ADD/SUB/SLT, compares, addresses, JALR targets and AUIPC; a
//            (PcW-2)-bit adder for branch and JAL targets; a PC incrementer
//            for pc + 4; a shifter of 4 or 1 bits a cycle; no multiplier.
//            The pc keeps PcW bits (addresses wrap modulo 2^PcW).
//   overlap  an instruction that does not use the bus offers the next
//            instruction's fetch (pc + 4, or the jump or taken branch's
//            target, known in the same cycle) in its execute cycle, and
//            retires when that fetch is taken. ls_o says which requests are
//            loads and stores, their address without the fetch's
//            multiplexer (a bus decodes I/O from it: shorter paths).
//   cycles   with a bus that takes each request at once and answers a read
//            the next cycle: 2 for every instruction (execute with the next
//            fetch, fetch response with the register read) but loads (4),
//            stores (3) and shifts (2 + floor(s/4) + s%4 for a shift by
//            s > 0, 3 for s = 0).
//   trace_o  one retired instruction a cycle at most (for tests and debug).
`include "baresm_assert.svh"
`include "baresm_mcu_types.svh"
`default_nettype none

module baresm_mcu_core #(
  parameter int ResetPc = 0,   // the first instruction's byte address (4-aligned)
  parameter int PcW     = 16   // pc bits kept, 3..32
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  output baresm_mcu_req_t    req_o,
  output baresm_mcu_ls_t     ls_o,        // req_o's load or store, its address from the adder
  input  logic               req_ready_i,
  input  baresm_mcu_rsp_t    rsp_i,
  output baresm_mcu_status_t status_o,
  output baresm_mcu_trace_t  trace_o
);

  localparam logic [31:0] RESET_PC = 32'(ResetPc);

  // ---- state --------------------------------------------------------------
  typedef enum logic [2:0] {
    S_INIT,    // write x0 = 0 (RAM word 0), once after reset
    S_FETCH,   // offer the fetch request (after a load or a store)
    S_WAIT,    // wait for the instruction; read rs1 and rs2 as it arrives
    S_EXEC,    // execute (rs1, rs2 on the RAMs' outputs); offer the next
               // fetch, or the load or store's request
    S_LOAD,    // wait for the load's response, write rd
    S_HALT
  } state_e;

  state_e          state_q, state_d;
  logic [PcW-1:2]  pc_q, pc_d;      // word pc
  logic [31:0]     ir_q;            // the instruction
  logic [2:0]      cause_q, cause_d;

  // ---- decode (from ir_q) -----------------------------------------------------
  localparam logic [4:0] OPC_LOAD = 5'b00000, OPC_MISC = 5'b00011, OPC_OPIMM = 5'b00100,
                         OPC_AUIPC = 5'b00101, OPC_STORE = 5'b01000, OPC_OP = 5'b01100,
                         OPC_LUI = 5'b01101, OPC_BRANCH = 5'b11000, OPC_JALR = 5'b11001,
                         OPC_JAL = 5'b11011, OPC_SYSTEM = 5'b11100;

  logic [4:0] opc;
  logic [2:0] f3;
  logic [6:0] f7;
  assign opc = ir_q[6:2];
  assign f3  = ir_q[14:12];
  assign f7  = ir_q[31:25];

  logic is_load, is_store, is_opimm, is_op, is_lui, is_auipc, is_branch, is_jal, is_jalr;
  logic is_alu, is_shift, is_ecall, is_ebreak, legal, writes_rd;
  assign is_load   = opc == OPC_LOAD;
  assign is_store  = opc == OPC_STORE;
  assign is_opimm  = opc == OPC_OPIMM;
  assign is_op     = opc == OPC_OP;
  assign is_lui    = opc == OPC_LUI;
  assign is_auipc  = opc == OPC_AUIPC;
  assign is_branch = opc == OPC_BRANCH;
  assign is_jal    = opc == OPC_JAL;
  assign is_jalr   = opc == OPC_JALR;
  assign is_alu    = is_op || is_opimm;
  assign is_shift  = is_alu && f3[1:0] == 2'b01;
  assign is_ecall  = ir_q == 32'h0000_0073;
  assign is_ebreak = ir_q == 32'h0010_0073;
  assign writes_rd = is_alu || is_load || is_lui || is_auipc || is_jal || is_jalr;

  always_comb begin
    legal = 1'b0;
    unique case (opc)
      OPC_LUI, OPC_AUIPC, OPC_JAL: legal = 1'b1;
      OPC_JALR:   legal = f3 == 3'b000;
      OPC_BRANCH: legal = f3[2:1] != 2'b01;
      OPC_LOAD:   legal = f3 != 3'b011 && f3[2:1] != 2'b11;
      OPC_STORE:  legal = !f3[2] && f3[1:0] != 2'b11;
      OPC_MISC:   legal = f3 == 3'b000;                      // FENCE (not FENCE.I)
      OPC_OPIMM:  legal = f3[1:0] != 2'b01 || (f7 == 7'b0000000) || (f3[2] && f7 == 7'b0100000);
      OPC_OP:     legal = f7 == 7'b0000000 || (f7 == 7'b0100000 && (f3 == 3'b000 || f3 == 3'b101));
      OPC_SYSTEM: legal = is_ecall || is_ebreak;
      default:    legal = 1'b0;
    endcase
    if (ir_q[1:0] != 2'b11) legal = 1'b0;
  end

  // Immediates: the format follows the opcode.
  logic [31:0] imm;
  always_comb begin
    if (is_store)                 imm = {{20{ir_q[31]}}, ir_q[31:25], ir_q[11:7]};
    else if (is_branch)           imm = {{20{ir_q[31]}}, ir_q[7], ir_q[30:25], ir_q[11:8], 1'b0};
    else if (is_lui || is_auipc)  imm = {ir_q[31:12], 12'b0};
    else if (is_jal)              imm = {{12{ir_q[31]}}, ir_q[19:12], ir_q[20], ir_q[30:21], 1'b0};
    else                          imm = {{20{ir_q[31]}}, ir_q[31:20]};
  end

  // ---- register file: two copies, rs1 from one, rs2 from the other ---------------
  logic        rf_re, rf_we;
  logic [31:0] rs1, rs2, rf_wdata;
  // Both are read as the instruction arrives (S_WAIT); their outputs then hold
  // rs1 and rs2 until the next instruction. Writes happen in S_INIT, S_EXEC
  // and S_LOAD, never in the cycle of a read (the EBR's read during a
  // write of the same word is undefined).
  assign rf_re = state_q == S_WAIT && rsp_i.valid;

  baresm_ram_1r1w #(.Depth(32), .Width(32), .MaskW(1)) u_rf (
    .clk_i,
    .re_i   (rf_re),
    .raddr_i(rsp_i.rdata[19:15]),
    .rdata_o(rs1),
    .we_i   (rf_we),
    .waddr_i(ir_q[11:7]),   // 0 in S_INIT: ir_q resets to 0
    .wmask_i(1'b1),
    .wdata_i(rf_wdata)
  );

  baresm_ram_1r1w #(.Depth(32), .Width(32), .MaskW(1)) u_rf2 (
    .clk_i,
    .re_i   (rf_re),
    .raddr_i(rsp_i.rdata[24:20]),
    .rdata_o(rs2),
    .we_i   (rf_we),
    .waddr_i(ir_q[11:7]),
    .wmask_i(1'b1),
    .wdata_i(rf_wdata)
  );

  // ---- the adders ----------------------------------------------------------------
  logic [31:0] pc_full, op_a, op_b;
  logic        sub;
  logic [33:0] sum34;
  logic [31:0] sum;
  logic        carry, eq, lt, ltu, taken;
  assign pc_full = 32'({pc_q, 2'b00});

  always_comb begin
    op_a = rs1;
    if (state_q == S_EXEC && is_auipc) op_a = pc_full;
    if (state_q == S_INIT || (state_q == S_EXEC && is_lui)) op_a = '0;   // S_INIT: 0 + imm(0) = 0 for x0
  end
  assign op_b  = ((is_op || is_branch) && state_q == S_EXEC) ? rs2 : imm;
  assign sub   = state_q == S_EXEC && (is_branch || (is_alu && f3[2:1] == 2'b01) ||
                                       (is_op && f3 == 3'b000 && ir_q[30]));
  // {a, 1} + {b ^ sub, sub}: the carry-in rides in bit 0, one adder.
  assign sum34 = {1'b0, op_a, 1'b1} + {1'b0, op_b ^ {32{sub}}, sub};
  assign sum   = sum34[32:1];
  assign carry = sum34[33];
  assign eq    = sum == 32'd0;
  assign ltu   = !carry;
  assign lt    = (op_a[31] != op_b[31]) ? op_a[31] : sum[31];
  logic cond;
  always_comb begin
`ifdef BARESM_MCU_PLANT_BLTU
    cond = f3[2] ? ((f3[1] && f3[0]) ? ltu : lt) : eq;   // planted bug: BLTU compares signed
`else
    cond = f3[2] ? (f3[1] ? ltu : lt) : eq;
`endif
    taken = cond ^ f3[0];
  end

  // Branch and JAL targets: pc + imm on the pc's bits (the main adder compares
  // in the same cycle). imm[1] is the target's bit 1 (the pc is 4-aligned).
  logic [PcW-1:2] pc_inc, pc_tgt;
  assign pc_inc = pc_q + 1'b1;
  assign pc_tgt = pc_q + imm[PcW-1:2];

  // ---- logic ops, SLT ------------------------------------------------------------
  logic [31:0] logic_res;
  always_comb begin
    unique case (f3)
      3'b100:  logic_res = rs1 ^ op_b;
      3'b110:  logic_res = rs1 | op_b;
      3'b010:  logic_res = {31'b0, lt};
      3'b011:  logic_res = {31'b0, ltu};
      default: logic_res = rs1 & op_b;
    endcase
  end

  // ---- shifter: a logarithmic one, right shifts of the operand or of its bit
  // reversal (left shifts), in the execute cycle ---------------------------------
  logic [4:0]  shamt;
  logic        sh_fill, sh_fill4;
  logic [31:0] sh_in, sh1, sh2, sh4, sh8, sh16, sh_res;
  assign shamt   = is_op ? rs2[4:0] : ir_q[24:20];
  assign sh_fill = f3[2] && ir_q[30] && rs1[31];   // SRA/SRAI
`ifdef BARESM_MCU_PLANT_SRA4
  assign sh_fill4 = 1'b0;                        // planted bug: SRA's 4-bit stage fills zeros
`else
  assign sh_fill4 = sh_fill;
`endif
  always_comb begin
    for (int i = 0; i < 32; i++) sh_in[i] = f3[2] ? rs1[i] : rs1[31-i];
    sh1  = shamt[0] ? {sh_fill, sh_in[31:1]} : sh_in;
    sh2  = shamt[1] ? {{2{sh_fill}}, sh1[31:2]} : sh1;
    sh4  = shamt[2] ? {{4{sh_fill4}}, sh2[31:4]} : sh2;
    sh8  = shamt[3] ? {{8{sh_fill}}, sh4[31:8]} : sh4;
    sh16 = shamt[4] ? {{16{sh_fill}}, sh8[31:16]} : sh8;
    for (int i = 0; i < 32; i++) sh_res[i] = f3[2] ? sh16[i] : sh16[31-i];
  end

  // ---- loads and stores ------------------------------------------------------------
  logic [1:0]  off;
  logic        misaligned;
  logic [7:0]  ld_byte;
  logic        ld_sign;
  logic [31:0] ld_res, st_data;
  logic [3:0]  strb;
  assign off = sum[1:0];
  assign misaligned = f3[1] ? off != 2'b00 : (f3[0] && off[0]);
  always_comb begin
    unique case (off)
      2'd0: ld_byte = rsp_i.rdata[7:0];
      2'd1: ld_byte = rsp_i.rdata[15:8];
      2'd2: ld_byte = rsp_i.rdata[23:16];
      default: ld_byte = rsp_i.rdata[31:24];
    endcase
    // LW has off = 0 and LH off[0] = 0: their low byte is ld_byte too.
    ld_sign = !f3[2] && (f3[0] ? (off[1] ? rsp_i.rdata[31] : rsp_i.rdata[15]) : ld_byte[7]);
    ld_res[7:0]   = ld_byte;
    ld_res[15:8]  = (f3[1:0] == 2'b00) ? {8{ld_sign}} : (off[1] ? rsp_i.rdata[31:24] : rsp_i.rdata[15:8]);
    ld_res[31:16] = f3[1] ? rsp_i.rdata[31:16] : {16{ld_sign}};
    // Stores: the data in every lane it may go to, the strobes pick.
    st_data = f3[1] ? rs2 : (f3[0] ? {2{rs2[15:0]}} : {4{rs2[7:0]}});
    if (f3[1])      strb = 4'b1111;
    else if (f3[0]) strb = off[1] ? 4'b1100 : 4'b0011;
    else            strb = 4'b0001 << off;
  end

  // ---- the next pc and the bus ---------------------------------------------------------
  // In S_EXEC an instruction other than a load or store goes to pc + 4 or its
  // target; a jump or taken branch whose target is not 4-aligned stops the core.
  logic           redirect, tgt_misaligned;
  logic [PcW-1:2] pc_next;
  assign redirect       = is_jal || is_jalr || (is_branch && taken);
  assign tgt_misaligned = is_jalr ? sum[1] : imm[1];
  assign pc_next        = !redirect ? pc_inc : is_jalr ? sum[PcW-1:2] : pc_tgt;

  logic mem_go;     // a legal, aligned load or store offers its request in S_EXEC
  logic fetch_go;   // S_EXEC or the shift's last step offers the next fetch
  logic exec_ok;    // S_EXEC and the instruction does not stop the core
  assign exec_ok  = state_q == S_EXEC && legal && !is_ecall && !is_ebreak;
  assign mem_go   = exec_ok && (is_load || is_store) && !misaligned;
  assign fetch_go = exec_ok && !is_load && !is_store && !(redirect && tgt_misaligned);
  logic [PcW-1:2] fetch_pc;
  assign fetch_pc = (state_q == S_FETCH) ? pc_q : pc_next;
  always_comb begin
    req_o       = '0;
    req_o.valid = state_q == S_FETCH || mem_go || fetch_go;
    req_o.we    = mem_go && is_store;
    req_o.addr  = mem_go ? sum[31:2] : 30'(fetch_pc);
    req_o.wdata = st_data;
    req_o.strb  = mem_go ? strb : 4'b1111;
  end
  assign ls_o.valid = mem_go;
  assign ls_o.addr  = sum[31:2];

  // ---- what rd gets --------------------------------------------------------------------
  always_comb begin
    if (state_q == S_LOAD)           rf_wdata = ld_res;
    else if (is_jal || is_jalr)      rf_wdata = 32'({pc_inc, 2'b00});
    else if (is_shift)               rf_wdata = sh_res;
    else if (is_alu && f3 != 3'b000) rf_wdata = logic_res;
    else                             rf_wdata = sum;   // LUI AUIPC ADD SUB ADDI (and 0 in S_INIT)
  end

  // ---- control -------------------------------------------------------------------------
  logic retire;
  always_comb begin
    state_d = state_q;
    pc_d    = pc_q;
    cause_d = cause_q;
    retire  = 1'b0;
    unique case (state_q)
      S_INIT:  state_d = S_FETCH;
      S_FETCH: if (req_ready_i) state_d = S_WAIT;
      S_WAIT:  if (rsp_i.valid) state_d = S_EXEC;
      S_EXEC: begin
        if (!legal) begin
          state_d = S_HALT;
          cause_d = MCU_ILLEGAL;
        end else if (is_ecall || is_ebreak) begin
          state_d = S_HALT;
          cause_d = is_ecall ? MCU_ECALL : MCU_EBREAK;
        end else if ((is_load || is_store) && misaligned) begin
          state_d = S_HALT;
          cause_d = is_load ? MCU_LOAD_MISALIGNED : MCU_STORE_MISALIGNED;
        end else if (is_load || is_store) begin
          if (req_ready_i) begin
            retire  = is_store;
            pc_d    = is_store ? pc_inc : pc_q;
            if (is_store) state_d = S_FETCH;
            else          state_d = S_LOAD;
          end
        end else if (redirect && tgt_misaligned) begin
          state_d = S_HALT;
          cause_d = MCU_FETCH_MISALIGNED;
        end else if (req_ready_i) begin   // the next fetch is taken
          retire  = 1'b1;
          pc_d    = pc_next;
          state_d = S_WAIT;
        end
      end
      S_LOAD: if (rsp_i.valid) begin
        retire  = 1'b1;
        pc_d    = pc_inc;
        state_d = S_FETCH;
      end
      default: state_d = S_HALT;
    endcase
  end

  assign rf_we = state_q == S_INIT || (retire && writes_rd && ir_q[11:7] != 5'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_INIT;
      pc_q    <= RESET_PC[PcW-1:2];
      ir_q    <= '0;
      cause_q <= MCU_RUNNING;
    end else begin
      state_q <= state_d;
      pc_q    <= pc_d;
      cause_q <= cause_d;
      if (rf_re) ir_q <= rsp_i.rdata;
    end
  end

  // ---- status, trace --------------------------------------------------------------
  always_comb begin
    status_o        = '0;
    status_o.halted = state_q == S_HALT;
    status_o.cause  = cause_q;
    status_o.pc     = pc_full;
    status_o.insn   = ir_q;

    trace_o         = '0;
    trace_o.valid   = retire;
    trace_o.pc      = pc_full;
    trace_o.insn    = ir_q;
    trace_o.rd_we   = rf_we && state_q != S_INIT;
    trace_o.rd      = ir_q[11:7];
    trace_o.rd_val  = rf_wdata;
    trace_o.st_we   = retire && is_store;
    trace_o.st_addr = req_o.addr;
    trace_o.st_data = req_o.wdata;
    trace_o.st_strb = req_o.strb;
  end

  // ---- checks --------------------------------------------------------------------------
  `BARESM_ASSERT_HELD(a_req_held, req_o.valid, req_ready_i, req_o)
  `BARESM_ASSERT(a_ls_is_req, !ls_o.valid || (req_o.valid && req_o.addr == ls_o.addr))
  `BARESM_ASSUME(a_rsp_awaited, !rsp_i.valid || state_q == S_WAIT || state_q == S_LOAD)
  `BARESM_ASSERT(a_x0_zero, state_q != S_INIT || rf_wdata == 32'd0)
  `BARESM_ASSERT(a_rf_no_rw, !(rf_re && rf_we))

endmodule

`default_nettype wire
