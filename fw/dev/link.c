/* The host link's frame engine as firmware (docs/serial-protocol.md): what the
   RTL bridge rtl/fpga/baresm_uart_bridge.sv does in hardware for the
   hardwired device, rule for rule, on the UART's bytes (two FIFOs in
   rtl/msm/baresm_mdev_io.sv). The frame table is contract/serial_protocol.def,
   read here as an X-macro.

   receiver  hunts for SYNC, collects CMD SEQ LEN, the payload and the CRC.
             A LEN above MAX_PAYLOAD (at once), a bad CRC, or a gap of the
             link's timeout inside a frame (the hardware counts it: UART_RX
             bit 9, the device's parameter TimeoutCycles) is answered with
             an ERROR frame; the receiver then hunts for the next SYNC.
   executor  runs a checked frame: STATUS, REG_READ/REG_WRITE (the command
             processor's register handler, link_reg), MEM_READ/MEM_WRITE
             (the SM's memory port, a 16-byte line at a time; byte strobes
             for a partial line), or an ERROR; then queues the answer. A
             REG_WRITE or MEM_WRITE whose SEQ equals the SEQ of the frame
             executed last is a repeat (its answer was lost): answered again,
             not executed again. STATUS forgets that SEQ.
   events    an IRQ frame (its own SEQ counter) whenever the interrupt line
             differs from the level last sent, after any answer.
   Bytes that arrive from a frame's end until the UART has taken the last
   byte of its answer are dropped, as the bridge drops them (the host waits
   for the answer; a burst of garbage costs as many ERROR answers as on the
   bridge): a byte taken from the receive FIFO while the answer is still
   queued came in meanwhile. STATUS's clock and the frame LEDs' time are the
   device's cycle counter (CYCLES). */
#include "fw/dev/link.h"
#include "fw/dev/fwdev_hal.h"
#include "fw/sm/fwsm_hal.h"

enum {
#define SER_CONST(name, v, d) S_##name = (v),
#define SER_CMD(name, code, req, rsp, rq, rs, d) C_##name = (code), C_##name##_REQ_LEN = (req), C_##name##_RSP_LEN = (rsp),
#define SER_EVT(name, code, len, p, d) V_##name = (code), V_##name##_LEN = (len),
#define SER_ERR(name, code, d) E_##name = (code),
#include "contract/serial_protocol.def"
#undef SER_CONST
#undef SER_CMD
#undef SER_EVT
#undef SER_ERR
};
enum {
#define BSM_CONST(name, v, d) RM_##name = (v),
#define BSM_REG(...)
#define BSM_QREG(...)
#define BSM_FIELD(...)
#include "contract/regmap.def"
#undef BSM_CONST
#undef BSM_REG
#undef BSM_QREG
#undef BSM_FIELD
};

/* A MEM_WRITE's payload: ADDR (4), then its data. */
#define MW_DATA 4
/* Called from several places, kept out of line: the image is small RAM (fw/dev/link.ld). */
#define ONCE __attribute__((noinline))

/* ---- CRC-16/CCITT-FALSE, a table built from the polynomial at start ------------------------- */
static uint16_t crc_tab[256];

static void crc_init(void) {
  uint32_t i, k, c;
  for (i = 0; i < 256; i++) {
    c = i << 8;
    for (k = 0; k < 8; k++) c = (c & 0x8000u) ? (c << 1) ^ S_CRC_POLY : c << 1;
    crc_tab[i] = (uint16_t)c;
  }
}
static uint32_t crc_byte(uint32_t crc, uint32_t b) { return ((crc << 8) ^ crc_tab[((crc >> 8) ^ b) & 0xFFu]) & 0xFFFFu; }

/* ---- state ---------------------------------------------------------------------------------- */
enum { R_HUNT, R_CMD, R_SEQ, R_LEN, R_PAY, R_CRC0, R_CRC1 };
static uint32_t rstate, r_cmd, r_seq, r_len, r_cnt, r_crc, r_crclo;
static uint32_t last_seq, last_valid;    /* the frame executed last (repeats) */
static uint32_t answering, behind;       /* an answer is queued (drop what comes in); bytes queued behind it */
static uint32_t irq_level, irq_sent, evt_seq;
static uint32_t led, led_ok_t, led_bad_t, led_hold;
static uint8_t pay[S_MAX_PAYLOAD];       /* the frame's payload */
static uint8_t ans[S_MAX_PAYLOAD];       /* the answer's */
static uint32_t mem_bytes;

