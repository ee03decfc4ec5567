// reduce_sum: out[ctaid.x] = sum of in[base .. base + 2*ntid), i32, wrapping.
//
// One partial sum per CTA; the host launches the same kernel again on the
// partials until a single value is left (a second launch is the simplest
// grid-wide synchronisation there is). Integers make the result exact
// whatever order the additions happen in, so it can be compared bit for bit.
//
// Inside a CTA: the classic shared-memory tree.
//   1. Each thread adds two elements that are ntid apart (halves the number
//      of threads that idle in the first tree step) and stores its sum to
//      sdata[tid].
//   2. log2(ntid) steps: threads tid < s add sdata[tid + s] into sdata[tid],
//      s = ntid/2, ntid/4, ..., 1. A BAR.SYNC after each step makes the
//      stores of one step visible to the loads of the next, across warps.
//      Sequential addressing (tid and tid + s) keeps the active threads
//      packed into the lowest warps, and consecutive lanes read consecutive
//      words: no shared-memory bank conflicts.
//   3. Thread 0 writes the CTA's total.
// Requirements: ntid.x a power of two, at most 256 (sdata is 256 words).
//
// The step loop is uniform (s depends only on ntid), so every warp runs the
// same number of BAR.SYNCs; the `tid < s` test is done with guards rather
// than a branch, so warps never diverge around the barrier.

.kernel reduce_sum
.param in, 4
.param out, 4
.param n, 4
.regs 12
.shared 1024

    S2R R0, SR_TID.X;
    S2R R1, SR_NTID.X;
    S2R R2, SR_CTAID.X;
    IMUL R3, R2, R1;
    SHL R3, R3, 1;              // base = ctaid * 2 * ntid
    IADD R3, R3, R0;            // i = base + tid
    LDC R4, [PARAM(n)];
    LDC R5, [PARAM(in)];

    // ---- step 1: sum = in[i] + in[i + ntid], 0 past the end -------------------
    MOV R6, 0;
    ISETP.LT.U32 P0, R3, R4;
    SHL R7, R3, 2;
    IADD R7, R5, R7;            // &in[i]
    @P0 LDG R6, [R7];           // a false guard means no access at all: no fault
    IADD R8, R3, R1;
    ISETP.LT.U32 P1, R8, R4;
    SHL R9, R1, 2;
    IADD R7, R7, R9;            // &in[i + ntid]
    @P1 LDG R9, [R7];
    @P1 IADD R6, R6, R9;
    SHL R10, R0, 2;             // &sdata[tid]
    STS [R10], R6;
    BAR.SYNC 0;                 // every partial is in shared memory

    // ---- step 2: the tree; R6 always equals sdata[tid] ------------------------
    SHR R1, R1, 1;              // s = ntid / 2
tree:
    ISETP.EQ P0, R1, 0;
    @P0 BRA tree_done;          // uniform: the whole CTA leaves together
    ISETP.LT.U32 P1, R0, R1;    // tid < s
    SHL R11, R1, 2;
    IADD R11, R10, R11;         // &sdata[tid + s]
    @P1 LDS R9, [R11];
    @P1 IADD R6, R6, R9;
    @P1 STS [R10], R6;
    BAR.SYNC 0;                 // step done before anyone reads the next level
    SHR R1, R1, 1;
    BRA tree;
tree_done:

    // ---- step 3: thread 0 publishes the CTA total -------------------------------
    ISETP.NE P0, R0, 0;
    @P0 EXIT;
    LDC R5, [PARAM(out)];
    SHL R7, R2, 2;
    IADD R5, R5, R7;
    STG [R5], R6;
    EXIT;
.end
