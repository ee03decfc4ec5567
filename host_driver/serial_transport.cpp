#include "host_driver/serial_transport.h"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "contract/regs.h"
#include "host_driver/serial_protocol.h"

namespace baresm::drv {

namespace ser = serial;

namespace {

using Clock = std::chrono::steady_clock;

int ms_left(Clock::time_point deadline) {
  const auto d = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return d < 0 ? 0 : int(d);
}

struct BaudRate {
  uint32_t baud;
  speed_t c;
};
const BaudRate kRates[] = {{9600, B9600},       {19200, B19200},     {38400, B38400},     {57600, B57600},
                           {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
                           {921600, B921600},   {1000000, B1000000}, {1500000, B1500000}, {2000000, B2000000},
                           {3000000, B3000000}};

bool baud_constant(uint32_t baud, speed_t* out) {
  for (const BaudRate& b : kRates)
    if (b.baud == baud) {
      *out = b.c;
      return true;
    }
  return false;
}

// Raw 8N1, no flow control, at baud. A non-tty (a socket) is left alone.
bool configure_tty(int fd, uint32_t baud, std::string* error) {
  if (!isatty(fd)) return true;
  termios t{};
  if (tcgetattr(fd, &t) != 0) {
    *error = std::string("serial link: tcgetattr: ") + std::strerror(errno);
    return false;
  }
  cfmakeraw(&t);
  t.c_cflag &= ~(CSTOPB | PARENB | CRTSCTS);
  t.c_cflag |= CS8 | CLOCAL | CREAD;
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  speed_t sp;
  if (!baud_constant(baud, &sp)) {
    *error = "serial link: baud rate " + std::to_string(baud) + " is not one termios supports";
    return false;
  }
  cfsetispeed(&t, sp);
  cfsetospeed(&t, sp);
  if (tcsetattr(fd, TCSANOW, &t) != 0) {
    *error = std::string("serial link: tcsetattr: ") + std::strerror(errno);
    return false;
  }
  return true;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

}  // namespace

bool serial_baud_supported(uint32_t baud) {
  speed_t unused;
  return baud_constant(baud, &unused);
}

std::string serial_baud_list() {
  std::string l;
  for (const BaudRate& b : kRates) l += (l.empty() ? "" : ", ") + std::to_string(b.baud);
  return l;
}

std::unique_ptr<SerialTransport> SerialTransport::open(const std::string& path, const SerialOptions& o,
                                                       std::string* error) {
  std::string dummy;
  if (!error) error = &dummy;
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *error = "serial link: cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  if (!configure_tty(fd, o.baud, error)) {
    ::close(fd);
    return nullptr;
  }
  auto t = std::make_unique<SerialTransport>(fd, o, true);
  if (!ok(t->connect())) {
    *error = t->last_error() + " (port " + path + ")";
    return nullptr;
  }
  return t;
}

SerialTransport::SerialTransport(int fd, const SerialOptions& o, bool own) : fd_(fd), own_(own), o_(o) {
  const int fl = fcntl(fd_, F_GETFL);
  if (fl >= 0) fcntl(fd_, F_SETFL, fl | O_NONBLOCK);
  std::string err;
  if (!configure_tty(fd_, o_.baud, &err)) error_ = err;
}

SerialTransport::~SerialTransport() {
  if (own_ && fd_ >= 0) ::close(fd_);
}

Status SerialTransport::fail_closed(const std::string& what) {
  error_ = "serial link: " + what + ": the port closed (" + closed_why_ + ")";
  return Status::TRANSPORT_ERROR;
}

bool SerialTransport::fill(int timeout_ms) {
  if (closed_) return false;
  pollfd p{fd_, POLLIN, 0};
  const int r = ::poll(&p, 1, timeout_ms);
  if (r < 0) {
    if (errno == EINTR) return true;
    closed_ = true;
    closed_why_ = std::string("poll: ") + std::strerror(errno);
    return false;
  }
  if (r == 0) return true;
  uint8_t buf[512];
  for (;;) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n > 0) {
      rx_.insert(rx_.end(), buf, buf + n);
      stats_.bytes_in += uint64_t(n);
      continue;
    }
    if (n == 0 && isatty(fd_)) break;  // a tty in raw mode (VMIN 0) reads 0 when empty
    if (n == 0) {
      closed_ = true;
      closed_why_ = "end of file";
      return false;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) break;
    if (errno == EINTR) continue;
    closed_ = true;
    closed_why_ = std::string("read: ") + std::strerror(errno);
    return false;
  }
  if (p.revents & (POLLHUP | POLLERR | POLLNVAL) && !(p.revents & POLLIN)) {
    closed_ = true;
    closed_why_ = "hang-up";
    return false;
  }
  return true;
}

