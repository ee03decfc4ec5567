.kernel k
.regs 1
  EXIT
.end