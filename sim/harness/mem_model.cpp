#include "sim/harness/mem_model.h"

#include <algorithm>
#include <cstring>

namespace baresm::sim {

uint32_t atomic_apply(uint8_t amo, uint32_t old, uint32_t b, uint32_t c) {
  const bool is_unsigned = (amo & 0x10) != 0;
  const bool b_lt_old = is_unsigned ? (b < old) : (int32_t(b) < int32_t(old));
  switch (amo & 0xF) {
    case 0:
      return old + b;  // ADD
    case 1:
      return b_lt_old ? b : old;  // MIN
    case 2:
      return b_lt_old ? old : b;  // MAX
    case 3:
      return b;  // EXCH
    case 4:
      return old == b ? c : old;  // CAS
    case 5:
      return old & b;  // AND
    case 6:
      return old | b;  // OR
    case 7:
      return old ^ b;  // XOR
    default:
      return old;  // not encodable: no change
  }
}

MemModel::MemModel(std::vector<uint8_t>& mem, const MemModelConfig& cfg, const iss::PoisonMap* poison)
    : mem_(mem), poison_(poison), cfg_(cfg) {
  cfg_.min_latency = std::max<uint32_t>(cfg_.min_latency, 1);
  cfg_.max_latency = std::max(cfg_.max_latency, cfg_.min_latency);
  cfg_.accept_interval = std::max<uint32_t>(cfg_.accept_interval, 1);
  cfg_.stall_max = std::max(cfg_.stall_max, cfg_.stall_min);
  cfg_.max_outstanding = std::max<uint32_t>(cfg_.max_outstanding, 1);
  rng_ = cfg_.seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  if (rng_ == 0) rng_ = 1;
  choose_outputs();
}

// xorshift64*: small, fast and the same on every platform.
uint64_t MemModel::rand64() {
  rng_ ^= rng_ >> 12;
  rng_ ^= rng_ << 25;
  rng_ ^= rng_ >> 27;
  return rng_ * 0x2545F4914F6CDD1Dull;
}

uint32_t MemModel::rand_range(uint32_t lo, uint32_t hi) {
  if (hi <= lo) return lo;
  return lo + uint32_t(rand64() % (uint64_t(hi) - lo + 1));
}

bool MemModel::chance(double p) {
  if (p <= 0.0) return false;
  return double(rand64() >> 11) * (1.0 / 9007199254740992.0) < p;
}

MemResponse MemModel::apply(const MemRequest& req) {
  const uint32_t lb = cfg_.line_bytes;
  MemResponse rsp;
  rsp.id = req.id;
  rsp.rdata.assign(lb, 0);
  counters_.requests++;
  const uint32_t span = req.op == MemOp::ATOMIC ? 4 : lb;
  if ((poison_ && poison_->hit(req.addr, span)) || chance(cfg_.error_rate)) {
    // Nothing is read or written: the request fails as a whole.
    rsp.error = true;
    counters_.errors++;
    return rsp;
  }
  switch (req.op) {
    case MemOp::READ:
      counters_.reads++;
      if (req.addr % lb != 0 || uint64_t(req.addr) + lb > mem_.size()) {
        counters_.bad_requests++;
        break;
      }
      std::memcpy(rsp.rdata.data(), &mem_[req.addr], lb);
      counters_.bytes_read += lb;
      break;
    case MemOp::WRITE:
      counters_.writes++;
      if (req.addr % lb != 0 || uint64_t(req.addr) + lb > mem_.size() || req.wdata.size() < lb ||
          req.wstrb.size() < lb) {
        counters_.bad_requests++;
        break;
      }
      for (uint32_t i = 0; i < lb; i++) {
        if (req.wstrb[i]) {
          mem_[req.addr + i] = req.wdata[i];
          counters_.bytes_written++;
        }
      }
      break;
    case MemOp::ATOMIC: {
      counters_.atomics++;
      if (req.addr % 4 != 0 || uint64_t(req.addr) + 4 > mem_.size() || req.wdata.size() < 8) {
        counters_.bad_requests++;
        break;
      }
      uint32_t old, b, c;
      std::memcpy(&old, &mem_[req.addr], 4);  // little-endian host
      std::memcpy(&b, &req.wdata[0], 4);
      std::memcpy(&c, &req.wdata[4], 4);
      const uint32_t nv = atomic_apply(req.amo, old, b, c);
      std::memcpy(&mem_[req.addr], &nv, 4);
      std::memcpy(rsp.rdata.data(), &old, 4);
      break;
    }
    default:
      counters_.bad_requests++;
      break;
  }
  return rsp;
}

void MemModel::tick(bool req_valid, const MemRequest& req, bool rsp_ready) {
  if (rsp_valid_ && rsp_ready) {
    rsp_valid_ = false;
    counters_.responses++;
  }
  if (req_valid && req_ready_) {
    Pending p;
    p.seq = seq_++;
    p.due = cycle_ + rand_range(cfg_.min_latency, cfg_.max_latency);
    p.rsp = apply(req);
    pending_.push_back(std::move(p));
    last_accept_ = cycle_;
    accepted_any_ = true;
    counters_.max_in_flight = std::max<uint64_t>(counters_.max_in_flight, in_flight());
  }
  if (!req_ready_) counters_.backpressure_cycles++;
  counters_.cycles++;
  cycle_++;
  choose_outputs();
}

void MemModel::choose_outputs() {
  // Stall injection: while a stall lasts, no new response is presented (one
  // already presented stays valid, as the protocol requires).
  if (stall_left_ > 0) {
    stall_left_--;
  } else if (chance(cfg_.stall_start)) {
    stall_left_ = rand_range(cfg_.stall_min, cfg_.stall_max);
  }
  const bool stalled = stall_left_ > 0;
  if (stalled) counters_.stall_cycles++;

  if (!rsp_valid_ && !stalled && !pending_.empty()) {
    size_t pick = pending_.size();
    if (cfg_.out_of_order) {
      std::vector<size_t> due;
      for (size_t i = 0; i < pending_.size(); i++) {
        if (pending_[i].due <= cycle_) due.push_back(i);
      }
      if (!due.empty()) pick = due[rand_range(0, uint32_t(due.size() - 1))];
    } else if (pending_.front().due <= cycle_) {
      pick = 0;
    }
    if (pick < pending_.size()) {
      rsp_ = std::move(pending_[pick].rsp);
      pending_.erase(pending_.begin() + long(pick));
      rsp_valid_ = true;
    }
  }

  const bool bandwidth_ok = !accepted_any_ || cycle_ - last_accept_ >= cfg_.accept_interval;
  const bool room = in_flight() < cfg_.max_outstanding;
  req_ready_ = bandwidth_ok && room && !chance(cfg_.ready_drop);
}

void MemModel::reset() {
  pending_.clear();
  rsp_valid_ = false;
  stall_left_ = 0;
  choose_outputs();
}

}  // namespace baresm::sim
