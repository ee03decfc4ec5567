// baresm_lsu: the SM's load/store unit. Executes one whole-warp memory
// instruction at a time (LDG LDS LDC STG STS ATOMG ATOMS), owns the banked
// shared memory and talks to device memory through one request/response port.
// docs/lsu.md is the full description; the contract in short:
//
// Issue (req_*): valid/ready. Accepted when req_valid_i && req_ready_o. All
//   req_* inputs are sampled in that cycle only. req_mask_i holds the lanes
//   whose guard is true (it may be 0: the instruction completes at once).
//   req_addr_i is each lane's effective address (ra + imm), lane i in bits
//   [32*i +: 32]; for LDS/STS/ATOMS an offset in the CTA's shared region,
//   for LDC an offset in the parameter buffer, else a device address.
//   req_data_i: store value / atomic operand b; req_swap_i: CAS value c.
//   req_smem_base_i/req_smem_size_i: the issuing warp's CTA shared region
//   (byte offset inside this SM's shared memory, and shared_bytes).
// Launch context (param_*, win_*): must not change while idle_o is low.
//   Window w is [win_base_i[32*w +: 32], + win_size_i[32*w +: 32]); size 0
//   disables it.
// Completion (cpl_*): valid/ready, exactly one per accepted instruction,
//   held stable until cpl_ready_i. cpl_we_o: write cpl_data_o to register
//   cpl_rd_o of the lanes in cpl_mask_o (loads, atomics); 0 for stores and
//   for faults. Loads are sign/zero-extended; atomics return the old value.
//   cpl_fault_o: the instruction faulted and had no effect at all;
//   cpl_fault_kind_o is numbered as iss::FaultKind (3 OUT_OF_WINDOW,
//   4 MISALIGNED), cpl_fault_lane_o the lowest faulting lane, and
//   cpl_fault_addr_o its effective address. The completion of a store is
//   sent only after every write of it has been acknowledged by memory.
//   A memory error (mem_rsp_err_i on a response) is the exception to "no
//   effect at all": the instruction's other requests may have been carried
//   out. It completes, once every response is back, as MEMORY_ERROR (10)
//   naming the lowest lane served by a failed request and that lane's address.
// Memory port (mem_req_*/mem_rsp_*): valid/ready on both channels.
//   op 0 READ  : mem_req_addr_o line-aligned; response rdata = the line.
//   op 1 WRITE : line-aligned; write the bytes whose wstrb bit is set;
//                the response (rdata ignored) acknowledges it.
//   op 2 ATOMIC: mem_req_addr_o is the 4-byte aligned word address;
//                mem_req_amo_o = ATOM mod[4:0], b = wdata[31:0],
//                c = wdata[63:32]; response rdata[31:0] = the old value.
//   Exactly one response per request, in any order, matched by id. Requests
//   take effect in the order they are accepted (atomics of one instruction
//   are issued in lane order). mem_rsp_ready_o is always 1; responses whose
//   id is not outstanding are dropped (e.g. after a reset of the SM).
//   The request channel is driven from flops.
// Timing: see docs/lsu.md (shared memory: one pass per cycle, two per pass
//   for ATOMS; global: up to one request per cycle, at most 2**MemIdWidth
//   outstanding).
`include "baresm_assert.svh"
`default_nettype none

