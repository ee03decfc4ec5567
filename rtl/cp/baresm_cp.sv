// baresm_cp: the command processor. docs/command-processor.md describes it
// (blocks, state machine, timing); the contract it implements is
// docs/registers.md (generated: baresm_regs_pkg) and docs/ring-formats.md
// (generated: baresm_ring_pkg), and cq_model/model_device.cpp is the
// functional reference it must match.
//
//   MMIO slave -> register block (baresm_cp_regs, generated from
//                 contract/regmap.def: decode, the host-written global
//                 registers, read mux; the NumQueues queue pairs, their pick
//                 and the launch in flight in baresm_cp_queues)
//   engine:  IDLE -> FETCH (descriptor from the submission ring) -> CHECK
//            -> WIN (window table) -> LAUNCH (SM launch port) -> RUN
//            -> BUILD -> WBODY (bytes 0..59) -> WPHASE (the phase word, last)
//            -> IDLE;   RESET (soft reset: SM held in reset, memory drained)
//   memory master: one request in flight (reads of the rings and window
//   tables, writes of completion entries only)
//
// The SM is held in reset (sm_hold_o) during a soft reset and when the
// backstop watchdog aborts a launch; the engine leaves that state only when
// the memory arbiter reports no request of the SM or of the engine left in
// flight, so nothing stale can come back later.
`include "baresm_assert.svh"
`include "baresm_mem_types.svh"
`include "baresm_launch_types.svh"
`include "baresm_report_types.svh"
`default_nettype none

module baresm_cp #(
  parameter int NumQueues = 4,          // 1..8 queue pairs
  parameter int MemLineBytes = 128,     // memory port line (power of two, >= 8)
  parameter int MemBytes = 4194304,     // device memory [0, MemBytes)
  parameter int ClockKhz = 100000,
  parameter int ResetCycles = 8,        // soft reset lasts at least this long
  parameter int BackstopCycles = 4096,  // beyond a launch's watchdog budget: abort the SM
  // What CONFIG0..3 and CONFIG6 report (the SM's parameters).
  parameter int NumLanes = 32,
  parameter int NumWarps = 16,
  parameter int CtaSlots = 8,
  parameter int NumBanks = 32,
  parameter int MaxRegs = 63,
  parameter int StackDepth = 16,
  parameter int SharedBytes = 32768,
  parameter int RegfileRegs = 16384,
  parameter int NumWindows = 4,         // CONFIG1.MAX_WINDOWS (the SM's NumWindows)
  parameter bit HasFpu = 1'b1           // CONFIG6.HAS_FPU
) (
  clk_i,
  rst_ni,
  mmio_req_valid_i,
  mmio_req_ready_o,
  mmio_req_addr_i,
  mmio_req_write_i,
  mmio_req_wdata_i,
  mmio_rsp_valid_o,
  mmio_rsp_rdata_o,
  irq_o,
  mem_req_o,
  mem_req_ready_i,
  mem_rsp_i,
  mem_cp_idle_i,
  mem_sm_idle_i,
  sm_hold_o,
  launch_valid_o,
  launch_ready_i,
  launch_o,
  sm_done_i,
  sm_cfg_error_i,
  sm_fault_i,
  rpt_req_o,
  rpt_rsp_i,
  state_o,
  queue_o,
  status_o
);

  // The memory master's types (rtl/prim/baresm_mem_types.svh): a
  // single-master port (one request in flight, no ids, no atomics).
  typedef `BARESM_MEM1_REQ_T(MemLineBytes) mem_req_t;
  typedef `BARESM_MEM1_RSP_T(MemLineBytes) mem_rsp_t;

  input  logic                         clk_i;
  input  logic                         rst_ni;

  // ---- MMIO slave: one request per cycle, response the next cycle -----------
  input  logic                         mmio_req_valid_i;
  output logic                         mmio_req_ready_o;
  input  logic [9:0]                   mmio_req_addr_i;    // byte offset
  input  logic                         mmio_req_write_i;
  input  logic [31:0]                  mmio_req_wdata_i;
  output logic                         mmio_rsp_valid_o;   // reads and writes both answer
  output logic [31:0]                  mmio_rsp_rdata_o;
  output logic                         irq_o;

  // ---- memory master (through baresm_cp_memarb) ---------------------------------
  output mem_req_t                     mem_req_o;
  input  logic                         mem_req_ready_i;
  input  mem_rsp_t                     mem_rsp_i;
  input  logic                         mem_cp_idle_i;      // no engine request in flight
  input  logic                         mem_sm_idle_i;      // no SM request in flight

  // ---- SM ---------------------------------------------------------------------
  output logic                         sm_hold_o;          // hold the SM in reset
  output logic                         launch_valid_o;
  input  logic                         launch_ready_i;
  output baresm_launch_t               launch_o;
  input  logic                         sm_done_i;
  input  logic                         sm_cfg_error_i;
  input  baresm_sm_fault_t             sm_fault_i;         // the SM's fault report (baresm_report_types.svh)
  // The SM's report (rtl/prim/baresm_report_types.svh): the launch's
  // counters a word at a time, asked for by completion-entry word index
  // while the entry is written; the live warp-instruction and CTA counts.
  output baresm_rpt_req_t              rpt_req_o;
  input  baresm_rpt_rsp_t              rpt_rsp_i;

  // ---- status (tracing, board LEDs) -------------------------------------------
  output logic [3:0]                   state_o;            // engine state (E_*)
  output logic [2:0]                   queue_o;            // queue of the launch in flight
  output logic [31:0]                  status_o;           // the STATUS register

  // ===========================================================================
  // Constants
  // ===========================================================================
  localparam int NUM_WINDOWS = NumWindows;
  localparam int CHUNK = (MemLineBytes < 64) ? MemLineBytes : 64;  // bytes of a 64-byte record per beat
  localparam int CW = $clog2(CHUNK);
  localparam int BEATS = 64 / CHUNK;                                // beats per 64-byte descriptor
  localparam int CPL_BYTES = baresm_ring_pkg::CPL_BYTES;
  localparam int CBEATS = CPL_BYTES / CHUNK;                        // beats per completion entry
  localparam int POS = MemLineBytes / CHUNK;                        // chunk positions in a line
  localparam int EPOS = MemLineBytes / 8;                           // 8-byte positions in a line
  localparam int BW = (CBEATS > 1) ? $clog2(CBEATS) : 1;
  localparam int QW = (NumQueues > 1) ? $clog2(NumQueues) : 1;  // queue index bits
  localparam logic [63:0] MEM_END = 64'(MemBytes);
  localparam logic [31:0] LINE_MASK = ~(32'(MemLineBytes) - 32'd1);
  localparam logic [31:0] BODY_BYTES = 32'(CPL_BYTES - 4);  // the last word is the phase word

  // Engine states: encodings and meanings in contract/states.def (baresm_state_pkg::CP_*).
  typedef enum logic [3:0] {
    E_IDLE   = baresm_state_pkg::CP_IDLE,
    E_FETCH  = baresm_state_pkg::CP_FETCH,
    E_CHECK  = baresm_state_pkg::CP_CHECK,
    E_WIN    = baresm_state_pkg::CP_WIN,
    E_LAUNCH = baresm_state_pkg::CP_LAUNCH,
    E_RUN    = baresm_state_pkg::CP_RUN,
    E_BUILD  = baresm_state_pkg::CP_BUILD,
    E_WBODY  = baresm_state_pkg::CP_WBODY,
    E_WPHASE = baresm_state_pkg::CP_WPHASE,
    E_ABORT  = baresm_state_pkg::CP_ABORT,
    E_RESET  = baresm_state_pkg::CP_RESET,
    E_HALT   = baresm_state_pkg::CP_HALT
  } estate_e;

  // ===========================================================================
  // Registers
  // ===========================================================================
  estate_e     state_q;
  logic        rerr_q;       // a read of this launch's descriptor or window table failed
  logic [31:0] rerr_addr_q;  // ... the first failed line
  logic        fault_q;
  logic [31:0] fault_info_q, fault_pc_q, fault_addr_q, fault_cta_q;
  logic [63:0] fault_token_q;
  logic [63:0] cycles_q, winstr_q;
  logic [31:0] launches_q, failed_q, progress_q;

  // Held by the register block (baresm_cp_regs).
  logic        enable;
  logic [31:0] control, watchdog, prot_base, prot_size;  // protected range, handed to every launch
  logic [31:0] irq_status, irq_mask;

  // ===========================================================================
  // Status
  // ===========================================================================
  logic          q_work, q_pick_valid, q_active, q_fetched;
  logic [QW-1:0] cur_q;

  logic busy, resetting, idle;
  assign resetting = state_q == E_RESET;
  assign busy = state_q != E_IDLE && state_q != E_RESET;
  assign idle = !resetting && !busy && (!q_work || !enable || fault_q);

  logic [31:0] status;
  always_comb begin
    status = '0;
    status[baresm_regs_pkg::STATUS_IDLE_LSB] = idle;
    status[baresm_regs_pkg::STATUS_BUSY_LSB] = busy;
    status[baresm_regs_pkg::STATUS_FAULT_LSB] = fault_q;
    status[baresm_regs_pkg::STATUS_RESETTING_LSB] = resetting;
    status[baresm_regs_pkg::STATUS_ENABLED_LSB] = enable;
  end

  // ===========================================================================
  // Register block (generated from contract/regmap.def)
  // ===========================================================================
  // WARP_INSTRS: finished launches + the running one, counted from the
  // SM's live count (a cycle behind the SM while the launch runs).
  logic [63:0] winstr;
  logic        sm_active_q;
  assign winstr = winstr_q;

  logic          soft_reset;   // CONTROL.SOFT_RESET written (also while one runs)
  logic          wq;           // a write to a queue pair's register
  logic [QW-1:0] aqi;          // ... its queue pair
  logic [5:0]    areg;         // ... the offset inside its block
  logic [31:0]   q_rdata;
  logic [10:0]   irq_set;
  logic [31:0]   scratch;      // SCRATCH: no effect (transport checks)
  baresm_cp_regs #(
    .NumQueues(NumQueues)
  ) u_regs (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .clear_i             (soft_reset),
    .wr_block_i          (resetting),
    .req_valid_i         (mmio_req_valid_i),
    .req_addr_i          (mmio_req_addr_i),
    .req_write_i         (mmio_req_write_i),
    .req_wdata_i         (mmio_req_wdata_i),
    .rsp_valid_o         (mmio_rsp_valid_o),
    .rsp_rdata_o         (mmio_rsp_rdata_o),
    .qp_wr_o             (wq),
    .qp_q_o              (aqi),
    .qp_off_o            (areg),
    .qp_rdata_i          (q_rdata),
    .id_i                (baresm_regs_pkg::ID_RESET),
    .version_i           (baresm_regs_pkg::VERSION_RESET),
    .config0_i           ({8'(NumBanks), 8'(CtaSlots), 8'(NumWarps), 8'(NumLanes)}),
    .config1_i           ({8'(NUM_WINDOWS), 8'(NumQueues), 8'(StackDepth), 8'(MaxRegs)}),
    .config2_i           (32'(SharedBytes)),
    .config3_i           (32'(RegfileRegs)),
    .config4_i           (32'(MemBytes)),
    .config5_i           (32'(ClockKhz)),
    .config6_i           ({31'd0, HasFpu}),
    .status_i            (status),
    .fault_info_i        (fault_info_q),
    .fault_pc_i          (fault_pc_q),
    .fault_addr_i        (fault_addr_q),
    .fault_cta_i         (fault_cta_q),
    .fault_token_lo_i    (fault_token_q[31:0]),
    .fault_token_hi_i    (fault_token_q[63:32]),
    .cycles_lo_i         (cycles_q[31:0]),
    .cycles_hi_i         (cycles_q[63:32]),
    .launches_i          (launches_q),
    .failed_i            (failed_q),
    .warp_instrs_lo_i    (winstr[31:0]),
    .warp_instrs_hi_i    (winstr[63:32]),
    .progress_i          (progress_q),
    .control_o           (control),
    .watchdog_o          (watchdog),
    .scratch_o           (scratch),
    .irq_status_set_i    (32'(irq_set)),
    .irq_status_o        (irq_status),
    .irq_mask_o          (irq_mask),
    .prot_base_o         (prot_base),
    .prot_size_o         (prot_size),
    .control_soft_reset_o(soft_reset)
  );
  assign enable = control[baresm_regs_pkg::CONTROL_ENABLE_LSB];
  assign mmio_req_ready_o = 1'b1;

  logic queue_err;   // a queue-pair register write refused (baresm_cp_queues)

  // ===========================================================================
  // Engine datapath
  // ===========================================================================
  logic [511:0]  desc_q;
  logic [BW-1:0] beat_q;
  logic [31:0]   rec_addr_q;    // the descriptor's address, then the completion slot's
  logic [31:0]   cpl_slot_q;    // completion slot reserved at fetch
  logic          phase_q;
  logic [31:0]   seq_q;
  logic [7:0]    win_idx_q;
  logic [NUM_WINDOWS*32-1:0] win_base_q, win_size_q;
  logic [MemLineBytes*8-1:0] line_q;
  logic [31:0]   line_addr_q;
  logic          line_valid_q;
  logic [39:0]   run_cyc_q;
  logic [31:0]   budget_q;
  logic [31:0]   ctas_q;        // CTAs of the launch completed, as seen so far
  logic          hold_q;

  // Completion entry fields.
  logic [63:0] c_start_q, c_end_q;
  logic [7:0]  c_status_q, c_error_q, c_warp_q, c_lane_q;
  logic [31:0] c_pc_q, c_addr_q, c_cta_q, c_ctas_q;
  // The SM's counters are not held here: the completion writer reads them
  // from the SM's report port word by word (baresm_state_pkg::RPT_CP_MASK).
  logic        c_cnt_valid_q;    // the SM's report belongs to this entry

  // Memory transaction: request presented (mreq_valid_q), then awaited (mwait_q).
  logic                      mreq_valid_q, mwait_q;
  logic [31:0]               mreq_addr_q;
  logic [1:0]                mreq_op_q;
  logic [MemLineBytes*8-1:0] mreq_wdata_q;   // the chunk below, at every chunk position of the line
  logic [CHUNK*8-1:0]        wchunk_q;       // the completion-entry chunk being written
  logic [MemLineBytes-1:0]   mreq_wstrb_q;
  logic                      mbusy, mdone;
  assign mbusy = mreq_valid_q || mwait_q;
  assign mdone = mwait_q && mem_rsp_i.valid;
  assign mem_req_o.valid = mreq_valid_q;
  assign mem_req_o.addr = mreq_addr_q;
  assign mem_req_o.op = mreq_op_q;
  assign mem_req_o.wdata = mreq_wdata_q;
  assign mem_req_o.wstrb = mreq_wstrb_q;

  // Descriptor fields.
  logic [31:0] d_grid_x, d_grid_y, d_window_table, d_watchdog;
  logic [15:0] d_block_x, d_block_y, d_block_z;
  logic [7:0]  d_window_count;
  assign d_grid_x = desc_q[baresm_ring_pkg::DESC_GRID_X_LSB +: 32];
  assign d_grid_y = 32'(desc_q[baresm_ring_pkg::DESC_GRID_Y_LSB +: 16]);
  assign d_block_x = desc_q[baresm_ring_pkg::DESC_BLOCK_X_LSB +: 16];
  assign d_block_y = desc_q[baresm_ring_pkg::DESC_BLOCK_Y_LSB +: 16];
  assign d_block_z = desc_q[baresm_ring_pkg::DESC_BLOCK_Z_LSB +: 16];
  assign d_window_table = desc_q[baresm_ring_pkg::DESC_WINDOW_TABLE_LSB +: 32];
  assign d_window_count = desc_q[baresm_ring_pkg::DESC_WINDOW_COUNT_LSB +: 8];
  assign d_watchdog = desc_q[baresm_ring_pkg::DESC_WATCHDOG_LSB +: 32];

  logic       take, fetched;   // the engine starts on the pick / has read its descriptor
  logic       chk_valid;   // chk and chk_marker are the fetched descriptor's
  logic       chk_marker;
  logic [3:0] chk;
  baresm_cp_check #(
    .NumWarps(NumWarps),
    .MaxRegs(MaxRegs),
    .SharedBytes(SharedBytes),
    .RegfileRegs(RegfileRegs),
    .MaxWindows(NUM_WINDOWS),
    .MemBytes(MemBytes)
  ) u_check (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (fetched),
    .desc_i  (desc_q),
    .valid_o (chk_valid),
    .marker_o(chk_marker),
    .check_o (chk)
  );


  // A chunk of a line read at chunk position pos.
  logic [31:0]        beat_addr;
  logic [31:0]        beat_pos;
  logic [MemLineBytes*8-1:0] rsp_rdata;  // a plain vector: Icarus 11 takes no
  assign rsp_rdata = mem_rsp_i.rdata;     // variable part select of a struct member
  assign beat_addr = rec_addr_q + 32'(beat_q) * 32'(CHUNK);
  assign beat_pos = (beat_addr & ~LINE_MASK) >> CW;

  // The window entry win_idx_q, from the held line.
  logic [31:0] went_addr, went_pos;
  logic        went_hit;
  logic [63:0] went;
  logic [31:0] went_base, went_size;
  assign went_addr = d_window_table + 32'(win_idx_q) * 32'd8;
  assign went_pos = (went_addr & ~LINE_MASK) >> 3;
  assign went_hit = line_valid_q && line_addr_q == (went_addr & LINE_MASK);
  always_comb begin
    went = '0;
    for (int p = 0; p < EPOS; p++) begin
      if (went_pos == 32'(p)) went = line_q[p*64 +: 64];
    end
  end
  assign went_base = went[baresm_ring_pkg::WIN_BASE_LSB +: 32];
  assign went_size = went[baresm_ring_pkg::WIN_SIZE_LSB +: 32];

  // The completion entry's own fields as a byte image (the SM's counter
  // words are 0 here: they come from the report port).
  logic [CPL_BYTES*8-1:0] cpl;
  always_comb begin
    cpl = '0;
    cpl[baresm_ring_pkg::CPL_TOKEN_LSB +: 64] = desc_q[baresm_ring_pkg::DESC_TOKEN_LSB +: 64];
    cpl[baresm_ring_pkg::CPL_START_CYCLE_LSB +: 64] = c_start_q;
    cpl[baresm_ring_pkg::CPL_END_CYCLE_LSB +: 64] = c_end_q;
    cpl[baresm_ring_pkg::CPL_SEQ_LSB +: 32] = seq_q;
    cpl[baresm_ring_pkg::CPL_STATUS_LSB +: 8] = c_status_q;
    cpl[baresm_ring_pkg::CPL_ERROR_LSB +: 8] = c_error_q;
    cpl[baresm_ring_pkg::CPL_FAULT_WARP_LSB +: 8] = c_warp_q;
    cpl[baresm_ring_pkg::CPL_FAULT_LANE_LSB +: 8] = c_lane_q;
    cpl[baresm_ring_pkg::CPL_FAULT_PC_LSB +: 32] = c_pc_q;
    cpl[baresm_ring_pkg::CPL_FAULT_ADDR_LSB +: 32] = c_addr_q;
    cpl[baresm_ring_pkg::CPL_FAULT_CTA_LSB +: 32] = c_cta_q;
    cpl[baresm_ring_pkg::CPL_CTAS_DONE_LSB +: 32] = c_ctas_q;
    cpl[baresm_ring_pkg::CPL_PHASE_LSB + baresm_ring_pkg::CPL_PHASE_BIT] = phase_q;
    cpl[baresm_ring_pkg::CPL_PHASE_LSB + baresm_ring_pkg::CPL_QUEUE_LSB +: 8] = 8'(cur_q);
  end

  // The write of chunk beat_q: the body (bytes < CPL_BYTES - 4) or the phase
  // word; its data is wchunk_q, assembled by the fill below.
  logic [MemLineBytes-1:0]   wr_body_strb, wr_phase_strb;
  logic [CHUNK*8-1:0]        cd;           // chunk fl_beat_q of the image
  logic [CHUNK-1:0]          cb, cph;
  logic [BW-1:0]             fl_beat_q;    // the chunk being assembled in wchunk_q
  always_comb begin
    cd = '0;
    for (int b = 0; b < CBEATS; b++) begin
      if (32'(fl_beat_q) == 32'(b)) cd = cpl[b*CHUNK*8 +: CHUNK*8];
    end
    for (int i = 0; i < CHUNK; i++) begin
      cb[i] = (32'(beat_q) * 32'(CHUNK) + 32'(i)) < BODY_BYTES;
      cph[i] = !cb[i];
    end
    wr_body_strb = '0;
    wr_phase_strb = '0;
    for (int p = 0; p < POS; p++) begin
      if (beat_pos == 32'(p)) begin
        wr_body_strb[p*CHUNK +: CHUNK] = cb;
        wr_phase_strb[p*CHUNK +: CHUNK] = cph;
      end
    end
  end
  // The write data is the chunk at every chunk position of the line: the
  // strobes pick the one written (no position multiplexer).
  assign mreq_wdata_q = {POS{wchunk_q}};

  // CTAs retired: what the SM counted in the previous cycle.
  logic [31:0] retired;
  assign retired = 32'(rpt_rsp_i.ctas);

  logic counting;
  assign counting = state_q == E_RUN;

  // The SM's fault, as a completion: the fault table's error code
  // (contract/faults.def, baresm_state_pkg::fault_error).
  logic [7:0]  f_error;
  assign f_error = sm_cfg_error_i ? baresm_ring_pkg::ERR_INTERNAL : baresm_state_pkg::fault_error(sm_fault_i.kind);
  // The faulting CTA's linear index (baresm_cp_fault_cta, a serial
  // multiplier): E_BUILD waits for it when the SM reports a fault.
  logic        f_cta_req, f_cta_done, build_wait;
  logic [31:0] f_cta;
  assign f_cta_req = state_q == E_BUILD && f_error != baresm_ring_pkg::ERR_OK && !sm_cfg_error_i;
  assign build_wait = f_cta_req && !f_cta_done;
  baresm_cp_fault_cta u_fault_cta (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (f_cta_req),
    .cta_x_i (sm_fault_i.cta_x),
    .cta_y_i (sm_fault_i.cta_y),
    .cta_z_i (sm_fault_i.cta_z),
    .grid_x_i(d_grid_x),
    .grid_y_i(d_grid_y),
    .done_o  (f_cta_done),
    .cta_o   (f_cta)
  );

  // A soft reset ends when its minimum time has passed and memory is drained.
  logic [7:0] rcnt_q;
  logic       hold_next;
  assign hold_next = rcnt_q != 8'd0 || !mem_cp_idle_i || !mem_sm_idle_i;

  // Interrupt causes set this cycle (irq_set, cleared by the host in baresm_cp_regs).
  logic        finish;   // the phase word was written: the entry is complete
  assign finish = state_q == E_WPHASE && mdone && !mem_rsp_i.err;
  logic        ring_halt;  // a completion-entry write failed: the engine stops here
  assign ring_halt = (state_q == E_WBODY || state_q == E_WPHASE) && mdone && mem_rsp_i.err;

  // ===========================================================================
  // Queue pairs: ring registers and indices, the pick, the launch in flight
  // ===========================================================================
  assign take = !soft_reset && state_q == E_IDLE && enable && !fault_q && q_pick_valid;
  assign fetched = !soft_reset && state_q == E_FETCH && mdone && 32'(beat_q) == 32'(BEATS - 1);
  logic [31:0] q_desc_addr, q_seq, q_cpl_slot;
  logic        q_phase;
  baresm_cp_queues #(
    .NumQueues(NumQueues),
    .MemBytes(MemBytes)
  ) u_queues (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .clear_i      (soft_reset),
    .wr_i         (wq),
    .reg_q_i      (aqi),
    .reg_off_i    (areg),
    .wdata_i      (mmio_req_wdata_i),
    .rdata_o      (q_rdata),
    .wr_err_o     (queue_err),
    .work_o       (q_work),
    .pick_valid_o (q_pick_valid),
    .take_i       (take),
    .fetched_i    (fetched),
    .completed_i  (!soft_reset && finish),
    .active_o     (q_active),
    .fetched_o    (q_fetched),
    .cur_o        (cur_q),
    .desc_addr_o  (q_desc_addr),
    .seq_o        (q_seq),
    .cpl_slot_o   (q_cpl_slot),
    .phase_o      (q_phase)
  );
  logic cpl_failed, cpl_sticky;
  assign cpl_failed = c_status_q == baresm_ring_pkg::CPL_STATUS_FAILED;
  assign cpl_sticky = cpl_failed && c_error_q != baresm_ring_pkg::ERR_BAD_DESCRIPTOR;
  always_comb begin
    irq_set = '0;
    if (queue_err) irq_set[baresm_regs_pkg::IRQ_STATUS_QUEUE_ERROR_LSB] = 1'b1;
    if (finish) begin
      irq_set[baresm_regs_pkg::IRQ_STATUS_CQ_LSB + 32'(cur_q)] = 1'b1;
      if (cpl_sticky) irq_set[baresm_regs_pkg::IRQ_STATUS_FAULT_LSB] = 1'b1;
    end
    if (ring_halt) irq_set[baresm_regs_pkg::IRQ_STATUS_FAULT_LSB] = 1'b1;
    if (resetting && !hold_next) irq_set[baresm_regs_pkg::IRQ_STATUS_RESET_DONE_LSB] = 1'b1;
  end

  // ===========================================================================
  // Sequential logic, one next-state block per concern: the engine (its
  // state and the launch's registers), the memory master, the counters and
  // fault report, the completion entry's fields. Each next state starts
  // from "hold" and applies, in order, a soft reset or this cycle's events.
  // Where it feeds its flops only (the engine, the completion fill, the
  // memory master) it is computed inside their always_ff, in locals: a
  // verilated model evaluates a clocked process at the clock edge only, an
  // always_comb that reads the device's inputs (mdone, the memory's ready)
  // on every evaluation (docs/cosim.md, simulation speed); elsewhere an
  // always_comb computes it and the always_ff only stores. The wide data
  // registers (descriptor, window line, write data, second-line counters)
  // are enabled flops: written on their event only, so Verilator copies
  // nothing on other cycles.
  // ===========================================================================

  // ---- events of this cycle (none while a soft reset is written) ------------
  logic ev_check;     // the descriptor's verdict is in (E_CHECK)
  logic ev_win_bad;   // a window entry reaches past memory (E_WIN)
  logic ev_win_ok;    // a window entry taken (E_WIN)
  logic ev_win_err;   // a window-table read failed (E_WIN)
  logic ev_launch;    // the SM took the launch (E_LAUNCH)
  logic ev_sm_done;   // the SM ended the launch (E_RUN)
  logic ev_backstop;  // the SM overran its watchdog budget: abort it (E_RUN)
  logic ev_aborted;   // the aborted SM is drained (E_ABORT)
  logic ev_built;     // the SM's report is in (E_BUILD)
  logic mreq_issue;   // the engine presents a memory request
  logic fl_ready;     // wchunk_q holds chunk beat_q whole (E_WBODY), or will at this edge
  assign ev_check = !soft_reset && state_q == E_CHECK && chk_valid;
  assign ev_win_ok = !soft_reset && state_q == E_WIN && went_hit &&
                     64'(went_base) + 64'(went_size) <= MEM_END;
  assign ev_win_bad = !soft_reset && state_q == E_WIN && went_hit && !ev_win_ok;
  assign ev_win_err = !soft_reset && state_q == E_WIN && mdone && mem_rsp_i.err;
  assign ev_launch = !soft_reset && state_q == E_LAUNCH && launch_ready_i;
  assign ev_sm_done = !soft_reset && state_q == E_RUN && sm_done_i;
  assign ev_backstop = !soft_reset && state_q == E_RUN && !sm_done_i && budget_q != 32'd0 &&
                       run_cyc_q > 40'(budget_q) + 40'(BackstopCycles);
  assign ev_aborted = !soft_reset && state_q == E_ABORT && !hold_next;
  assign ev_built = !soft_reset && state_q == E_BUILD && !build_wait;
  always_comb begin
    mreq_issue = 1'b0;
    if (!soft_reset && !mbusy) begin
      unique case (state_q)
        E_FETCH, E_WPHASE: mreq_issue = 1'b1;
        E_WBODY: mreq_issue = fl_ready;
        E_WIN: mreq_issue = !went_hit;
        default: ;
      endcase
    end
  end

  // ---- engine ----------------------------------------------------------------
  // The next state is computed inside the flops' process (locals of p_engine,
  // blocking): it feeds these flops only, and a verilated model evaluates a
  // clocked process at the clock edge, not on every evaluation of the
  // inputs it reads (mdone, take, ...; docs/cosim.md, simulation speed). The
  // strobes of the wide registers below are the same case, restated.
  logic          desc_we;      // write chunk beat_q of the descriptor
  logic          win_clr, win_we;  // clear the window registers / write entry win_idx_q
  logic          line_we;      // hold the window-table line just read
  always_comb begin
    desc_we = !soft_reset && state_q == E_FETCH && mdone;
    win_clr = !soft_reset && state_q == E_CHECK && ev_check;
    win_we = !soft_reset && state_q == E_WIN && ev_win_ok;
    line_we = !soft_reset && state_q == E_WIN && !(ev_win_bad || ev_win_err) && mdone;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_engine
    estate_e       state_d;
    logic [BW-1:0] beat_d;
    logic [31:0]   rec_addr_d, cpl_slot_d, seq_d, rerr_addr_d, budget_d;
    logic          phase_d, rerr_d, hold_d, line_valid_d;
    logic [7:0]    win_idx_d, rcnt_d;
    if (!rst_ni) begin
      state_q <= E_IDLE;
      beat_q <= '0;
      rec_addr_q <= '0;
      cpl_slot_q <= '0;
      seq_q <= '0;
      phase_q <= 1'b0;
      rerr_q <= 1'b0;
      rerr_addr_q <= '0;
      budget_q <= '0;
      hold_q <= 1'b0;
      rcnt_q <= '0;
      line_valid_q <= 1'b0;
      win_idx_q <= '0;
    end else begin
      state_d = state_q;
      beat_d = beat_q;
      rec_addr_d = rec_addr_q;
      cpl_slot_d = cpl_slot_q;
      seq_d = seq_q;
      phase_d = phase_q;
      rerr_d = rerr_q;
      rerr_addr_d = rerr_addr_q;
      budget_d = budget_q;
      hold_d = hold_q;
      rcnt_d = rcnt_q;
      line_valid_d = line_valid_q;
      win_idx_d = win_idx_q;
      if (soft_reset) begin
        // The SM held in reset until the memory has answered everything of
        // the aborted launch.
        state_d = E_RESET;
        rcnt_d = 8'(ResetCycles);
        hold_d = 1'b1;
        line_valid_d = 1'b0;
      end else begin
        unique case (state_q)
          E_RESET: begin
            if (rcnt_q != 8'd0) rcnt_d = rcnt_q - 8'd1;
            if (!hold_next) begin
              hold_d = 1'b0;
              state_d = E_IDLE;
            end
          end
          E_IDLE: if (take) begin
            rec_addr_d = q_desc_addr;
            cpl_slot_d = q_cpl_slot;
            phase_d = q_phase;
            seq_d = q_seq;
            beat_d = '0;
            line_valid_d = 1'b0;
            rerr_d = 1'b0;
            state_d = E_FETCH;
          end
          E_FETCH: if (mdone) begin
            if (mem_rsp_i.err && !rerr_q) begin
              rerr_d = 1'b1;
              rerr_addr_d = mreq_addr_q;
            end
            if (fetched) state_d = E_CHECK;   // the last beat: a marker completes now
            else beat_d = beat_q + BW'(1);
          end
          E_CHECK: if (ev_check) begin
            win_idx_d = '0;
            budget_d = (d_watchdog != 32'd0) ? d_watchdog : watchdog;
            beat_d = '0;
            if (rerr_q || chk != 4'(baresm_ring_pkg::DCHK_NONE) || chk_marker) begin
              rec_addr_d = cpl_slot_q;
              state_d = E_WBODY;
            end else if (d_window_count != 8'd0) begin
              state_d = E_WIN;
            end else begin
              state_d = E_LAUNCH;
            end
          end
          E_WIN: begin
            if (ev_win_ok) begin
              win_idx_d = win_idx_q + 8'd1;
              if (win_idx_q + 8'd1 == d_window_count) state_d = E_LAUNCH;
            end
            if (ev_win_bad || ev_win_err) begin
              rec_addr_d = cpl_slot_q;
              beat_d = '0;
              state_d = E_WBODY;
            end else if (mdone) begin
              line_valid_d = 1'b1;
            end
          end
          E_LAUNCH: if (ev_launch) state_d = E_RUN;
          E_RUN: begin
            if (ev_sm_done) begin
              state_d = E_BUILD;
            end else if (ev_backstop) begin
              hold_d = 1'b1;
              rcnt_d = 8'(ResetCycles);
              state_d = E_ABORT;
            end
          end
          E_ABORT: begin
            if (rcnt_q != 8'd0) rcnt_d = rcnt_q - 8'd1;
            if (ev_aborted) begin
              hold_d = 1'b0;
              rec_addr_d = cpl_slot_q;
              beat_d = '0;
              state_d = E_WBODY;
            end
          end
          E_BUILD: if (ev_built) begin
            rec_addr_d = cpl_slot_q;
            beat_d = '0;
            state_d = E_WBODY;
          end
          E_WBODY: begin
            if (ring_halt) state_d = E_HALT;
            else if (mdone && 32'(beat_q) == 32'(CBEATS - 1)) state_d = E_WPHASE;
            else if (mdone) beat_d = beat_q + BW'(1);
          end
          E_WPHASE: begin
            // beat_q is the last chunk, which holds the phase word.
            if (ring_halt) state_d = E_HALT;
            else if (mdone) state_d = E_IDLE;
          end
          E_HALT: ;  // until a soft reset or the reset pin
          default: state_d = E_IDLE;
        endcase
      end
      state_q <= state_d;
      beat_q <= beat_d;
      rec_addr_q <= rec_addr_d;
      cpl_slot_q <= cpl_slot_d;
      seq_q <= seq_d;
      phase_q <= phase_d;
      rerr_q <= rerr_d;
      rerr_addr_q <= rerr_addr_d;
      budget_q <= budget_d;
      hold_q <= hold_d;
      rcnt_q <= rcnt_d;
      line_valid_q <= line_valid_d;
      win_idx_q <= win_idx_d;
    end
  end

  // The engine's wide registers, as enabled flops. The descriptor and the
  // window registers are data flops without a reset: nothing reads them
  // before a descriptor is fetched (the check starts at the fetch, the SM
  // looks at launch_o only with launch_valid_o) and E_CHECK clears the
  // windows, so their zeroing (an unreadable chunk, win_clr) is a flop's
  // synchronous reset (SB_DFFESR on the iCE40), not a multiplexer per bit.
  // The protected range, taken at the check with the watchdog budget: with
  // the descriptor and windows it is the launch record, which stays on
  // launch_o unchanged until the next fetch (the thread-serial SM reads it
  // there instead of keeping a copy).
  logic [31:0] prot_base_q, prot_size_q;
  always_ff @(posedge clk_i) begin
    if (win_clr) begin
      prot_base_q <= prot_base;
      prot_size_q <= prot_size;
    end
  end

  // The response's chunk is selected in this clocked process, under
  // desc_we: a verilated model then evaluates the selection at a clock edge
  // that writes the descriptor, not on every evaluation of the response
  // inputs (docs/cosim.md, simulation speed).
  always_ff @(posedge clk_i) begin : p_desc
    logic [CHUNK*8-1:0] rsp_chunk;  // the response's chunk at position beat_pos
    rsp_chunk = '0;
    if (desc_we) begin
      for (int p = 0; p < POS; p++) begin
        if (beat_pos == 32'(p)) rsp_chunk = rsp_rdata[p*CHUNK*8 +: CHUNK*8];
      end
    end
    for (int b = 0; b < BEATS; b++) begin
      if (desc_we && 32'(beat_q) == 32'(b)) begin
        if (mem_rsp_i.err) desc_q[b*CHUNK*8 +: CHUNK*8] <= '0;  // an unreadable descriptor reads as zeros
        else desc_q[b*CHUNK*8 +: CHUNK*8] <= rsp_chunk;
      end
    end
    for (int w = 0; w < NUM_WINDOWS; w++) begin
      if (win_clr) begin
        win_base_q[w*32 +: 32] <= 32'd0;
        win_size_q[w*32 +: 32] <= 32'd0;
      end else if (win_we && 32'(win_idx_q) == 32'(w)) begin
        win_base_q[w*32 +: 32] <= went_base;
        win_size_q[w*32 +: 32] <= went_size;
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      line_q <= '0;
      line_addr_q <= '0;
    end else if (line_we) begin
      line_q <= mem_rsp_i.rdata;
      line_addr_q <= mreq_addr_q;
    end
  end

  // ---- completion writer's fill: the chunk's data, a word of the SM's at a time ----
  // wchunk_q is assembled for chunk fl_beat_q: the command processor's own
  // fields (cd, all at once, the words of the chunk that are not the SM's)
  // and each word of the SM's report in the chunk (RPT_CP_MASK), asked one
  // cycle and stored the next. The SM's counters are final once it has
  // ended the launch, so the first chunk's words are asked from E_BUILD on
  // (its own fields, final only at ev_built, follow in E_WBODY). The next
  // chunk is assembled from the cycle the memory takes the previous one's
  // write (it took the data at that edge). A chunk without SM words costs
  // no cycle; the last chunk stays for the phase word's write.
  localparam int WPC = CHUNK / 4;  // words per chunk
  localparam logic [5:0] NO_WORD = 6'd32;
  // The first word of the SM's report the entry takes in [from, lim), else NO_WORD.
  function automatic logic [5:0] rpt_next(input logic [5:0] from, input logic [5:0] lim);
    rpt_next = NO_WORD;
    for (int i = 31; i >= 0; i--)
      if (baresm_state_pkg::RPT_CP_MASK[i] && 6'(i) >= from && 6'(i) < lim) rpt_next = 6'(i);
  endfunction
  logic       fl_own_q;    // chunk fl_beat_q's own fields are in wchunk_q
  logic [5:0] fl_w_q;      // the next report word of chunk fl_beat_q to ask for (NO_WORD: none)
  logic       fl_pend_q;   // a report word was asked for in the previous cycle ...
  logic [4:0] fl_pw_q;     // ... this one
  logic          fl_on, fl_free, fl_rep, fl_own_ld, fl_ask;
  logic [5:0]    fl_w, fl_base, fl_nbase;
  logic [WPC-1:0] fl_own_en;  // the words of chunk fl_beat_q that are the command processor's
  assign fl_base = 6'(32'(fl_beat_q) * WPC);
  assign fl_nbase = 6'((32'(beat_q) + 32'd1) * WPC);
  assign fl_on = !soft_reset && (state_q == E_BUILD || state_q == E_WBODY);
  // wchunk_q is free: no request holds it, or the memory takes it at this edge.
  assign fl_free = !mreq_valid_q || mem_req_ready_i;
  // The launch ran (E_BUILD comes only from E_RUN): its report is the
  // entry's. A launch that did not run has no report: its words stay 0.
  assign fl_rep = state_q == E_BUILD || c_cnt_valid_q;
  assign fl_w = fl_rep ? fl_w_q : NO_WORD;
  assign fl_own_ld = fl_on && state_q == E_WBODY && !fl_own_q && fl_free;
  assign fl_ask = fl_on && fl_free && fl_w != NO_WORD;
  always_comb begin
    for (int i = 0; i < WPC; i++)
      fl_own_en[i] = !(c_cnt_valid_q && baresm_state_pkg::RPT_CP_MASK[32'(fl_base) + i]);
  end
  // Chunk beat_q is whole at this edge: its own fields in or loading, the
  // last of its report words asked before this cycle (stored at this edge).
  assign fl_ready = !mbusy && fl_beat_q == beat_q && (fl_own_q || fl_own_ld) && fl_w == NO_WORD;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_fill
    // The next state, computed here (it feeds these flops only): a verilated
    // model evaluates it at the clock edge, not on every evaluation of the
    // inputs it reads (docs/cosim.md, simulation speed).
    logic [BW-1:0] fl_beat_d;
    logic          fl_own_d, fl_pend_d;
    logic [5:0]    fl_w_d;
    logic [4:0]    fl_pw_d;
    if (!rst_ni) begin
      fl_beat_q <= '0;
      fl_own_q <= 1'b0;
      fl_w_q <= NO_WORD;
      fl_pend_q <= 1'b0;
      fl_pw_q <= '0;
    end else begin
      fl_beat_d = fl_beat_q;
      fl_own_d = fl_own_q;
      fl_w_d = fl_w_q;
      fl_pend_d = fl_ask;
      fl_pw_d = fl_w[4:0];
      if (!fl_on) begin
        fl_beat_d = '0;
        fl_own_d = 1'b0;
        fl_w_d = rpt_next(6'd0, 6'(WPC));
        fl_pend_d = 1'b0;
      end else begin
        if (fl_own_ld) fl_own_d = 1'b1;
        if (fl_ask) fl_w_d = rpt_next(fl_w + 6'd1, fl_base + 6'(WPC));
        // The chunk is written: assemble the next one (the last one stays).
        if (mreq_issue && state_q == E_WBODY && 32'(beat_q) != 32'(CBEATS - 1)) begin
          fl_beat_d = beat_q + BW'(1);
          fl_own_d = 1'b0;
          fl_w_d = rpt_next(fl_nbase, fl_nbase + 6'(WPC));
        end
      end
      fl_beat_q <= fl_beat_d;
      fl_own_q <= fl_own_d;
      fl_w_q <= fl_w_d;
      fl_pend_q <= fl_pend_d;
      fl_pw_q <= fl_pw_d;
    end
  end
  always_comb begin
    rpt_req_o = '0;
    rpt_req_o.valid = fl_ask;
    rpt_req_o.idx = fl_w[4:0];
  end
  // The chunk's data: its own fields, and the SM's words as they come.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wchunk_q <= '0;
    else begin
      for (int i = 0; i < WPC; i++) begin
        if (fl_pend_q && 32'(fl_pw_q) % WPC == i) wchunk_q[i*32 +: 32] <= rpt_rsp_i.word;
        else if (fl_own_ld && fl_own_en[i]) wchunk_q[i*32 +: 32] <= cd[i*32 +: 32];
      end
    end
  end

  // ---- memory master: one request in flight --------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_mreq
    // The next state, computed here (it feeds these flops only; see p_fill).
    logic        mreq_valid_d, mwait_d;
    logic [31:0] mreq_addr_d;
    logic [1:0]  mreq_op_d;
    logic [MemLineBytes-1:0] mreq_wstrb_d;
    if (!rst_ni) begin
      mreq_valid_q <= 1'b0;
      mwait_q <= 1'b0;
      mreq_addr_q <= '0;
      mreq_op_q <= '0;
      mreq_wstrb_q <= '0;
    end else begin
      mreq_valid_d = mreq_valid_q;
      mwait_d = mwait_q;
      mreq_addr_d = mreq_addr_q;
      mreq_op_d = mreq_op_q;
      mreq_wstrb_d = mreq_wstrb_q;
      if (soft_reset) begin
        // The request withdrawn; its answer, if one comes, is not awaited.
        mreq_valid_d = 1'b0;
        mwait_d = 1'b0;
      end else begin
        if (mreq_valid_q && mem_req_ready_i) begin
          mreq_valid_d = 1'b0;
          mwait_d = 1'b1;
        end
        if (mdone) mwait_d = 1'b0;
        if (mreq_issue) begin
          mreq_valid_d = 1'b1;
          if (state_q == E_WIN) mreq_addr_d = went_addr & LINE_MASK;
          else mreq_addr_d = beat_addr & LINE_MASK;
          mreq_op_d = (state_q == E_WBODY || state_q == E_WPHASE) ? 2'd1 : 2'd0;
          mreq_wstrb_d = (state_q == E_WBODY) ? wr_body_strb :
                         (state_q == E_WPHASE) ? wr_phase_strb : '0;
        end
      end
      mreq_valid_q <= mreq_valid_d;
      mwait_q <= mwait_d;
      mreq_addr_q <= mreq_addr_d;
      mreq_op_q <= mreq_op_d;
      mreq_wstrb_q <= mreq_wstrb_d;
    end
  end

  // ---- counters and the fault report ------------------------------------------
  // PROGRESS moves by the CTAs retired in RUN, else by one (a fetch, an
  // entry written, a ring halt: never in RUN): one adder.
  logic [31:0] progress_step;
  assign progress_step = progress_q + (counting ? retired : 32'd1);

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_counters
    // The next state, computed here (it feeds these flops only; see p_fill).
    logic [63:0] cycles_d, winstr_d;
    logic [31:0] launches_d, failed_d, progress_d, ctas_d;
    logic [39:0] run_cyc_d;
    logic        sm_active_d;
    logic        fault_d;
    logic        fault_we;     // record a fault report (FAULT_*) this cycle
    logic [31:0] fault_info_d, fault_pc_d, fault_addr_d, fault_cta_d;
    if (!rst_ni) begin
      cycles_q <= '0;
      winstr_q <= '0;
      launches_q <= '0;
      failed_q <= '0;
      progress_q <= '0;
      ctas_q <= '0;
      run_cyc_q <= '0;
      sm_active_q <= 1'b0;
      fault_q <= 1'b0;
      fault_info_q <= '0;
      fault_pc_q <= '0;
      fault_addr_q <= '0;
      fault_cta_q <= '0;
      fault_token_q <= '0;
    end else begin
      cycles_d = cycles_q + 64'd1;
      winstr_d = winstr_q;
      launches_d = launches_q;
      failed_d = failed_q;
      progress_d = progress_q;
      ctas_d = ctas_q;
      run_cyc_d = run_cyc_q;
      sm_active_d = sm_active_q;
      fault_d = fault_q;
      fault_we = 1'b0;
      fault_info_d = '0;
      fault_pc_d = '0;
      fault_addr_d = '0;
      fault_cta_d = '0;
      if (soft_reset) begin
        // Every counter and the fault report to its reset value.
        cycles_d = '0;
        winstr_d = '0;
        launches_d = '0;
        failed_d = '0;
        progress_d = '0;
        sm_active_d = 1'b0;
        fault_d = 1'b0;
        fault_we = 1'b1;
      end else begin
        // The running launch's warp-instructions as the SM counts them,
        // through the cycle its report ends (ev_built, ev_backstop).
        if (sm_active_q && rpt_rsp_i.issued) winstr_d = winstr_q + 64'd1;
        if (counting) begin
          ctas_d = ctas_q + retired;
          progress_d = progress_step;
          run_cyc_d = run_cyc_q + 40'd1;
        end
        if (fetched) progress_d = progress_step;  // the slot may be reused
        if (ev_launch) begin
          run_cyc_d = '0;
          ctas_d = '0;
          sm_active_d = 1'b1;
        end
        if (ev_backstop || ev_built) sm_active_d = 1'b0;
        if (finish) begin
          launches_d = launches_q + 32'd1;
          progress_d = progress_step;
          if (cpl_failed) failed_d = failed_q + 32'd1;
          if (cpl_sticky) begin
            fault_d = 1'b1;
            fault_we = 1'b1;
            fault_info_d = {c_lane_q, c_warp_q, 8'(cur_q), c_error_q};
            fault_pc_d = c_pc_q;
            fault_addr_d = c_addr_q;
            fault_cta_d = c_cta_q;
          end
        end
        // A completion entry that could not be written is reported in FAULT_*
        // (its launch's token; FAULT_ADDR the line) and stops the device: the
        // host sees STATUS.FAULT and IRQ_STATUS.FAULT, and recovers by a reset.
        if (ring_halt) begin
          fault_d = 1'b1;
          fault_we = 1'b1;
          fault_info_d = {8'd0, 8'd0, 8'(cur_q), baresm_ring_pkg::ERR_RING_ERROR};
          fault_addr_d = mreq_addr_q;
          failed_d = failed_q + 32'd1;
          progress_d = progress_step;
        end
      end
      cycles_q <= cycles_d;
      winstr_q <= winstr_d;
      launches_q <= launches_d;
      failed_q <= failed_d;
      progress_q <= progress_d;
      ctas_q <= ctas_d;
      run_cyc_q <= run_cyc_d;
      sm_active_q <= sm_active_d;
      fault_q <= fault_d;
      // The fault report (FAULT_INFO/PC/ADDR/CTA/TOKEN), on a fault or a soft reset only.
      if (fault_we) begin
        fault_info_q <= fault_info_d;
        fault_pc_q <= fault_pc_d;
        fault_addr_q <= fault_addr_d;
        fault_cta_q <= fault_cta_d;
        fault_token_q <= soft_reset ? 64'd0 : desc_q[baresm_ring_pkg::DESC_TOKEN_LSB +: 64];
      end
    end
  end

  // ---- completion entry fields ---------------------------------------------------

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_cpl
    // The next state, computed here (it feeds these flops only; see p_fill).
    logic [63:0] c_start_d, c_end_d;
    logic [7:0]  c_status_d, c_error_d, c_warp_d, c_lane_d;
    logic [31:0] c_pc_d, c_addr_d, c_cta_d, c_ctas_d;
    logic        c_cnt_clr, c_cnt_set;   // the SM's report is not / is this entry's
    if (!rst_ni) begin
      c_start_q <= '0;
      c_end_q <= '0;
      c_status_q <= '0;
      c_error_q <= '0;
      c_warp_q <= '0;
      c_lane_q <= '0;
      c_pc_q <= '0;
      c_addr_q <= '0;
      c_cta_q <= '0;
      c_ctas_q <= '0;
      c_cnt_valid_q <= 1'b0;
    end else begin
      c_start_d = c_start_q;
      c_end_d = c_end_q;
      c_status_d = c_status_q;
      c_error_d = c_error_q;
      c_warp_d = c_warp_q;
      c_lane_d = c_lane_q;
      c_pc_d = c_pc_q;
      c_addr_d = c_addr_q;
      c_cta_d = c_cta_q;
      c_ctas_d = c_ctas_q;
      c_cnt_clr = 1'b0;
      c_cnt_set = 1'b0;
      // Nothing here changes during a soft reset (the events exclude it).
      if (fetched) begin
        // A marker completes at its fetch.
        c_start_d = cycles_q;
        c_end_d = cycles_q;
      end
      if (ev_check) begin
        c_warp_d = '0;
        c_lane_d = '0;
        c_pc_d = '0;
        c_cta_d = '0;
        c_ctas_d = '0;
        c_cnt_clr = 1'b1;
        c_addr_d = '0;
        if (rerr_q) begin
          c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
          c_error_d = baresm_ring_pkg::ERR_RING_ERROR;
          c_addr_d = rerr_addr_q;
        end else if (chk != 4'(baresm_ring_pkg::DCHK_NONE)) begin
          c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
          c_error_d = baresm_ring_pkg::ERR_BAD_DESCRIPTOR;
          c_addr_d = 32'(chk);
        end else if (chk_marker) begin
          c_status_d = baresm_ring_pkg::CPL_STATUS_COMPLETED;
          c_error_d = baresm_ring_pkg::ERR_OK;
        end
      end
      if (ev_win_bad) begin
        c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
        c_error_d = baresm_ring_pkg::ERR_BAD_DESCRIPTOR;
        c_addr_d = baresm_ring_pkg::DCHK_WINDOW_RANGE;
      end
      if (ev_win_err) begin
        c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
        c_error_d = baresm_ring_pkg::ERR_RING_ERROR;
        c_addr_d = mreq_addr_q;
      end
      if (ev_launch) c_start_d = cycles_q;
      if (ev_sm_done || ev_backstop) c_end_d = cycles_q;
      // The SM ended the launch: its report stays until the next launch.
      // (An aborted one was reset by the hold: its entry carries no counters.)
      if (ev_built) c_cnt_set = 1'b1;
      if (ev_aborted) begin
        c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
        c_error_d = baresm_ring_pkg::ERR_WATCHDOG_TIMEOUT;
        c_ctas_d = ctas_q;
      end
      if (ev_built) begin
        c_error_d = f_error;
        if (f_error == baresm_ring_pkg::ERR_OK) begin
          c_status_d = baresm_ring_pkg::CPL_STATUS_COMPLETED;
          c_ctas_d = ctas_q;
        end else begin
          c_status_d = baresm_ring_pkg::CPL_STATUS_FAILED;
          if (!sm_cfg_error_i) begin
            c_warp_d = sm_fault_i.warp;
            c_lane_d = 8'(sm_fault_i.lane);
            c_pc_d = sm_fault_i.pc;
            // A barrier deadlock names the waiting warps where an address would be.
            c_addr_d = (sm_fault_i.kind == baresm_state_pkg::FAULT_BARRIER_DEADLOCK) ?
                       sm_fault_i.waiting : sm_fault_i.addr;
            c_cta_d = f_cta;
            c_ctas_d = f_cta;  // as the functional model: the CTAs before the faulting one
          end
        end
      end
      c_start_q <= c_start_d;
      c_end_q <= c_end_d;
      c_status_q <= c_status_d;
      c_error_q <= c_error_d;
      c_warp_q <= c_warp_d;
      c_lane_q <= c_lane_d;
      c_pc_q <= c_pc_d;
      c_addr_q <= c_addr_d;
      c_cta_q <= c_cta_d;
      c_ctas_q <= c_ctas_d;
      if (c_cnt_clr) c_cnt_valid_q <= 1'b0;
      else if (c_cnt_set) c_cnt_valid_q <= 1'b1;
    end
  end

  // ===========================================================================
  // SM launch
  // ===========================================================================
  // The windows zero-extended to the launch record's MAX_WINDOWS by a size
  // cast, written as whole fields (Icarus 11 cannot elaborate a part-select
  // of a struct field on the left of an assignment).
  localparam int WINS_W = baresm_launch_pkg::MAX_WINDOWS * 32;
  always_comb begin
    launch_o = '0;
    launch_o.entry_pc = desc_q[baresm_ring_pkg::DESC_ENTRY_PC_LSB +: 32];
    launch_o.code_base = desc_q[baresm_ring_pkg::DESC_CODE_BASE_LSB +: 32];
    launch_o.code_size = desc_q[baresm_ring_pkg::DESC_CODE_SIZE_LSB +: 32];
    launch_o.grid_x = d_grid_x;
    launch_o.grid_y = d_grid_y;
    launch_o.grid_z = 32'(desc_q[baresm_ring_pkg::DESC_GRID_Z_LSB +: 16]);
    launch_o.block_x = d_block_x;
    launch_o.block_y = d_block_y;
    launch_o.block_z = d_block_z;
    launch_o.regs = desc_q[baresm_ring_pkg::DESC_REGS_LSB +: 8];
    launch_o.smid = 8'd0;
    launch_o.param_addr = desc_q[baresm_ring_pkg::DESC_PARAM_ADDR_LSB +: 32];
    launch_o.param_size = desc_q[baresm_ring_pkg::DESC_PARAM_SIZE_LSB +: 32];
    launch_o.shared = desc_q[baresm_ring_pkg::DESC_SHARED_BYTES_LSB +: 32];
    launch_o.win_base = WINS_W'(win_base_q);
    launch_o.win_size = WINS_W'(win_size_q);
    launch_o.watchdog = 64'(budget_q);
    launch_o.prot_base = prot_base_q;
    launch_o.prot_size = prot_size_q;
  end
  assign launch_valid_o = state_q == E_LAUNCH;

  assign sm_hold_o = hold_q;
  assign irq_o = (irq_status & irq_mask) != '0;
  assign state_o = state_q;
  assign queue_o = 3'(cur_q);
  assign status_o = status;

  // ===========================================================================
  // Assertions (rtl/prim/baresm_assert.svh)
  // ===========================================================================
  // The completion writer writes only inside the slot reserved for the
  // launch in flight (baresm_cp_queues asserts that slot is free), and
  // nothing but completion entries.
  `BARESM_ASSERT(a_cpl_write_in_slot, !(mreq_valid_q && mreq_op_q == 2'd1) ||
                                      (mreq_addr_q >= (cpl_slot_q & LINE_MASK) &&
                                       mreq_addr_q < cpl_slot_q + 32'(CPL_BYTES)))
  `BARESM_ASSERT(a_write_only_cpl, !(mreq_valid_q && mreq_op_q == 2'd1) ||
                                   state_q == E_WBODY || state_q == E_WPHASE)
  // The engine is busy exactly while baresm_cp_queues has a launch in flight,
  // and past its fetch exactly while that launch is fetched.
  `BARESM_ASSERT(a_busy_is_flight, busy == q_active)
  `BARESM_ASSERT(a_fetch_is_flight, (busy && state_q != E_FETCH) == q_fetched)
  // Memory master: one transaction at a time; the request is held, with
  // its payload, until taken (a soft reset withdraws it); a response comes
  // only for the awaited transaction (or, during a soft reset, for the one
  // it abandoned).
  `BARESM_ASSERT(a_one_mem_txn, !(mreq_valid_q && mwait_q))
  `BARESM_ASSERT_HELD(a_mem_req_held, mem_req_o.valid, mem_req_ready_i || soft_reset,
                      {mem_req_o.addr, mem_req_o.op, mem_req_o.wstrb, mem_req_o.wdata})
  `BARESM_ASSUME(m_rsp_expected, !mem_rsp_i.valid || mwait_q || state_q == E_RESET)
  // The writer asks for a word of the SM's report only while it fills a
  // chunk, never while a request holds the write data past this edge.
  `BARESM_ASSERT(a_rpt_when_filling, !rpt_req_o.valid || ((state_q == E_BUILD || state_q == E_WBODY) &&
                                                          (!mreq_valid_q || mem_req_ready_i)))
  // Every engine state is one of the enumerated ones.
  `BARESM_ASSERT(a_state_known, 32'(state_q) < baresm_state_pkg::NUM_CP_STATES)

endmodule

`default_nettype wire
