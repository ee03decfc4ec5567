// matmul_tiled: C = A * B in f32; A is M x K, B is K x N, C is M x N, all
// row major, any sizes (not multiples of the tile).
//
// CTA = 16 x 16 threads, one C element each; grid = (ceil(N/16), ceil(M/16)),
// a 2D grid: ctaid.x walks the columns of C, ctaid.y the rows.
//
// Why tiles: computing C[row][col] needs a whole row of A and a whole column
// of B. Loaded straight from global memory, every element of A would be read
// N times and every element of B M times. Instead the CTA walks K in steps
// of 16: it copies a 16x16 tile of A and one of B into shared memory (each
// thread loads one element of each, coalesced along the rows), waits at a
// barrier, and then every thread reads the 16 values it needs from shared
// memory. Each global element is now read ceil(N/16) or ceil(M/16) times.
//
// Two BAR.SYNCs per tile: the first so no thread reads a tile before all of
// it is written, the second so no thread overwrites the tiles (next trip)
// while a slower warp is still reading them.
//
// Shared memory reads in the inner loop: As[ty][k] is the same word for the
// 16 lanes of a tile row (a broadcast) and the two rows of a warp sit 16
// banks apart; Bs[k][tx] is 16 consecutive words: no bank conflicts.
//
// Tile elements outside A or B are stored as 0.0, so the inner loop needs no
// bounds tests: fma(0, 0, acc) leaves acc unchanged. The host reference does
// exactly the same operations in the same order (zero terms included), so
// the comparison is bit-exact. Threads outside C still help load the tiles
// and still arrive at the barriers; they only skip the final store.

.kernel matmul_tiled
.param A, 4
.param B, 4
.param C, 4
.param M, 4
.param N, 4
.param K, 4
.regs 20
.shared 2048                    // As[16][16] at 0, Bs[16][16] at 1024

    S2R R0, SR_TID.X;           // tx
    S2R R1, SR_TID.Y;           // ty
    S2R R2, SR_CTAID.Y;
    SHL R2, R2, 4;
    IADD R2, R2, R1;            // row = by*16 + ty
    S2R R3, SR_CTAID.X;
    SHL R3, R3, 4;
    IADD R3, R3, R0;            // col = bx*16 + tx
    LDC R4, [PARAM(M)];
    LDC R5, [PARAM(N)];
    LDC R6, [PARAM(K)];
    LDC R12, [PARAM(A)];
    LDC R13, [PARAM(B)];
    MOV R7, 0;                  // acc = +0.0f
    MOV R8, 0;                  // k0: first k of the current tile
    SHL R10, R1, 6;             // &As[ty][0]   (16 words = 64 bytes per row)
    SHL R9, R0, 2;
    IADD R11, R9, 1024;         // &Bs[0][tx]
    IADD R9, R10, R9;           // &As[ty][tx]  (and +1024: &Bs[ty][tx])
    ISETP.LT.U32 P0, R2, R4;    // row < M
    ISETP.LT.U32 P1, R3, R5;    // col < N

tile_loop:
    ISETP.GE.U32 P2, R8, R6;
    @P2 BRA tile_done;          // uniform: every thread sees the same k0

    // ---- As[ty][tx] = A[row][k0 + tx], 0 outside A ------------------------------
    IADD R14, R8, R0;
    ISETP.LT.U32.AND P3, R14, R6, P0;
    IMAD R15, R2, R6, R14;      // row * K + k0 + tx
    SHL R15, R15, 2;
    IADD R15, R12, R15;
    MOV R16, 0;
    @P3 LDG R16, [R15];
    STS [R9], R16;

    // ---- Bs[ty][tx] = B[k0 + ty][col], 0 outside B ------------------------------
    IADD R14, R8, R1;
    ISETP.LT.U32.AND P3, R14, R6, P1;
    IMAD R15, R14, R5, R3;      // (k0 + ty) * N + col
    SHL R15, R15, 2;
    IADD R15, R13, R15;
    MOV R16, 0;
    @P3 LDG R16, [R15];
    STS [R9 + 1024], R16;
    BAR.SYNC 0;                 // both tiles complete

    // ---- acc += As[ty][k] * Bs[k][tx], k = 0..15, unrolled by 4 -----------------
    // Unrolling turns the per-k address arithmetic into immediate offsets.
    MOV R17, R10;               // &As[ty][k]
    MOV R18, R11;               // &Bs[k][tx]
    MOV R19, 4;                 // trips left
k_loop:
    LDS R14, [R17];
    LDS R15, [R18];
    FFMA R7, R14, R15, R7;
    LDS R14, [R17 + 4];
    LDS R15, [R18 + 64];
    FFMA R7, R14, R15, R7;
    LDS R14, [R17 + 8];
    LDS R15, [R18 + 128];
    FFMA R7, R14, R15, R7;
    LDS R14, [R17 + 12];
    LDS R15, [R18 + 192];
    FFMA R7, R14, R15, R7;
    IADD R17, R17, 16;          // 4 columns of As further
    IADD R18, R18, 256;         // 4 rows of Bs further
    IADD R19, R19, -1;
    ISETP.NE P2, R19, 0;
    @P2 BRA k_loop;
    BAR.SYNC 0;                 // done reading before the next trip overwrites
    IADD R8, R8, 16;
    BRA tile_loop;

tile_done:
    ISETP.LT.U32.AND P0, R3, R5, P0;   // row < M && col < N
    @!P0 EXIT;
    LDC R14, [PARAM(C)];
    IMAD R15, R2, R5, R3;       // row * N + col
    SHL R15, R15, 2;
    IADD R14, R14, R15;
    STG [R14], R7;
    EXIT;
.end
