/* The hardware the SM firmware drives (docs/microarchitecture.md, "The choice
   revisited again"): what the control core reaches through its I/O registers
   on the board, and what sim/fwsm models natively. Each call is one
   hardware operation; the per-thread ones (the lane loop) run in the lane
   engine, everything else is the firmware's. */
#ifndef BARESM_FWSM_HAL_H
#define BARESM_FWSM_HAL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The launch record's fields the SM uses (contract/launch.def). */
typedef struct {
  uint32_t entry, code_base, code_size;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t regs, smid;
  uint32_t param_addr, param_size, shared;
  uint64_t watchdog;
  uint32_t win_base[8], win_size[8];  /* MAX_WINDOWS; the SM checks NUM_WINDOWS of them */
  uint32_t prot_base, prot_size;
} fw_launch_t;

/* The launch's end: FAULT_NONE or the first fault (iss::FaultKind). */
typedef struct {
  uint32_t kind, cta[3], warp, lane, pc, addr, waiting;
} fw_fault_t;

/* One warp-instruction of the ALU class for the lane engine: for every lane
   of exec, operands a (ra), b (rb or imm), c (rc) from the warp's registers
   (a register marked zero reads 0), the ALU, and the result into rd; with
   zero_fill, rd's lanes outside exec are written 0 (the register's first
   write in the CTA: a register not yet written reads 0). sel: each lane's
   second predicate.
   Returns ISETP's predicate bit per executing lane. */
typedef struct {
  uint32_t op, mod, warp, ra, rb, rc, rd;
  uint32_t bimm, imm;
  uint32_t exec, sel;
  uint32_t zero_a, zero_b, zero_c;
  uint32_t write_rd, zero_fill;
  uint32_t tid[3]; /* S2R: lane 0's thread id; the engine steps it lane by lane */
} fw_lane_op_t;

/* The SM alone (fwsm_main.c: the microprogrammed SM behind the launch port):
   blocks until the next launch is accepted and fills *l; then reports its end,
   a refused launch (cfg_error), a fault, or the grid's end. */
void hal_wait_launch(fw_launch_t* l);
void hal_done(uint32_t cfg_error, const fw_fault_t* f);

/* A launch's values the lane engine uses (the windows, the protected range,
   the parameter buffer, shared memory, the grid and block for S2R), written
   once before its first CTA. */
void hal_launch(const fw_launch_t* l);
/* Between two warp-instructions: the device's other work (fw/dev: the host's
   register accesses). Nonzero: the launch is aborted (a soft reset). */
uint32_t hal_service(void);

/* The free-running cycle counter's low word (the counts' clock). */
uint32_t hal_now(void);

/* The watchdog: 1 once this launch's cycles reached its nonzero budget. */
uint32_t hal_watchdog_expired(void);

/* An instruction fetch through the SM's memory port: the line at line_addr
   (FWSM_LINE_BYTES-aligned) as words. Returns 1 on a memory error. */
#define FWSM_LINE_BYTES 16
uint32_t hal_fetch_line(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]);
/* The same port for the firmware's own data (the whole device's command
   processor: descriptors, window tables, completion entries): a line read
   (not counted as a fetch), or a line write of the bytes strb has a bit for.
   Return 1 on a memory error. */
uint32_t hal_mem_read(uint32_t line_addr, uint32_t words[FWSM_LINE_BYTES / 4]);
uint32_t hal_mem_write(uint32_t line_addr, const uint32_t words[FWSM_LINE_BYTES / 4], uint32_t strb);

/* The register file: lane `lane` of register r of warp w. traced: the write
   is a thread's result (the lockstep trace shows it). */
uint32_t hal_rf_read(uint32_t w, uint32_t r, uint32_t lane);
void hal_rf_write(uint32_t w, uint32_t r, uint32_t lane, uint32_t v, uint32_t traced);
uint32_t hal_lane_alu(const fw_lane_op_t* op);
/* The memory loop of a load, store or atomic (the same record; zero_b flags
   the data register: rb, or rd of a store): every executing lane checked
   (misaligned, then the range: shared or parameter size, the windows and
   the protected range), then accessed in lane order. Returns 0, or 1 with
   the first fault's kind, lane and address (nothing done on a check fault;
   a memory error stops at its lane). */
uint32_t hal_lane_mem(const fw_lane_op_t* op, uint32_t* kind, uint32_t* lane, uint32_t* addr);
/* An atomic's new word from the old one (ATOM mod[4:0]), through the same ALU. */
uint32_t hal_amo_alu(uint32_t amo, uint32_t old, uint32_t b, uint32_t c);

/* A CTA's start: shared memory words [0, words) cleared. */
void hal_smem_clear(uint32_t words);

/* Status and trace. The warps' masks and the current warp drive the warp
   states each cycle (the hardware adds which wait for memory); the events
   drive the counters and the trace. */
void hal_warps(uint32_t used, uint32_t exited, uint32_t waiting, uint32_t cur, uint32_t in_instr);
void hal_cta(const uint32_t cta[3]); /* the resident CTA, for S2R and the trace */
void hal_issue(uint32_t warp, uint32_t pc, uint32_t tmask, uint32_t exec, uint32_t diverge);
void hal_issue_fault(uint32_t warp, uint32_t pc, uint32_t tmask);
void hal_pred_write(uint32_t warp, uint32_t pd, uint32_t mask, uint32_t bits);
enum { EV_BAR_RELEASE, EV_CTA_RETIRE };
void hal_event(uint32_t ev);

/* The launch's counts, as the completion entry has them (contract/rings.def
   CPL; the hardware SM's baresm_ssm_status counts the same events): kept by
   fwsm_run from its start. Warp-state cycles are charged at the firmware's
   state changes, each interval to the states the warps were in: the issuing
   warp's instruction is ISSUED for one cycle, WAIT_MEM while its fetch or
   its memory loop runs, WAIT_SB for the rest; stall cycles are the cycles
   with a live warp less one per issue. 64 bits here: the completion entry
   saturates them at 2^32 - 1 (but the wrapping ones, as the contract says). */
enum {
#define BSM_WARP_STATE(name, text, desc) FWSM_WS_##name,
#define BSM_CP_STATE(name, desc)
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
  FWSM_NUM_WS
};
typedef struct {
  uint64_t warp_instrs, thread_instrs, div_branches, bar_releases, ctas_done;
  uint64_t gmem_requests, shared_passes, ifetch_fills, live_cycles;
  uint64_t ws[FWSM_NUM_WS];
} fwsm_counts_t;
extern fwsm_counts_t fwsm_counts;

/* One launch: the SM's checks (FWSM_REFUSED: it runs nothing), then the
   grid, until its end or the first fault (*f: FAULT_NONE or that fault), or
   until hal_service asks to abort (FWSM_ABORTED). */
enum { FWSM_RAN, FWSM_REFUSED, FWSM_ABORTED };
uint32_t fwsm_run(const fw_launch_t* l, fw_fault_t* f);

/* The SM alone: launch after launch through hal_wait_launch/hal_done; never returns. */
void fwsm_main(void);

#ifdef __cplusplus
}
#endif

#endif
