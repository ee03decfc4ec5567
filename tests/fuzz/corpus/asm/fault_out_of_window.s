// fault_out_of_window: one thread stores one word past the end of its
// buffer -> fault OUT_OF_WINDOW.
//
// The classic off-by-one: buf holds n words and the chosen thread writes
// buf[n]. The launch was granted exactly the buffer as its only window, so
// the store is outside every window and the launch ends before anything is
// written (a faulting instruction has no effect at all). On a real GPU the
// same bug silently corrupts a neighbouring allocation, or not, depending on
// the allocator's rounding; here it is caught on the first byte.

.kernel fault_out_of_window
.param buf, 4
.param n, 4                         // words in buf
.param target_cta, 4
.param target_tid, 4
.regs 8

    S2R R0, SR_CTAID.X;
    LDC R1, [PARAM(target_cta)];
    S2R R2, SR_TID.X;
    LDC R3, [PARAM(target_tid)];
    ISETP.EQ P0, R0, R1;
    ISETP.EQ.AND P0, R2, R3, P0;    // P0: this is the chosen thread
    @!P0 EXIT;
    LDC R4, [PARAM(buf)];
    LDC R5, [PARAM(n)];
    SHL R5, R5, 2;
    IADD R4, R4, R5;                // &buf[n]: one past the end
    MOV R6, 0xbad;
    STG [R4], R6;
    EXIT;
.end
