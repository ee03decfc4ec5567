// smem_throughput: warp-wide shared loads per cycle at a lane stride of
// `stride` words (the H200 reference's "shared memory throughput vs lane
// stride": one CTA with every warp slot filled, independent loads).
//
// Lane i reads word i*stride, so 32 banks see a stride-way conflict (stride
// 1..32). Each iteration issues 96 LDS, three rounds over 32 registers: a
// register is loaded again 32 loads later, long after its first load is
// written, so no load waits for another; only the loop counter is a
// dependency. Lane 0 of each warp writes {start, end} clocks to
// out[warpid]. `end` is read after the last load's value is used: the LSU
// completes in order, so every load of the warp is done by then.

.kernel smem_throughput
.param out, 4
.param stride, 4            // words between lanes
.param iters, 4             // 96 loads each
.regs 48
.shared 4096                // 32 lanes x 32 words

    S2R R0, SR_LANEID;
    LDC R1, [PARAM(stride)];
    IMUL R1, R0, R1;
    SHL R1, R1, 2;              // &word[lane * stride]
    LDC R2, [PARAM(iters)];
    BAR.SYNC 0;                 // every warp placed and at the start line
    S2R R3, SR_CLOCK;
loop:
    LDS R10, [R1];
    LDS R11, [R1];
    LDS R12, [R1];
    LDS R13, [R1];
    LDS R14, [R1];
    LDS R15, [R1];
    LDS R16, [R1];
    LDS R17, [R1];
    LDS R18, [R1];
    LDS R19, [R1];
    LDS R20, [R1];
    LDS R21, [R1];
    LDS R22, [R1];
    LDS R23, [R1];
    LDS R24, [R1];
    LDS R25, [R1];
    LDS R26, [R1];
    LDS R27, [R1];
    LDS R28, [R1];
    LDS R29, [R1];
    LDS R30, [R1];
    LDS R31, [R1];
    LDS R32, [R1];
    LDS R33, [R1];
    LDS R34, [R1];
    LDS R35, [R1];
    LDS R36, [R1];
    LDS R37, [R1];
    LDS R38, [R1];
    LDS R39, [R1];
    LDS R40, [R1];
    LDS R41, [R1];
    // ... twice more into the same registers: 96 loads per iteration, so
    // the 3 loop-control instructions take 3% of the issue slots (at 32
    // loads they made stride 1 issue-bound: 35 issues per 32 loads).
    LDS R10, [R1];
    LDS R11, [R1];
    LDS R12, [R1];
    LDS R13, [R1];
    LDS R14, [R1];
    LDS R15, [R1];
    LDS R16, [R1];
    LDS R17, [R1];
    LDS R18, [R1];
    LDS R19, [R1];
    LDS R20, [R1];
    LDS R21, [R1];
    LDS R22, [R1];
    LDS R23, [R1];
    LDS R24, [R1];
    LDS R25, [R1];
    LDS R26, [R1];
    LDS R27, [R1];
    LDS R28, [R1];
    LDS R29, [R1];
    LDS R30, [R1];
    LDS R31, [R1];
    LDS R32, [R1];
    LDS R33, [R1];
    LDS R34, [R1];
    LDS R35, [R1];
    LDS R36, [R1];
    LDS R37, [R1];
    LDS R38, [R1];
    LDS R39, [R1];
    LDS R40, [R1];
    LDS R41, [R1];
    LDS R10, [R1];
    LDS R11, [R1];
    LDS R12, [R1];
    LDS R13, [R1];
    LDS R14, [R1];
    LDS R15, [R1];
    LDS R16, [R1];
    LDS R17, [R1];
    LDS R18, [R1];
    LDS R19, [R1];
    LDS R20, [R1];
    LDS R21, [R1];
    LDS R22, [R1];
    LDS R23, [R1];
    LDS R24, [R1];
    LDS R25, [R1];
    LDS R26, [R1];
    LDS R27, [R1];
    LDS R28, [R1];
    LDS R29, [R1];
    LDS R30, [R1];
    LDS R31, [R1];
    LDS R32, [R1];
    LDS R33, [R1];
    LDS R34, [R1];
    LDS R35, [R1];
    LDS R36, [R1];
    LDS R37, [R1];
    LDS R38, [R1];
    LDS R39, [R1];
    LDS R40, [R1];
    LDS R41, [R1];
    IADD R2, R2, -1;
    ISETP.NE P0, R2, 0;
    @P0 BRA loop;               // uniform: the whole warp loops
    MOV R4, R41;                // waits for the last load
    S2R R5, SR_CLOCK;

    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    S2R R6, SR_WARPID;
    SHL R6, R6, 3;
    LDC R7, [PARAM(out)];
    IADD R7, R7, R6;
    STG [R7], R3;
    STG [R7 + 4], R5;
    EXIT;
.end
