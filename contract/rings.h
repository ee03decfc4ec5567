// The ring formats shared by the host driver, the functional device model,
// the tests and (through the generated rtl/cp/baresm_ring_pkg.sv) the RTL
// command processor. Field table: contract/rings.def; protocol:
// docs/ring-formats.md.
//
// The structs are the in-memory image of each record on a little-endian host
// (the static_asserts below pin every offset to contract/rings.def), so encoding is a
// memcpy. A big-endian host would need byte swaps here and nowhere else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace baresm::cq {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ring records are little-endian images");

#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_ENUM(group, name, value, desc)
#define RING_CONST(name, value, desc) constexpr uint32_t k##name = value;
#include "contract/rings.def"
#undef RING_CONST
#undef RING_ENUM
#undef RING_FIELD

enum class ErrorCode : uint8_t {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name, value)
#define RING_ENUM_ERR(name, value) name = value,
#define RING_ENUM_CPL_STATUS(name, value)
#define RING_ENUM_DCHK(name, value)
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
};

enum class CplStatus : uint8_t { PENDING = 0, COMPLETED = 1, FAILED = 2 };

// Which check a BAD_DESCRIPTOR failed (carried in CompletionEntry::fault_addr).
enum class DescCheck : uint32_t {
#define RING_FIELD(rec, field, ctype, off, desc)
#define RING_CONST(name, value, desc)
#define RING_ENUM(group, name, value, desc) RING_ENUM_##group(name, value)
#define RING_ENUM_ERR(name, value)
#define RING_ENUM_CPL_STATUS(name, value)
#define RING_ENUM_DCHK(name, value) name = value,
#include "contract/rings.def"
#undef RING_ENUM_ERR
#undef RING_ENUM_CPL_STATUS
#undef RING_ENUM_DCHK
#undef RING_ENUM
#undef RING_CONST
#undef RING_FIELD
};

const char* error_code_name(ErrorCode e);  // "OUT_OF_WINDOW"; "ERR_<n>" for unknown values
const char* error_code_message(ErrorCode e);
const char* cpl_status_name(CplStatus s);  // "COMPLETED"
const char* desc_check_name(DescCheck c);  // "BLOCK_SIZE"

struct LaunchDescriptor {
  uint64_t token = 0;
  uint32_t entry_pc = 0;
  uint32_t code_base = 0;
  uint32_t code_size = 0;
  uint32_t grid_x = 1;
  uint16_t grid_y = 1;
  uint16_t grid_z = 1;
  uint16_t block_x = 1;
  uint16_t block_y = 1;
  uint16_t block_z = 1;
  uint8_t regs = 1;
  uint8_t flags = 0;
  uint32_t param_addr = 0;
  uint32_t param_size = 0;
  uint32_t shared_bytes = 0;
  uint32_t watchdog = 0;
  uint32_t window_table = 0;
  uint8_t window_count = 0;
  uint8_t version = kDESC_VERSION;
  uint16_t magic = kDESC_MAGIC;
  uint32_t reserved = 0;

  bool is_marker() const { return flags & kDESC_FLAG_MARKER; }
};

struct CompletionEntry {
  uint64_t token = 0;
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;
  uint32_t seq = 0;
  uint8_t status = 0;
  uint8_t error = 0;
  uint8_t fault_warp = 0;
  uint8_t fault_lane = 0;
  uint32_t fault_pc = 0;
  uint32_t fault_addr = 0;
  uint32_t fault_cta = 0;
  uint32_t warp_instrs = 0;
  uint32_t stall_cycles = 0;
  uint32_t shared_passes = 0;
  uint32_t ctas_done = 0;
  // second line: the rest of the launch's counters
  uint32_t thread_instrs = 0;
  uint32_t div_branches = 0;
  uint32_t bar_releases = 0;
  uint32_t gmem_requests = 0;
  uint32_t ifetch_fills = 0;
  uint32_t sm_cycles = 0;
  uint32_t ws_idle = 0;  // warp-cycles per warp state, in WarpState order
  uint32_t ws_ready = 0;
  uint32_t ws_issued = 0;
  uint32_t ws_wait_mem = 0;
  uint32_t ws_wait_sb = 0;
  uint32_t ws_wait_bar = 0;
  uint32_t ws_exited = 0;
  uint32_t reserved0 = 0;
  uint32_t reserved1 = 0;
  uint32_t reserved2 = 0;
  uint32_t phase = 0;  // written last

