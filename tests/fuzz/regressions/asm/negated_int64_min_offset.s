.kernel k
.regs 4
  LDG R1, [R2 - -9223372036854775808]
  EXIT
.end
