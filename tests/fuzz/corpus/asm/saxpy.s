// saxpy: y[i] = a * x[i] + y[i] over n f32 elements, a a float parameter.
//
// Shows a scalar parameter that is not a pointer (a is passed by value in the
// parameter buffer and read with LDC like the pointers) and the fused
// multiply-add: FFMA rounds once, so the host reference is std::fma, not
// a*x followed by +y (which rounds twice and can differ in the last bit).
//
// A grid-stride loop: each thread handles i, i + stride, i + 2*stride, ...
// with stride = the number of threads in the grid, so any grid size covers
// any n. The loop trip count differs between threads near the end of the
// array: that is a divergent loop, and the warp reconverges after it.

.kernel saxpy
.param a, 4                 // the scalar, binary32 bits
.param x, 4
.param y, 4
.param n, 4
.regs 12

    S2R R0, SR_CTAID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;        // i = ctaid.x * ntid.x + tid.x
    S2R R3, SR_NCTAID.X;
    IMUL R3, R3, R1;            // stride = nctaid.x * ntid.x
    LDC R4, [PARAM(n)];
    LDC R5, [PARAM(a)];
    LDC R6, [PARAM(x)];
    LDC R7, [PARAM(y)];

loop:
    // Lanes whose i ran past n leave the loop; the others keep going. The
    // assembler makes `done` the reconvergence point of this branch.
    ISETP.GE.U32 P0, R0, R4;
    @P0 BRA done;
    SHL R8, R0, 2;
    IADD R9, R6, R8;
    LDG R9, [R9];               // x[i]
    IADD R10, R7, R8;
    LDG R11, [R10];             // y[i]
    FFMA R11, R5, R9, R11;      // a * x[i] + y[i], one rounding
    STG [R10], R11;
    IADD R0, R0, R3;            // next element of this thread
    BRA loop;
done:
    EXIT;
.end
