// Generation-checked handle tables: the driver's contexts, streams, events and
// modules (driver.h) live in fixed tables of these. One lookup for all of them.
#pragma once

#include <cstdint>

namespace baresm::drv {

// Handle generations are 24 bits; a table slot whose generation reaches this
// is retired for good (a stale handle must never become valid again).
constexpr uint32_t kGenRetired = 0xFFFFFF;

// A fixed table of N records, each with `bool used` and `uint32_t gen`.
// Handles: bits 7:0 = table index + 1 (so 0 is never valid), bits 31:8 = the
// slot's generation. A slot's generation only grows (create() bumps it); once
// it reaches kGenRetired the slot is never handed out again, so a destroyed
// object's handle can never become valid again.
template <class Rec, int N>
class HandleTable {
  static_assert(N >= 1 && N <= 255, "the table index is one byte of the handle");

 public:
  static constexpr int kSize = N;
  static uint32_t make_handle(int index, uint32_t gen) { return uint32_t(index + 1) | (gen << 8); }
  static int handle_index(uint32_t id) {
    const int i = int(id & 0xFF) - 1;
    return (i >= 0 && i < N) ? i : -1;
  }
  static uint32_t handle_gen(uint32_t id) { return id >> 8; }

  // The live record a handle names, or null (out of range, free, or stale).
  Rec* find(uint32_t id) { return at(handle_index(id), handle_gen(id)); }
  const Rec* find(uint32_t id) const { return at(handle_index(id), handle_gen(id)); }
  // Slot i if it holds the object of generation gen (a handle taken apart
  // another way, or an index + generation remembered by an in-flight launch).
  Rec* at(int i, uint32_t gen) {
    if (i < 0 || i >= N || !slots_[i].used || slots_[i].gen != gen) return nullptr;
    return &slots_[i];
  }
  const Rec* at(int i, uint32_t gen) const { return const_cast<HandleTable*>(this)->at(i, gen); }

  // The first slot that can take a new object (free and not retired), or -1.
  int free_slot() const {
    for (int i = 0; i < N; ++i)
      if (!slots_[i].used && slots_[i].gen < kGenRetired) return i;
    return -1;
  }
  // A fresh record in free slot i, one generation on; returns its handle.
  uint32_t create(int i) {
    const uint32_t gen = slots_[i].gen + 1;
    slots_[i] = Rec{};
    slots_[i].used = true;
    slots_[i].gen = gen;
    return make_handle(i, gen);
  }
  // The handle of the live object in slot i.
  uint32_t handle(int i) const { return make_handle(i, slots_[i].gen); }
  int index(const Rec* r) const { return int(r - slots_); }

  Rec& operator[](int i) { return slots_[i]; }
  const Rec& operator[](int i) const { return slots_[i]; }
  Rec* begin() { return slots_; }
  Rec* end() { return slots_ + N; }
  const Rec* begin() const { return slots_; }
  const Rec* end() const { return slots_ + N; }

 private:
  Rec slots_[N];
};

}  // namespace baresm::drv
