// The iCEBreaker board in simulation: the verilated baresm_icebreaker_top
// (rtl/fpga, the same RTL as the bitstream, UART pins included) running in
// its own thread, free-running like the board, with a bit-level UART model on
// its pins at the build's clocks per bit (BARESM_BOARD_CLK_PER_BIT), and the
// other end of the line on a pseudo-terminal (the host opens port(), as it
// would /dev/ttyUSB1) or a socket pair (host_fd()). The host side is the real
// drv::SerialTransport.
//
// Link faults are injected on the bytes, seeded, in either direction: a byte
// dropped, one bit flipped, or the byte sent twice. unplug() closes the line
// (the host then sees the port close); unplug_when_busy() does it once a
// launch has run for a given number of cycles.
//
// The constructor returns once the board has booted: after its power-on
// reset and, on the firmware device, once its loader has read the firmware
// from the SPI flash (a model of the board's W25Q128 holding
// BoardSimOptions::flash_image) -- as a host opens the port after the board
// was plugged in.
//
// When nothing is on the line, the bridge is between frames and the device
// is idle, the thread sleeps on the port instead of running clock cycles
// (device time stands still then; nothing could observe it move).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace baresm::serialsim {

struct LinkFaults {
  double drop = 0, flip = 0, dup = 0;  // probability per byte of each
};

struct BoardSimOptions {
  bool pty = true;      // false: a socket pair
  uint64_t seed = 1;    // of the fault injection
  LinkFaults to_device, to_host;
  // The SPI flash's firmware image (scripts/fw-flash-image.sh; the firmware
  // device reads it at reset): the build's fw/dev image by default; a path
  // that does not exist is an erased flash.
  std::string flash_image = default_flash_image();
  static std::string default_flash_image();
};

class BoardSim {
 public:
  explicit BoardSim(const BoardSimOptions& o = {});
  ~BoardSim();
  BoardSim(const BoardSim&) = delete;
  BoardSim& operator=(const BoardSim&) = delete;

  // The pseudo-terminal's slave path ("" with a socket pair).
  const std::string& port() const { return port_; }
  // The socket pair's host end (the caller owns it); -1 with a pty.
  int host_fd();
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void set_faults(const LinkFaults& to_device, const LinkFaults& to_host);
  void unplug();
  void unplug_when_busy(uint64_t busy_cycles);

  static uint32_t clk_per_bit();
  static uint32_t clock_khz();
  static uint32_t mem_bytes();   // the top's device memory
  static bool fw_flash();        // its device reads its firmware from the flash

  struct Stats {
    uint64_t cycles = 0, bytes_to_device = 0, bytes_to_host = 0;
    uint64_t dropped = 0, flipped = 0, duplicated = 0, framing_errors = 0;
    bool unplugged = false;
    bool led_fault = false, led_link = false;  // as of the last cycle run
  };
  Stats stats() const;

 private:
  struct Impl;
  void run();
  std::unique_ptr<Impl> impl_;
  std::string port_, error_;
  int sim_fd_ = -1, host_fd_ = -1, slave_keep_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  BoardSimOptions o_;
  Stats stats_;
  std::atomic<bool> unplug_req_{false};
  std::atomic<bool> booted_{false};
  std::atomic<uint64_t> unplug_busy_{0};
};

}  // namespace baresm::serialsim
