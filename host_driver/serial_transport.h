// The host driver's Transport (host_driver/transport.h) over a serial link to
// an FPGA board's UART bridge (rtl/fpga/baresm_uart_bridge.sv), speaking the
// framed protocol of docs/serial-protocol.md (codes and CRC from the
// generated host_driver/serial_protocol.h).
//
// Every access is one request frame and its answer. A request whose answer
// does not come (timeout), comes with a bad CRC, or is refused with an error
// the link may have caused (BAD_CRC, TIMEOUT, TOO_LONG) is sent again, with
// the same SEQ (the bridge executes a repeated write once), after the line
// has been quiet for a moment, at most max_attempts times; then, or when the
// port closes, the call returns TRANSPORT_ERROR and last_error() names the
// layer ("serial link") and the cause. An answer that passes its CRC is
// believed; one that does not is never used.
//
// Device time is the bridge's cycle counter (the STATUS frame) at the clock
// CONFIG5.CLOCK_KHZ reports, so the driver's timeouts count the board's
// time on a board and the simulated time against a simulation. wait_irq()
// returns on an IRQ event frame, and asks STATUS every poll_slice_ms for the
// line's level and the time (an event lost on the link costs one slice).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host_driver/transport.h"

namespace baresm::drv {

struct SerialOptions {
  uint32_t baud = 1000000;          // 12 MHz / 12: the board's default (rtl/fpga)
  int response_timeout_ms = 1000;   // wall clock from the last byte in (4x at most per attempt)
  int quiet_ms = 30;                // the line must be quiet this long before a retry
  int max_attempts = 8;             // tries of one request
  int poll_slice_ms = 20;           // wait_irq()/delay(): STATUS this often
};

// The baud rates a serial port can be set to here (POSIX termios B-constants),
// and them as "9600, 19200, ...".
bool serial_baud_supported(uint32_t baud);
std::string serial_baud_list();

class SerialTransport : public Transport {
 public:
  // Opens a serial port (a tty: raw 8N1 at o.baud, no flow control). nullptr
  // with *error set when it cannot be opened or configured.
  static std::unique_ptr<SerialTransport> open(const std::string& path, const SerialOptions& o,
                                               std::string* error);
  // Over a file descriptor the caller opened (a tty, a pty or a socket);
  // a tty is configured like open() does. own: close it in the destructor.
  SerialTransport(int fd, const SerialOptions& o, bool own);
  ~SerialTransport() override;

  // Starts a session: STATUS (the bridge forgets the last SEQ), then reads
  // CONFIG5.CLOCK_KHZ for device time. Call before handing the transport to
  // the driver (open() does).
  Status connect();

  const char* name() const override { return "serial"; }
  Status mmio_read32(uint32_t offset, uint32_t* value) override;
  Status mmio_write32(uint32_t offset, uint32_t value) override;
  Status mem_read(uint32_t addr, void* dst, uint32_t len) override;
  Status mem_write(uint32_t addr, const void* src, uint32_t len) override;
  Status wait_irq(uint64_t timeout_ns, bool* asserted) override;
  Status delay(uint64_t ns) override;
  uint64_t now_ns() override;

  // Why the last failing call failed ("serial link: ...").
  const std::string& last_error() const { return error_; }
  bool closed() const { return closed_; }

  struct Stats {
    uint64_t requests = 0, attempts = 0, retries = 0;
    uint64_t timeouts = 0, bad_crc = 0, device_errors = 0, stale = 0;
    uint64_t irq_events = 0, bytes_out = 0, bytes_in = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  struct Frame {
    uint8_t cmd = 0, seq = 0;
    std::vector<uint8_t> payload;
  };
  enum class Rx { FRAME, TIMEOUT, BAD_CRC, CLOSED };

  Status request(uint8_t cmd, const uint8_t* payload, size_t len, int rsp_len, std::vector<uint8_t>* rsp,
                 const std::string& what);
  Status status_frame(bool* irq, uint64_t* cycles);
  Rx read_frame(int timeout_ms, Frame* f);
  long find_frame(bool past_partial, bool* bad);  // 0: a good frame starts rx_; -1: none yet
  bool fill(int timeout_ms);  // reads what is there (waiting up to timeout_ms); false: closed
  bool send(const std::vector<uint8_t>& bytes);
  void drain_quiet();
  Status fail_closed(const std::string& what);
  uint64_t cycles_to_ns(uint64_t c) const;

  int fd_;
  bool own_;
  SerialOptions o_;
  uint8_t seq_ = 0;
  bool irq_level_ = false;
  bool closed_ = false;
  std::string closed_why_;
  uint32_t clock_khz_ = 12000;
  uint64_t last_ns_ = 0;
  std::vector<uint8_t> rx_;
  // A frame read while draining that answered the request in flight.
  bool have_early_ = false;
  Frame early_;
  std::string error_;
  Stats stats_;
};

}  // namespace baresm::drv
