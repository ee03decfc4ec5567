# Two kernels, raw words, explicit line info, odd spacing.
.kernel first
.param x, 1
.param y, 4
.param z, 2, 8
.regs 2
.shared 16
  .loc 1000, 3
  MOV R0, 1 ; MOV R1, R0
  @P0 EXIT
lab1: lab2: @!PT BRA lab1
  EXIT
.end
.kernel second
.regs 1
  .word 0xFFFFFFFFFFFFFFFF
  EXIT;   // done
.end
