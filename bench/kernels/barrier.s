// barrier: back-to-back CTA-wide BAR.SYNCs (the H200 reference's
// "__syncthreads cost vs CTA size"); one CTA of ntid threads. Lane 0 of
// each warp writes {start, end} clocks to out[warpid].

.kernel barrier
.param out, 4
.param iters, 4             // 32 barriers each
.regs 8

    LDC R2, [PARAM(iters)];
    BAR.SYNC 0;
    S2R R3, SR_CLOCK;
loop:
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    BAR.SYNC 0;
    IADD R2, R2, -1;
    ISETP.NE P0, R2, 0;
    @P0 BRA loop;
    S2R R4, SR_CLOCK;

    S2R R0, SR_LANEID;
    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    S2R R5, SR_WARPID;
    SHL R5, R5, 3;
    LDC R6, [PARAM(out)];
    IADD R6, R6, R5;
    STG [R6], R3;
    STG [R6 + 4], R4;
    EXIT;
.end