bool SerialTransport::send(const std::vector<uint8_t>& bytes) {
  size_t off = 0;
  while (off < bytes.size()) {
    if (closed_) return false;
    const ssize_t n = ::write(fd_, bytes.data() + off, bytes.size() - off);
    if (n > 0) {
      off += size_t(n);
      stats_.bytes_out += uint64_t(n);
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, o_.response_timeout_ms) <= 0 || (p.revents & (POLLHUP | POLLERR))) {
        closed_ = true;
        closed_why_ = "write: the port does not drain";
        return false;
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    closed_ = true;
    closed_why_ = std::string("write: ") + std::strerror(errno);
    return false;
  }
  return true;
}

// Finds a complete frame with a good CRC in what is buffered and moves it to
// the front of rx_ (0), or -1 when there is none yet. Frames start at a SYNC
// byte; a SYNC whose frame is known bad (LEN too long, CRC wrong) is dropped
// and *bad set.
//  - While the line is live (past_partial false) the earliest SYNC wins: a
//    partial frame there is waited for, since a SYNC inside its payload must
//    not be taken for a frame.
//  - Once the line has been quiet (past_partial true) a partial frame will
//    never complete (a byte of it was lost, or its LEN was corrupted and
//    promises bytes that never come): it is skipped, so it cannot hide the
//    good frames behind it, and dropped when nothing good follows.
long SerialTransport::find_frame(bool past_partial, bool* bad) {
  size_t i = 0;
  while (i < rx_.size()) {
    if (rx_[i] != ser::kSync) {
      ++i;
      continue;
    }
    if (i + 4 > rx_.size()) break;
    const size_t len = rx_[i + 3];
    if (len <= ser::kMaxPayload && i + len + ser::kOverhead > rx_.size()) {
      if (!past_partial) break;  // a partial frame: wait for the rest
      ++i;
      continue;
    }
    if (len <= ser::kMaxPayload) {
      const uint16_t crc = ser::crc16(rx_.data() + i + 1, 3 + len);
      if (crc == uint16_t(rx_[i + 4 + len] | (rx_[i + 5 + len] << 8))) {
        rx_.erase(rx_.begin(), rx_.begin() + long(i));
        return 0;
      }
      ++stats_.bad_crc;
    }
    *bad = true;
    rx_.erase(rx_.begin(), rx_.begin() + long(i + 1));
    i = 0;
  }
  rx_.erase(rx_.begin(), rx_.begin() + long(past_partial ? rx_.size() : i));
  return -1;
}

// The next frame from the link, or BAD_CRC when only bad ones came.
SerialTransport::Rx SerialTransport::read_frame(int timeout_ms, Frame* f) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  bool bad = false;
  for (;;) {
    if (find_frame(false, &bad) == 0) {
      const size_t len = rx_[3];
      f->cmd = rx_[1];
      f->seq = rx_[2];
      f->payload.assign(rx_.begin() + 4, rx_.begin() + 4 + long(len));
      rx_.erase(rx_.begin(), rx_.begin() + long(len + ser::kOverhead));
      if (f->cmd == uint8_t(ser::Evt::IRQ) && !f->payload.empty()) {
        irq_level_ = f->payload[0] & 1;
        ++stats_.irq_events;
      }
      return Rx::FRAME;
    }
    if (bad) return Rx::BAD_CRC;
    const int left = ms_left(deadline);
    if (left == 0) return Rx::TIMEOUT;
    if (!fill(left)) return Rx::CLOSED;
  }
}

// Waits until the line has been quiet for quiet_ms (a bridge that timed out
// a partial frame answers meanwhile). Complete frames stay buffered: the
// next read_frame() sees them (a late answer to the request in flight still
// counts; anything else is skipped there). A partial frame left at the end
// will never complete once the line is quiet: it is dropped.
void SerialTransport::drain_quiet() {
  for (int i = 0; i < 100; i++) {
    const uint64_t in_before = stats_.bytes_in;
    if (!fill(o_.quiet_ms)) return;
    if (stats_.bytes_in == in_before) break;
  }
  bool bad = false;
  find_frame(true, &bad);
}

