#include "sim/serial/board_sim.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>
#include <vector>

// The verilated top: baresm_icebreaker_top, or (BARESM_BOARD_LINK_TOP, the
// library baresm_board_sim_link) the link bring-up top, which has the same pins.
#ifdef BARESM_BOARD_LINK_TOP
#include "Vbaresm_icebreaker_link_top.h"
using VBoardTop = Vbaresm_icebreaker_link_top;
#else
#include "Vbaresm_icebreaker_top.h"
using VBoardTop = Vbaresm_icebreaker_top;
#endif
#include "verilated.h"

#ifndef BARESM_BOARD_CLK_PER_BIT
#error "BARESM_BOARD_CLK_PER_BIT: the board top's ClkPerBit (sim/serial/CMakeLists.txt)"
#endif

namespace baresm::serialsim {

#ifndef BARESM_BOARD_LINK_TOP
// The iCEBreaker's SPI flash (a W25Q128) as the firmware device's loader
// (rtl/fpga/baresm_flash_loader.sv) uses it: mode 0, commands 0xAB (release
// from deep power-down, which it starts in: until then, and for tRES1 after
// it, MISO reads 1s) and 0x03 (read from a 24-bit address for as long as the
// chip select stays low). It holds the file scripts/fw-flash-image.sh wrote
// at 1 MiB (kFwOffset); the rest of the chip reads 0xFF, as erased.
class SpiFlash {
 public:
  static constexpr uint32_t kFwOffset = 0x100000;
  static constexpr uint64_t kResCycles = 36;  // tRES1: 3 us at 12 MHz

  explicit SpiFlash(const std::string& image_path) {
    FILE* f = std::fopen(image_path.c_str(), "rb");
    if (!f) return;
    uint8_t buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) image_.insert(image_.end(), buf, buf + n);
    std::fclose(f);
  }

  // A read for the loader has begun (after the wake-up) and not yet ended.
  bool loading() const { return woken_ && !read_done_; }

  // After each clock cycle: the pins as the top drives them; returns MISO.
  bool step(uint64_t cycle, bool csn, bool sck, bool mosi) {
    if (csn) {
      if (reading_) read_done_ = true;
      bits_ = 0;
      nbytes_ = 0;
      reading_ = false;
      sck_ = sck;
      return miso_;
    }
    if (sck && !sck_) {  // rising: a bit in
      in_ = uint8_t(in_ << 1 | (mosi ? 1 : 0));
      if (++bits_ == 8) {
        bits_ = 0;
        byte_in(cycle, in_);
      }
    } else if (!sck && sck_ && reading_) {  // falling: a bit out
      miso_ = awake(cycle) ? (read_byte(addr_) >> (7 - out_bit_)) & 1 : true;
      if (++out_bit_ == 8) {
        out_bit_ = 0;
        addr_ = (addr_ + 1) & 0xFFFFFF;
      }
    }
    sck_ = sck;
    return miso_;
  }

 private:
  bool awake(uint64_t cycle) const { return woken_ && cycle >= woken_at_ + kResCycles; }
  uint8_t read_byte(uint32_t a) const {
    return (a >= kFwOffset && a - kFwOffset < image_.size()) ? image_[a - kFwOffset] : 0xFF;
  }
  void byte_in(uint64_t cycle, uint8_t b) {
    if (nbytes_ == 0) cmd_ = b;
    ++nbytes_;
    if (cmd_ == 0xAB && nbytes_ == 1) {
      if (!woken_) woken_at_ = cycle;
      woken_ = true;
    } else if (cmd_ == 0x03 && nbytes_ >= 2 && nbytes_ <= 4) {
      addr_ = (addr_ << 8 | b) & 0xFFFFFF;
      if (nbytes_ == 4) {
        reading_ = true;
        out_bit_ = 0;
      }
    }
  }

  std::vector<uint8_t> image_;
  bool sck_ = false, miso_ = true, woken_ = false, reading_ = false, read_done_ = false;
  uint64_t woken_at_ = 0;
  uint32_t bits_ = 0, nbytes_ = 0, out_bit_ = 0, addr_ = 0;
  uint8_t in_ = 0, cmd_ = 0;
};
#endif

struct BoardSim::Impl {
  VerilatedContext ctx;
  std::unique_ptr<VBoardTop> top;
  std::mt19937_64 rng;
  std::deque<uint8_t> to_dev;     // bytes waiting for the rx pin
  std::vector<uint8_t> to_host;   // bytes waiting for the port
  // rx pin driver
  uint32_t drv_shift = 0, drv_bits = 0, drv_cnt = 0;
  // tx pin monitor
  bool mon_active = false;
  uint32_t mon_cnt = 0, mon_bit = 0, mon_byte = 0;
};

