// baresm_lsu: the SM's load/store unit. Executes one whole-warp memory
// instruction at a time (LDG LDS LDC STG STS ATOMG ATOMS) in stage A, while
// up to LoadSlots earlier global loads wait for their responses in slots;
// owns the banked shared memory and talks to device memory through one
// request/response port.
// docs/lsu.md is the full description; the contract in short:
//
// Issue (req_*): valid/ready. Accepted when req_valid_i && req_ready_o. All
//   req_* inputs are sampled in that cycle only. req_mask_i holds the lanes
//   whose guard is true (it may be 0: the instruction completes at once).
//   The lanes' operands are not part of the request: they stay in the
//   issuer's gather buffer, and stage A reads them there one beat at a time
//   (opnd_*), as from a synchronous RAM: opnd_beat_o names the beat (lanes
//   [b*NumLanes, (b+1)*NumLanes)) read in the next cycle, and in that cycle
//   opnd_addr_i/opnd_data_i/opnd_swap_i return each of its lanes' effective
//   address (ra + imm; for LDS/STS/ATOMS an offset in
//   the CTA's shared region, for LDC an offset in the parameter buffer, else
//   a device address), store value / atomic operand b, and CAS value c, lane
//   i of the beat in bits [32*i +: 32]. They must stay readable from the
//   accept until opnd_done_o, the cycle after which stage A reads them no
//   more (every lane served or in a request, or the instruction leaves).
//   req_smem_base_i/req_smem_size_i: the issuing warp's CTA shared region
//   (byte offset inside this SM's shared memory, and shared_bytes).
// Launch context (param_*, win_*): must not change while idle_o is low.
//   Window w is [win_base_i[32*w +: 32], + win_size_i[32*w +: 32]); size 0
//   disables it.
// Completion (cpl_*): valid/ready, exactly one per accepted instruction,
//   held stable until cpl_ready_i; in issue order when LoadSlots == 0, else
//   a global load may complete after later instructions. cpl_pc_o returns
//   the instruction's req_pc_i. cpl_we_o: write cpl_data_o to register
//   cpl_rd_o of the lanes in cpl_mask_o (loads, atomics); 0 for stores and
//   for faults. Loads are sign/zero-extended; atomics return the old value.
//   cpl_fault_o: the instruction faulted and had no effect at all;
//   cpl_fault_kind_o is numbered as iss::FaultKind (3 OUT_OF_WINDOW,
//   4 MISALIGNED), cpl_fault_lane_o the lowest faulting lane, and
//   cpl_fault_addr_o its effective address. The completion of a store is
//   sent only after every write of it has been acknowledged by memory.
//   A memory error (mem_rsp_i.err on a response) is the exception to "no
//   effect at all": the instruction's other requests may have been carried
//   out. It completes, once every response is back, as MEMORY_ERROR (10)
//   naming the lowest lane served by a failed request and that lane's address.
// Memory port (mem_req_o/mem_rsp_i, rtl/prim/baresm_mem_types.svh; with
//   mem_req_ready_i/mem_rsp_ready_o): valid/ready on both channels.
//   op 0 READ  : mem_req_o.addr line-aligned; response rdata = the line.
//   op 1 WRITE : line-aligned; write the bytes whose wstrb bit is set;
//                the response (rdata ignored) acknowledges it.
//   op 2 ATOMIC: mem_req_o.addr is the 4-byte aligned word address;
//                mem_req_o.amo = ATOM mod[4:0], b = wdata[31:0],
//                c = wdata[63:32]; response rdata[31:0] = the old value.
//   Exactly one response per request, in any order, matched by id. Requests
//   take effect in the order they are accepted (atomics of one instruction
//   are issued in lane order). mem_rsp_ready_o is 1 (NumLanes < 32: low while a
//   read response's earlier beats take their data); responses whose
//   id is not outstanding are dropped (e.g. after a reset of the SM).
//   The request channel is driven from flops.
// Timing: see docs/lsu.md (shared memory: one pass per cycle, two per pass
//   for ATOMS; global: up to one request per cycle, at most 2**MemIdWidth
//   outstanding).
// NumLanes < 32: the per-lane logic (fault check, shared-memory passes,
//   coalescer, response extraction) handles one beat of NumLanes lanes
//   [b*NumLanes, (b+1)*NumLanes) per cycle, selected from the 32-lane
//   registers. The check visits the active beats one per cycle before any
//   access; a line request being formed absorbs the following beats' lanes
//   in its line before it is sent; a read response is distributed one beat
//   of its lanes per cycle (mem_rsp_ready_o low until the last). With
//   NumLanes == 32 (one beat) the unit is cycle for cycle what it was with
//   32 lanes per cycle: mem_rsp_ready_o is then always 1.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`default_nettype none

