// vec_add: c[i] = a[i] + b[i] over n f32 elements.
//
// The "hello world" of SIMT: one thread per element. Thread i of the grid
// reads a[i] and b[i] and writes c[i]; consecutive lanes of a warp touch
// consecutive 4-byte words, so each warp access is one contiguous 128-byte
// run that the coalescer turns into the fewest line requests.
//
// The grid may be 1D or 2D: the CTA index is linearised as
// ctaid.y * nctaid.x + ctaid.x, so the host can shape the grid however it
// likes (a 2D grid is how one covers more CTAs than one dimension allows).
// Threads past n (the grid is rounded up to whole CTAs) leave at once.

.kernel vec_add
.param a, 4                 // device address of a[]
.param b, 4                 // device address of b[]
.param c, 4                 // device address of c[]
.param n, 4                 // element count
.regs 8

    // ---- global thread index ------------------------------------------------
    S2R R0, SR_CTAID.Y;
    S2R R1, SR_NCTAID.X;
    S2R R2, SR_CTAID.X;
    IMAD R0, R0, R1, R2;        // cta = ctaid.y * nctaid.x + ctaid.x
    S2R R1, SR_NTID.X;
    S2R R2, SR_TID.X;
    IMAD R0, R0, R1, R2;        // i = cta * ntid.x + tid.x

    // ---- bounds check: the tail CTA has threads past the end ----------------
    // An EXIT under a guard removes just those lanes; the rest of the warp
    // carries on without any branch or reconvergence.
    LDC R3, [PARAM(n)];
    ISETP.GE.U32 P0, R0, R3;
    @P0 EXIT;

    // ---- c[i] = a[i] + b[i] ---------------------------------------------------
    SHL R4, R0, 2;              // byte offset of element i
    LDC R5, [PARAM(a)];
    IADD R5, R5, R4;
    LDG R5, [R5];               // a[i]: lanes read consecutive words (coalesced)
    LDC R6, [PARAM(b)];
    IADD R6, R6, R4;
    LDG R6, [R6];               // b[i]
    FADD R5, R5, R6;            // binary32, round to nearest even
    LDC R7, [PARAM(c)];
    IADD R7, R7, R4;
    STG [R7], R5;
    EXIT;
.end
