// histogram: hist[v & 63] += 1 for every v in data[0..n), 64 i32 bins.
//
// Privatisation, the standard way to make atomics cheap:
//   1. each CTA zeroes its own copy of the bins in shared memory,
//   2. its threads walk the input with a grid-stride loop and count into the
//      shared bins with ATOMS.ADD (shared atomics are on-chip and only
//      contend within the CTA),
//   3. after a BAR.SYNC each thread adds a few finished bins into the global
//      histogram with one ATOMG.ADD per non-empty bin, so the global memory
//      sees (CTAs x 64) atomics instead of n.
// Lanes of one warp that hit the same bin in one ATOMS are serialised by the
// hardware (each gets its own old value): the result is exact, only slower.
// Integer adds commute, so the order in which CTAs flush does not matter.
// The host zeroes hist before the launch.

.kernel histogram
.param data, 4
.param hist, 4
.param n, 4
.regs 12
.shared 256                     // 64 bins x 4 bytes

    S2R R0, SR_TID.X;
    S2R R1, SR_NTID.X;

    // ---- 1. zero the shared bins: thread t clears bins t, t + ntid, ... --------
    MOV R2, R0;
zero_loop:
    ISETP.GE.U32 P0, R2, 64;
    @P0 BRA zero_done;
    SHL R3, R2, 2;
    STS [R3], RZ;               // RZ reads as 0
    IADD R2, R2, R1;
    BRA zero_loop;
zero_done:
    BAR.SYNC 0;                 // no thread counts before every bin is zero

    // ---- 2. count: grid-stride loop over the input ------------------------------
    S2R R2, SR_CTAID.X;
    IMAD R2, R2, R1, R0;        // i = ctaid * ntid + tid
    S2R R4, SR_NCTAID.X;
    IMUL R4, R4, R1;            // stride = threads in the grid
    LDC R5, [PARAM(n)];
    LDC R6, [PARAM(data)];
    MOV R9, 1;
count_loop:
    ISETP.GE.U32 P0, R2, R5;
    @P0 BRA count_done;
    SHL R7, R2, 2;
    IADD R7, R6, R7;
    LDG R8, [R7];               // v (coalesced: lanes read consecutive words)
    AND R8, R8, 63;
    SHL R8, R8, 2;              // byte offset of the bin
    ATOMS.ADD RZ, [R8], R9;     // sbins[v & 63] += 1; old value not needed
    IADD R2, R2, R4;
    BRA count_loop;
count_done:
    BAR.SYNC 0;                 // every count of this CTA is in

    // ---- 3. flush the non-empty bins into the global histogram ------------------
    LDC R6, [PARAM(hist)];
    MOV R2, R0;
flush_loop:
    ISETP.GE.U32 P0, R2, 64;
    @P0 BRA flush_done;
    SHL R3, R2, 2;
    LDS R8, [R3];
    ISETP.NE P1, R8, 0;         // skip empty bins: no global traffic for them
    IADD R7, R6, R3;
    @P1 ATOMG.ADD RZ, [R7], R8;
    IADD R2, R2, R1;
    BRA flush_loop;
flush_done:
    EXIT;
.end