module baresm_lsu #(
  parameter int NumLanes     = 32,     // lanes handled per cycle (1, 2, 4, 8, 16, 32)
  parameter int NumWarps     = 16,
  parameter int NumBanks     = 32,     // shared-memory banks of 4 bytes (power of 2)
  parameter int SharedBytes  = 16384,  // shared memory of the SM (multiple of 4*NumBanks)
  parameter int MemLineBytes = 128,    // global-memory line (power of 2, >= 8)
  parameter int MemIdWidth   = 4,      // transaction id bits: 2**MemIdWidth outstanding
  parameter int NumWindows   = 4,
  parameter int LoadSlots    = 0,      // global loads waiting for responses outside stage A (0: none)
  parameter int WarpIdW      = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int BeatW        = (NumLanes < 32) ? $clog2(32 / NumLanes) : 1   // a beat number
) (
  clk_i,
  rst_ni,
  req_valid_i,
  req_ready_o,
  req_op_i,
  req_mod_i,
  req_warp_i,
  req_rd_i,
  req_mask_i,
  req_smem_base_i,
  req_smem_size_i,
  req_pc_i,
  opnd_beat_o,
  opnd_addr_i,
  opnd_data_i,
  opnd_swap_i,
  opnd_done_o,
  param_base_i,
  param_size_i,
  win_base_i,
  win_size_i,
  prot_base_i,
  prot_size_i,
  cpl_valid_o,
  cpl_ready_i,
  cpl_warp_o,
  cpl_rd_o,
  cpl_mask_o,
  cpl_we_o,
  cpl_data_o,
  cpl_fault_o,
  cpl_fault_kind_o,
  cpl_fault_lane_o,
  cpl_fault_addr_o,
  cpl_pc_o,
  mem_req_o,
  mem_req_ready_i,
  mem_rsp_i,
  mem_rsp_ready_o,
  idle_o,
  smem_pass_o,
  smem_passes_o,
  gmem_reqs_o
);

  // The memory port's types (rtl/prim/baresm_mem_types.svh): a line port.
  typedef `BARESM_MEM_REQ_T(MemIdWidth, MemLineBytes) mem_req_t;
  typedef `BARESM_MEM_RSP_T(MemIdWidth, MemLineBytes) mem_rsp_t;

  input  logic                        clk_i;
  input  logic                        rst_ni;

  // ---- issue --------------------------------------------------------------
  input  logic                        req_valid_i;
  output logic                             req_ready_o;
  input  logic [6:0]                  req_op_i;
  input  logic [7:0]                  req_mod_i;
  input  logic [WarpIdW-1:0]          req_warp_i;
  input  logic [5:0]                  req_rd_i;
  input  logic [31:0]                 req_mask_i;
  input  logic [31:0]                 req_smem_base_i;
  input  logic [31:0]                 req_smem_size_i;
  input  logic [31:0]                 req_pc_i;        // returned with the completion (fault reports)

  // ---- operands of the instruction in stage A (the issuer's gather buffer) --
  output logic [BeatW-1:0]            opnd_beat_o;
  input  logic [32*NumLanes-1:0]      opnd_addr_i;
  input  logic [32*NumLanes-1:0]      opnd_data_i;
  input  logic [32*NumLanes-1:0]      opnd_swap_i;
  output logic                        opnd_done_o;

  // ---- launch context -----------------------------------------------------
  input  logic [31:0]                 param_base_i;
  input  logic [31:0]                 param_size_i;
  input  logic [32*NumWindows-1:0]    win_base_i;
  input  logic [32*NumWindows-1:0]    win_size_i;
  input  logic [31:0]                 prot_base_i;   // protected range: out of every window
  input  logic [31:0]                 prot_size_i;

  // ---- completion / writeback --------------------------------------------
  output logic                             cpl_valid_o;
  input  logic                        cpl_ready_i;
  output logic [WarpIdW-1:0]               cpl_warp_o;
  output logic [5:0]                       cpl_rd_o;
  output logic [31:0]                      cpl_mask_o;
  output logic                             cpl_we_o;
  output logic [32*32-1:0]                 cpl_data_o;
  output logic                             cpl_fault_o;
  output logic [3:0]                       cpl_fault_kind_o;
  output logic [4:0]                       cpl_fault_lane_o;
  output logic [31:0]                      cpl_fault_addr_o;
  output logic [31:0]                      cpl_pc_o;

  // ---- device-memory port -------------------------------------------------
  output mem_req_t                         mem_req_o;
  input  logic                             mem_req_ready_i;
  input  mem_rsp_t                         mem_rsp_i;
  output logic                             mem_rsp_ready_o;  // 1 when NumLanes == 32

  // ---- status and counters ------------------------------------------------
  output logic                             idle_o;        // nothing accepted and unfinished
  output logic                             smem_pass_o;   // a shared-memory pass this cycle
  output logic [31:0]                      smem_passes_o; // shared-memory passes, cumulative
  output logic [31:0]                      gmem_reqs_o;    // memory requests issued, cumulative

  localparam int BankW = $clog2(NumBanks);
  localparam int Rows = SharedBytes / (4 * NumBanks);
  localparam int RowW = (Rows > 1) ? $clog2(Rows) : 1;
  localparam int LineW = $clog2(MemLineBytes);
  localparam int NumIds = 1 << MemIdWidth;
  localparam int Beats = 32 / NumLanes;              // beats of a warp
  localparam int LaneLog = $clog2(NumLanes);         // lane index -> beat: >> LaneLog
  localparam int LaneW = (NumLanes > 1) ? LaneLog : 1;  // a lane inside a beat

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

  // The index of a one-hot bit: bit k is the OR of the lanes whose index has
  // bit k set (an OR-tree encoder; five word operations in a verilated model).
  function automatic logic [4:0] onehot_index(input logic [31:0] oh);
    onehot_index = {|(oh & 32'hFFFF_0000), |(oh & 32'hFF00_FF00), |(oh & 32'hF0F0_F0F0),
                    |(oh & 32'hCCCC_CCCC), |(oh & 32'hAAAA_AAAA)};
  endfunction

  // ---- beats: lanes [b*NumLanes, (b+1)*NumLanes) ----------------------------
  // The beat of lane l (0 when Beats == 1).
  function automatic logic [BeatW-1:0] beat_of(input logic [4:0] l);
    beat_of = BeatW'(l >> LaneLog);
  endfunction
  // The 32-lane mask of beat b.
  function automatic logic [31:0] beat_lanes(input logic [BeatW-1:0] b);
    beat_lanes = '0;
    for (int k = 0; k < Beats; k++) begin
      if (b == BeatW'(k)) beat_lanes[NumLanes*k +: NumLanes] = '1;
    end
  endfunction
  // Beat b of a 32-lane bit vector.
  function automatic logic [NumLanes-1:0] beat_bits(input logic [31:0] v, input logic [BeatW-1:0] b);
    beat_bits = '0;
    for (int k = 0; k < Beats; k++) begin
      if (b == BeatW'(k)) beat_bits = v[NumLanes*k +: NumLanes];
    end
  endfunction
  // The line offsets (LineW bits per lane) of beat b's lanes.
  function automatic logic [LineW*NumLanes-1:0] beat_offs(input logic [LineW*32-1:0] v,
                                                        input logic [BeatW-1:0] b);
    beat_offs = '0;
    for (int k = 0; k < Beats; k++) begin
      if (b == BeatW'(k)) beat_offs = v[LineW*NumLanes*k +: LineW*NumLanes];
    end
  endfunction
  // The lanes v of beat b, placed in a 32-lane vector.
  function automatic logic [31:0] beat_spread(input logic [NumLanes-1:0] v, input logic [BeatW-1:0] b);
    beat_spread = '0;
    for (int k = 0; k < Beats; k++) begin
      if (b == BeatW'(k)) beat_spread[NumLanes*k +: NumLanes] = v;
    end
  endfunction

  // ==========================================================================
  // Stage A: the instruction being executed (one at a time). Its operands
  // are read through the opnd_* beat port; a_acc_q collects each lane's
  // result as it comes, a_off_q each lane's line offset (the low LineW bits
  // of its address, taken as its beat is checked) for the read responses.
  // ==========================================================================
  logic                 a_valid_q;
  logic [6:0]           a_op_q;
  logic [7:0]           a_mod_q;
  logic [WarpIdW-1:0]   a_warp_q;
  logic [5:0]           a_rd_q;
  logic [31:0]          a_mask_q;
  logic [32*32-1:0]     a_acc_q;
  logic [LineW*32-1:0]  a_off_q;
  logic                 a_opnd_q;    // the operands are still read (until opnd_done_o)
  logic [31:0]          a_sbase_q;
  logic [31:0]          a_ssize_q;
  logic [31:0]          a_pc_q;
  logic [31:0]          a_pend_q;    // lanes not yet sent to shared memory / the port
  logic [31:0]          a_unchk_q;   // active lanes of the beats not yet checked
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
  // One beat per cycle, the lowest unchecked one (beats without an active
  // lane are skipped); a fault stops the check at its beat, so the lowest
  // faulting lane of the lowest faulting beat is the lowest of the warp.
  // Accesses start once every beat has passed (acc_phase). The check and
  // the access read the addresses through one beat port (addr_beat), so with
  // several beats the accesses start the cycle after the last beat's check;
  // with one beat there is nothing to select and they start in its cycle.
  logic        flt;        // the beat checked this cycle faults
  logic [3:0]  flt_kind;
  logic [4:0]  flt_lane;
  logic [31:0] flt_addr;
  logic [4:0]  chk_lane;   // the faulting lane inside the beat
  logic [BeatW-1:0] chk_beat;
  logic [31:0] chk_lanes;  // its lanes
  logic        chk_ok;     // checked: no fault, nothing left to check after this cycle

  assign chk_beat = beat_of(baresm_sm_pkg::lowest_lane(a_unchk_q));
  assign chk_lanes = beat_lanes(chk_beat);
  assign flt_lane = (5'(chk_beat) << LaneLog) | chk_lane;
  assign chk_ok = !flt && ((a_unchk_q & ~chk_lanes) == 32'd0);

  // The access beat: the lowest beat with a pending lane; its lanes go to
  // the shared-memory pass and the coalescer.
  logic [BeatW-1:0]       acc_beat;
  logic [31:0]            acc_lanes;
  logic [NumLanes-1:0]    acc_pend;
  assign acc_beat = beat_of(baresm_sm_pkg::lowest_lane(a_pend_q));
  assign acc_lanes = beat_lanes(acc_beat);

  logic acc_phase;   // every beat checked (or one beat, checked this cycle)
  logic [BeatW-1:0] addr_beat;
  logic [32*NumLanes-1:0] beat_addr;  // the addresses of addr_beat's lanes
  assign acc_phase = Beats == 1 ? chk_ok : a_unchk_q == 32'd0;
  // (Not selected by acc_phase: with one beat chk_ok depends on beat_addr.)
  assign addr_beat = (Beats == 1 || a_unchk_q == 32'd0) ? acc_beat : chk_beat;
  assign beat_addr = a_valid_q ? opnd_addr_i : '0;
  assign acc_pend = acc_phase ? beat_bits(a_pend_q, acc_beat) : '0;

  baresm_lsu_check #(
    .NumWindows(NumWindows),
    .NumLanes  (NumLanes)
  ) u_check (
    .space_i     (a_space),
    .size_log2_i (a_size),
    .mask_i      (a_valid_q ? beat_bits(a_unchk_q, chk_beat) : '0),
    .addr_i      (beat_addr),
    .smem_size_i (a_ssize_q),
    .param_size_i(param_size_i),
    .win_base_i  (win_base_i),
    .win_size_i  (win_size_i),
    .prot_base_i (prot_base_i),
    .prot_size_i (prot_size_i),
    .fault_o     (flt),
    .kind_o      (flt_kind),
    .lane_o      (chk_lane),
    .addr_o      (flt_addr)
  );

  // The operand beat: the address beat, or in an ATOMS write-back the
  // beat its read pass served (which reads only b and c). Stores and ATOMG
  // take their data (and CAS value) at the access beat, ATOMS its b and c
  // at the write-back.
  logic                   atom_wb;     // ATOMS write-back cycle
  logic [BeatW-1:0]       at_beat_q;   // the beat of the ATOMS read pass
  logic [32*NumLanes-1:0] opnd_c;
  assign atom_wb = a_valid_q && a_atoms && a_phase_q;
  logic [BeatW-1:0]       opnd_beat;   // the beat whose operands are on opnd_*_i
  assign opnd_beat = atom_wb ? at_beat_q : addr_beat;
  assign opnd_c = (a_valid_q && (a_atomg || atom_wb)) ? opnd_swap_i : '0;

  // Physical addresses of the access beat: shared offsets are relative to
  // the CTA's region, param offsets to the parameter buffer.
  logic [31:0]            a_offset;
  logic [32*NumLanes-1:0] a_phys;
  logic [32*NumLanes-1:0] acc_addr, acc_data;
  assign a_offset = a_shared ? a_sbase_q : a_ldc ? param_base_i : 32'd0;
  // Simulation speed: the per-lane logic below evaluates only while an
  // instruction is in stage A (each always_comb tests its valid first, so a
  // verilated idle LSU skips it); the values it leaves at 0 otherwise are
  // never looked at then (every consumer is qualified by the same valid).
  always_comb begin
    a_phys = '0;
    acc_addr = '0;
    acc_data = '0;
    if (a_valid_q) begin
      acc_addr = beat_addr;
      acc_data = opnd_data_i;
      for (int i = 0; i < NumLanes; i++) a_phys[32*i +: 32] = acc_addr[32*i +: 32] + a_offset;
    end
  end

  // ==========================================================================
  // Shared memory: one pass per cycle. In a pass each bank serves the word of
  // its lowest pending lane, and every pending lane on that same word
  // (broadcast for loads, merged bytes for stores). ATOMS serve one lane per
  // bank per pass (read, then write back the next cycle) so that lanes on the
  // same word are applied one after another in lane order.
  // ==========================================================================
  logic [NumLanes*BankW-1:0] lane_bank;
  logic [NumLanes*RowW-1:0]  lane_row;
  always_comb begin
    lane_bank = '0;
    lane_row = '0;
    if (a_valid_q && a_shared) begin
      for (int i = 0; i < NumLanes; i++) begin
        lane_bank[BankW*i +: BankW] = a_phys[32*i + 2 +: BankW];
        lane_row[RowW*i +: RowW] = a_phys[32*i + 2 + BankW +: RowW];
      end
    end
  end

  // Per bank: its pending lanes, its leader (lowest pending lane, one-hot)
  // and the leader's row.
  // (Lanes of the access beat: index i is lane acc_beat*NumLanes + i.)
  logic [NumBanks*NumLanes-1:0] on_bank;
  logic [NumBanks*NumLanes-1:0] lead_oh;
  logic [NumBanks*RowW-1:0]     lead_row;
  logic [NumLanes-1:0]          s_served;  // lanes this pass would serve
  // Written lane by lane (a lane sits on one bank: a decoder and a mux per
  // lane) rather than bank x lane, which a verilated model evaluates as
  // NumBanks x NumLanes compares in every cycle of a shared access.
  always_comb begin
    logic [BankW-1:0]    bk;
    logic [NumLanes-1:0] lead;
    on_bank = '0;
    lead_oh = '0;
    lead_row = '0;
    s_served = '0;
    bk = '0;
    lead = '0;
    if (a_valid_q && a_shared) begin
      // Each pending lane marks its bank.
      for (int i = 0; i < NumLanes; i++) begin
        bk = lane_bank[BankW*i +: BankW];
        if (acc_pend[i]) on_bank[NumLanes*32'(bk) + i] = 1'b1;
      end
      // Per bank: the leader is its lowest pending lane; the pass serves
      // the leader's row (0 for a bank no lane is on).
      for (int b = 0; b < NumBanks; b++) begin
        lead = NumLanes'(lowest_onehot(32'(on_bank[NumLanes*b +: NumLanes])));
        lead_oh[NumLanes*b +: NumLanes] = lead;
        if (lead != '0) lead_row[RowW*b +: RowW] = lane_row[RowW*32'(onehot_index(32'(lead))) +: RowW];
      end
      // A pending lane is served with its bank's leader: ATOMS only the
      // leader, the rest every lane on the leader's row.
      for (int i = 0; i < NumLanes; i++) begin
        bk = lane_bank[BankW*i +: BankW];
        s_served[i] = acc_pend[i] && (a_atoms ? lead_oh[NumLanes*32'(bk) + i]
                                              : lead_row[RowW*32'(bk) +: RowW] == lane_row[RowW*i +: RowW]);
      end
    end
  end

  logic          pass_en;     // a pass (read, write, or ATOMS read) goes out this cycle
  logic [NumLanes-1:0] served_l;
  logic [31:0]   served;      // the same lanes, of all 32
  assign pass_en = a_valid_q && a_shared && acc_phase && (a_pend_q != 32'd0) &&
                   !(a_atoms && a_phase_q);
  assign served_l = pass_en ? s_served : '0;
  assign served = beat_spread(served_l, acc_beat);

  // ATOMS read pass -> write-back: which lane (of the beat at_beat_q) each
  // bank serves, and the beat's operands.
  logic [NumBanks-1:0]       at_en_q, at_en_d;
  logic [NumBanks*LaneW-1:0] at_lane_q, at_lane_d;
  logic [NumBanks*RowW-1:0]  at_row_q, at_row_d;
  logic [32*NumLanes-1:0]    at_b, at_c;
  assign at_b = atom_wb ? acc_data : '0;
  assign at_c = atom_wb ? opnd_c : '0;

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
      .b_i   (at_b[32*at_lane_q[LaneW*b +: LaneW] +: 32]),
      .c_i   (at_c[32*at_lane_q[LaneW*b +: LaneW] +: 32]),
      .new_o (amo_new[32*b +: 32])
    );
  end

  // Per lane: the byte enables and the data placed in its word (stores).
  logic [NumLanes*4-1:0]  lane_be;
  logic [NumLanes*32-1:0] lane_wd;
  always_comb begin
    logic [3:0] be;
    be = (a_size == 2'd0) ? 4'b0001 : (a_size == 2'd1) ? 4'b0011 : 4'b1111;
    lane_be = '0;
    lane_wd = '0;
    if (pass_en && a_sts) begin  // only read by the bank loop below, for stores
      for (int i = 0; i < NumLanes; i++) begin
        lane_be[4*i +: 4] = be << a_phys[32*i +: 2];
        lane_wd[32*i +: 32] = acc_data[32*i +: 32] << {a_phys[32*i +: 2], 3'b000};
      end
    end
  end

  always_comb begin
    logic [NumLanes-1:0] sel;
    logic [31:0] word;
    logic [3:0]  strb;
    sel = '0;
    word = '0;
    strb = '0;
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
          sel = served_l & on_bank[NumLanes*b +: NumLanes];
          bank_en[b] = |sel;
          bank_we[b] = a_sts && |sel;
          at_en_d[b] = |sel;
          // ATOMS serve one lane per bank (read by the write-back only).
          if (a_atoms) at_lane_d[LaneW*b +: LaneW] = LaneW'(onehot_index(32'(sel)));
          // Stores: the served lanes overwrite the bank word's bytes in
          // lane order, so of the lanes writing a byte the highest wins.
          if (a_sts) begin
            word = '0;
            strb = '0;
            for (int i = 0; i < NumLanes; i++) begin
              if (sel[i]) begin
                for (int k = 0; k < 4; k++) begin
                  if (lane_be[4*i + k]) word[8*k +: 8] = lane_wd[32*i + 8*k +: 8];
                end
                strb = strb | lane_be[4*i +: 4];
              end
            end
            bank_be[4*b +: 4] = strb;
            bank_wdata[32*b +: 32] = word;
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
  // (rd_served_q: of all 32 lanes, inside one beat; rd_bank_q, rd_off_q and
  // rd_val: that beat's lanes.)
  logic                      rd_valid_q, rd_valid_d;
  logic [31:0]               rd_served_q;
  logic [NumLanes*BankW-1:0] rd_bank_q;
  logic [NumLanes*2-1:0]     rd_off_q, rd_off_d;
  logic [1:0]                rd_size_q;
  logic                      rd_sign_q;
  logic                      rd_to_d_q, rd_to_d_d;  // its instruction has left stage A
  logic [NumLanes*32-1:0]    rd_val;

  assign rd_valid_d = pass_en && a_lds;
  always_comb begin
    for (int i = 0; i < NumLanes; i++) rd_off_d[2*i +: 2] = a_phys[32*i +: 2];
  end
  always_comb begin
    rd_val = '0;
    if (rd_valid_q) begin
      for (int i = 0; i < NumLanes; i++) begin
        rd_val[32*i +: 32] = load_extend(bank_rdata[32*rd_bank_q[BankW*i +: BankW] +: 32],
                                         rd_off_q[2*i +: 2], rd_size_q, rd_sign_q);
      end
    end
  end

  // ==========================================================================
  // Global memory port: the coalescer forms one request per cycle at most,
  // held in flops until accepted; ids index the table of outstanding
  // requests (which lanes each one serves).
  // With several beats a line request is formed in the request flops before
  // it is offered (form_q, mem_req_o.valid low): it starts from the access
  // beat's leader and absorbs the lanes of the following beats that fall in
  // its line, one beat per cycle; it is offered (closed) as soon as a beat
  // has pending lanes outside the line, or nothing is left pending, or at
  // once for atomics. With one beat every request closes where it starts.
  // ==========================================================================
  logic [NumLanes-1:0]      co_match_l;
  logic [31:0]              co_match;  // the same lanes, of all 32
  logic [31:0]              co_addr;
  logic [MemLineBytes*8-1:0] co_wdata;
  logic [MemLineBytes-1:0]  co_wstrb;
  logic                     form_q;    // the request flops hold a request being formed
  logic [32*NumLanes-1:0]   acc_swap;
  assign acc_swap = a_atomg ? opnd_c : '0;

  baresm_coalescer #(
    .MemLineBytes(MemLineBytes),
    .NumLanes    (NumLanes)
  ) u_coalescer (
    .pend_i      ((a_valid_q && a_gport) ? acc_pend : '0),  // 0: the coalescer idles
    .addr_i      (a_phys),
    .data_i      (acc_data),
    .swap_i      (acc_swap),
    .size_log2_i (a_size),
    .atomic_i    (a_atomg),
    .store_i     (a_stg),
    .form_i      (form_q),
    .form_line_i (mreq_addr_q[31:LineW]),
    .match_o     (co_match_l),
    .addr_o      (co_addr),
    .wdata_o     (co_wdata),
    .wstrb_o     (co_wstrb)
  );

  logic [NumIds-1:0]        busy_q, busy_d;
  logic [NumIds*32-1:0]     id_lanes_q, id_lanes_d;
  // The address of each id's lowest lane (the lane a request starts at), for
  // a memory error's report: responses then need only the lanes' line
  // offsets (LineW bits of each) from a_off_q or a slot.
  logic [31:0]              id_addr_q [NumIds];
  // Whose lanes each id serves: stage A (OWN_A) or a load slot.
  localparam int SlotN = (LoadSlots > 0) ? LoadSlots : 1;
  localparam int SlotW = (SlotN > 1) ? $clog2(SlotN) : 1;
  localparam int OwnW = $clog2(LoadSlots + 1) > 0 ? $clog2(LoadSlots + 1) : 1;
  localparam logic [OwnW-1:0] OWN_A = OwnW'(LoadSlots);
  logic [OwnW-1:0]          id_own_q [NumIds];
  // Load slots (see "Load slots" below).
  logic [SlotN-1:0]         sl_valid_q;
  logic [SlotN-1:0]         sl_older_q [SlotN];   // the slots holding older loads
  // A slot's load, taken from stage A when it moves. Stored as a plain
  // vector per slot (Yosys 0.23 reads an unpacked array of a struct type as
  // one wire).
  typedef struct packed {
    logic [WarpIdW-1:0] warp;
    logic [5:0]         rd;
    logic [31:0]        mask;
    logic [31:0]        pc;
    logic [1:0]         size;   // log2 of the access width
    logic               sign;   // sign-extend
    logic [LineW-1:0]   off;    // low bits of the address offset (LDC: the parameter base)
  } slot_load_t;
  localparam int SlotLoadW = WarpIdW + 6 + 32 + 32 + 2 + 1 + LineW;
  logic [SlotLoadW-1:0]     sl_load_q [SlotN];
  logic [32*LineW-1:0]      sl_off_q [SlotN];    // each lane's address, low LineW bits
  logic [32*32-1:0]         sl_acc_q [SlotN];
  logic [SlotN-1:0]         sl_merr_q;
  logic [4:0]               sl_merr_lane_q [SlotN];
  logic [31:0]              sl_merr_addr_q [SlotN];
  logic                     rsp_a;      // the response is stage A's
  logic [SlotW-1:0]         rsp_slot;   // ... else this slot's
  logic                     d_move, d_free, a_release, accept;
  logic [MemIdWidth-1:0]    free_id;
  logic                     have_free;
  logic                     mreq_valid_q;
  logic [MemIdWidth-1:0]    mreq_id_q;
  logic [31:0]              mreq_addr_q;
  logic [1:0]               mreq_op_q;
  logic [4:0]               mreq_amo_q;
  logic [MemLineBytes*8-1:0] mreq_wdata_q;
  logic [MemLineBytes-1:0]  mreq_wstrb_q;
  logic                     req_load;   // the request flops take lanes (start or absorb)
  logic                     g_go;       // global lanes pending, the check passed
  logic                     g_start;    // a new request starts in the request flops
  logic                     g_absorb;   // the request being formed takes this beat's lanes
  logic                     g_close;    // ... and is offered (mem_req_o.valid next cycle)
  logic                     form_flush; // the request being formed is offered as it is
  logic                     rsp_hit;    // a response of an outstanding request
  logic [31:0]              rsp_lanes;
  logic [31:0]              rsp_left;   // its lanes not yet given their data
  logic [31:0]              rsp_done_q; // lanes of the presented response already done
  logic [BeatW-1:0]         rsp_beat;   // the beat whose lanes take their data this cycle
  logic [31:0]              rsp_blanes;
  logic                     rsp_data;   // the response carries data for its lanes
  logic                     rsp_last;   // this cycle finishes the presented response
  logic                     rsp_take;   // ... and it is taken

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

  assign co_match = beat_spread(co_match_l, acc_beat);
  // The address of the lane a request starts at: the access beat's lowest
  // pending lane (its line is the request's).
  logic [31:0] start_addr;
  always_comb begin
    start_addr = '0;
    if (g_start) begin
      for (int i = NumLanes - 1; i >= 0; i--) begin
        if (acc_pend[i]) start_addr = beat_addr[32*i +: 32];
      end
    end
  end
  assign g_go = a_valid_q && a_gport && acc_phase && (a_pend_q != 32'd0);
  assign g_start = g_go && !form_q && have_free && (!mreq_valid_q || mem_req_ready_i);
  assign g_absorb = g_go && form_q && (co_match_l != '0);
  assign req_load = g_start || g_absorb;
  // Close: atomics go alone; a beat with pending lanes outside the line ends
  // the request, and so does having nothing pending after it. (One beat:
  // always.)
  assign g_close = a_atomg || ((a_pend_q & acc_lanes & ~co_match) != 32'd0) ||
                   ((a_pend_q & ~co_match) == 32'd0);
  assign form_flush = form_q && !g_absorb;

  // Responses: the lanes of a read response take their data one beat per
  // cycle, the lowest first; the response is taken in the cycle of its last
  // beat (mem_rsp_ready_o low before). Write acknowledgements, atomics (one
  // lane) and errors take one cycle. With one beat: always one cycle.
  // The response's line as a plain vector: Icarus 11 takes no variable part
  // select of a struct member.
  logic [MemLineBytes*8-1:0] rsp_rdata;
  assign rsp_rdata = mem_rsp_i.rdata;
  assign rsp_hit = mem_rsp_i.valid && busy_q[mem_rsp_i.id];
  assign rsp_lanes = id_lanes_q[32*mem_rsp_i.id +: 32];
  assign rsp_left = rsp_lanes & ~rsp_done_q;
  assign rsp_beat = beat_of(baresm_sm_pkg::lowest_lane(rsp_left));
  assign rsp_blanes = beat_lanes(rsp_beat);
  assign rsp_a = id_own_q[mem_rsp_i.id] == OWN_A;
  assign rsp_slot = SlotW'(id_own_q[mem_rsp_i.id]);
  assign rsp_data = !(rsp_a && a_stg) && !mem_rsp_i.err;
  assign rsp_last = !rsp_data || (rsp_a && a_atomg) || ((rsp_left & ~rsp_blanes) == 32'd0);
  assign rsp_take = rsp_hit && rsp_last;
  assign mem_rsp_ready_o = !busy_q[mem_rsp_i.id] || rsp_last;

  // A request being formed: this beat's bytes over the earlier beats' (the
  // higher lanes win, as within a beat).
  logic [MemLineBytes*8-1:0] form_wdata;
  logic [MemLineBytes-1:0]   form_wstrb;
  always_comb begin
    form_wdata = co_wdata;
    form_wstrb = co_wstrb;
    if (form_q) begin
      form_wstrb = mreq_wstrb_q | co_wstrb;
      for (int k = 0; k < MemLineBytes; k++) begin
        if (!co_wstrb[k]) form_wdata[8*k +: 8] = mreq_wdata_q[8*k +: 8];
      end
    end
  end

  // Memory errors of the instruction in stage A: the lowest lane served by a
  // failed request (responses come back in any order), and its address,
  // taken from the response beat (an error response is taken in one cycle,
  // its first, whose beat holds its lowest lane).
  logic        merr_q;
  logic [4:0]  merr_lane_q;
  logic [31:0] merr_addr_q;
  logic [4:0]  rsp_low_lane;
  logic [31:0] rsp_low_addr;
  logic        merr_new;
  assign rsp_low_lane = baresm_sm_pkg::lowest_lane(rsp_lanes);
  assign merr_new = rsp_hit && rsp_a && mem_rsp_i.err && (!merr_q || rsp_low_lane < merr_lane_q);

  always_comb begin
    busy_d = busy_q;
    id_lanes_d = id_lanes_q;
    if (rsp_take) busy_d[mem_rsp_i.id] = 1'b0;
    if (g_start) begin
      busy_d[free_id] = 1'b1;
      id_lanes_d[32*free_id +: 32] = co_match;
    end
    if (g_absorb) id_lanes_d[32*mreq_id_q +: 32] = id_lanes_q[32*mreq_id_q +: 32] | co_match;
  end

  // A read response: the value of each lane of the response beat (its word
  // of the line, extended; the old value for ATOMG).
  slot_load_t rl;  // the responding slot's load
  assign rl = sl_load_q[rsp_slot];
  assign rsp_low_addr = id_addr_q[mem_rsp_i.id];

  // ==========================================================================
  // Load slots (LoadSlots > 0). A global load (LDG, LDC) whose requests have
  // all been formed leaves stage A for a free slot (a_move) instead of
  // waiting there for its responses, so the next instruction starts at once;
  // its ids change owner with it and its responses fill the slot. A slot
  // whose responses are all in completes through stage D like stage A,
  // before it (a slot is older). Memory order is untouched: every request
  // still leaves in order through the one request register (docs/isa.md
  // "Memory ordering", 3). Faults stay in order: a slot's memory error
  // completes only when no older slot is left, a fault of stage A only when
  // no slot is.
  // ==========================================================================
  logic [SlotN-1:0] sl_open, sl_ready;
  logic [SlotW-1:0] sl_free, sl_pick;
  slot_load_t pick_load;  // the slot stage D takes
  assign pick_load = sl_load_q[sl_pick];
  logic             have_slot, sl_go, a_busy, a_move, sl_merr_new;
  always_comb begin
    sl_open = '0;
    a_busy = 1'b0;
    for (int k = 0; k < NumIds; k++) begin
      if (busy_q[k]) begin
        if (id_own_q[k] == OWN_A) a_busy = 1'b1;
        else sl_open[SlotW'(id_own_q[k])] = 1'b1;
      end
    end
  end
  always_comb begin
    sl_free = '0;
    have_slot = 1'b0;
    sl_pick = '0;
    sl_go = 1'b0;
    for (int s = SlotN - 1; s >= 0; s--) begin
      sl_ready[s] = sl_valid_q[s] && !sl_open[s] &&
                    !(sl_merr_q[s] && (sl_older_q[s] & sl_valid_q) != '0);
      if (!sl_valid_q[s]) begin
        sl_free = SlotW'(s);
        have_slot = LoadSlots > 0;
      end
      if (sl_ready[s]) begin
        sl_pick = SlotW'(s);
        sl_go = d_free;
      end
    end
  end
  assign a_move = a_valid_q && (a_ldg || a_ldc) && a_pend_q == 32'd0 && !form_q && a_busy && have_slot;
  assign sl_merr_new = rsp_hit && !rsp_a && mem_rsp_i.err &&
                       (!sl_merr_q[rsp_slot] || rsp_low_lane < sl_merr_lane_q[rsp_slot]);

  // ==========================================================================
  // Stage A bookkeeping: results, pending lanes, completion.
  // ==========================================================================
  // At most one source gives results in a cycle (stage A holds one
  // instruction): a shared load's pass, an ATOMS write-back's old values or
  // a global read response. acc_we are the lanes that take one, acc_wv their
  // values by lane of the beat; each lane of a_acc_q then chooses between
  // itself and one word (not between every source).
  logic                   res_lds, res_rsp;
  assign res_lds = rd_valid_q && !rd_to_d_q;
  assign res_rsp = rsp_hit && rsp_data && rsp_a;

  logic a_done;     // the instruction has nothing left to do in stage A
  always_comb begin
    if (flt || !(a_shared || a_gport)) a_done = 1'b1;
    else if (!acc_phase) a_done = 1'b0;  // beats left to check
    else if (a_atoms) a_done = (a_pend_q == 32'd0);
    else if (a_shared) a_done = ((a_pend_q & ~served) == 32'd0);
    else a_done = (a_pend_q == 32'd0) && !a_busy;
  end

  // Stage D: the completion presented on cpl_*. Its data merges the last
  // shared-memory load pass's words in its first cycle (they come out of the
  // banks a cycle after the pass), and is held from then on.
  logic                d_valid_q;
  logic [WarpIdW-1:0]  d_warp_q;
  logic [5:0]          d_rd_q;
  logic [31:0]         d_mask_q;
  logic                d_we_q, d_fault_q;
  logic [3:0]          d_kind_q;
  logic [4:0]          d_lane_q;
  logic [31:0]         d_faddr_q, d_pc_q;
  logic [32*32-1:0]    d_data_q, d_data_m;

  assign d_move = d_valid_q && cpl_ready_i;
  assign d_free = !d_valid_q || d_move;
  // Stage D takes a finished slot first; a fault waits for every slot.
  assign a_release = a_valid_q && a_done && d_free && !sl_go &&
                     !((flt || merr_q) && sl_valid_q != '0);
  assign req_ready_o = !a_valid_q || a_release || a_move;
  assign accept = req_valid_i && req_ready_o;

  // Stage A's next state, computed once: the flops below take it, and the
  // operand port names the next cycle's beat from it. a_pend_left is the
  // pending set after this cycle's service (before a new accept replaces it).
  logic        a_valid_d, a_phase_d;
  logic [31:0] a_pend_left, a_pend_d, a_unchk_d;
  logic [BeatW-1:0] at_beat_d;
  assign a_pend_left = a_pend_q & ~served & ~(req_load ? co_match : 32'd0);
  assign a_valid_d = accept || (a_valid_q && !(a_release || a_move));
  assign a_pend_d = accept ? req_mask_i : a_pend_left;
  // A fault keeps its beat (and flt) until the instruction leaves.
  assign a_unchk_d = accept ? req_mask_i : (a_valid_q && !flt) ? (a_unchk_q & ~chk_lanes) : a_unchk_q;
  assign a_phase_d = !accept && ((pass_en && a_atoms) || (a_phase_q && !atom_wb));
  assign at_beat_d = (pass_en && a_atoms) ? acc_beat : at_beat_q;

  // The operands are read no more after this cycle when no lane is left
  // pending (every one served or in a request; a beat being checked still
  // has its lanes pending), no ATOMS write-back follows, and no fault is
  // held (its report reads its beat's addresses until the instruction
  // leaves), or when the instruction leaves.
  assign opnd_done_o = a_opnd_q && (a_release || a_move ||
                                    !(flt || a_pend_left != 32'd0 || (pass_en && a_atoms)));

  // The operand port is read like a synchronous RAM: opnd_beat_o names the
  // beat of the next cycle, chosen as opnd_beat will be from the state
  // stage A has then (assertion a_opnd_beat_ahead).
  // (With one beat it is the constant 0, spelled out so that a verilated
  // model does not evaluate the selection every cycle.)
  if (Beats == 1) begin : g_one_beat
    assign opnd_beat_o = '0;
  end else begin : g_beats
    logic atoms_n;
    assign atoms_n = accept ? req_op_i == baresm_isa_pkg::OP_ATOMS : a_atoms;
    assign opnd_beat_o = (a_valid_d && atoms_n && a_phase_d) ? at_beat_d :
                         (a_unchk_d == 32'd0) ? beat_of(baresm_sm_pkg::lowest_lane(a_pend_d))
                                              : beat_of(baresm_sm_pkg::lowest_lane(a_unchk_d));
  end

  assign rd_to_d_d = a_release && rd_valid_d;

  always_comb begin
    d_data_m = d_data_q;
    if (rd_valid_q && rd_to_d_q) begin
      for (int i = 0; i < 32; i++) begin
        if (rd_served_q[i]) d_data_m[32*i +: 32] = rd_val[32*(i % NumLanes) +: 32];
      end
    end
  end

  // Control flops.
  logic [31:0] passes_q, greqs_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_valid_q <= 1'b0;
      a_opnd_q <= 1'b0;
      merr_q <= 1'b0;
      a_pend_q <= '0;
      a_unchk_q <= '0;
      form_q <= 1'b0;
      rsp_done_q <= '0;
      a_phase_q <= 1'b0;
      at_en_q <= '0;
      rd_valid_q <= 1'b0;
      rd_to_d_q <= 1'b0;
      busy_q <= '0;
      sl_valid_q <= '0;
      sl_merr_q <= '0;
      for (int t = 0; t < SlotN; t++) sl_older_q[t] <= '0;
      mreq_valid_q <= 1'b0;
      d_valid_q <= 1'b0;
      passes_q <= '0;
      greqs_q <= '0;
    end else begin
      if (accept) merr_q <= 1'b0;
      else if (merr_new) merr_q <= 1'b1;
      a_valid_q <= a_valid_d;
      a_pend_q <= a_pend_d;
      a_unchk_q <= a_unchk_d;
      a_phase_q <= a_phase_d;
      if (accept) a_opnd_q <= 1'b1;
      else if (opnd_done_o) a_opnd_q <= 1'b0;
      at_en_q <= (pass_en && a_atoms) ? at_en_d : '0;
      rd_valid_q <= rd_valid_d;
      rd_to_d_q <= rd_to_d_d;
      busy_q <= busy_d;
      if (sl_go) sl_valid_q[sl_pick] <= 1'b0;
      if (sl_merr_new) sl_merr_q[rsp_slot] <= 1'b1;
      if (a_move) begin
        sl_valid_q[sl_free] <= 1'b1;
        sl_merr_q[sl_free] <= merr_q || merr_new;
        // Every slot still valid is older; the slot's earlier occupant is
        // older than nobody.
        for (int t = 0; t < SlotN; t++) sl_older_q[t][sl_free] <= 1'b0;
        sl_older_q[sl_free] <= sl_valid_q & ~(sl_go ? (SlotN'(1) << sl_pick) : '0);
      end
      if ((req_load && g_close) || form_flush) mreq_valid_q <= 1'b1;
      else if (mem_req_ready_i) mreq_valid_q <= 1'b0;
      if (req_load) form_q <= !g_close;
      else if (form_flush) form_q <= 1'b0;
      if (rsp_take) rsp_done_q <= '0;
      else if (rsp_hit) rsp_done_q <= rsp_done_q | (rsp_lanes & rsp_blanes);
      if (a_release || sl_go) begin
        d_valid_q <= 1'b1;
      end else begin
        if (d_move) d_valid_q <= 1'b0;
      end
      if (pass_en) passes_q <= passes_q + 32'd1;
      if (mem_req_o.valid && mem_req_ready_i) greqs_q <= greqs_q + 32'd1;
    end
  end

  // Data flops (no reset: qualified by the valid bits above). This cycle's
  // results (a read response's lane values rsp_val, the lanes acc_we that
  // take a result and their values acc_wv, a_acc_q with them merged) are
  // locals of this process: they feed these flops only, and a verilated
  // model evaluates a clocked process at the clock edge, not on every
  // evaluation of the memory-response inputs (docs/cosim.md, simulation speed).
  always_ff @(posedge clk_i) begin : p_data
    logic [32*NumLanes-1:0]    rsp_val;
    logic [31:0]               acc_we;
    logic [32*NumLanes-1:0]    acc_wv;
    logic [32*32-1:0]          a_acc_m;
    logic [LineW*NumLanes-1:0] ra;    // the response beat's lanes' address bits LineW-1:0
    logic [LineW-1:0]          off, base;
    logic [1:0]                size;
    logic                      sign;
    logic [NumLanes-1:0]       hit;   // lanes served by an ATOMS write-back
    logic [32*NumLanes-1:0]    old;   // ... and their old values
    ra = '0;
    off = '0;
    base = '0;
    size = a_size;
    sign = a_sign;
    rsp_val = '0;
    if (rsp_hit && rsp_data) begin
      if (rsp_a) begin
        ra = beat_offs(a_off_q, rsp_beat);
        base = a_offset[LineW-1:0];
      end else begin
        ra = beat_offs(sl_off_q[rsp_slot], rsp_beat);
        base = rl.off;
        size = rl.size;
        sign = rl.sign;
      end
      for (int i = 0; i < NumLanes; i++) begin
        off = ra[LineW*i +: LineW] + base;  // the lane's physical line offset
        rsp_val[32*i +: 32] = (rsp_a && a_atomg) ? rsp_rdata[31:0]
                                                 : load_extend(rsp_rdata[32*off[LineW-1:2] +: 32],
                                                               off[1:0], size, sign);
      end
    end
    hit = '0;
    old = '0;
    acc_we = '0;
    acc_wv = '0;
    if (res_lds) begin
      acc_we = rd_served_q;
      acc_wv = rd_val;
    end
    if (atom_wb) begin
      // Each lane is served by one bank at most: AND-OR the old values.
      for (int j = 0; j < NumLanes; j++) begin
        for (int b = 0; b < NumBanks; b++) begin
          hit[j] = hit[j] | (at_en_q[b] && at_lane_q[LaneW*b +: LaneW] == LaneW'(j));
          old[32*j +: 32] = old[32*j +: 32] |
                            ({32{at_en_q[b] && at_lane_q[LaneW*b +: LaneW] == LaneW'(j)}} &
                             bank_rdata[32*b +: 32]);
        end
      end
      acc_we = beat_spread(hit, at_beat_q);
      acc_wv = old;
    end
    if (res_rsp) begin
      acc_we = rsp_left & rsp_blanes;
      acc_wv = rsp_val;
    end
    a_acc_m = a_acc_q;
    if (acc_we != 32'd0) begin
      for (int i = 0; i < 32; i++) begin
        if (acc_we[i]) a_acc_m[32*i +: 32] = acc_wv[32*(i % NumLanes) +: 32];
      end
    end
    if (accept) begin
      a_op_q <= req_op_i;
      a_mod_q <= req_mod_i;
      a_warp_q <= req_warp_i;
      a_rd_q <= req_rd_i;
      a_mask_q <= req_mask_i;
      a_sbase_q <= req_smem_base_i;
      a_ssize_q <= req_smem_size_i;
      a_pc_q <= req_pc_i;
    end
    // Lanes without a result keep whatever they held: the completion's mask
    // leaves them out.
    if (acc_we != 32'd0) a_acc_q <= a_acc_m;
    // The line offsets of the beat being checked (every active lane is
    // checked before any of its requests goes out).
    if (a_valid_q && a_unchk_q != 32'd0) begin
      for (int i = 0; i < NumLanes; i++)
        a_off_q[LineW*(32'(chk_beat) * NumLanes + i) +: LineW] <= beat_addr[32*i +: LineW];
    end
    if (pass_en && a_atoms) begin
      at_lane_q <= at_lane_d;
      at_row_q <= at_row_d;
    end
    at_beat_q <= at_beat_d;
    if (rd_valid_d) begin
      rd_served_q <= served;
      rd_bank_q <= lane_bank;
      rd_off_q <= rd_off_d;
      rd_size_q <= a_size;
      rd_sign_q <= a_sign;
    end
    id_lanes_q <= id_lanes_d;
    if (g_start) begin
      id_own_q[free_id] <= OWN_A;
      id_addr_q[free_id] <= start_addr;
    end
    if (a_move) begin
      for (int k = 0; k < NumIds; k++) begin
        if (id_own_q[k] == OWN_A) id_own_q[k] <= OwnW'(sl_free);
      end
      sl_load_q[sl_free] <= {a_warp_q, a_rd_q, a_mask_q, a_pc_q, a_size, a_sign, a_offset[LineW-1:0]};
      sl_off_q[sl_free] <= a_off_q;
      sl_acc_q[sl_free] <= a_acc_m;
      sl_merr_lane_q[sl_free] <= merr_new ? rsp_low_lane : merr_lane_q;
      sl_merr_addr_q[sl_free] <= merr_new ? rsp_low_addr : merr_addr_q;
    end
    if (rsp_hit && rsp_data && !rsp_a) begin
      for (int i = 0; i < 32; i++) begin
        if (rsp_left[i] && rsp_blanes[i]) sl_acc_q[rsp_slot][32*i +: 32] <= rsp_val[32*(i % NumLanes) +: 32];
      end
    end
    if (sl_merr_new) begin
      sl_merr_lane_q[rsp_slot] <= rsp_low_lane;
      sl_merr_addr_q[rsp_slot] <= rsp_low_addr;
    end
    if (merr_new) begin
      merr_lane_q <= rsp_low_lane;
      merr_addr_q <= rsp_low_addr;
    end
    if (req_load) begin
      if (!form_q) mreq_id_q <= free_id;
      mreq_addr_q <= co_addr;
      mreq_op_q <= a_atomg ? MEM_ATOMIC : a_stg ? MEM_WRITE : MEM_READ;
      mreq_amo_q <= a_mod_q[4:0];
      mreq_wdata_q <= a_stg | a_atomg ? form_wdata : '0;
      mreq_wstrb_q <= a_stg ? form_wstrb : '0;
    end
    if (a_release) begin
      d_warp_q <= a_warp_q;
      d_rd_q <= a_rd_q;
      d_mask_q <= a_mask_q;
      d_we_q <= (a_is_load || a_is_atom) && !flt && !merr_q;
      d_fault_q <= flt || merr_q;
      d_kind_q <= flt ? flt_kind : baresm_state_pkg::FAULT_MEMORY_ERROR;
      d_lane_q <= flt ? flt_lane : merr_lane_q;
      d_faddr_q <= flt ? flt_addr : merr_addr_q;
      d_data_q <= a_acc_m;
      d_pc_q <= a_pc_q;
    end else if (sl_go) begin
      d_warp_q <= pick_load.warp;
      d_rd_q <= pick_load.rd;
      d_mask_q <= pick_load.mask;
      d_we_q <= !sl_merr_q[sl_pick];
      d_fault_q <= sl_merr_q[sl_pick];
      d_kind_q <= baresm_state_pkg::FAULT_MEMORY_ERROR;
      d_lane_q <= sl_merr_lane_q[sl_pick];
      d_faddr_q <= sl_merr_addr_q[sl_pick];
      d_data_q <= sl_acc_q[sl_pick];
      d_pc_q <= pick_load.pc;
    end else begin
      d_data_q <= d_data_m;
    end
  end

  // ---- outputs --------------------------------------------------------------
  assign cpl_valid_o = d_valid_q;
  assign cpl_warp_o = d_warp_q;
  assign cpl_rd_o = d_rd_q;
  assign cpl_mask_o = d_mask_q;
  assign cpl_we_o = d_we_q;
  assign cpl_data_o = d_data_m;
  assign cpl_fault_o = d_fault_q;
  assign cpl_fault_kind_o = d_kind_q;
  assign cpl_fault_lane_o = d_lane_q;
  assign cpl_fault_addr_o = d_faddr_q;
  assign cpl_pc_o = d_pc_q;

  assign mem_req_o.valid = mreq_valid_q;
  assign mem_req_o.id = mreq_id_q;
  assign mem_req_o.addr = mreq_addr_q;
  assign mem_req_o.op = mreq_op_q;
  assign mem_req_o.amo = mreq_amo_q;
  assign mem_req_o.wdata = mreq_wdata_q;
  assign mem_req_o.wstrb = mreq_wstrb_q;

  assign idle_o = !a_valid_q && !d_valid_q && sl_valid_q == '0;
  assign smem_pass_o = pass_en;
  assign smem_passes_o = passes_q;
  assign gmem_reqs_o = greqs_q;

  // Address bits the shared-memory map and the line offsets do not use.
  logic unused_bits;
  assign unused_bits = ^{a_mod_q[7:5], a_phys, acc_addr};

  // ---- assertions (rtl/prim/baresm_assert.svh) -----------------------------------------
  // Both output handshakes hold their offer until taken (the memory request
  // from its flops, the completion in stage D).
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_o.valid, mem_req_ready_i,
                      {mem_req_o.id, mem_req_o.addr, mem_req_o.op, mem_req_o.amo,
                       mem_req_o.wstrb, mem_req_o.wdata})
  `BARESM_ASSERT_HELD(a_cpl_held, cpl_valid_o, cpl_ready_i,
                      {cpl_warp_o, cpl_rd_o, cpl_mask_o, cpl_we_o, cpl_fault_o, cpl_fault_kind_o,
                       cpl_fault_lane_o, cpl_fault_addr_o, cpl_data_o, cpl_pc_o})
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
  // Beats: nothing is accessed before every active beat is checked; a pass
  // and a request take lanes of the access beat only; the checked beats are
  // active ones; a request being formed is not offered, its id is busy.
  `BARESM_ASSERT(a_access_after_check, !(pass_en || req_load || form_q) ||
                 ((a_unchk_q & ~chk_lanes) == 32'd0 && !flt))
  `BARESM_ASSERT(a_check_active_lanes, (a_unchk_q & ~a_mask_q) == 32'd0 || !a_valid_q)
  `BARESM_ASSERT(a_pass_in_beat, (served & ~acc_lanes) == 32'd0)
  // One source of results per cycle (acc_we/acc_wv keep only the last).
  `BARESM_ASSERT(a_one_result_source, !(res_lds && atom_wb) && !(res_lds && res_rsp) &&
                                      !(atom_wb && res_rsp))
  `BARESM_ASSERT(a_match_in_beat, !req_load || (co_match & ~acc_lanes) == 32'd0)
  // A request's lowest lane is the one it starts at (id_addr_q's lane).
  `BARESM_ASSERT(a_req_starts_lowest, !g_start || baresm_sm_pkg::lowest_lane(co_match) ==
                                      baresm_sm_pkg::lowest_lane(beat_spread(acc_pend, acc_beat)))
  `BARESM_ASSERT(a_form_not_offered, !form_q || (a_valid_q && !mreq_valid_q && busy_q[mreq_id_q] &&
                                                  !a_atomg && a_gport))
  // A response is distributed while it is held: the lanes already done are
  // its own. With one beat the response port is always ready.
  `BARESM_ASSERT(a_rsp_done_own, rsp_done_q == 32'd0 ||
                 (rsp_hit && (rsp_done_q & ~rsp_lanes) == 32'd0 && rsp_left != 32'd0))
  `BARESM_ASSERT(a_rsp_ready_one_beat, Beats > 1 || mem_rsp_ready_o)
  // An error response is taken in its first cycle, whose beat holds its
  // lowest lane (the one reported, with its id's address).
  `BARESM_ASSERT(a_err_low_lane_in_beat, !(rsp_hit && mem_rsp_i.err) || rsp_blanes[rsp_low_lane])
  `BARESM_ASSUME_HELD(a_rsp_held, mem_rsp_i.valid, mem_rsp_ready_o,
                      {mem_rsp_i.id, mem_rsp_i.err, mem_rsp_i.rdata})
  // Exactly one completion per accepted instruction: a count of accepted and
  // not yet completed instructions (never underflowing) always equals the
  // instructions held in stages A, D and C and in the load slots.
  logic [7:0] open_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) open_q <= '0;
    else open_q <= open_q + 8'(accept) - 8'(cpl_valid_o && cpl_ready_i);
  end
  `BARESM_ASSERT(a_one_cpl_per_instr, open_q == 8'(a_valid_q) + 8'(d_valid_q) +
                                                8'($countones(sl_valid_q)))
  // Load slots: a response fills a slot in use; a load moves only into a
  // free slot, with nothing left to send; only loads are moved.
  `BARESM_ASSERT(a_rsp_slot_valid, !(rsp_hit && !rsp_a) || (LoadSlots > 0 && sl_valid_q[rsp_slot]))
  // The beat named in the previous cycle is the one read.
  logic [BeatW-1:0] opnd_beat_q;
  always_ff @(posedge clk_i) opnd_beat_q <= opnd_beat_o;
  `BARESM_ASSERT(a_opnd_beat_ahead, !a_opnd_q || opnd_beat_q == opnd_beat)
  // The operands are not read after opnd_done_o: nothing is left pending,
  // no ATOMS write-back, no fault report.
  `BARESM_ASSERT(a_opnd_after_done, !a_valid_q || a_opnd_q || (a_pend_q == 32'd0 && !atom_wb && !flt))
  `BARESM_ASSERT(a_move_free_slot, !a_move || (!sl_valid_q[sl_free] && a_pend_q == 32'd0 && !flt))

endmodule

`default_nettype wire
