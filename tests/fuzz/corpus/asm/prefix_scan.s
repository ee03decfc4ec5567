// prefix_scan: inclusive scan of i32, out[i] = in[0] + ... + in[i] (wrapping).
//
// Two kernels, used by the host as a recursive multi-CTA scan:
//   scan_block  scans each CTA's ntid elements on its own and writes the
//               CTA total to block_sums[ctaid];
//   (the host scans block_sums the same way, recursively)
//   scan_add    adds the scanned total of all earlier CTAs to every element
//               of CTAs 1, 2, ...
//
// Inside scan_block, the two levels of a GPU:
//   * within a warp, no shared memory and no barrier: a Hillis-Steele scan
//     with SHFL.UP by 1, 2, 4, 8, 16. After step d every lane holds the sum
//     of the 2^(d+1) elements ending at it. SHFL.UP gives lanes below the
//     distance their own value, so those lanes must not add (the guard).
//   * across warps, through shared memory: the last lane of each warp
//     stores the warp total to wsum[warp]; after a BAR.SYNC warp 0 scans the
//     wsum array with the same shuffle code; after a second BAR.SYNC each
//     warp adds the total of the warps before it.
// Elements past n count as 0, so the CTA total is right for the tail CTA.
// ntid.x may be anything up to 1024 (32 warps); a partial last warp is fine:
// its missing lanes are the high ones, and SHFL.UP only reads lower lanes.

.kernel scan_block
.param in, 4
.param out, 4
.param block_sums, 4
.param n, 4
.regs 16
.shared 128                     // wsum[32]

    S2R R0, SR_TID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_CTAID.X;
    IMAD R3, R2, R1, R0;        // i
    LDC R4, [PARAM(n)];
    ISETP.LT.U32 P0, R3, R4;    // P0: element i exists (kept to the end)
    LDC R5, [PARAM(in)];
    SHL R6, R3, 2;              // byte offset of element i (reused for out)
    IADD R5, R5, R6;
    MOV R7, 0;
    @P0 LDG R7, [R5];           // x, or 0 past the end
    S2R R8, SR_LANEID;

    // ---- warp scan: 5 shuffle steps -------------------------------------------------
    SHFL.UP R9, R7, 1;
    ISETP.GE.U32 P1, R8, 1;
    @P1 IADD R7, R7, R9;
    SHFL.UP R9, R7, 2;
    ISETP.GE.U32 P1, R8, 2;
    @P1 IADD R7, R7, R9;
    SHFL.UP R9, R7, 4;
    ISETP.GE.U32 P1, R8, 4;
    @P1 IADD R7, R7, R9;
    SHFL.UP R9, R7, 8;
    ISETP.GE.U32 P1, R8, 8;
    @P1 IADD R7, R7, R9;
    SHFL.UP R9, R7, 16;
    ISETP.GE.U32 P1, R8, 16;
    @P1 IADD R7, R7, R9;

    // ---- warp totals to shared memory ------------------------------------------------
    // The last lane of a warp is lane 31, or the CTA's last thread when the
    // last warp is partial.
    S2R R10, SR_WARPID;
    IADD R11, R1, -1;           // ntid - 1
    ISETP.EQ P1, R8, 31;
    ISETP.EQ.OR P1, R0, R11, P1;
    SHL R12, R10, 2;            // &wsum[warp]
    @P1 STS [R12], R7;
    BAR.SYNC 0;

    // ---- warp 0 scans wsum -------------------------------------------------------------
    // The branch is uniform per warp (warp 0 falls through, the others jump),
    // so no warp diverges and all of them meet at the next BAR.SYNC.
    ISETP.NE P2, R10, 0;
    @P2 BRA add_prefix;
    IADD R13, R1, 31;
    SHR R13, R13, 5;            // number of warps
    ISETP.LT.U32 P3, R8, R13;
    SHL R14, R8, 2;             // &wsum[lane]
    MOV R15, 0;
    @P3 LDS R15, [R14];
    SHFL.UP R9, R15, 1;
    ISETP.GE.U32 P1, R8, 1;
    @P1 IADD R15, R15, R9;
    SHFL.UP R9, R15, 2;
    ISETP.GE.U32 P1, R8, 2;
    @P1 IADD R15, R15, R9;
    SHFL.UP R9, R15, 4;
    ISETP.GE.U32 P1, R8, 4;
    @P1 IADD R15, R15, R9;
    SHFL.UP R9, R15, 8;
    ISETP.GE.U32 P1, R8, 8;
    @P1 IADD R15, R15, R9;
    SHFL.UP R9, R15, 16;
    ISETP.GE.U32 P1, R8, 16;
    @P1 IADD R15, R15, R9;
    @P3 STS [R14], R15;         // wsum[w] = total of warps 0..w
add_prefix:
    BAR.SYNC 0;

    // ---- add the total of the earlier warps, store -------------------------------------
    ISETP.NE P2, R10, 0;
    @P2 LDS R9, [R12 - 4];      // wsum[warp - 1]
    @P2 IADD R7, R7, R9;
    LDC R5, [PARAM(out)];
    IADD R5, R5, R6;
    @P0 STG [R5], R7;
    // The CTA's last thread holds the CTA total (elements past n were 0).
    ISETP.NE P1, R0, R11;
    @P1 EXIT;
    LDC R5, [PARAM(block_sums)];
    SHL R12, R2, 2;
    IADD R5, R5, R12;
    STG [R5], R7;
    EXIT;
.end

// scan_add: data[i] += offsets[ctaid.x - 1] for CTAs 1.. (offsets is the
// inclusive scan of the block totals, so offsets[c - 1] is everything before
// CTA c). Launched with the same ntid as scan_block.
.kernel scan_add
.param data, 4
.param offsets, 4
.param n, 4
.regs 8

    S2R R0, SR_CTAID.X;
    ISETP.EQ P0, R0, 0;
    @P0 EXIT;                   // CTA 0 has nothing before it
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R3, R0, R1, R2;        // i
    LDC R4, [PARAM(n)];
    ISETP.GE.U32 P0, R3, R4;
    @P0 EXIT;
    LDC R4, [PARAM(offsets)];
    SHL R5, R0, 2;
    IADD R4, R4, R5;
    LDG R4, [R4 - 4];           // offsets[ctaid - 1]: the same word for every lane
    LDC R5, [PARAM(data)];
    SHL R6, R3, 2;
    IADD R5, R5, R6;
    LDG R6, [R5];
    IADD R6, R6, R4;
    STG [R5], R6;
    EXIT;
.end
