/* The hardware the device firmware drives besides the SM's (fw/sm/fwsm_hal.h,
   which has the memory port): the host side of the whole device
   (rtl/msm/baresm_mdev.sv, its I/O block baresm_mdev_io). */
#ifndef BARESM_FWDEV_HAL_H
#define BARESM_FWDEV_HAL_H

#include <stdint.h>

/* The host link: the UART's bytes, each way through a FIFO of
   HAL_UART_FIFO bytes (fw/dev/link.c frames them). */
#define HAL_UART_FIFO 512
/* The oldest byte received, taken: bit 8 set when there was one, [7:0] the
   byte; bit 9 set when no byte has come for the link's partial-frame
   timeout (a device parameter). */
uint32_t hal_uart_rx(void);
/* Queues a byte to send (dropped when the FIFO is full). */
void hal_uart_tx(uint32_t byte);
/* The bytes queued to send: [9:0] in the FIFO, [16] one more waits for the
   UART (0: the UART has taken every byte). */
uint32_t hal_uart_tx_queued(void);
/* The link's LEDs: bit 0 frames are executed, bit 1 a frame was answered with ERROR. */
void hal_link_led(uint32_t leds);

/* STATUS, for the status port and LEDs. */
void hal_status(uint32_t status);

/* The free-running cycle counter (its low word is fwsm_hal.h's hal_now). */
uint64_t hal_cycles(void);

/* A launch runs (the SM's busy output) or not. */
void hal_run(uint32_t on);

/* The device's parameters. */
uint32_t hal_mem_bytes(void);
uint32_t hal_clock_khz(void);

#endif
