// divergence: one warp split into `groups` paths of equal work (the H200
// reference's "warp divergence"): lane i takes path i % groups of a 32-way
// switch written as a chain of compare-and-branch, so the reconvergence
// stack runs the paths one after another and the warp reconverges at
// `join`. Every path is the same loop of `iters` x 8 dependent FFMAs (the
// 32 cases differ only in their labels). Lane 0 writes {start, end} to
// out[0]. groups must be a power of two, 1..32.

.kernel divergence
.param out, 4
.param groups, 4
.param iters, 4
.regs 12

    S2R R0, SR_LANEID;
    LDC R1, [PARAM(groups)];
    IADD R1, R1, -1;
    AND R2, R0, R1;             // path = lane % groups
    LDC R3, [PARAM(iters)];
    MOV R4, 0.5;
    MOV R5, 1.0;
    MOV R8, 1.0;
    S2R R9, SR_CLOCK;
    ISETP.EQ P0, R2, 0;
    @P0 BRA case0;
    ISETP.EQ P0, R2, 1;
    @P0 BRA case1;
    ISETP.EQ P0, R2, 2;
    @P0 BRA case2;
    ISETP.EQ P0, R2, 3;
    @P0 BRA case3;
    ISETP.EQ P0, R2, 4;
    @P0 BRA case4;
    ISETP.EQ P0, R2, 5;
    @P0 BRA case5;
    ISETP.EQ P0, R2, 6;
    @P0 BRA case6;
    ISETP.EQ P0, R2, 7;
    @P0 BRA case7;
    ISETP.EQ P0, R2, 8;
    @P0 BRA case8;
    ISETP.EQ P0, R2, 9;
    @P0 BRA case9;
    ISETP.EQ P0, R2, 10;
    @P0 BRA case10;
    ISETP.EQ P0, R2, 11;
    @P0 BRA case11;
    ISETP.EQ P0, R2, 12;
    @P0 BRA case12;
    ISETP.EQ P0, R2, 13;
    @P0 BRA case13;
    ISETP.EQ P0, R2, 14;
    @P0 BRA case14;
    ISETP.EQ P0, R2, 15;
    @P0 BRA case15;
    ISETP.EQ P0, R2, 16;
    @P0 BRA case16;
    ISETP.EQ P0, R2, 17;
    @P0 BRA case17;
    ISETP.EQ P0, R2, 18;
    @P0 BRA case18;
    ISETP.EQ P0, R2, 19;
    @P0 BRA case19;
    ISETP.EQ P0, R2, 20;
    @P0 BRA case20;
    ISETP.EQ P0, R2, 21;
    @P0 BRA case21;
    ISETP.EQ P0, R2, 22;
    @P0 BRA case22;
    ISETP.EQ P0, R2, 23;
    @P0 BRA case23;
    ISETP.EQ P0, R2, 24;
    @P0 BRA case24;
    ISETP.EQ P0, R2, 25;
    @P0 BRA case25;
    ISETP.EQ P0, R2, 26;
    @P0 BRA case26;
    ISETP.EQ P0, R2, 27;
    @P0 BRA case27;
    ISETP.EQ P0, R2, 28;
    @P0 BRA case28;
    ISETP.EQ P0, R2, 29;
    @P0 BRA case29;
    ISETP.EQ P0, R2, 30;
    @P0 BRA case30;
    ISETP.EQ P0, R2, 31;
    @P0 BRA case31;
    BRA join;
case0:
    MOV R7, R3;
case0_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case0_loop;       // uniform inside the path
    BRA join;
case1:
    MOV R7, R3;
case1_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case1_loop;       // uniform inside the path
    BRA join;
case2:
    MOV R7, R3;
case2_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case2_loop;       // uniform inside the path
    BRA join;
case3:
    MOV R7, R3;
case3_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case3_loop;       // uniform inside the path
    BRA join;
case4:
    MOV R7, R3;
case4_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case4_loop;       // uniform inside the path
    BRA join;
case5:
    MOV R7, R3;
case5_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case5_loop;       // uniform inside the path
    BRA join;
case6:
    MOV R7, R3;
case6_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case6_loop;       // uniform inside the path
    BRA join;
case7:
    MOV R7, R3;
case7_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case7_loop;       // uniform inside the path
    BRA join;
case8:
    MOV R7, R3;
case8_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case8_loop;       // uniform inside the path
    BRA join;
case9:
    MOV R7, R3;
case9_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case9_loop;       // uniform inside the path
    BRA join;
case10:
    MOV R7, R3;
case10_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case10_loop;       // uniform inside the path
    BRA join;
case11:
    MOV R7, R3;
case11_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case11_loop;       // uniform inside the path
    BRA join;
case12:
    MOV R7, R3;
case12_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case12_loop;       // uniform inside the path
    BRA join;
case13:
    MOV R7, R3;
case13_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case13_loop;       // uniform inside the path
    BRA join;
case14:
    MOV R7, R3;
case14_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case14_loop;       // uniform inside the path
    BRA join;
case15:
    MOV R7, R3;
case15_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case15_loop;       // uniform inside the path
    BRA join;
case16:
    MOV R7, R3;
case16_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case16_loop;       // uniform inside the path
    BRA join;
case17:
    MOV R7, R3;
case17_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case17_loop;       // uniform inside the path
    BRA join;
case18:
    MOV R7, R3;
case18_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case18_loop;       // uniform inside the path
    BRA join;
case19:
    MOV R7, R3;
case19_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case19_loop;       // uniform inside the path
    BRA join;
case20:
    MOV R7, R3;
case20_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case20_loop;       // uniform inside the path
    BRA join;
case21:
    MOV R7, R3;
case21_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case21_loop;       // uniform inside the path
    BRA join;
case22:
    MOV R7, R3;
case22_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case22_loop;       // uniform inside the path
    BRA join;
case23:
    MOV R7, R3;
case23_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case23_loop;       // uniform inside the path
    BRA join;
case24:
    MOV R7, R3;
case24_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case24_loop;       // uniform inside the path
    BRA join;
case25:
    MOV R7, R3;
case25_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case25_loop;       // uniform inside the path
    BRA join;
case26:
    MOV R7, R3;
case26_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case26_loop;       // uniform inside the path
    BRA join;
case27:
    MOV R7, R3;
case27_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case27_loop;       // uniform inside the path
    BRA join;
case28:
    MOV R7, R3;
case28_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case28_loop;       // uniform inside the path
    BRA join;
case29:
    MOV R7, R3;
case29_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case29_loop;       // uniform inside the path
    BRA join;
case30:
    MOV R7, R3;
case30_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case30_loop;       // uniform inside the path
    BRA join;
case31:
    MOV R7, R3;
case31_loop:
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    FFMA R8, R8, R4, R5;
    IADD R7, R7, -1;
    ISETP.NE P1, R7, 0;
    @P1 BRA case31_loop;       // uniform inside the path
    BRA join;
join:
    MOV R10, R8;                // waits for the last path's chain
    S2R R11, SR_CLOCK;

    ISETP.NE P1, R0, 0;
    @P1 EXIT;
    LDC R7, [PARAM(out)];
    STG [R7], R9;
    STG [R7 + 4], R11;
    EXIT;
.end
