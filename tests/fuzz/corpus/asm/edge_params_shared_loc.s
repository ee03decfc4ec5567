.kernel k
.param a, 1
.param b, 8, 16
.regs 63
.shared 65536
.loc 7, 3
  LDC R1, [PARAM(b)]
  LDG.S16 R2, [R1 - 0x10]
  STS.8 [R2 + 4], R62
  @!PT EXIT
  .word 0xFFFFFFFFFFFFFFFF
  EXIT
.end
