// baresm_msm_lsu: the lane engine's memory loop (docs/microarchitecture.md,
// "The choice revisited again"): a load, store or atomic of one warp, one
// lane at a time, as the serial SM's sequencer does it (rtl/ssm/
// baresm_ssm_seq.sv S_MCHK/S_MACC/S_MWAIT; isa/iss_exec.cpp exec_mem is the
// specification). First every executing lane is checked -- misaligned, then
// the range: shared memory and parameters against their sizes, a global
// access against the windows one per cycle and the protected range -- and
// the first failing lane ends the loop with a fault and no effect. Then each
// lane accesses: shared memory here, device memory through the SM's memory
// port (one request in flight), and a load or atomic writes rd. A memory
// error ends the loop at its lane. The firmware (fw/sm) starts it and reads
// the fault.
`default_nettype none
`include "baresm_mem_types.svh"
`include "baresm_msm_types.svh"

module baresm_msm_lsu #(
  parameter int NumWarps = 4,
  parameter int NumRegs = 16,
  parameter int SharedBytes = 2048,
  parameter int MemLineBytes = 16,
  parameter int NumWindows = 4,
  parameter int WarpW = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int RegW = (NumRegs > 1) ? $clog2(NumRegs) : 1,
  parameter int RfAddrW = WarpW + RegW + 5,
  parameter int SmemW = $clog2(SharedBytes / 4)
) (
  clk_i, rst_ni,
  start_i, op_i, busy_o, fault_o, fault_kind_o, fault_lane_o, fault_addr_o,
  param_addr_i, range_wr_i,
  rf_re_o, rf_raddr_o, rf_rdata_i, rf_we_o, rf_waddr_o, rf_wdata_o, rf_traced_o,
  sm_re_o, sm_raddr_o, sm_rdata_i, sm_we_o, sm_waddr_o, sm_wmask_o, sm_wdata_o,
  amo_op_o, amo_old_o, amo_b_o, amo_c_o, amo_new_i,
  lsu_req_o, mem_req_ready_i, mem_rsp_i,
  smem_access_o, gmem_req_o, mem_wait_o
);

  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;
  localparam int LineW = $clog2(MemLineBytes);

  input  logic                      clk_i;
  input  logic                      rst_ni;
  input  logic                      start_i;
  input  msm_lane_op_t              op_i;          // zero_b: the data register's (rb, or rd of a store)
  output logic                      busy_o;
  output logic                      fault_o;       // the last loop faulted (valid when not busy)
  output logic [3:0]                fault_kind_o;
  output logic [4:0]                fault_lane_o;
  output logic [31:0]               fault_addr_o;
  input  logic [31:0]               param_addr_i;
  input  msm_range_wr_t             range_wr_i;    // the launch's ranges (LP_RANGE), into the range RAM
  output logic                      rf_re_o;
  output logic [RfAddrW-1:0]        rf_raddr_o;
  input  logic [31:0]               rf_rdata_i;
  output logic                      rf_we_o;
  output logic [RfAddrW-1:0]        rf_waddr_o;
  output logic [31:0]               rf_wdata_o;
  output logic                      rf_traced_o;
  output logic                      sm_re_o;
  output logic [SmemW-1:0]          sm_raddr_o;
  input  logic [31:0]               sm_rdata_i;
  output logic                      sm_we_o;
  output logic [SmemW-1:0]          sm_waddr_o;
  output logic [3:0]                sm_wmask_o;
  output logic [31:0]               sm_wdata_o;
  output logic [4:0]                amo_op_o;
  output logic [31:0]               amo_old_o;
  output logic [31:0]               amo_b_o;
  output logic [31:0]               amo_c_o;
  input  logic [31:0]               amo_new_i;
  output msm_lsu_req_t              lsu_req_o;     // through the I/O block's request registers
  input  logic                      mem_req_ready_i;
  input  mem_rsp_t                  mem_rsp_i;
  output logic                      smem_access_o;
  output logic                      gmem_req_o;
  output logic                      mem_wait_o;    // a lane's device-memory access is in flight


  typedef enum logic [1:0] { S_IDLE, S_CHECK, S_ACCESS, S_WAIT } state_e;
  state_e st_q;
  // The operation is the I/O block's registers (op_i), which the firmware
  // holds while the loop runs (it waits for busy to fall before writing the next).
`ifndef SYNTHESIS
  msm_lane_op_t op_at_start_q;
  always_ff @(posedge clk_i) if (st_q == S_IDLE && start_i) op_at_start_q <= op_i;
  `BARESM_ASSERT(a_op_held, st_q == S_IDLE || op_i == op_at_start_q)
`endif
  logic [4:0] lane_q;
  logic [2:0] ph_q;
  logic [31:0] addr_q, data_q;
  logic [32:0] aend_q;   // addr_q + the access's size
  logic win_ok_q;
  logic fault_q;
  logic [3:0] f_kind_q;
  logic req_q, out_q;
  logic awr_q;   // a global atomic's write, after its read

  // ---- the instruction ----------------------------------------------------------
  logic is_global, is_shared, is_ldc, is_store, is_atom, writes_rd;
  logic [2:0] msize;
  assign is_global = baresm_ssm_pkg::is_global(op_i.op);
  assign is_shared = baresm_ssm_pkg::is_shared(op_i.op);
  assign is_ldc = op_i.op == baresm_isa_pkg::OP_LDC;
  assign is_store = baresm_ssm_pkg::is_store(op_i.op);
  assign is_atom = baresm_ssm_pkg::is_atom(op_i.op);
  assign writes_rd = op_i.write_rd;
  assign msize = baresm_ssm_pkg::access_size(op_i.op, op_i.mod[2:0]);

  logic [31:0] exec;   // a plain vector: Icarus 11 takes no variable select of a struct member
  assign exec = op_i.exec;
  logic lane_on, last;
  assign lane_on = exec[lane_q];
  assign last = lane_q == 5'd31;
  // verilator lint_off UNUSEDSIGNAL
  function automatic logic [RfAddrW-1:0] reg_addr(input logic [5:0] r, input logic [4:0] l);
    reg_addr = {op_i.warp[WarpW-1:0], r[RegW-1:0], l};
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // ---- the lane's address and its checks --------------------------------------------
  logic [31:0] addr_now;   // in the phase after a's read
  assign addr_now = (op_i.zero_a ? 32'd0 : rf_rdata_i) + op_i.imm;
  logic misaligned;
  assign misaligned = (addr_now & {29'd0, msize - 3'd1}) != 32'd0;
  // The ranges: a RAM of 33-bit words the firmware fills at the launch
  // (LP_RANGE; contract/msm_io.def has the layout): range r is [lo, hi) with
  // lo at word 2r and hi at 2r + 1. One pair of comparators checks a lane's
  // access [addr_q, aend_q) against one range every two cycles: lo is read
  // and compared (at_lo_q), then hi. Shared memory (r 0) and the parameter
  // buffer (r 1): inside [0, size). A global access: inside one of the
  // windows (r 2 ..), and not touching the protected range, which the
  // firmware writes as [end, base): touched when neither comparison holds.
  localparam logic [3:0] RngShared = 4'd0, RngParam = 4'd1, RngWin0 = 4'd2, RngProt = 4'd10;
  logic [3:0] rng_q, rng_first;
  logic rng_re;
  logic [4:0] rng_raddr;
  logic [32:0] rng_rdata;
  baresm_ram_1r1w #(.Depth(256), .Width(33)) u_ranges (   // 256 deep: Yosys puts it in EBR
    .clk_i, .re_i(rng_re), .raddr_i(8'(rng_raddr)), .rdata_o(rng_rdata),
    .we_i(range_wr_i.we), .waddr_i(8'(range_wr_i.addr)), .wmask_i(1'b1), .wdata_i(range_wr_i.data));
  assign rng_first = is_shared ? RngShared : is_ldc ? RngParam : RngWin0;
  logic [3:0] rng_next;   // after window rng_q
  assign rng_next = (32'(rng_q) == 32'(RngWin0) + NumWindows - 1) ? RngProt : rng_q + 4'd1;
  logic at_lo_q, at_lo, below_hi;
  assign at_lo = {1'b0, addr_q} >= rng_rdata;
  assign below_hi = aend_q <= rng_rdata;
  always_comb begin
    rng_re = 1'b0;
    rng_raddr = {rng_q, 1'b0};
    if (st_q == S_CHECK && lane_on) begin
      unique case (ph_q)
        3'd1: begin rng_re = 1'b1; rng_raddr = {rng_first, 1'b0}; end
        3'd2: begin rng_re = 1'b1; rng_raddr = {rng_q, 1'b1}; end
        3'd3: begin rng_re = 1'b1; rng_raddr = {rng_next, 1'b0}; end
        default: ;
      endcase
    end
  end
  logic range_ok, win_hit, prot_hit;
  assign range_ok = below_hi;
  assign win_hit = at_lo_q && below_hi;
  assign prot_hit = !at_lo_q && !below_hi;

  // ---- the access -------------------------------------------------------------------------------
  logic [31:0] st_rep, line_word, ld_val, c_now;
  logic [3:0] byte_strb;
  // The access's device-memory address (LDC: the parameter buffer's plus the
  // offset), registered in the phase after the address: the load's path from
  // the line to the register file starts at a register (the UP5K's 12 MHz).
  logic [31:0] gaddr_q;
  always_ff @(posedge clk_i) if (st_q == S_ACCESS && ph_q == 3'd2) gaddr_q <= is_ldc ? param_addr_i + addr_q : addr_q;
  assign st_rep = baresm_ssm_pkg::store_word(msize, data_q);
  assign byte_strb = baresm_ssm_pkg::store_strb(msize);
  logic [MemLineBytes*8-1:0] rsp_rdata;
  assign rsp_rdata = mem_rsp_i.rdata;
  assign line_word = rsp_rdata[32*gaddr_q[LineW-1:2] +: 32];
  assign ld_val = baresm_ssm_pkg::load_extend(op_i.mod[2:0],
                                              (is_shared ? sm_rdata_i : line_word) >> {gaddr_q[1:0], 3'd0});
  assign c_now = op_i.zero_c ? 32'd0 : rf_rdata_i;
  logic take_rsp;
  assign take_rsp = out_q && mem_rsp_i.valid;
  logic cas_fails;   // a global compare-and-swap's read, its compare false
  assign cas_fails = is_atom && !is_shared && !awr_q && op_i.mod[3:0] == baresm_isa_pkg::ATOM_CAS &&
                     line_word != data_q;

  // ---- RAM ports ----------------------------------------------------------------------------------
  always_comb begin
    rf_re_o = 1'b0;
    rf_raddr_o = reg_addr(op_i.ra, lane_q);
    rf_we_o = 1'b0;
    rf_waddr_o = reg_addr(op_i.rd, lane_q);
    rf_wdata_o = 32'd0;
    rf_traced_o = 1'b0;
    sm_re_o = 1'b0;
    sm_raddr_o = SmemW'(addr_q >> 2);
    sm_we_o = 1'b0;
    sm_waddr_o = SmemW'(addr_q >> 2);
    sm_wmask_o = byte_strb << addr_q[1:0];
    sm_wdata_o = st_rep;
    unique case (st_q)
      S_CHECK: rf_re_o = lane_on && ph_q == 3'd0 && !op_i.zero_a;
      S_ACCESS: begin
        // ph 0: read a; 1: read the data (rd of a store, b of an atomic); 2: read c; 3: access.
        if (lane_on) begin
          unique case (ph_q)
            3'd0: rf_re_o = !op_i.zero_a;
            3'd1: begin
              rf_re_o = !op_i.zero_b;
              rf_raddr_o = reg_addr(is_store ? op_i.rd : op_i.rb, lane_q);
            end
            3'd2: begin
              rf_re_o = !op_i.zero_c;
              rf_raddr_o = reg_addr(op_i.rc, lane_q);
            end
            default: if (is_shared) begin
              sm_we_o = is_store;
              sm_re_o = !is_store;
            end
          endcase
        end else begin
          rf_we_o = op_i.zero_fill;
        end
      end
      S_WAIT: begin
        if (is_shared) begin
          rf_we_o = writes_rd;
          rf_traced_o = writes_rd;
          rf_wdata_o = is_atom ? sm_rdata_i : ld_val;
          sm_we_o = is_atom;
          sm_wmask_o = 4'hF;
          sm_wdata_o = amo_new_i;
        end else if (take_rsp && !mem_rsp_i.err && (!is_atom || awr_q || cas_fails)) begin
          rf_we_o = writes_rd;
          rf_traced_o = writes_rd;
          rf_wdata_o = is_atom && awr_q ? old_q : is_atom ? line_word : ld_val;
        end
      end
      default: ;
    endcase
  end
  assign amo_op_o = op_i.mod[4:0];
  assign amo_old_o = is_shared ? sm_rdata_i : line_word;
  assign amo_b_o = data_q;
  // c was read in phase 2 and the register file's output holds it until the
  // next read, which comes after the atomic (a global one's write included).
  assign amo_c_o = c_now;

  // ---- the loop --------------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_IDLE;
      fault_q <= 1'b0;
      req_q <= 1'b0;
      out_q <= 1'b0;
      awr_q <= 1'b0;
    end else begin
      if (req_q && mem_req_ready_i) begin
        req_q <= 1'b0;
        out_q <= 1'b1;
      end
      if (take_rsp) out_q <= 1'b0;
      unique case (st_q)
        S_IDLE: begin
          if (start_i) begin
            lane_q <= '0;
            ph_q <= '0;
            fault_q <= 1'b0;
            st_q <= S_CHECK;
          end
        end
        // Every executing lane: ph 0 read a, 1 the address (misaligned), then
        // ph 2 and 3 for each range (its lo, its hi): the shared or parameter
        // range, or (global) each window, then the protected range.
        S_CHECK: begin
          if (lane_on && ph_q == 3'd0) ph_q <= 3'd1;
          else if (lane_on && ph_q == 3'd1) begin
            addr_q <= addr_now;
            aend_q <= {1'b0, addr_now} + 33'(msize);
            if (misaligned) begin
              fault_q <= 1'b1;
              f_kind_q <= baresm_state_pkg::FAULT_MISALIGNED;
              st_q <= S_IDLE;
            end else begin
              rng_q <= rng_first;
              win_ok_q <= 1'b0;
              ph_q <= 3'd2;
            end
          end else if (lane_on && ph_q == 3'd2) begin          // the range's lo has come
            at_lo_q <= at_lo;
            ph_q <= 3'd3;
          end else if (lane_on && ph_q == 3'd3 && is_global && rng_q != RngProt) begin   // a window's hi
            if (win_hit) win_ok_q <= 1'b1;
            rng_q <= rng_next;
            ph_q <= 3'd2;
          end else if (lane_on && ph_q == 3'd3 && (is_global ? (!win_ok_q || prot_hit) : !range_ok)) begin
            fault_q <= 1'b1;
            f_kind_q <= baresm_state_pkg::FAULT_OUT_OF_WINDOW;
            st_q <= S_IDLE;
          end else begin
            ph_q <= '0;
            lane_q <= lane_q + 5'd1;
            if (last) st_q <= S_ACCESS;
          end
        end
        S_ACCESS: begin
          if (lane_on) begin
            ph_q <= ph_q + 3'd1;
            if (ph_q == 3'd1) addr_q <= addr_now;
            if (ph_q == 3'd2) data_q <= op_i.zero_b ? 32'd0 : rf_rdata_i;
            if (ph_q == 3'd3) begin
              ph_q <= '0;
              st_q <= S_WAIT;
              if (!is_shared) req_q <= 1'b1;
            end
          end else begin
            lane_q <= lane_q + 5'd1;
            if (last) st_q <= S_IDLE;
          end
        end
        S_WAIT: begin
          if (is_shared || (take_rsp && !req_q)) begin
            if (!is_shared && mem_rsp_i.err) begin
              fault_q <= 1'b1;
              f_kind_q <= baresm_state_pkg::FAULT_MEMORY_ERROR;
              awr_q <= 1'b0;
              st_q <= S_IDLE;
            end else if (is_atom && !is_shared && !awr_q && !cas_fails) begin
              // A global atomic: the line read, now the new word's write (a
              // compare-and-swap whose compare fails writes nothing).
              awr_q <= 1'b1;
              req_q <= 1'b1;
            end else begin
              awr_q <= 1'b0;
              lane_q <= lane_q + 5'd1;
              st_q <= last ? S_IDLE : S_ACCESS;
            end
          end
        end
        default: st_q <= S_IDLE;
      endcase
    end
  end

  // The request of a lane, held until taken: a line read, or a strobed line
  // write. A global atomic is the line's read, then the write of its new word
  // (the lane engine's ALU: amo_new_i; the old word goes to rd): the memory
  // needs no atomic unit, and nothing else writes device memory while the
  // memory loop runs but the host over the link.
  // A lane's request goes out through the I/O block's request registers
  // (the firmware's memory port): issued the cycle it is known, a line read
  // or a strobed write of a word; a global atomic's write is issued when its
  // read's line comes (the lane engine's ALU gives the new word then).
  logic [31:0] old_q;
  logic issue_access, issue_awr;
  assign issue_access = st_q == S_ACCESS && lane_on && ph_q == 3'd3 && !is_shared;
  assign issue_awr = st_q == S_WAIT && is_atom && !is_shared && !awr_q && take_rsp && !req_q &&
                     !mem_rsp_i.err && !cas_fails;
  always_ff @(posedge clk_i) begin
    if (st_q == S_WAIT && is_atom && !is_shared && !awr_q && take_rsp && !req_q && !mem_rsp_i.err)
      old_q <= line_word;
  end
  assign lsu_req_o.issue = issue_access || issue_awr;
  assign lsu_req_o.write = issue_awr || is_store;
  assign lsu_req_o.addr = {gaddr_q[31:LineW], LineW'(0)};
  assign lsu_req_o.word = issue_awr ? amo_new_i : st_rep;
  assign lsu_req_o.wstrb = issue_awr ? 16'(MemLineBytes'(4'hF) << {gaddr_q[LineW-1:2], 2'b00}) :
                           is_store ? 16'(MemLineBytes'(byte_strb) << gaddr_q[LineW-1:0]) : 16'd0;

  logic unused;   // the ALU loop's fields
  assign unused = ^{op_i.tid0, op_i.sel, op_i.bimm, op_i.mod[7:5]};
  assign busy_o = st_q != S_IDLE;
  assign fault_o = fault_q;
  assign fault_kind_o = f_kind_q;
  // A fault stops the loop where it is: the lane and its address are still
  // in lane_q and addr_q (the misaligned one was taken into addr_q too).
  assign fault_lane_o = lane_q;
  assign fault_addr_o = addr_q;
  assign smem_access_o = st_q == S_ACCESS && lane_on && ph_q == 3'd3 && is_shared;
  assign gmem_req_o = req_q && mem_req_ready_i && !awr_q;   // an atomic counts once
  assign mem_wait_o = st_q == S_WAIT && !is_shared;

endmodule

`default_nettype wire
