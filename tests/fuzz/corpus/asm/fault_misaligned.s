// fault_misaligned: one thread loads a 32-bit word from an address that is
// 2 mod 4 -> fault MISALIGNED.
//
// Every access must be aligned to its width. The story: reading a 32-bit
// field at byte offset 2 of a packed record. On a GPU that is a fault, not
// a slow access; the fix is two 16-bit loads (LDG.U16) and a shift, or a
// record layout with natural alignment. The address is inside the granted
// buffer: alignment is checked before the window.

.kernel fault_misaligned
.param buf, 4
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
    LDG R5, [R4 + 2];               // 32-bit load at buf + 2
    EXIT;
.end