module baresm_lsu #(
  parameter int NumWarps     = 16,
  parameter int NumBanks     = 32,     // shared-memory banks of 4 bytes (power of 2)
  parameter int SharedBytes  = 16384,  // shared memory of the SM (multiple of 4*NumBanks)
  parameter int MemLineBytes = 128,    // global-memory line (power of 2, >= 8)
  parameter int MemIdWidth   = 4,      // transaction id bits: 2**MemIdWidth outstanding
  parameter int NumWindows   = 4,
  parameter int WarpIdW      = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  // ---- issue --------------------------------------------------------------
  input  logic                        req_valid_i,
  output logic                             req_ready_o,
  input  logic [6:0]                  req_op_i,
  input  logic [7:0]                  req_mod_i,
  input  logic [WarpIdW-1:0]          req_warp_i,
  input  logic [5:0]                  req_rd_i,
  input  logic [31:0]                 req_mask_i,
  input  logic [32*32-1:0]            req_addr_i,
  input  logic [32*32-1:0]            req_data_i,
  input  logic [32*32-1:0]            req_swap_i,
  input  logic [31:0]                 req_smem_base_i,
  input  logic [31:0]                 req_smem_size_i,

  // ---- launch context -----------------------------------------------------
  input  logic [31:0]                 param_base_i,
  input  logic [31:0]                 param_size_i,
  input  logic [32*NumWindows-1:0]    win_base_i,
  input  logic [32*NumWindows-1:0]    win_size_i,
  input  logic [31:0]                 prot_base_i,   // protected range: out of every window
  input  logic [31:0]                 prot_size_i,

  // ---- completion / writeback --------------------------------------------
  output logic                             cpl_valid_o,
  input  logic                        cpl_ready_i,
  output logic [WarpIdW-1:0]               cpl_warp_o,
  output logic [5:0]                       cpl_rd_o,
  output logic [31:0]                      cpl_mask_o,
  output logic                             cpl_we_o,
  output logic [32*32-1:0]                 cpl_data_o,
  output logic                             cpl_fault_o,
  output logic [3:0]                       cpl_fault_kind_o,
  output logic [4:0]                       cpl_fault_lane_o,
  output logic [31:0]                      cpl_fault_addr_o,

  // ---- device-memory port -------------------------------------------------
  output logic                             mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output logic [MemIdWidth-1:0]            mem_req_id_o,
  output logic [31:0]                      mem_req_addr_o,
  output logic [1:0]                       mem_req_op_o,
  output logic [4:0]                       mem_req_amo_o,
  output logic [MemLineBytes*8-1:0]        mem_req_wdata_o,
  output logic [MemLineBytes-1:0]          mem_req_wstrb_o,
  input  logic                        mem_rsp_valid_i,
  output logic                             mem_rsp_ready_o,
  input  logic [MemIdWidth-1:0]       mem_rsp_id_i,
  input  logic [MemLineBytes*8-1:0]   mem_rsp_rdata_i,
  input  logic                        mem_rsp_err_i,   // the request failed (bus/ECC error): no data, no effect

  // ---- status and counters ------------------------------------------------
  output logic                             idle_o,        // nothing accepted and unfinished
  output logic [31:0]                      smem_passes_o, // shared-memory passes, cumulative
  output logic [31:0]                      gmem_reqs_o    // memory requests issued, cumulative
);

  localparam int BankW = $clog2(NumBanks);
  localparam int Rows = SharedBytes / (4 * NumBanks);
  localparam int RowW = (Rows > 1) ? $clog2(Rows) : 1;
  localparam int LineW = $clog2(MemLineBytes);
  localparam int NumIds = 1 << MemIdWidth;

  localparam logic [1:0] SPACE_GLOBAL = 2'd0;
  localparam logic [1:0] SPACE_SHARED = 2'd1;
  localparam logic [1:0] SPACE_PARAM = 2'd2;
  localparam logic [1:0] MEM_READ = 2'd0;
  localparam logic [1:0] MEM_WRITE = 2'd1;
  localparam logic [1:0] MEM_ATOMIC = 2'd2;

  // A naturally aligned access of 1, 2 or 4 bytes at byte offset off of a
  // 32-bit word: the loaded value, zero- or sign-extended.
  function automatic logic [31:0] load_extend(input logic [31:0] word, input logic [1:0] off,
                                              input logic [1:0] size_log2, input logic sign);
    logic [31:0] s;
    s = word >> {off, 3'b000};
    case (size_log2)
      2'd0:    load_extend = {{24{sign & s[7]}}, s[7:0]};
      2'd1:    load_extend = {{16{sign & s[15]}}, s[15:0]};
      default: load_extend = s;
    endcase
  endfunction

  // The lowest set bit of v, one-hot (v & -v): a priority pick without a
  // chain of muxes.
  function automatic logic [31:0] lowest_onehot(input logic [31:0] v);
    lowest_onehot = v & (~v + 32'd1);
  endfunction

  function automatic logic [31:0] highest_onehot(input logic [31:0] v);
    logic [31:0] r;
    logic [31:0] h;
    for (int i = 0; i < 32; i++) r[i] = v[31 - i];
    h = r & (~r + 32'd1);
    for (int i = 0; i < 32; i++) highest_onehot[i] = h[31 - i];
  endfunction

  function automatic logic [4:0] onehot_index(input logic [31:0] oh);
    onehot_index = '0;
    for (int i = 0; i < 32; i++) onehot_index = onehot_index | ({5{oh[i]}} & 5'(i));
  endfunction

  // ==========================================================================
  // Stage A: the instruction being executed (one at a time). a_acc_q starts
  // as the store data / atomic b and collects each lane's result as it comes.
  // ==========================================================================
  logic                 a_valid_q;
  logic [6:0]           a_op_q;
  logic [7:0]           a_mod_q;
  logic [WarpIdW-1:0]   a_warp_q;
  logic [5:0]           a_rd_q;
  logic [31:0]          a_mask_q;
  logic [32*32-1:0]     a_addr_q;
  logic [32*32-1:0]     a_acc_q;
  logic [32*32-1:0]     a_swap_q;
  logic [31:0]          a_sbase_q;
  logic [31:0]          a_ssize_q;
  logic [31:0]          a_pend_q;    // lanes not yet sent to shared memory / the port
  logic                 a_phase_q;   // ATOMS: 0 read pass, 1 write back

  logic a_lds, a_sts, a_atoms, a_ldg, a_ldc, a_stg, a_atomg;
  logic a_shared, a_gport, a_is_load, a_is_atom;
  logic [1:0] a_space;
  logic [1:0] a_size;
  logic       a_sign;

  assign a_lds = a_op_q == baresm_isa_pkg::OP_LDS;
  assign a_sts = a_op_q == baresm_isa_pkg::OP_STS;
  assign a_atoms = a_op_q == baresm_isa_pkg::OP_ATOMS;
  assign a_ldg = a_op_q == baresm_isa_pkg::OP_LDG;
  assign a_ldc = a_op_q == baresm_isa_pkg::OP_LDC;
  assign a_stg = a_op_q == baresm_isa_pkg::OP_STG;
  assign a_atomg = a_op_q == baresm_isa_pkg::OP_ATOMG;
  assign a_shared = a_lds | a_sts | a_atoms;
  assign a_gport = a_ldg | a_ldc | a_stg | a_atomg;
  assign a_is_load = a_lds | a_ldg | a_ldc;
  assign a_is_atom = a_atoms | a_atomg;
  assign a_space = a_shared ? SPACE_SHARED : a_ldc ? SPACE_PARAM : SPACE_GLOBAL;
  // LDW 0/1 U8/S8, 2/3 U16/S16, 4 32; STW 0, 2, 4; atomics are 32-bit.
  assign a_size = (a_is_atom | a_mod_q[2]) ? 2'd2 : a_mod_q[1] ? 2'd1 : 2'd0;
  assign a_sign = a_is_load & a_mod_q[0] & ~a_mod_q[2];

  // ---- fault check: all active lanes, before anything is accessed ----------
  logic        flt;
  logic [3:0]  flt_kind;
  logic [4:0]  flt_lane;
  logic [31:0] flt_addr;

  baresm_lsu_check #(
    .NumWindows(NumWindows)
  ) u_check (
    .space_i     (a_space),
    .size_log2_i (a_size),
    .mask_i      (a_valid_q ? a_mask_q : 32'd0),
    .addr_i      (a_addr_q),
    .smem_size_i (a_ssize_q),
    .param_size_i(param_size_i),
    .win_base_i  (win_base_i),
    .win_size_i  (win_size_i),
    .prot_base_i (prot_base_i),
    .prot_size_i (prot_size_i),
    .fault_o     (flt),
    .kind_o      (flt_kind),
    .lane_o      (flt_lane),
    .addr_o      (flt_addr)
  );

  // Physical addresses: shared offsets are relative to the CTA's region,
  // param offsets to the parameter buffer.
  logic [31:0]      a_offset;
  logic [32*32-1:0] a_phys;
  assign a_offset = a_shared ? a_sbase_q : a_ldc ? param_base_i : 32'd0;
  // Simulation speed: the per-lane logic below evaluates only while an
  // instruction is in stage A (each always_comb tests its valid first, so a
  // verilated idle LSU skips it); the values it leaves at 0 otherwise are
  // never looked at then (every consumer is qualified by the same valid).
  always_comb begin
    a_phys = '0;
    if (a_valid_q) begin
      for (int i = 0; i < 32; i++) a_phys[32*i +: 32] = a_addr_q[32*i +: 32] + a_offset;
    end
  end

  // ==========================================================================
  // Shared memory: one pass per cycle. In a pass each bank serves the word of
  // its lowest pending lane, and every pending lane on that same word
  // (broadcast for loads, merged bytes for stores). ATOMS serve one lane per
  // bank per pass (read, then write back the next cycle) so that lanes on the
  // same word are applied one after another in lane order.
  // ==========================================================================
  logic [32*BankW-1:0] lane_bank;
  logic [32*RowW-1:0]  lane_row;
  always_comb begin
    lane_bank = '0;
    lane_row = '0;
    if (a_valid_q && a_shared) begin
      for (int i = 0; i < 32; i++) begin
        lane_bank[BankW*i +: BankW] = a_phys[32*i + 2 +: BankW];
        lane_row[RowW*i +: RowW] = a_phys[32*i + 2 + BankW +: RowW];
      end
    end
  end

  // Per bank: its pending lanes, its leader (lowest pending lane, one-hot)
  // and the leader's row.
  logic [NumBanks*32-1:0]   on_bank;
  logic [NumBanks*32-1:0]   lead_oh;
  logic [NumBanks*RowW-1:0] lead_row;
  logic [31:0]              s_served;  // lanes this pass would serve
  always_comb begin
    on_bank = '0;
    lead_oh = '0;
    lead_row = '0;
    s_served = '0;
    if (a_valid_q && a_shared) begin
      for (int b = 0; b < NumBanks; b++) begin
        for (int i = 0; i < 32; i++) begin
          on_bank[32*b + i] = a_pend_q[i] && (lane_bank[BankW*i +: BankW] == BankW'(b));
        end
        lead_oh[32*b +: 32] = lowest_onehot(on_bank[32*b +: 32]);
        for (int i = 0; i < 32; i++) begin
          lead_row[RowW*b +: RowW] = lead_row[RowW*b +: RowW] |
                                     ({RowW{lead_oh[32*b + i]}} & lane_row[RowW*i +: RowW]);
        end
        for (int i = 0; i < 32; i++) begin
          s_served[i] = s_served[i] | (on_bank[32*b + i] &&
                        (a_atoms ? lead_oh[32*b + i]
                                 : (lead_row[RowW*b +: RowW] == lane_row[RowW*i +: RowW])));
        end
      end
    end
  end

  logic        pass_en;     // a pass (read, write, or ATOMS read) goes out this cycle
  logic        atom_wb;     // ATOMS write-back cycle
  logic [31:0] served;
  assign pass_en = a_valid_q && a_shared && !flt && (a_pend_q != 32'd0) &&
                   !(a_atoms && a_phase_q);
  assign atom_wb = a_valid_q && a_atoms && a_phase_q;
  assign served = pass_en ? s_served : 32'd0;

  // ATOMS read pass -> write-back: which lane each bank serves.
  logic [NumBanks-1:0]      at_en_q, at_en_d;
  logic [NumBanks*5-1:0]    at_lane_q, at_lane_d;
  logic [NumBanks*RowW-1:0] at_row_q, at_row_d;

  logic [NumBanks-1:0]      bank_en, bank_we;
  logic [NumBanks*RowW-1:0] bank_row;
  logic [NumBanks*4-1:0]    bank_be;
  logic [NumBanks*32-1:0]   bank_wdata;
  logic [NumBanks*32-1:0]   bank_rdata;
  logic [NumBanks*32-1:0]   amo_new;

  for (genvar b = 0; b < NumBanks; b++) begin : g_amo
    baresm_lsu_amo u_amo (
      .amo_i (a_mod_q[4:0]),
      .old_i (bank_rdata[32*b +: 32]),
      .b_i   (a_acc_q[32*at_lane_q[5*b +: 5] +: 32]),
      .c_i   (a_swap_q[32*at_lane_q[5*b +: 5] +: 32]),
      .new_o (amo_new[32*b +: 32])
    );
  end

  // Per lane: the byte enables and the data placed in its word (stores).
  logic [32*4-1:0]  lane_be;
  logic [32*32-1:0] lane_wd;
  always_comb begin
    logic [3:0] be;
    be = (a_size == 2'd0) ? 4'b0001 : (a_size == 2'd1) ? 4'b0011 : 4'b1111;
    lane_be = '0;
    lane_wd = '0;
    if (pass_en) begin  // only read by the bank loop below, under pass_en
      for (int i = 0; i < 32; i++) begin
        lane_be[4*i +: 4] = be << a_phys[32*i +: 2];
        lane_wd[32*i +: 32] = a_acc_q[32*i +: 32] << {a_phys[32*i +: 2], 3'b000};
      end
    end
  end

  always_comb begin
    logic [31:0] sel;
    logic [31:0] wr;
    logic [31:0] last;
    sel = '0;
    wr = '0;
    last = '0;
    bank_en = '0;
    bank_we = '0;
    bank_row = '0;
    bank_be = '0;
    bank_wdata = '0;
    at_en_d = '0;
    at_lane_d = '0;
    if (atom_wb) begin
      bank_en = at_en_q;
      bank_we = at_en_q;
      bank_row = at_row_q;
      bank_be = '1;
      bank_wdata = amo_new;
    end else begin
      // The lanes a bank serves in one pass all sit on its leader's row.
      bank_row = lead_row;
      // Without a pass nothing is served: every bank output stays 0.
      if (pass_en) begin
        for (int b = 0; b < NumBanks; b++) begin
          sel = served & on_bank[32*b +: 32];
          bank_en[b] = |sel;
          bank_we[b] = a_sts && |sel;
          at_en_d[b] = |sel;
          at_lane_d[5*b +: 5] = onehot_index(sel);  // ATOMS: one lane per bank
          for (int k = 0; k < 4; k++) begin
            // Of the lanes writing byte k, the highest one wins.
            for (int i = 0; i < 32; i++) wr[i] = sel[i] && lane_be[4*i + k];
            last = highest_onehot(wr);
            bank_be[4*b + k] = a_sts && |wr;
            for (int i = 0; i < 32; i++) begin
              bank_wdata[32*b + 8*k +: 8] = bank_wdata[32*b + 8*k +: 8] |
                                            ({8{last[i]}} & lane_wd[32*i + 8*k +: 8]);
            end
          end
        end
      end
    end
  end
  assign at_row_d = lead_row;

  baresm_smem #(
    .NumBanks   (NumBanks),
    .SharedBytes(SharedBytes),
    .Rows       (Rows),
    .RowW       (RowW)
  ) u_smem (
    .clk_i       (clk_i),
    .bank_en_i   (bank_en),
    .bank_we_i   (bank_we),
    .bank_row_i  (bank_row),
    .bank_be_i   (bank_be),
    .bank_wdata_i(bank_wdata),
    .bank_rdata_o(bank_rdata)
  );

  // Read-data stage: what each lane of the previous cycle's load pass takes.
  logic                rd_valid_q, rd_valid_d;
  logic [31:0]         rd_served_q;
  logic [32*BankW-1:0] rd_bank_q;
  logic [32*2-1:0]     rd_off_q, rd_off_d;
  logic [1:0]          rd_size_q;
  logic                rd_sign_q;
  logic                rd_to_d_q, rd_to_d_d;  // its instruction has left stage A
  logic [32*32-1:0]    rd_val;

  assign rd_valid_d = pass_en && a_lds;
  always_comb begin
    for (int i = 0; i < 32; i++) rd_off_d[2*i +: 2] = a_phys[32*i +: 2];
  end
  always_comb begin
    rd_val = '0;
    if (rd_valid_q) begin
      for (int i = 0; i < 32; i++) begin
        rd_val[32*i +: 32] = load_extend(bank_rdata[32*rd_bank_q[BankW*i +: BankW] +: 32],
                                         rd_off_q[2*i +: 2], rd_size_q, rd_sign_q);
      end
    end
  end

  // ==========================================================================
  // Global memory port: the coalescer forms one request per cycle at most,
  // held in flops until accepted; ids index the table of outstanding
  // requests (which lanes each one serves).
  // ==========================================================================
  logic [31:0]              co_match;
  logic [31:0]              co_addr;
  logic [MemLineBytes*8-1:0] co_wdata;
  logic [MemLineBytes-1:0]  co_wstrb;

  baresm_coalescer #(
    .MemLineBytes(MemLineBytes)
  ) u_coalescer (
    .pend_i      ((a_valid_q && a_gport) ? a_pend_q : 32'd0),  // 0: the coalescer idles
    .addr_i      (a_phys),
    .data_i      (a_acc_q),
    .swap_i      (a_swap_q),
    .size_log2_i (a_size),
    .atomic_i    (a_atomg),
    .match_o     (co_match),
    .addr_o      (co_addr),
    .wdata_o     (co_wdata),
    .wstrb_o     (co_wstrb)
  );

  logic [NumIds-1:0]        busy_q, busy_d;
  logic [NumIds*32-1:0]     id_lanes_q, id_lanes_d;
  logic [MemIdWidth-1:0]    free_id;
  logic                     have_free;
  logic                     mreq_valid_q;
  logic [MemIdWidth-1:0]    mreq_id_q;
  logic [31:0]              mreq_addr_q;
  logic [1:0]               mreq_op_q;
  logic [4:0]               mreq_amo_q;
  logic [MemLineBytes*8-1:0] mreq_wdata_q;
  logic [MemLineBytes-1:0]  mreq_wstrb_q;
  logic                     req_load;   // a new request enters the request flops
  logic                     rsp_hit;    // a response of an outstanding request
  logic [31:0]              rsp_lanes;

  always_comb begin
    free_id = '0;
    have_free = 1'b0;
    for (int k = NumIds - 1; k >= 0; k--) begin
      if (!busy_q[k]) begin
        free_id = MemIdWidth'(k);
        have_free = 1'b1;
      end
    end
  end

  assign req_load = a_valid_q && a_gport && !flt && (a_pend_q != 32'd0) && have_free &&
                    (!mreq_valid_q || mem_req_ready_i);
  assign rsp_hit = mem_rsp_valid_i && busy_q[mem_rsp_id_i];
  assign rsp_lanes = id_lanes_q[32*mem_rsp_id_i +: 32];

  // Memory errors of the instruction in stage A: the lowest lane served by a
  // failed request (responses come back in any order).
  logic       merr_q;
  logic [4:0] merr_lane_q;
  logic [4:0] rsp_low_lane;
  logic       merr_new;
  assign rsp_low_lane = baresm_sm_pkg::lowest_lane(rsp_lanes);
  assign merr_new = rsp_hit && mem_rsp_err_i && (!merr_q || rsp_low_lane < merr_lane_q);

  always_comb begin
    busy_d = busy_q;
    id_lanes_d = id_lanes_q;
    if (rsp_hit) busy_d[mem_rsp_id_i] = 1'b0;
    if (req_load) begin
      busy_d[free_id] = 1'b1;
      id_lanes_d[32*free_id +: 32] = co_match;
    end
  end

  // ==========================================================================
  // Stage A bookkeeping: results, pending lanes, completion.
  // ==========================================================================
  logic [32*32-1:0] a_acc_m;  // a_acc_q with this cycle's results merged
  always_comb begin
    logic [31:0] w;
    logic        hit;
    logic [31:0] old;
    w = '0;
    hit = 1'b0;
    old = '0;
    a_acc_m = a_acc_q;
    if (rd_valid_q && !rd_to_d_q) begin
      for (int i = 0; i < 32; i++) begin
        if (rd_served_q[i]) a_acc_m[32*i +: 32] = rd_val[32*i +: 32];
      end
    end
    if (atom_wb) begin
      // Each lane is served by one bank at most: AND-OR the old values.
      for (int i = 0; i < 32; i++) begin
        hit = 1'b0;
        old = '0;
        for (int b = 0; b < NumBanks; b++) begin
          hit = hit | (at_en_q[b] && at_lane_q[5*b +: 5] == 5'(i));
          old = old | ({32{at_en_q[b] && at_lane_q[5*b +: 5] == 5'(i)}} & bank_rdata[32*b +: 32]);
        end
        if (hit) a_acc_m[32*i +: 32] = old;
      end
    end
    if (rsp_hit && !a_stg && !mem_rsp_err_i) begin
      for (int i = 0; i < 32; i++) begin
        w = mem_rsp_rdata_i[32*a_phys[32*i + 2 +: LineW - 2] +: 32];
        if (rsp_lanes[i]) begin
          a_acc_m[32*i +: 32] = a_atomg ? mem_rsp_rdata_i[31:0]
                                        : load_extend(w, a_phys[32*i +: 2], a_size, a_sign);
        end
      end
    end
  end

  logic a_done;     // the instruction has nothing left to do in stage A
  always_comb begin
    if (flt || !(a_shared || a_gport)) a_done = 1'b1;
    else if (a_atoms) a_done = (a_pend_q == 32'd0);
    else if (a_shared) a_done = ((a_pend_q & ~served) == 32'd0);
    else a_done = (a_pend_q == 32'd0) && (busy_q == '0);
  end

  // Stage D: completion info, waiting for the last load pass's data.
  logic                d_valid_q;
  logic [WarpIdW-1:0]  d_warp_q;
  logic [5:0]          d_rd_q;
  logic [31:0]         d_mask_q;
  logic                d_we_q, d_fault_q;
  logic [3:0]          d_kind_q;
  logic [4:0]          d_lane_q;
  logic [31:0]         d_faddr_q;
  logic [32*32-1:0]    d_data_q, d_data_m;
  // Stage C: the completion presented on cpl_*.
  logic                c_valid_q;
  logic [WarpIdW-1:0]  c_warp_q;
  logic [5:0]          c_rd_q;
  logic [31:0]         c_mask_q;
  logic                c_we_q, c_fault_q;
  logic [3:0]          c_kind_q;
  logic [4:0]          c_lane_q;
  logic [31:0]         c_faddr_q;
  logic [32*32-1:0]    c_data_q;

  logic d_move, d_free, a_release, accept;
  assign d_move = d_valid_q && (!c_valid_q || cpl_ready_i);
  assign d_free = !d_valid_q || d_move;
  assign a_release = a_valid_q && a_done && d_free;
  assign req_ready_o = !a_valid_q || a_release;
  assign accept = req_valid_i && req_ready_o;
  assign rd_to_d_d = a_release && rd_valid_d;

  always_comb begin
    d_data_m = d_data_q;
    if (rd_valid_q && rd_to_d_q) begin
      for (int i = 0; i < 32; i++) begin
        if (rd_served_q[i]) d_data_m[32*i +: 32] = rd_val[32*i +: 32];
      end
    end
  end

  // Control flops.
  logic [31:0] passes_q, greqs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      merr_q <= 1'b0;
      a_pend_q <= '0;
      a_phase_q <= 1'b0;
      at_en_q <= '0;
      rd_valid_q <= 1'b0;
      rd_to_d_q <= 1'b0;
      busy_q <= '0;
      mreq_valid_q <= 1'b0;
      d_valid_q <= 1'b0;
      c_valid_q <= 1'b0;
      passes_q <= '0;
      greqs_q <= '0;
    end else begin
      if (accept) merr_q <= 1'b0;
      else if (merr_new) merr_q <= 1'b1;
      if (accept) begin
        a_valid_q <= 1'b1;
        a_pend_q <= req_mask_i;
        a_phase_q <= 1'b0;
      end else begin
        if (a_release) a_valid_q <= 1'b0;
        a_pend_q <= a_pend_q & ~served & ~(req_load ? co_match : 32'd0);
        if (pass_en && a_atoms) a_phase_q <= 1'b1;
        else if (atom_wb) a_phase_q <= 1'b0;
      end
      at_en_q <= (pass_en && a_atoms) ? at_en_d : '0;
      rd_valid_q <= rd_valid_d;
      rd_to_d_q <= rd_to_d_d;
      busy_q <= busy_d;
      if (req_load) mreq_valid_q <= 1'b1;
      else if (mem_req_ready_i) mreq_valid_q <= 1'b0;
      if (a_release) begin
        d_valid_q <= 1'b1;
      end else begin
        if (d_move) d_valid_q <= 1'b0;
      end
      if (d_move) c_valid_q <= 1'b1;
      else if (cpl_ready_i) c_valid_q <= 1'b0;
      if (pass_en) passes_q <= passes_q + 32'd1;
      if (mem_req_valid_o && mem_req_ready_i) greqs_q <= greqs_q + 32'd1;
    end
  end

  // Data flops (no reset: qualified by the valid bits above).
  always_ff @(posedge clk_i) begin
    if (accept) begin
      a_op_q <= req_op_i;
      a_mod_q <= req_mod_i;
      a_warp_q <= req_warp_i;
      a_rd_q <= req_rd_i;
      a_mask_q <= req_mask_i;
      a_addr_q <= req_addr_i;
      a_acc_q <= req_data_i;
      a_swap_q <= req_swap_i;
      a_sbase_q <= req_smem_base_i;
      a_ssize_q <= req_smem_size_i;
    end else begin
      a_acc_q <= a_acc_m;
    end
    if (pass_en && a_atoms) begin
      at_lane_q <= at_lane_d;
      at_row_q <= at_row_d;
    end
    if (rd_valid_d) begin
      rd_served_q <= served;
      rd_bank_q <= lane_bank;
      rd_off_q <= rd_off_d;
      rd_size_q <= a_size;
      rd_sign_q <= a_sign;
    end
    id_lanes_q <= id_lanes_d;
    if (merr_new) merr_lane_q <= rsp_low_lane;
    if (req_load) begin
      mreq_id_q <= free_id;
      mreq_addr_q <= co_addr;
      mreq_op_q <= a_atomg ? MEM_ATOMIC : a_stg ? MEM_WRITE : MEM_READ;
      mreq_amo_q <= a_mod_q[4:0];
      mreq_wdata_q <= a_stg | a_atomg ? co_wdata : '0;
      mreq_wstrb_q <= a_stg ? co_wstrb : '0;
    end
    if (a_release) begin
      d_warp_q <= a_warp_q;
      d_rd_q <= a_rd_q;
      d_mask_q <= a_mask_q;
      d_we_q <= (a_is_load || a_is_atom) && !flt && !merr_q;
      d_fault_q <= flt || merr_q;
      d_kind_q <= flt ? flt_kind : baresm_state_pkg::FAULT_MEMORY_ERROR;
      d_lane_q <= flt ? flt_lane : merr_lane_q;
      d_faddr_q <= flt ? flt_addr : a_addr_q[32*merr_lane_q +: 32];
      d_data_q <= a_acc_m;
    end else begin
      d_data_q <= d_data_m;
    end
    if (d_move) begin
      c_warp_q <= d_warp_q;
      c_rd_q <= d_rd_q;
      c_mask_q <= d_mask_q;
      c_we_q <= d_we_q;
      c_fault_q <= d_fault_q;
      c_kind_q <= d_kind_q;
      c_lane_q <= d_lane_q;
      c_faddr_q <= d_faddr_q;
      c_data_q <= d_data_m;
    end
  end

  // ---- outputs --------------------------------------------------------------
  assign cpl_valid_o = c_valid_q;
  assign cpl_warp_o = c_warp_q;
  assign cpl_rd_o = c_rd_q;
  assign cpl_mask_o = c_mask_q;
  assign cpl_we_o = c_we_q;
  assign cpl_data_o = c_data_q;
  assign cpl_fault_o = c_fault_q;
  assign cpl_fault_kind_o = c_kind_q;
  assign cpl_fault_lane_o = c_lane_q;
  assign cpl_fault_addr_o = c_faddr_q;

  assign mem_req_valid_o = mreq_valid_q;
  assign mem_req_id_o = mreq_id_q;
  assign mem_req_addr_o = mreq_addr_q;
  assign mem_req_op_o = mreq_op_q;
  assign mem_req_amo_o = mreq_amo_q;
  assign mem_req_wdata_o = mreq_wdata_q;
  assign mem_req_wstrb_o = mreq_wstrb_q;
  assign mem_rsp_ready_o = 1'b1;

  assign idle_o = !a_valid_q && !d_valid_q && !c_valid_q;
  assign smem_passes_o = passes_q;
  assign gmem_reqs_o = greqs_q;

  // Address bits the shared-memory map and the line offsets do not use.
  logic unused_bits;
  assign unused_bits = ^{a_mod_q[7:5], a_phys};

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // Both output handshakes hold their offer until taken (the memory request
  // from its flops, the completion in stage C).
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_valid_o, mem_req_ready_i,
                      {mem_req_id_o, mem_req_addr_o, mem_req_op_o, mem_req_amo_o,
                       mem_req_wstrb_o, mem_req_wdata_o})
  `BARESM_ASSERT_HELD(a_cpl_held, cpl_valid_o, cpl_ready_i,
                      {cpl_warp_o, cpl_rd_o, cpl_mask_o, cpl_we_o, cpl_fault_o, cpl_fault_kind_o,
                       cpl_fault_lane_o, cpl_fault_addr_o, cpl_data_o})
  // LSU ids: the request in the flops keeps its id busy until memory
  // answers it (memory answers only accepted requests; an id is never reused
  // while outstanding, so responses cannot be confused).
  `BARESM_ASSERT(a_req_id_busy, !mreq_valid_q || busy_q[mreq_id_q])
  // The coalescer serves a non-empty set of pending lanes, and the shared
  // memory pass only pending lanes.
  `BARESM_ASSERT(a_coalesce_pending, !req_load || (co_match != 32'd0 && (co_match & ~a_pend_q) == 32'd0))
  `BARESM_ASSERT(a_pass_pending, (served & ~a_pend_q) == 32'd0)
  // A fault names an active lane of the instruction.
  `BARESM_ASSERT(a_fault_lane_active, !(a_valid_q && flt) || a_mask_q[flt_lane])
  // Exactly one completion per accepted instruction: a count of accepted and
  // not yet completed instructions (never underflowing) always equals the
  // instructions held in stages A, D and C.
  logic [1:0] open_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) open_q <= '0;
    else open_q <= open_q + 2'(accept) - 2'(cpl_valid_o && cpl_ready_i);
  end
  `BARESM_ASSERT(a_one_cpl_per_instr, {1'b0, open_q} == 3'(a_valid_q) + 3'(d_valid_q) + 3'(c_valid_q))

endmodule

`default_nettype wire