  bool phase_bit() const { return phase & 1u; }
  uint32_t queue() const { return (phase >> kCPL_QUEUE_LSB) & 0xFF; }
  CplStatus cpl_status() const { return CplStatus(status); }
  ErrorCode error_code() const { return ErrorCode(error); }
  // The warp states (contract/states.def, counted from its rows; baresm_state_pkg::WS_*).
  static constexpr int kWarpStates = 0
#define BSM_WARP_STATE(name, str, desc) +1
#define BSM_CP_STATE(name, desc)
#include "contract/states.def"
#undef BSM_WARP_STATE
#undef BSM_CP_STATE
      ;
  // Warp-cycles in warp state s: the ws_* words, one per state in table
  // order from ws_idle (the static_asserts below tie contract/rings.def to the table).
  uint32_t warp_state_cycles(int s) const {
    uint32_t v = 0;
    if (s >= 0 && s < kWarpStates) std::memcpy(&v, reinterpret_cast<const uint8_t*>(this) + ws_offset(s), 4);
    return v;
  }
  void set_warp_state_cycles(int s, uint32_t v) {
    if (s >= 0 && s < kWarpStates) std::memcpy(reinterpret_cast<uint8_t*>(this) + ws_offset(s), &v, 4);
  }

 private:
  static size_t ws_offset(int s);
};

struct WindowEntry {
  uint32_t base = 0;
  uint32_t size = 0;
};

static_assert(sizeof(LaunchDescriptor) == kDESC_BYTES, "launch descriptor is 64 bytes");
static_assert(sizeof(CompletionEntry) == kCPL_BYTES, "completion entry is 128 bytes");
static_assert(sizeof(WindowEntry) == kWIN_BYTES, "window entry is 8 bytes");
// One ws_* word per warp state of contract/states.def, in its order: the first is
// IDLE's, the last EXITED's, and nothing else lies between them.
static_assert(offsetof(CompletionEntry, ws_exited) - offsetof(CompletionEntry, ws_idle) ==
                  4 * (CompletionEntry::kWarpStates - 1),
              "contract/rings.def has one ws_* field per warp state of contract/states.def");
inline size_t CompletionEntry::ws_offset(int s) {
  return offsetof(CompletionEntry, ws_idle) + 4 * size_t(s);
}

// Every field sits exactly where contract/rings.def says, with the width it says.
#define RING_REC_DESC LaunchDescriptor
#define RING_REC_CPL CompletionEntry
#define RING_REC_WIN WindowEntry
#define RING_CAT(a, b) a##b
#define RING_FIELD(rec, field, ctype, off, desc)                                                \
  static_assert(offsetof(RING_CAT(RING_REC_, rec), field) == (off), #rec "." #field " offset"); \
  static_assert(sizeof(RING_CAT(RING_REC_, rec)::field) == sizeof(ctype), #rec "." #field " width");
#define RING_ENUM(group, name, value, desc)
#define RING_CONST(name, value, desc)
#include "contract/rings.def"
#undef RING_CONST
#undef RING_ENUM
#undef RING_FIELD
#undef RING_CAT
#undef RING_REC_DESC
#undef RING_REC_CPL
#undef RING_REC_WIN

// Byte images (little-endian) of each record.
inline void encode(const LaunchDescriptor& d, uint8_t out[kDESC_BYTES]) {
  std::memcpy(out, &d, sizeof d);
}
inline void encode(const CompletionEntry& e, uint8_t out[kCPL_BYTES]) {
  std::memcpy(out, &e, sizeof e);
}
inline void encode(const WindowEntry& w, uint8_t out[kWIN_BYTES]) {
  std::memcpy(out, &w, sizeof w);
}
inline LaunchDescriptor decode_descriptor(const uint8_t in[kDESC_BYTES]) {
  LaunchDescriptor d;
  std::memcpy(&d, in, sizeof d);
  return d;
}
inline CompletionEntry decode_completion(const uint8_t in[kCPL_BYTES]) {
  CompletionEntry e;
  std::memcpy(&e, in, sizeof e);
  return e;
}
inline WindowEntry decode_window(const uint8_t in[kWIN_BYTES]) {
  WindowEntry w;
  std::memcpy(&w, in, sizeof w);
  return w;
}

// ---- ring index arithmetic ------------------------------------------------------
// Head and tail are free-running 32-bit counters; a ring of `size` entries
// (a power of two) holds tail - head entries, slot = index % size. The phase
// an entry written at index i carries is 1 on the first pass and flips on
// every wrap, so a zeroed ring reads as "nothing valid" at start.
inline bool is_pow2(uint32_t v) {
  return v && !(v & (v - 1));
}
inline uint32_t ring_slot(uint32_t index, uint32_t size) {
  return index & (size - 1);
}
inline uint32_t ring_count(uint32_t head, uint32_t tail) {
  return tail - head;
}
inline bool expected_phase(uint32_t index, uint32_t size) {
  // size is a power of two: the pass number is index / size.
  uint32_t shift = 0;
  while ((1u << shift) < size) ++shift;
  return ((uint64_t(index) >> shift) & 1) == 0;
}

}  // namespace baresm::cq
