// fault_trap: exactly one thread executes TRAP -> fault TRAP.
//
// TRAP is the kernel's way to say "this cannot happen" (an assert). It
// raises the fault when any active lane's guard is true, so a guard chosen
// by thread and CTA index picks the single lane that traps: lane
// target_tid % 32 of warp target_tid / 32 of CTA target_cta. Every other
// thread exits without touching memory, so every backend ends with the
// same memory and the same report: kind TRAP at the PC of the one TRAP.

.kernel fault_trap
.param target_cta, 4
.param target_tid, 4
.regs 4

    S2R R0, SR_CTAID.X;
    LDC R1, [PARAM(target_cta)];
    S2R R2, SR_TID.X;
    LDC R3, [PARAM(target_tid)];
    ISETP.EQ P0, R0, R1;
    ISETP.EQ.AND P0, R2, R3, P0;    // P0: this is the chosen thread
    @P0 TRAP;                       // only the chosen lane's guard is true
    EXIT;
.end
