/* The host link's frame engine in firmware (docs/serial-protocol.md): the
   UART's bytes (fw/dev/fwdev_hal.h hal_uart_*) parsed into frames, each
   answered as the RTL bridge rtl/fpga/baresm_uart_bridge.sv answers it. */
#ifndef BARESM_FWDEV_LINK_H
#define BARESM_FWDEV_LINK_H

#include <stdint.h>

/* Once, before the first link_poll. */
void link_init(void);

/* Takes the bytes received and executes every frame they complete (register
   accesses through link_reg, memory bursts through the SM's memory port);
   ends a partial frame after the link's timeout; sends an IRQ event when the
   interrupt line changed. Called from the command processor's main loop and
   between two warp-instructions (hal_service). Never waits on the host. */
void link_poll(void);

/* The interrupt line's level (an IRQ event goes out at the next link_poll
   when it differs from the last one sent; STATUS answers with it). */
void link_irq(uint32_t level);

/* The device's registers (fw/dev/fwcp.c): one access at byte offset off
   (below the register space, contract/regmap.def REG_SPACE). Returns a
   read's value (0 for a write). */
uint32_t link_reg(uint32_t off, uint32_t write, uint32_t wdata);

#endif