uint32_t BoardSim::clk_per_bit() { return BARESM_BOARD_CLK_PER_BIT; }
uint32_t BoardSim::clock_khz() { return BARESM_BOARD_CLOCK_KHZ; }
uint32_t BoardSim::mem_bytes() { return BARESM_BOARD_MEM_BYTES; }
#ifdef BARESM_BOARD_FW_FLASH
bool BoardSim::fw_flash() { return true; }
#else
bool BoardSim::fw_flash() { return false; }
#endif

#ifndef BARESM_BOARD_FLASH_IMAGE
#define BARESM_BOARD_FLASH_IMAGE ""
#endif
std::string BoardSimOptions::default_flash_image() { return BARESM_BOARD_FLASH_IMAGE; }

BoardSim::BoardSim(const BoardSimOptions& o) : impl_(new Impl), o_(o) {
  impl_->top = std::make_unique<VBoardTop>(&impl_->ctx);
  impl_->rng.seed(o.seed);
  if (o.pty) {
    sim_fd_ = posix_openpt(O_RDWR | O_NOCTTY);
    if (sim_fd_ < 0 || grantpt(sim_fd_) != 0 || unlockpt(sim_fd_) != 0) {
      error_ = std::string("posix_openpt: ") + std::strerror(errno);
      return;
    }
    port_ = ptsname(sim_fd_);
    // Hold the slave open (raw) so the master never sees a hang-up before
    // the host opens it.
    slave_keep_ = ::open(port_.c_str(), O_RDWR | O_NOCTTY);
    termios t{};
    if (slave_keep_ >= 0 && tcgetattr(slave_keep_, &t) == 0) {
      cfmakeraw(&t);
      tcsetattr(slave_keep_, TCSANOW, &t);
    }
  } else {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
      error_ = std::string("socketpair: ") + std::strerror(errno);
      return;
    }
    sim_fd_ = sv[0];
    host_fd_ = sv[1];
  }
  fcntl(sim_fd_, F_SETFL, fcntl(sim_fd_, F_GETFL) | O_NONBLOCK);
  thread_ = std::thread([this] { run(); });
  while (!booted_) usleep(1000);
}

BoardSim::~BoardSim() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (sim_fd_ >= 0) ::close(sim_fd_);
  if (slave_keep_ >= 0) ::close(slave_keep_);
  if (host_fd_ >= 0) ::close(host_fd_);
  if (impl_->top) impl_->top->final();
}

int BoardSim::host_fd() {
  const int fd = host_fd_;
  host_fd_ = -1;
  return fd;
}

void BoardSim::set_faults(const LinkFaults& to_device, const LinkFaults& to_host) {
  std::lock_guard<std::mutex> l(mu_);
  o_.to_device = to_device;
  o_.to_host = to_host;
}

void BoardSim::unplug() { unplug_req_ = true; }
void BoardSim::unplug_when_busy(uint64_t busy_cycles) { unplug_busy_ = busy_cycles ? busy_cycles : 1; }

BoardSim::Stats BoardSim::stats() const {
  std::lock_guard<std::mutex> l(mu_);
  return stats_;
}

