// Branch shapes whose reconvergence points the assembler derives.
.kernel if_then
.regs 4
    S2R R0, SR_TID.X;
    ISETP.LT P0, R0, 16;
    @P0 BRA skip;
    IADD R1, R0, 1;
skip:
    EXIT;
.end

.kernel if_else
.regs 4
    S2R R0, SR_TID.X;
    ISETP.LT P0, R0, 16;
    @!P0 BRA else;
    IADD R1, R0, 1;
    BRA join;
else:
    IADD R1, R0, 2;
join:
    MOV R2, R1;
    EXIT;
.end

.kernel loop_break
.regs 4
    MOV R0, 0;
loop:
    IADD R0, R0, 1;
    ISETP.EQ P0, R0, 7;
    @P0 BRA out;            // break
    ISETP.LT P1, R0, 100;
    @P1 BRA loop;
out:
    EXIT;
.end
