.kernel 9
.regs 0
.param
  FOO R1
  @ BRA nowhere
.end
.end
