/* fw/dev/fwdev_hal.h on the board: the host-side I/O block of the whole
   device (contract/msm_io.def 0x300-0x3FF, rtl/msm/baresm_mdev_io.sv) and the
   cycle counter of the SM's block (rtl/msm/baresm_msm_io.sv). */
#include "fw/dev/fwdev_hal.h"
#include "fw/sm/msm_io.h"

uint32_t hal_uart_rx(void) { return REG(IO_UART_RX); }
void hal_uart_tx(uint32_t byte) { REG(IO_UART_TX) = byte; }
uint32_t hal_uart_tx_queued(void) { return REG(IO_UART_TX); }
void hal_link_led(uint32_t leds) { REG(IO_LINK_LED) = leds; }
void hal_status(uint32_t status) { REG(IO_STATUS) = status; }

/* High, low, high: a carry into the high word between the reads shows as a
   second high that differs, and the low word is read again. */
uint64_t hal_cycles(void) {
  uint32_t hi, lo;
  do {
    hi = REG(IO_NOW_HI);
    lo = REG(IO_NOW_LO);
  } while (REG(IO_NOW_HI) != hi);
  return (uint64_t)hi << 32 | lo;
}

void hal_run(uint32_t on) { REG(IO_RUN) = on; }
uint32_t hal_mem_bytes(void) { return REG(IO_MEM_BYTES); }
uint32_t hal_clock_khz(void) { return REG(IO_CLOCK_KHZ); }
