// Every opcode and operand form at least once (assembler/disassembler round trip).
.kernel all_ops
.param a, 4
.param b, 8
.param c, 2
.param blob, 12, 16
.regs 63
.shared 4096
    NOP;
    MOV R1, R2;
    MOV R1, 0x12345678;
    MOV R62, -7;
    IADD R1, R2, R3;
    IADD R1, R2, 100;
    ISUB R1, RZ, 1;
    IMUL R4, R5, R6;
    IMULHI R4, R5, R6;
    IMULHI.U32 R4, R5, 0xFFFF;
    IMAD R1, R2, R3, R4;
    IMIN R1, R2, R3;
    IMIN.U32 R1, R2, 5;
    IMAX R1, R2, -5;
    IMAX.U32 R1, R2, R3;
    IABS R1, R2;
    AND R1, R2, 0xFF;
    OR R1, R2, R3;
    XOR R1, R2, 0x80000000;
    NOT R1, R2;
    SHL R1, R2, 3;
    SHR R1, R2, R3;
    SHRA R1, R2, 31;
    POPC R1, R2;
    CLZ R1, R2;
    ISETP.EQ P0, R1, R2;
    ISETP.NE.U32.OR P1, R1, 7, !P0;
    ISETP.LT.XOR P2, R1, -1, P1;
    ISETP.LE.AND P3, R1, R2;
    ISETP.GT.U32 P4, R1, R2;
    ISETP.GE P5, R1, R2, P6;
    SEL R1, R2, R3, P0;
    SEL R1, R2, 42, !P5;
    S2R R1, SR_TID.X;
    S2R R2, SR_NCTAID.Z;
    S2R R3, SR_CLOCKHI;
    FADD R1, R2, R3;
    FADD R1, R2, 1.5;
    FSUB R1, R2, -2e-3;
    FMUL R1, R2, 1.0f;
    FFMA R1, R2, R3, R4;
    FMIN R1, R2, inf;
    FMAX R1, R2, -inf;
    FNEG R1, R2;
    FABS R1, R2;
    FSETP.EQ P0, R1, R2;
    FSETP.NAN.OR P1, R1, 0.0;
    FSETP.GEU.XOR P2, R1, R2, !P1;
    FSETP.NUM P3, R1, R2;
    I2F R1, R2;
    I2F.U32 R1, R2;
    F2I R1, R2;
    F2I.U32 R1, R2;
    LDG R1, [R2];
    LDG.U8 R1, [R2 + 1];
    LDG.S8 R1, [R2 - 1];
    LDG.U16 R1, [R2 + 0x10];
    LDG.S16 R1, [0x100];
    LDS R1, [R3 + 128];
    LDC R1, [PARAM(a)];
    LDC R1, [PARAM(blob)];
    LDC.U16 R1, [PARAM(c)];
    LDC R1, [R2 + 4];
    STG [R2], R1;
    STG.8 [R2 + 3], R1;
    STG.16 [R2 - 2], R1;
    STS [R4 + 8], R5;
    STS.8 [12], R5;
    ATOMG.ADD R1, [R2], R3;
    ATOMG.MIN.U32 R1, [R2 + 4], R3;
    ATOMG.MAX R1, [R2 - 524288], R3;
    ATOMS.EXCH R1, [R2 + 524287], R3;
    ATOMS.CAS R1, [R2], R3, R4;
    ATOMS.AND R1, [R2], R3;
    ATOMS.OR R1, [R2], R3;
    ATOMS.XOR R1, [R2], R3;
    VOTE.ANY P0, P1;
    VOTE.ALL P2, !P3;
    VOTE.BALLOT R1, PT;
    SHFL.IDX R1, R2, R3;
    SHFL.UP R1, R2, 1, 16;
    SHFL.DOWN R1, R2, R3, 8;
    SHFL.BFLY R1, R2, 4, 1;
    BAR.SYNC 0;
    BAR.SYNC 15, 64;
    @P0 TRAP;
    @!P1 EXIT;
    @PT BRA end;
    .word 0x000000000000007F
end:
    EXIT;
.end
