// Internal properties of baresm_mcu_core for the proof mcu_core (appended
// inside the module by scripts/formal.sh): the RV32I specification and the
// checks fv_mcu_core.sv lists. The specification reads only the bus (the
// fetched word, the fetch's address, a load's answer) and the source
// operands (rs1, rs2: the RAMs' outputs, checked by the tracked register).
`ifdef FORMAL
  localparam logic [31:0] FV_PCMASK = (PcW >= 32) ? 32'hFFFF_FFFF : ((32'd1 << PcW) - 32'd1);

  // ---- the bus: fetches, the instruction and its pc ---------------------------------
  logic fv_take, fv_ftake;
  assign fv_take = req_o.valid && req_ready_i;
  assign fv_ftake = fv_take && !ls_o.valid;       // a fetch (not a load or store) taken
  logic fv_fout_q, fv_iv_q;                       // a fetch awaits its word; an instruction is in
  logic [29:0] fv_faddr_q;
  logic [31:0] fv_insn, fv_pc;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_fout_q <= 1'b0;
      fv_iv_q <= 1'b0;
    end else begin
      if (fv_ftake) begin
        fv_fout_q <= 1'b1;
        fv_faddr_q <= req_o.addr;
      end
      if (fv_fout_q && rsp_i.valid) begin
        fv_fout_q <= 1'b0;
        fv_iv_q <= 1'b1;
        fv_insn <= rsp_i.rdata;
        fv_pc <= {fv_faddr_q, 2'b00};
      end
    end
  end

  // ---- the specification of fv_insn at fv_pc, with operands fv_a = rs1, fv_b = rs2 ----------
  logic [31:0] fv_a, fv_b;
  assign fv_a = rs1;
  assign fv_b = rs2;
  logic [6:0] fv_opc, fv_f7;
  logic [2:0] fv_f3;
  logic [4:0] fv_rd, fv_rs1, fv_rs2;
  assign fv_opc = fv_insn[6:0];
  assign fv_f3 = fv_insn[14:12];
  assign fv_f7 = fv_insn[31:25];
  assign fv_rd = fv_insn[11:7];
  assign fv_rs1 = fv_insn[19:15];
  assign fv_rs2 = fv_insn[24:20];
  logic [31:0] fv_imm_i, fv_imm_s, fv_imm_b, fv_imm_u, fv_imm_j;
  assign fv_imm_i = {{20{fv_insn[31]}}, fv_insn[31:20]};
  assign fv_imm_s = {{20{fv_insn[31]}}, fv_insn[31:25], fv_insn[11:7]};
  assign fv_imm_b = {{19{fv_insn[31]}}, fv_insn[31], fv_insn[7], fv_insn[30:25], fv_insn[11:8], 1'b0};
  assign fv_imm_u = {fv_insn[31:12], 12'd0};
  assign fv_imm_j = {{11{fv_insn[31]}}, fv_insn[31], fv_insn[19:12], fv_insn[20], fv_insn[30:21], 1'b0};

  logic fv_lui, fv_auipc, fv_jal, fv_jalr, fv_br, fv_ld, fv_st, fv_opi, fv_op, fv_fence, fv_ecall, fv_ebreak;
  assign fv_lui = fv_opc == 7'b0110111;
  assign fv_auipc = fv_opc == 7'b0010111;
  assign fv_jal = fv_opc == 7'b1101111;
  assign fv_jalr = fv_opc == 7'b1100111 && fv_f3 == 3'd0;
  assign fv_br = fv_opc == 7'b1100011 && fv_f3 != 3'd2 && fv_f3 != 3'd3;
  assign fv_ld = fv_opc == 7'b0000011 && (fv_f3 == 3'd0 || fv_f3 == 3'd1 || fv_f3 == 3'd2 || fv_f3 == 3'd4 ||
                                          fv_f3 == 3'd5);
  assign fv_st = fv_opc == 7'b0100011 && (fv_f3 == 3'd0 || fv_f3 == 3'd1 || fv_f3 == 3'd2);
  assign fv_opi = fv_opc == 7'b0010011 && (fv_f3 == 3'd1 ? fv_f7 == 7'd0 :
                                           fv_f3 == 3'd5 ? (fv_f7 == 7'd0 || fv_f7 == 7'h20) : 1'b1);
  assign fv_op = fv_opc == 7'b0110011 && (fv_f7 == 7'd0 || (fv_f7 == 7'h20 && (fv_f3 == 3'd0 || fv_f3 == 3'd5)));
  assign fv_fence = fv_opc == 7'b0001111 && fv_f3 == 3'd0;   // FENCE: a no-op here (no FENCE.I)
  assign fv_ecall = fv_insn == 32'h0000_0073;
  assign fv_ebreak = fv_insn == 32'h0010_0073;
  logic fv_legal, fv_wrd;
  assign fv_legal = fv_lui || fv_auipc || fv_jal || fv_jalr || fv_br || fv_ld || fv_st || fv_opi || fv_op ||
                    fv_fence || fv_ecall || fv_ebreak;
  assign fv_wrd = fv_lui || fv_auipc || fv_jal || fv_jalr || fv_ld || fv_opi || fv_op;

  // OP / OP-IMM
  logic [31:0] fv_y, fv_alu;
  assign fv_y = fv_op ? fv_b : fv_imm_i;
  always_comb begin
    unique case (fv_f3)
      3'd0: fv_alu = (fv_op && fv_f7[5]) ? fv_a - fv_y : fv_a + fv_y;
      3'd1: fv_alu = fv_a << fv_y[4:0];
      3'd2: fv_alu = {31'd0, $signed(fv_a) < $signed(fv_y)};
      3'd3: fv_alu = {31'd0, fv_a < fv_y};
      3'd4: fv_alu = fv_a ^ fv_y;
      3'd5: fv_alu = fv_f7[5] ? 32'($signed(fv_a) >>> fv_y[4:0]) : fv_a >> fv_y[4:0];
      3'd6: fv_alu = fv_a | fv_y;
      default: fv_alu = fv_a & fv_y;
    endcase
  end
  // Branches and jumps.
  logic fv_cond;
  always_comb begin
    unique case (fv_f3)
      3'd0: fv_cond = fv_a == fv_b;
      3'd1: fv_cond = fv_a != fv_b;
      3'd4: fv_cond = $signed(fv_a) < $signed(fv_b);
      3'd5: fv_cond = $signed(fv_a) >= $signed(fv_b);
      3'd6: fv_cond = fv_a < fv_b;
      default: fv_cond = fv_a >= fv_b;
    endcase
  end
  logic [31:0] fv_npc, fv_tgt;
  logic fv_jump;
  assign fv_jump = fv_jal || fv_jalr || (fv_br && fv_cond);
  assign fv_tgt = fv_jalr ? ((fv_a + fv_imm_i) & ~32'd1) : fv_pc + (fv_jal ? fv_imm_j : fv_imm_b);
  assign fv_npc = (fv_jump ? fv_tgt : fv_pc + 32'd4) & FV_PCMASK;
  // Loads and stores.
  logic [31:0] fv_maddr;
  assign fv_maddr = fv_a + (fv_st ? fv_imm_s : fv_imm_i);
  logic fv_mis;
  assign fv_mis = fv_f3[1:0] == 2'd2 ? fv_maddr[1:0] != 2'd0 : fv_f3[1:0] == 2'd1 ? fv_maddr[0] : 1'b0;
  logic [3:0] fv_be;
  assign fv_be = fv_f3[1:0] == 2'd2 ? 4'b1111 : fv_f3[1:0] == 2'd1 ? (4'b0011 << fv_maddr[1:0]) :
                 (4'b0001 << fv_maddr[1:0]);
  logic [31:0] fv_sdata, fv_bmask;
  assign fv_sdata = fv_b << {fv_maddr[1:0], 3'd0};
  assign fv_bmask = {{8{fv_be[3]}}, {8{fv_be[2]}}, {8{fv_be[1]}}, {8{fv_be[0]}}};
  logic [31:0] fv_lw, fv_ldv;
  assign fv_lw = rsp_i.rdata >> {fv_maddr[1:0], 3'd0};
  always_comb begin
    unique case (fv_f3)
      3'd0: fv_ldv = {{24{fv_lw[7]}}, fv_lw[7:0]};
      3'd1: fv_ldv = {{16{fv_lw[15]}}, fv_lw[15:0]};
      3'd4: fv_ldv = {24'd0, fv_lw[7:0]};
      3'd5: fv_ldv = {16'd0, fv_lw[15:0]};
      default: fv_ldv = fv_lw;
    endcase
  end
  // What rd gets (a load: from the answer in the cycle it retires).
  logic [31:0] fv_rdv;
  assign fv_rdv = fv_lui ? fv_imm_u : fv_auipc ? fv_pc + fv_imm_u : (fv_jal || fv_jalr) ? (fv_pc + 32'd4) & FV_PCMASK :
                  fv_ld ? fv_ldv : fv_alu;
  // Traps: the cause the core halts with.
  logic [2:0] fv_cause;
  assign fv_cause = !fv_legal ? MCU_ILLEGAL : fv_ecall ? MCU_ECALL : fv_ebreak ? MCU_EBREAK :
                    ((fv_ld || fv_st) && fv_mis) ? (fv_ld ? MCU_LOAD_MISALIGNED : MCU_STORE_MISALIGNED) :
                    (fv_jump && fv_tgt[1]) ? MCU_FETCH_MISALIGNED : MCU_RUNNING;

  // ---- the tracked register: its last written value ------------------------------------
  // fv_rf1 / fv_rf2 are the two register RAMs' arrays, word k at [k*32 +: 32]:
  // the proof's Yosys script maps the memories to flip-flops and wires them
  // here (no hierarchical references in Yosys 0.23), for the induction
  // invariants below.
  (* anyconst *) logic [4:0] fv_reg;
  logic [32*32-1:0] fv_rf1, fv_rf2;
  logic fv_rk_q;            // written since reset
  logic [31:0] fv_rv_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) fv_rk_q <= 1'b0;
    else if (retire && fv_wrd && fv_rd == fv_reg) begin
      fv_rk_q <= 1'b1;
      fv_rv_q <= fv_rdv;
    end
  end
  // The operands the core read are the registers' values.
  always @* if (rst_ni && fv_iv_q && (state_q == S_EXEC || state_q == S_LOAD || state_q == S_HALT) &&
                fv_rs1 == fv_reg && (fv_reg == 5'd0 || fv_rk_q))
    assert (rs1 == (fv_reg == 5'd0 ? 32'd0 : fv_rv_q));
  always @* if (rst_ni && fv_iv_q && (state_q == S_EXEC || state_q == S_LOAD || state_q == S_HALT) &&
                fv_rs2 == fv_reg && (fv_reg == 5'd0 || fv_rk_q))
    assert (rs2 == (fv_reg == 5'd0 ? 32'd0 : fv_rv_q));

  // ---- the checks ---------------------------------------------------------------------------
  // The instruction executed is the word fetched (and the core executes only then).
  always @* if (rst_ni && (state_q == S_EXEC || state_q == S_LOAD)) assert (fv_iv_q && !fv_fout_q);
  // A retired instruction: legal, no trap; its pc and word in the trace.
  always @* if (rst_ni && retire) assert (fv_cause == MCU_RUNNING);
  always @* if (rst_ni && retire) assert (trace_o.valid && trace_o.pc == fv_pc && trace_o.insn == fv_insn);
  always @* if (rst_ni && !retire) assert (!trace_o.valid);
  // Its register write: rd, exactly when it writes one, the value.
  always @* if (rst_ni && state_q != S_INIT) assert (rf_we == (retire && fv_wrd && fv_rd != 5'd0));
  always @* if (rst_ni && rf_we && state_q != S_INIT) assert (ir_q[11:7] == fv_rd && rf_wdata == fv_rdv);
  always @* if (rst_ni && retire) assert (trace_o.rd_we == (fv_wrd && fv_rd != 5'd0) && trace_o.rd == fv_rd);
  // Its next pc: the next fetch, once.
  logic fv_nv_q;              // a fetch is due (after reset, after a retire)
  logic [31:0] fv_nx_q;       // at this byte address
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fv_nv_q <= 1'b1;
      fv_nx_q <= RESET_PC;
    end else begin
      if (fv_ftake) fv_nv_q <= 1'b0;
      if (retire) begin
        fv_nv_q <= !fv_ftake;   // fetched in the same cycle (the overlap) or later
        fv_nx_q <= fv_npc;
      end
    end
  end
  always @* if (rst_ni && fv_ftake) assert (retire || fv_nv_q);
  always @* if (rst_ni && fv_ftake) assert (req_o.addr == (retire ? fv_npc[31:2] : fv_nx_q[31:2]));
  always @* if (rst_ni && fv_ftake) assert (!req_o.we);
  // Its memory request, whenever offered: a load or store of this
  // instruction, aligned, at rs1 + imm, its byte enables, the store's data.
  always @* if (rst_ni && req_o.valid && req_o.we) assert (ls_o.valid);
  always @* if (rst_ni && ls_o.valid)
    assert (req_o.valid && fv_iv_q && (fv_ld || fv_st) && !fv_mis && state_q == S_EXEC);
  always @* if (rst_ni && ls_o.valid)
    assert (req_o.addr == fv_maddr[31:2] && req_o.we == fv_st && req_o.strb == fv_be);
  always @* if (rst_ni && ls_o.valid && fv_st) assert ((req_o.wdata & fv_bmask) == (fv_sdata & fv_bmask));
  always @* if (rst_ni && retire && fv_st) assert (trace_o.st_we && trace_o.st_addr == fv_maddr[31:2]);
  // A load retires with its answer; nothing else takes a response's word.
  always @* if (rst_ni && retire && fv_ld) assert (state_q == S_LOAD && rsp_i.valid);
  // Traps: the core stops (nothing offered, nothing retired), then shows the
  // cause, the pc and the word.
  always @* if (rst_ni && state_q == S_EXEC && fv_cause != MCU_RUNNING) assert (!req_o.valid && state_d == S_HALT);
  always @* if (rst_ni && status_o.halted)
    assert (fv_iv_q && status_o.cause == fv_cause && fv_cause != MCU_RUNNING && status_o.pc == fv_pc &&
            status_o.insn == fv_insn);

  // ---- induction invariants: the core's state against the specification's ----------------
  // The words at rs1 (copy 1), rs2 (copy 2) and the tracked register (both),
  // as multiplexers (an indexed part-select of the 1,024-bit arrays would be
  // a barrel shifter for the solver).
  logic [31:0] fv_w_rs1, fv_w_rs2, fv_w_reg1, fv_w_reg2;
  always_comb begin
    fv_w_rs1 = '0; fv_w_rs2 = '0; fv_w_reg1 = '0; fv_w_reg2 = '0;
    for (int k = 0; k < 32; k++) begin
      if (fv_rs1 == 5'(k)) fv_w_rs1 = fv_rf1[k*32 +: 32];
      if (fv_rs2 == 5'(k)) fv_w_rs2 = fv_rf2[k*32 +: 32];
      if (fv_reg == 5'(k)) begin
        fv_w_reg1 = fv_rf1[k*32 +: 32];
        fv_w_reg2 = fv_rf2[k*32 +: 32];
      end
    end
  end
  always @* if (rst_ni) begin
    assert (state_q <= S_HALT);
    assert (fv_fout_q == (state_q == S_WAIT));                   // a fetch awaits its word
    if (state_q == S_WAIT) assert (fv_faddr_q == 30'(pc_q) && !fv_nv_q);
    if (state_q == S_INIT || state_q == S_FETCH) assert (fv_nv_q && fv_nx_q == pc_full);
    if (state_q == S_INIT) assert (pc_q == RESET_PC[PcW-1:2] && ir_q == 32'd0 && !fv_rk_q && !fv_iv_q);
    if (state_q == S_EXEC || state_q == S_LOAD || state_q == S_HALT)
      assert (fv_iv_q && !fv_nv_q && ir_q == fv_insn && pc_full == fv_pc);
    if (state_q == S_LOAD) assert (fv_ld && fv_cause == MCU_RUNNING);
    // The register file: the operands are the registers' values (nothing is
    // written between the read and the retire); x0 is 0 once S_INIT has
    // written it; the tracked register holds its last written value in both
    // copies (words never written may differ between them).
    if (state_q == S_EXEC || state_q == S_LOAD || state_q == S_HALT)
      assert (rs1 == fv_w_rs1 && rs2 == fv_w_rs2);
    if (state_q != S_INIT) assert (fv_rf1[31:0] == 32'd0 && fv_rf2[31:0] == 32'd0);
    if (fv_rk_q && fv_reg != 5'd0)
      assert (fv_w_reg1 == fv_rv_q && fv_w_reg2 == fv_rv_q);
  end
`endif