void link_init(void) {
  crc_init();
  /* The frame LEDs stay lit about a quarter second (256 ms) after a frame. */
  led_hold = hal_clock_khz() << 8;
  mem_bytes = hal_mem_bytes();
  rstate = R_HUNT;
  last_valid = irq_level = irq_sent = evt_seq = led = 0;
  hal_link_led(0);
}

void link_irq(uint32_t level) { irq_level = level; }

/* ---- the transmitter ------------------------------------------------------------------------ */
static ONCE void send(uint32_t cmd, uint32_t seq, uint32_t len, const uint8_t* p) {
  uint32_t crc = S_CRC_INIT, k;
  /* Room for the whole frame (the FIFO drains at the line's rate whatever the host does). */
  while ((hal_uart_tx_queued() & 0xFFFFu) > HAL_UART_FIFO - 1 - S_OVERHEAD - len) {
  }
  hal_uart_tx(S_SYNC);
  hal_uart_tx(cmd);
  hal_uart_tx(seq);
  hal_uart_tx(len);
  crc = crc_byte(crc_byte(crc_byte(crc, cmd), seq), len);
  for (k = 0; k < len; k++) {
    hal_uart_tx(p[k]);
    crc = crc_byte(crc, p[k]);
  }
  hal_uart_tx(crc & 0xFFu);
  hal_uart_tx(crc >> 8);
}

/* An answer (not an event): the receiver drops bytes until the UART has
   taken its last byte, when no more than the bytes queued behind it wait. */
static void answer(uint32_t cmd, uint32_t len) {
  send(cmd, r_seq, len, ans);
  answering = 1;
  behind = 0;
}
static uint32_t answer_out(void) {
  const uint32_t q = hal_uart_tx_queued();
  return (q & 0xFFFFu) + (q >> 16) <= behind;
}

static ONCE void leds(uint32_t bit) {
  const uint32_t now = hal_now();
  if (bit & 1u) led_ok_t = now;
  else led_bad_t = now;
  led |= bit;
  hal_link_led(led);
}

/* The answer to the frame received: ERROR with a code, or its command's. */
static void fail(uint32_t code) {
  ans[0] = code;
  ans[1] = r_cmd;
  answer(V_ERROR, V_ERROR_LEN);
  leds(2);
}
static void done(uint32_t len) {
  answer(r_cmd | S_RSP_FLAG, len);
  if (r_cmd != C_STATUS) {
    last_seq = r_seq;
    last_valid = 1;
  }
  leds(1);
}

/* ---- the executor --------------------------------------------------------------------------- */
static uint32_t le32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static void put32(uint8_t* p, uint32_t v) {
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}

/* [addr, addr + n) lies in device memory. */
static uint32_t in_mem(uint32_t addr, uint32_t n) { return addr < mem_bytes && n <= mem_bytes - addr; }

/* n bytes at addr into (write = 0) or out of (write = 1) buf, a line at a time. */
static ONCE void mem_bytes_io(uint32_t addr, uint8_t* buf, uint32_t n, uint32_t write) {
  uint32_t line[FWSM_LINE_BYTES / 4];
  uint8_t* lb = (uint8_t*)line;
  uint32_t i = 0;
  while (i < n) {
    const uint32_t base = addr & ~(uint32_t)(FWSM_LINE_BYTES - 1);
    uint32_t k = addr & (FWSM_LINE_BYTES - 1), strb = 0;
    if (!write) hal_mem_read(base, line);
    for (; k < FWSM_LINE_BYTES && i < n; k++, i++) {
      if (write) {
        lb[k] = buf[i];
        strb |= 1u << k;
      } else {
        buf[i] = lb[k];
      }
    }
    if (write) hal_mem_write(base, line, strb);
    addr = base + FWSM_LINE_BYTES;
  }
}

