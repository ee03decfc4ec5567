.kernel k
.regs 4
  S2R R0, SR_LANEID
  ISETP.LT.U32.OR P1, R0, 16, !P2
top:
  @P1 BRA skip
  IADD R1, R1, -1
skip: VOTE.ANY P0, !P1
  @P0 BRA top
  BAR.SYNC 15, 32
  EXIT
.end
.kernel k2
.regs 2
  SHFL.IDX R1, R0, 31, 1
  TRAP
.end