Status SerialTransport::request(uint8_t cmd, const uint8_t* payload, size_t len, int rsp_len,
                                std::vector<uint8_t>* rsp, const std::string& what) {
  if (closed_) return fail_closed(what);
  ++stats_.requests;
  const uint8_t seq = ++seq_;
  std::vector<uint8_t> frame;
  frame.reserve(len + ser::kOverhead);
  frame.push_back(uint8_t(ser::kSync));
  frame.push_back(cmd);
  frame.push_back(seq);
  frame.push_back(uint8_t(len));
  frame.insert(frame.end(), payload, payload + len);
  const uint16_t crc = ser::crc16(frame.data() + 1, 3 + len);
  frame.push_back(uint8_t(crc & 0xFF));
  frame.push_back(uint8_t(crc >> 8));
  const uint8_t want = uint8_t(cmd | ser::kRspFlag);

  std::string last = "no attempt";
  for (int attempt = 0; attempt < o_.max_attempts; attempt++) {
    if (attempt) {
      ++stats_.retries;
      drain_quiet();
    }
    ++stats_.attempts;
    if (!send(frame)) return fail_closed(what);
    // The timeout counts from the last byte that came in, not from the send:
    // a long answer still arriving (a slow link, a simulated board on a busy
    // host) is not cut off; a line that keeps chattering is, at 4x.
    const auto timeout = std::chrono::milliseconds(o_.response_timeout_ms);
    const auto hard_deadline = Clock::now() + 4 * timeout;
    auto deadline = Clock::now() + timeout;
    uint64_t bytes_seen = stats_.bytes_in;
    bool retry = false;
    while (!retry) {
      Frame f;
      switch (read_frame(ms_left(deadline), &f)) {
        case Rx::CLOSED:
          return fail_closed(what);
        case Rx::TIMEOUT:
          if (stats_.bytes_in != bytes_seen && Clock::now() < hard_deadline) {
            bytes_seen = stats_.bytes_in;
            deadline = std::min(Clock::now() + timeout, hard_deadline);
            break;
          }
          ++stats_.timeouts;
          last = "no answer (nothing came in for " + std::to_string(o_.response_timeout_ms) + " ms)";
          retry = true;
          break;
        case Rx::BAD_CRC:
          last = "an answer failed its CRC";
          retry = true;
          break;
        case Rx::FRAME:
          if (f.cmd == uint8_t(ser::Evt::IRQ)) break;
          if (f.cmd == uint8_t(ser::Evt::ERROR) && f.payload.size() == 2) {
            const uint8_t code = f.payload[0];
            ++stats_.device_errors;
            const bool link = code == uint8_t(ser::Err::BAD_CRC) || code == uint8_t(ser::Err::TIMEOUT) ||
                              code == uint8_t(ser::Err::TOO_LONG);
            if (link) {
              last = std::string("the bridge answered ") + ser::err_name(code) + " (" + ser::err_text(code) + ")";
              retry = true;
            } else if (f.seq == seq && f.payload[1] == cmd) {
              error_ = "serial link: " + what + ": the bridge refused it: " + ser::err_name(code) + " (" +
                       ser::err_text(code) + ")";
              return Status::TRANSPORT_ERROR;
            } else {
              ++stats_.stale;
            }
            break;
          }
          if (f.cmd == want && f.seq == seq) {
            if (rsp_len >= 0 && f.payload.size() != size_t(rsp_len)) {
              last = "an answer of " + std::to_string(f.payload.size()) + " bytes, not " + std::to_string(rsp_len);
              retry = true;
              break;
            }
            if (rsp) *rsp = std::move(f.payload);
            return Status::OK;
          }
          ++stats_.stale;  // an answer to an earlier attempt or request
          break;
      }
    }
  }
  error_ = "serial link: " + what + ": no valid answer after " + std::to_string(o_.max_attempts) +
           " attempts (last: " + last + ")";
  return Status::TRANSPORT_ERROR;
}

Status SerialTransport::status_frame(bool* irq, uint64_t* cycles) {
  std::vector<uint8_t> r;
  const Status s = request(uint8_t(ser::Cmd::STATUS), nullptr, 0, 9, &r, "STATUS");
  if (!ok(s)) return s;
  irq_level_ = r[0] & 1;
  uint64_t c = 0;
  for (int i = 0; i < 8; i++) c |= uint64_t(r[1 + i]) << (8 * i);
  if (irq) *irq = irq_level_;
  if (cycles) *cycles = c;
  last_ns_ = cycles_to_ns(c);
  return Status::OK;
}

uint64_t SerialTransport::cycles_to_ns(uint64_t c) const {
  const uint64_t khz = clock_khz_ ? clock_khz_ : 1;
  return uint64_t((unsigned __int128)c * 1000000 / khz);
}

Status SerialTransport::connect() {
  if (!error_.empty()) return Status::TRANSPORT_ERROR;  // the tty could not be configured
  Status s = status_frame(nullptr, nullptr);
  if (!ok(s)) return s;
  uint32_t khz = 0;
  s = mmio_read32(regs::CONFIG5, &khz);
  if (!ok(s)) return s;
  if (khz) clock_khz_ = khz;
  return Status::OK;
}

Status SerialTransport::mmio_read32(uint32_t offset, uint32_t* value) {
  if (!value) return Status::INVALID_VALUE;
  const uint8_t p[2] = {uint8_t(offset), uint8_t(offset >> 8)};
  std::vector<uint8_t> r;
  const Status s = request(uint8_t(ser::Cmd::REG_READ), p, 2, 4, &r, "REG_READ " + hex(offset));
  if (!ok(s)) return s;
  *value = uint32_t(r[0]) | uint32_t(r[1]) << 8 | uint32_t(r[2]) << 16 | uint32_t(r[3]) << 24;
  return Status::OK;
}

