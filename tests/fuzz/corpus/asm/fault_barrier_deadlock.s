// fault_barrier_deadlock: two warps of one CTA wait at different barriers
// -> fault BARRIER_DEADLOCK.
//
// BAR.SYNC id releases when every live warp of the CTA has arrived at that
// id. Here, in CTA target_cta, warp 0 waits at barrier 1 and warp 1 at
// barrier 2; the CTA's other warps exit (an exited warp is not waited for).
// Each barrier waits for the other warp forever: with every live warp
// blocked and no barrier able to release, the launch ends at once with
// BARRIER_DEADLOCK, and the report names the waiting warps. (The same bug
// in CUDA, __syncthreads() inside divergent code, just hangs.)
// Other CTAs exit straight away, so no memory is written.

.kernel fault_barrier_deadlock
.param target_cta, 4
.regs 4

    S2R R0, SR_CTAID.X;
    LDC R1, [PARAM(target_cta)];
    ISETP.NE P0, R0, R1;
    @P0 EXIT;                       // not the chosen CTA
    S2R R2, SR_WARPID;
    ISETP.GE.U32 P1, R2, 2;
    @P1 EXIT;                       // warps 2.. leave: only warps 0 and 1 stay
    ISETP.EQ P2, R2, 0;
    @P2 BRA warp0;                  // uniform per warp: no divergence
    BAR.SYNC 2;                     // warp 1 waits here ...
    EXIT;
warp0:
    BAR.SYNC 1;                     // ... and warp 0 here: neither can complete
    EXIT;
.end
