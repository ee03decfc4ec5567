// transpose: out[c][r] = in[r][c], in is rows x cols (row major), out is
// cols x rows; any sizes (not multiples of the tile).
//
// Done naively (each thread reads in[r][c] and writes out[c][r]) either the
// reads or the writes of a warp are strided by a whole row: 32 separate
// memory lines per warp access instead of one. The fix is a 32x32 tile in
// shared memory:
//   load:  lanes of a warp read 32 consecutive words of one row of `in`
//          (coalesced) and store them as one row of the tile;
//   store: lanes read one *column* of the tile and write 32 consecutive
//          words of one row of `out` (coalesced again).
// Reading a tile column is where bank conflicts would come from: with 32
// banks of 4 bytes and a row pitch of 32 words, tile[0][c], tile[1][c], ...
// all sit in the same bank and the access takes 32 passes. Padding each
// row to 33 words shifts every row by one bank, so the 32 words of a column
// land in 32 different banks: one pass. Hence `.shared 4224` = 32 * 33 * 4.
//
// CTA shape 32 x 8: each thread moves 4 elements (rows ty, ty+8, ty+16,
// ty+24 of the tile), a uniform loop of 4 trips. Grid:
// (ceil(cols/32), ceil(rows/32)). Tile elements outside the matrix are never
// loaded and never stored (guards), and the ones stored are always ones that
// were loaded.

.kernel transpose
.param in, 4
.param out, 4
.param rows, 4                  // of `in`
.param cols, 4
.regs 20
.shared 4224

    S2R R0, SR_TID.X;           // tx
    S2R R1, SR_TID.Y;           // ty
    S2R R2, SR_CTAID.X;         // tile column
    S2R R3, SR_CTAID.Y;         // tile row
    LDC R4, [PARAM(rows)];
    LDC R5, [PARAM(cols)];
    MOV R15, 33;                // padded tile pitch, in words

    // ---- load: tile[ty + j][tx] = in[by*32 + ty + j][bx*32 + tx] ----------------
    SHL R6, R2, 5;
    IADD R6, R6, R0;            // x = bx*32 + tx  (column of `in`)
    SHL R7, R3, 5;
    IADD R7, R7, R1;            // y = by*32 + ty  (row of `in`)
    ISETP.LT.U32 P0, R6, R5;    // x < cols
    LDC R8, [PARAM(in)];
    IMAD R9, R1, R15, R0;
    SHL R9, R9, 2;              // &tile[ty][tx]
    MOV R10, 0;                 // j
load_loop:
    IADD R11, R7, R10;          // y + j
    ISETP.LT.U32.AND P1, R11, R4, P0;   // inside the matrix
    IMAD R12, R11, R5, R6;      // (y + j) * cols + x
    SHL R12, R12, 2;
    IADD R12, R8, R12;
    @P1 LDG R13, [R12];
    @P1 STS [R9], R13;          // consecutive lanes, consecutive banks
    IADD R9, R9, 1056;          // 8 tile rows further: 8 * 33 * 4 bytes
    IADD R10, R10, 8;
    ISETP.LT.U32 P2, R10, 32;
    @P2 BRA load_loop;          // uniform: every thread runs 4 trips

    BAR.SYNC 0;                 // the whole tile is in before anyone reads a column

    // ---- store: out[bx*32 + ty + j][by*32 + tx] = tile[tx][ty + j] --------------
    SHL R6, R3, 5;
    IADD R6, R6, R0;            // x' = by*32 + tx  (column of `out`, < rows)
    SHL R7, R2, 5;
    IADD R7, R7, R1;            // y' = bx*32 + ty  (row of `out`, < cols)
    ISETP.LT.U32 P0, R6, R4;
    LDC R8, [PARAM(out)];
    IMAD R9, R0, R15, R1;
    SHL R9, R9, 2;              // &tile[tx][ty]: lanes 33 words apart, all banks differ
    MOV R10, 0;
store_loop:
    IADD R11, R7, R10;          // y' + j
    ISETP.LT.U32.AND P1, R11, R5, P0;
    @P1 LDS R13, [R9];          // tile[tx][ty + j]
    IMAD R12, R11, R4, R6;      // (y' + j) * rows + x'
    SHL R12, R12, 2;
    IADD R12, R8, R12;
    @P1 STG [R12], R13;
    IADD R9, R9, 32;            // 8 words further along the tile row
    IADD R10, R10, 8;
    ISETP.LT.U32 P2, R10, 32;
    @P2 BRA store_loop;
    EXIT;
.end