Status SerialTransport::mmio_write32(uint32_t offset, uint32_t value) {
  const uint8_t p[6] = {uint8_t(offset), uint8_t(offset >> 8), uint8_t(value), uint8_t(value >> 8),
                        uint8_t(value >> 16), uint8_t(value >> 24)};
  return request(uint8_t(ser::Cmd::REG_WRITE), p, 6, 0, nullptr, "REG_WRITE " + hex(offset));
}

Status SerialTransport::mem_read(uint32_t addr, void* dst, uint32_t len) {
  if (!dst && len) return Status::INVALID_VALUE;
  auto* out = static_cast<uint8_t*>(dst);
  while (len) {
    const uint32_t n = len < ser::kMaxBurst ? len : ser::kMaxBurst;
    const uint8_t p[5] = {uint8_t(addr), uint8_t(addr >> 8), uint8_t(addr >> 16), uint8_t(addr >> 24), uint8_t(n)};
    std::vector<uint8_t> r;
    const Status s = request(uint8_t(ser::Cmd::MEM_READ), p, 5, int(n), &r, "MEM_READ " + hex(addr));
    if (!ok(s)) return s;
    std::memcpy(out, r.data(), n);
    out += n;
    addr += n;
    len -= n;
  }
  return Status::OK;
}

Status SerialTransport::mem_write(uint32_t addr, const void* src, uint32_t len) {
  if (!src && len) return Status::INVALID_VALUE;
  const auto* in = static_cast<const uint8_t*>(src);
  std::vector<uint8_t> p;
  while (len) {
    const uint32_t n = len < ser::kMaxBurst ? len : ser::kMaxBurst;
    p.assign({uint8_t(addr), uint8_t(addr >> 8), uint8_t(addr >> 16), uint8_t(addr >> 24)});
    p.insert(p.end(), in, in + n);
    const Status s = request(uint8_t(ser::Cmd::MEM_WRITE), p.data(), p.size(), 0, nullptr, "MEM_WRITE " + hex(addr));
    if (!ok(s)) return s;
    in += n;
    addr += n;
    len -= n;
  }
  return Status::OK;
}

Status SerialTransport::wait_irq(uint64_t timeout_ns, bool* asserted) {
  bool irq = false;
  uint64_t c0 = 0;
  Status s = status_frame(&irq, &c0);
  if (!ok(s)) return s;
  const uint64_t t0 = cycles_to_ns(c0);
  for (;;) {
    if (irq) break;
    // Events until the slice ends (the IRQ event sets irq_level_).
    const auto slice_end = Clock::now() + std::chrono::milliseconds(o_.poll_slice_ms);
    Frame f;
    while (!irq_level_) {
      const Rx r = read_frame(ms_left(slice_end), &f);
      if (r == Rx::CLOSED) return fail_closed("waiting for the interrupt");
      if (r == Rx::TIMEOUT) break;
    }
    if (irq_level_) {
      irq = true;
      break;
    }
    uint64_t c = 0;
    s = status_frame(&irq, &c);
    if (!ok(s)) return s;
    if (!irq && cycles_to_ns(c) - t0 >= timeout_ns) break;
  }
  if (asserted) *asserted = irq;
  return Status::OK;
}

Status SerialTransport::delay(uint64_t ns) {
  uint64_t c0 = 0;
  Status s = status_frame(nullptr, &c0);
  if (!ok(s)) return s;
  const uint64_t t0 = cycles_to_ns(c0);
  for (;;) {
    uint64_t c = 0;
    s = status_frame(nullptr, &c);
    if (!ok(s)) return s;
    const uint64_t el = cycles_to_ns(c) - t0;
    if (el >= ns) return Status::OK;
    // Wait (wall clock) for at most what is left, at most one slice.
    const uint64_t left_ms = (ns - el) / 1000000;
    const int wait = int(left_ms < uint64_t(o_.poll_slice_ms) ? left_ms : uint64_t(o_.poll_slice_ms));
    if (wait > 0) {
      Frame f;
      const auto end = Clock::now() + std::chrono::milliseconds(wait);
      while (ms_left(end) > 0)
        if (read_frame(ms_left(end), &f) == Rx::CLOSED) return fail_closed("delay");
    }
  }
}

uint64_t SerialTransport::now_ns() {
  uint64_t c = 0;
  if (ok(status_frame(nullptr, &c))) return cycles_to_ns(c);
  return last_ns_;  // the link failed: the last time known (the next access reports the error)
}

}  // namespace baresm::drv
