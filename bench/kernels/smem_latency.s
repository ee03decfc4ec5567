// smem_latency: cycles per shared load of one warp running a dependent
// chain (each load's address is the previous load's value), at a lane
// stride of `stride` words; stride 0 puts every lane on word 0 (broadcast).
//
// Each lane first stores its own byte address into its word, so the chain
// `LDS R1, [R1]` keeps reading the same words: every load has exactly the
// conflict degree of the stride. Lane 0 writes {start, end} to out[0].

.kernel smem_latency
.param out, 4
.param stride, 4            // words between lanes; 0 = broadcast
.param iters, 4             // 32 loads each
.regs 8
.shared 4096

    S2R R0, SR_LANEID;
    LDC R1, [PARAM(stride)];
    IMUL R1, R0, R1;
    SHL R1, R1, 2;
    STS [R1], R1;               // word -> its own address (the LSU keeps order)
    LDC R2, [PARAM(iters)];
    S2R R3, SR_CLOCK;
loop:
    IADD R2, R2, -1;      // loop control issues inside the chain's gaps
    LDS R1, [R1];
    ISETP.NE P0, R2, 0;
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    LDS R1, [R1];
    @P0 BRA loop;
    MOV R4, R1;                 // waits for the chain's last load
    S2R R5, SR_CLOCK;

    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    LDC R7, [PARAM(out)];
    STG [R7], R3;
    STG [R7 + 4], R5;
    EXIT;
.end
