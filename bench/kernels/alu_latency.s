// alu_latency: W warps (one CTA of W*32 threads), each running one long
// dependent FFMA chain (the H200 reference's "latency hiding, ALU"). A warp
// alone issues one FFMA per FPU latency; more warps fill the gaps until the
// single issue port is busy every cycle. Lane 0 of each warp writes
// {start, end} clocks to out[warpid].

.kernel alu_latency
.param out, 4
.param iters, 4             // 64 FFMA each
.regs 8

    MOV R1, 1.0;
    MOV R2, 0.5;                // x = x/2 + 1 converges to 2: no inf/nan
    MOV R3, 1.0;
    LDC R4, [PARAM(iters)];
    BAR.SYNC 0;
    S2R R5, SR_CLOCK;
loop:
    IADD R4, R4, -1;      // loop control issues inside the chain's gaps
    FFMA R1, R1, R2, R3;
    ISETP.NE P0, R4, 0;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    FFMA R1, R1, R2, R3;
    @P0 BRA loop;
    MOV R6, R1;                 // waits for the chain
    S2R R7, SR_CLOCK;

    S2R R0, SR_LANEID;
    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    S2R R6, SR_WARPID;
    SHL R6, R6, 3;
    LDC R4, [PARAM(out)];
    IADD R4, R4, R6;
    STG [R4], R5;
    STG [R4 + 4], R7;
    EXIT;
.end
