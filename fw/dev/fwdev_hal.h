/* The hardware the device firmware drives besides the SM's (fw/sm/fwsm_hal.h,
   which has the memory port): the host side of the whole device
   (rtl/msm/baresm_mdev.sv, its I/O block baresm_mdev_io). */
#ifndef BARESM_FWDEV_HAL_H
#define BARESM_FWDEV_HAL_H

#include <stdint.h>

/* The host's register access waiting, if any: 0 none, 1 a read, 2 a write
   (*off its byte offset, *wdata the value written). Each one taken is
   answered once with hal_mmio_answer (a write's answer is 0). */
uint32_t hal_mmio_take(uint32_t* off, uint32_t* wdata);
void hal_mmio_answer(uint32_t rdata);

/* Outputs: the interrupt line, and STATUS for the status port and LEDs. */
void hal_irq(uint32_t line);
void hal_status(uint32_t status);

/* The free-running cycle counter (its low word is fwsm_hal.h's hal_now). */
uint64_t hal_cycles(void);

/* A launch runs (the SM's busy output) or not. */
void hal_run(uint32_t on);

/* The device's parameters. */
uint32_t hal_mem_bytes(void);
uint32_t hal_clock_khz(void);

#endif
