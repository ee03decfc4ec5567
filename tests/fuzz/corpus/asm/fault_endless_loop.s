// fault_endless_loop: one thread spins forever -> fault WATCHDOG.
//
// A GPU has no preemption to fall back on: a kernel that never ends holds
// the device until something kills it. The watchdog does: the launch is
// given a budget (warp-instructions on the functional model, cycles on the
// RTL) and ends with WATCHDOG when it is spent. Every thread but the chosen
// one exits at once, so when the budget runs out the only instruction still
// executing is the branch-to-itself below: that is the PC in the report.

.kernel fault_endless_loop
.param target_cta, 4
.param target_tid, 4
.regs 4

    S2R R0, SR_CTAID.X;
    LDC R1, [PARAM(target_cta)];
    S2R R2, SR_TID.X;
    LDC R3, [PARAM(target_tid)];
    ISETP.EQ P0, R0, R1;
    ISETP.EQ.AND P0, R2, R3, P0;    // P0: this is the chosen thread
    @!P0 EXIT;                      // everyone else is done
spin:
    BRA spin;                       // never falls through
    EXIT;
.end