void BoardSim::run() {
  Impl& m = *impl_;
  VBoardTop& top = *m.top;
  const uint32_t cpb = BARESM_BOARD_CLK_PER_BIT;
  constexpr uint64_t kPowerOnCycles = 64;  // the board top's reset counter is 16
  const uint64_t quiet_cycles = uint64_t(BARESM_BOARD_TIMEOUT_CYCLES) + 40ull * cpb;
  bool open = true;
  uint64_t cycle = 0, last_line = 0, busy_run = 0;
  Stats local;
  LinkFaults fd_dev, fd_host;
  std::uniform_real_distribution<double> u(0.0, 1.0);

  // Applies the faults of one direction to a byte: 0, 1 or 2 copies out.
  auto inject = [&](uint8_t b, const LinkFaults& f, auto&& emit) {
    const double r = u(m.rng);
    if (r < f.drop) {
      ++local.dropped;
      return;
    }
    if (r < f.drop + f.flip) {
      ++local.flipped;
      b ^= uint8_t(1u << (m.rng() % 8));
    } else if (r < f.drop + f.flip + f.dup) {
      ++local.duplicated;
      emit(b);
    }
    emit(b);
  };
  auto close_link = [&] {
    if (!open) return;
    open = false;
    ::close(sim_fd_);
    sim_fd_ = -1;
    if (slave_keep_ >= 0) {
      ::close(slave_keep_);
      slave_keep_ = -1;
    }
    local.unplugged = true;
    std::lock_guard<std::mutex> l(mu_);
    stats_.unplugged = true;
  };

  top.clk_i = 0;
  top.btn_ni = 1;
  top.uart_rx_i = 1;
#ifndef BARESM_BOARD_LINK_TOP
  SpiFlash flash(o_.flash_image);
  top.flash_miso_i = 1;
#endif
  bool loading = false;   // the firmware device's loader reads the flash
  top.eval();

  while (!stop_) {
    {
      std::lock_guard<std::mutex> l(mu_);
      fd_dev = o_.to_device;
      fd_host = o_.to_host;
      local.cycles = cycle;
      local.led_fault = top.led_fault_o;
      local.led_link = top.led_link_o;
      stats_ = local;
    }
    if (unplug_req_) close_link();
    // The port: what the host wrote, and what the board sent.
    if (open) {
      uint8_t buf[256];
      for (;;) {
        const ssize_t n = ::read(sim_fd_, buf, sizeof buf);
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; i++) inject(buf[i], fd_dev, [&](uint8_t x) { m.to_dev.push_back(x); });
      }
      if (!m.to_host.empty()) {
        const ssize_t n = ::write(sim_fd_, m.to_host.data(), m.to_host.size());
        if (n > 0) m.to_host.erase(m.to_host.begin(), m.to_host.begin() + n);
      }
    }
    // Nothing to do: sleep on the port.
    const bool line_idle = m.to_dev.empty() && m.drv_bits == 0 && !m.mon_active && m.to_host.empty();
    if (line_idle && cycle - last_line > quiet_cycles && top.led_idle_o && !top.led_busy_o) {
      if (!open) {
        usleep(2000);
        continue;
      }
      pollfd p{sim_fd_, POLLIN, 0};
      ::poll(&p, 1, 5);
      continue;
    }
    // One bit time of clock cycles.
    for (uint32_t k = 0; k < cpb; k++) {
      if (!booted_ && cycle >= kPowerOnCycles && !loading) booted_ = true;
      if (m.drv_bits == 0 && !m.to_dev.empty() && booted_) {
        const uint8_t b = m.to_dev.front();
        m.to_dev.pop_front();
        m.drv_shift = (1u << 9) | (uint32_t(b) << 1);  // start 0, data LSB first, stop 1
        m.drv_bits = 10;
        m.drv_cnt = cpb;
        ++local.bytes_to_device;
      }
      top.uart_rx_i = m.drv_bits ? (m.drv_shift & 1) : 1;
      top.btn_ni = 1;
      top.clk_i = 1;
      top.eval();
      top.clk_i = 0;
      top.eval();
      ++cycle;
#ifndef BARESM_BOARD_LINK_TOP
      top.flash_miso_i = flash.step(cycle, top.flash_csn_o, top.flash_sck_o, top.flash_mosi_o);
      loading = flash.loading();
#endif
      if (m.drv_bits) {
        last_line = cycle;
        if (--m.drv_cnt == 0) {
          m.drv_shift >>= 1;
          --m.drv_bits;
          m.drv_cnt = cpb;
        }
      }
      // The tx pin, sampled in the middle of each bit.
      const bool tx = top.uart_tx_o;
      if (!m.mon_active) {
        if (!tx) {
          m.mon_active = true;
          m.mon_cnt = cpb / 2;
          m.mon_bit = 0;
          m.mon_byte = 0;
        }
      } else {
        last_line = cycle;
        if (--m.mon_cnt == 0) {
          m.mon_cnt = cpb;
          if (m.mon_bit == 0 && tx) {
            m.mon_active = false;  // a glitch, not a start bit
          } else if (m.mon_bit >= 1 && m.mon_bit <= 8) {
            m.mon_byte |= uint32_t(tx) << (m.mon_bit - 1);
          } else if (m.mon_bit == 9) {
            m.mon_active = false;
            if (tx) {
              ++local.bytes_to_host;
              if (open) inject(uint8_t(m.mon_byte), fd_host, [&](uint8_t x) { m.to_host.push_back(x); });
            } else {
              ++local.framing_errors;
            }
          }
          ++m.mon_bit;
        }
      }
      // Unplug once a launch has been running for a while.
      if (top.led_busy_o) {
        if (unplug_busy_ && ++busy_run >= unplug_busy_) {
          close_link();
          unplug_busy_ = 0;
        }
      } else {
        busy_run = 0;
      }
    }
  }
  std::lock_guard<std::mutex> l(mu_);
  local.cycles = cycle;
  stats_ = local;
}

}  // namespace baresm::serialsim