static ONCE void execute(uint32_t err) {
  const uint32_t cmd = r_cmd, len = r_len;
  const uint32_t repeat = last_valid && r_seq == last_seq;
  if (err) {
    fail(err);
    return;
  }
  switch (cmd) {
    case C_STATUS: {
      const uint64_t c = hal_cycles();
      if (len != C_STATUS_REQ_LEN) break;
      last_valid = 0;
      ans[0] = irq_level;
      put32(ans + 1, (uint32_t)c);
      put32(ans + 5, (uint32_t)(c >> 32));
      done(C_STATUS_RSP_LEN);
      return;
    }
    case C_REG_READ:
    case C_REG_WRITE: {
      const uint32_t off = pay[0] | pay[1] << 8;
      if (len != (cmd == C_REG_READ ? C_REG_READ_REQ_LEN : C_REG_WRITE_REQ_LEN)) break;
      if (off >= RM_REG_SPACE) {
        fail(E_MEM_RANGE);
        return;
      }
      if (cmd == C_REG_READ) {
        put32(ans, link_reg(off, 0, 0));
        done(C_REG_READ_RSP_LEN);
      } else {
        if (!repeat) link_reg(off, 1, le32(pay + 2));
        done(C_REG_WRITE_RSP_LEN);
      }
      return;
    }
    case C_MEM_READ: {
      const uint32_t addr = le32(pay), n = pay[4];
      if (len != C_MEM_READ_REQ_LEN || n == 0 || n > S_MAX_BURST) break;
      if (!in_mem(addr, n)) {
        fail(E_MEM_RANGE);
        return;
      }
      mem_bytes_io(addr, ans, n, 0);
      done(n);
      return;
    }
    case C_MEM_WRITE: {
      const uint32_t addr = le32(pay);
      if (len <= MW_DATA) break;
      if (!in_mem(addr, len - MW_DATA)) {
        fail(E_MEM_RANGE);
        return;
      }
      if (!repeat) mem_bytes_io(addr, pay + MW_DATA, len - MW_DATA, 1);
      done(C_MEM_WRITE_RSP_LEN);
      return;
    }
    default:
      fail(E_BAD_CMD);
      return;
  }
  fail(E_BAD_LEN);
}

/* ---- the receiver --------------------------------------------------------------------------- */
static void frame_end(uint32_t err) {
  rstate = R_HUNT;
  execute(err);
}

static ONCE void rx(uint32_t b) {
  switch (rstate) {
    case R_HUNT:
      if (b == S_SYNC) {
        rstate = R_CMD;
        r_cmd = r_seq = 0;
        r_crc = S_CRC_INIT;
      }
      return;
    case R_CMD:
      r_cmd = b;
      rstate = R_SEQ;
      break;
    case R_SEQ:
      r_seq = b;
      rstate = R_LEN;
      break;
    case R_LEN:
      r_len = b;
      r_cnt = 0;
      if (b > S_MAX_PAYLOAD) {
        frame_end(E_TOO_LONG); /* dropped before any CRC check */
        return;
      }
      rstate = b ? R_PAY : R_CRC0;
      break;
    case R_PAY:
      pay[r_cnt++] = b;
      if (r_cnt == r_len) rstate = R_CRC0;
      break;
    case R_CRC0:
      r_crclo = b;
      rstate = R_CRC1;
      return;
    default: /* R_CRC1 */
      frame_end((b << 8 | r_crclo) != r_crc ? E_BAD_CRC : 0);
      return;
  }
  r_crc = crc_byte(r_crc, b);
}

/* The frame LEDs go out led_hold cycles after their last frame. */
static ONCE void leds_off(void) {
  const uint32_t now = hal_now();
  uint32_t l = led;
  if ((l & 1u) && now - led_ok_t >= led_hold) l &= ~1u;
  if ((l & 2u) && now - led_bad_t >= led_hold) l &= ~2u;
  if (l != led) {
    led = l;
    hal_link_led(l);
  }
}

void link_poll(void) {
  uint32_t r;
  while ((r = hal_uart_rx()) & 0x100u) {
    if (answering && !answer_out()) continue; /* came in while the answer was going out */
    answering = 0;
    rx(r & 0xFFu);
  }
  if (answering && answer_out()) answering = 0;
  /* A frame stopped part way: every byte taken, and none for the timeout. */
  if ((r & 0x200u) && rstate != R_HUNT) frame_end(E_TIMEOUT);
  if (irq_level != irq_sent) {
    irq_sent = irq_level;
    ans[0] = irq_level;
    send(V_IRQ, evt_seq++ & 0xFFu, V_IRQ_LEN, ans);
    behind += S_OVERHEAD + V_IRQ_LEN;
  }
  if (led) leds_off();
}
