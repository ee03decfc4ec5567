// mem_latency: W warps, each chasing pointers through global memory (the
// H200 reference's "latency hiding, memory": dependent loads). Warp w's
// lanes read the consecutive words of line w of `buf` (one coalesced line
// request per load); the host fills every word with its own address, so
// `LDG R1, [R1]` is a dependent chain that stays on the warp's line. Lane 0
// writes {start, end} clocks to out[warpid].

.kernel mem_latency
.param buf, 4               // 128 bytes per warp, each word = its address
.param out, 4
.param iters, 4             // 8 loads each
.regs 8

    S2R R0, SR_LANEID;
    S2R R1, SR_WARPID;
    SHL R1, R1, 7;
    SHL R2, R0, 2;
    IADD R1, R1, R2;
    LDC R2, [PARAM(buf)];
    IADD R1, R1, R2;            // &buf[warp * 32 + lane]
    LDC R3, [PARAM(iters)];
    BAR.SYNC 0;
    S2R R4, SR_CLOCK;
loop:
    IADD R3, R3, -1;      // loop control issues inside the chain's gaps
    LDG R1, [R1];
    ISETP.NE P0, R3, 0;
    LDG R1, [R1];
    LDG R1, [R1];
    LDG R1, [R1];
    LDG R1, [R1];
    LDG R1, [R1];
    LDG R1, [R1];
    LDG R1, [R1];
    @P0 BRA loop;
    MOV R5, R1;                 // waits for the chain
    S2R R6, SR_CLOCK;

    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    S2R R7, SR_WARPID;
    SHL R7, R7, 3;
    LDC R2, [PARAM(out)];
    IADD R2, R2, R7;
    STG [R2], R4;
    STG [R2 + 4], R6;
    EXIT;
.end
