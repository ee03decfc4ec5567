// nested_divergence: every lane takes its own path through nested if/else
// and a loop whose trip count comes from its data; out[i] records the path.
//
// In C:
//   x = in[i];
//   if (x & 1) {                          // level 1
//     if (x & 2) {                        // level 2
//       r = x * 3;
//     } else if (x & 4) {                 // level 3
//       r = x ^ 0x5a5a;
//     } else if (((x >> 8) & 3) == 0) {  // level 4
//       r = ~x;
//     } else {
//       r = x >> 3;
//     }
//   } else {
//     r = x;
//     for (k = (x >> 4) & 15; k != 0; --k) {  // divergent loop: 0..15 trips
//       r = r * 5 + k;
//       if (r & 0x100) r ^= 0x3c;         // divergence inside the loop
//     }
//   }
//   out[i] = r + i;                        // every surviving lane, reconverged
//
// Written with real branches (not guards) on purpose: a warp whose lanes
// disagree at a branch splits. The reconvergence stack runs the taken lanes
// first, then the fall-through lanes, then pops back to the join point (the
// immediate post-dominator the assembler computed) with the full mask. The
// nesting here needs up to six stack entries (the depth limit is 16): one
// per level that is still waiting for its other side, plus the join.

.kernel nested_divergence
.param in, 4
.param out, 4
.param n, 4
.regs 8

    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;        // i
    LDC R1, [PARAM(n)];
    ISETP.GE.U32 P0, R0, R1;
    @P0 EXIT;
    SHL R2, R0, 2;
    LDC R1, [PARAM(in)];
    IADD R1, R1, R2;
    LDG R3, [R1];               // x
    LDC R7, [PARAM(out)];
    IADD R7, R7, R2;            // &out[i]

    // ---- level 1: odd or even ---------------------------------------------------
    AND R5, R3, 1;
    ISETP.EQ P0, R5, 0;
    @P0 BRA even;

    // ---- odd: level 2 -------------------------------------------------------------
    AND R5, R3, 2;
    ISETP.EQ P1, R5, 0;
    @P1 BRA odd_bit1_clear;
    IMUL R4, R3, 3;
    BRA join;
odd_bit1_clear:
    // ---- level 3 --------------------------------------------------------------------
    AND R5, R3, 4;
    ISETP.EQ P1, R5, 0;
    @P1 BRA odd_small;
    XOR R4, R3, 0x5a5a;
    BRA join;
odd_small:
    SHR R5, R3, 8;
    AND R5, R5, 3;
    ISETP.NE P2, R5, 0;
    @P2 BRA odd_shift;
    NOT R4, R3;
    BRA join;
odd_shift:
    SHR R4, R3, 3;
    BRA join;

    // ---- even: a loop with a data-dependent trip count ------------------------------
even:
    MOV R4, R3;
    SHR R6, R3, 4;
    AND R6, R6, 15;             // k
loop:
    ISETP.EQ P2, R6, 0;
    @P2 BRA join;               // lanes leave one by one as their k runs out
    IMUL R4, R4, 5;
    IADD R4, R4, R6;            // r = r * 5 + k
    AND R5, R4, 0x100;
    ISETP.EQ P3, R5, 0;
    @P3 BRA no_flip;
    XOR R4, R4, 0x3c;
no_flip:
    IADD R6, R6, -1;
    BRA loop;

    // ---- every path meets here ------------------------------------------------------
join:
    IADD R4, R4, R0;            // r + i
    STG [R7], R4;
    EXIT;
.end
