// fault_illegal_opcode: one thread reaches a word whose opcode is not in the
// opcode table -> fault ILLEGAL_INSTR.
//
// `.word` places a raw 64-bit word in the code, as a corrupted binary or a
// jump into data would. Its opcode field (bits 6:0) is 0x7F, which no
// instruction uses, so the decoder rejects it. A word that does not decode
// has no guard either, so the only way to have exactly one lane fault is to
// let only that lane reach it: every other thread exits first.

.kernel fault_illegal_opcode
.param target_cta, 4
.param target_tid, 4
.regs 4

    S2R R0, SR_CTAID.X;
    LDC R1, [PARAM(target_cta)];
    S2R R2, SR_TID.X;
    LDC R3, [PARAM(target_tid)];
    ISETP.EQ P0, R0, R1;
    ISETP.EQ.AND P0, R2, R3, P0;    // P0: this is the chosen thread
    @!P0 EXIT;
    .word 0x000000000000007f;       // opcode 0x7F: not an instruction
    EXIT;
.end
