// progen: the constrained-random kernel generator (isa/progen.h, docs/progen.md).
#include "isa/progen.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "isa/assembler.h"
#include "isa/isa.h"
#include "isa/params.h"
#include "isa/rng.h"

namespace baresm::progen {

namespace {

// The generator's draws, on the shared platform-independent generator.
class Rng : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }  // [lo, hi]
  bool chance(uint32_t percent) { return below(100) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(uint32_t(v.size()))]; }
};

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}
std::string R(int r) { return r == isa::kRegZero ? "RZ" : "R" + std::to_string(r); }
std::string P(int p) { return p == isa::kPredTrue ? "PT" : "P" + std::to_string(p); }

// ---- register plan -------------------------------------------------------------------
// R0 gtid (global linear thread), R1 tid (linear in the CTA), R2 lane, R3 own
// output slot, R4 in, R5 atom, R6 address scratch, R7..R10 loop counters,
// R11 warp id, R12 CTA linear id, R13 scratch, R14/R15 unused, R16.. data.
// P0..P5 data predicates; P6 the control predicate (set right before each use).
constexpr int kGtid = 0, kTid = 1, kLane = 2, kSlot = 3, kIn = 4, kAtom = 5, kAddr = 6, kCnt0 = 7;
// The rest of the register layout depends on the register budget (Gen::
// kWarp, kCta, kTmp, kData0, kMaxLoopNest): with 24 or more registers the
// loop counters are R7..R10, then R11 warp, R12 CTA, R13 scratch and data
// from R16; below 24 (an SM of 16 registers per thread) two loop levels,
// R9 warp, R10 CTA, R11 scratch, data from R12.
constexpr int kCtl = 6;  // P6

struct Weights {
  int alu, fpu, mem, warp, ctrl, sync;
};

Weights weights_of(const std::string& p) {
  if (p == "alu") return {80, 5, 5, 5, 5, 2};
  if (p == "fpu") return {15, 70, 5, 5, 5, 2};
  if (p == "control") return {35, 10, 8, 10, 37, 3};
  if (p == "memory") return {20, 5, 55, 5, 10, 8};
  if (p == "sync") return {20, 5, 15, 30, 10, 15};
  return {35, 20, 15, 10, 15, 5};  // mixed, and the base of the fault profiles
}

const char* const kCmpI[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
const char* const kCmpF[] = {"EQ", "NE", "LT", "LE", "GT", "GE", "NUM", "NAN", "EQU", "NEU", "LTU", "LEU", "GTU", "GEU"};
const char* const kComb[] = {"AND", "OR", "XOR"};
const char* const kAtomN[] = {"ADD", "MIN", "MAX", "EXCH", "CAS", "AND", "OR", "XOR"};
const char* const kShfl[] = {"IDX", "UP", "DOWN", "BFLY"};
const char* const kLdW[] = {"U8", "S8", "U16", "S16", "32"};
const uint32_t kLdBytes[] = {1, 1, 2, 2, 4};

const uint32_t kFloats[] = {
    0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x40490fdb, 0x00000001,
    0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
    0x501502f9, 0xc2f68000, 0x4b000000, 0xcf000000, 0x4f800000, 0x3eaaaaab, 0x80000001, 0x3dcccccd,
};

// The generator's stream: the seed mixed with the profile name (FNV-1a), so
// each profile draws its own shapes from the same seed.
uint64_t mix(uint64_t seed, const std::string& profile) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : profile) h = (h ^ c) * 0x100000001b3ull;
  return seed ^ h;
}

class Gen {
 public:
  Gen(uint64_t seed, const std::string& profile, const ProgenLimits& lim)
      : rng_(mix(seed, profile)), lim_(lim), profile_(profile) {
    fault_ = iss::FaultKind::NONE;
    if (profile.rfind("fault-", 0) == 0) {
      for (int k = 1; k <= int(iss::FaultKind::WATCHDOG); ++k)
        if (profile.substr(6) == iss::fault_kind_name(iss::FaultKind(k))) fault_ = iss::FaultKind(k);
    }
    w_ = weights_of(fault_ == iss::FaultKind::NONE ? profile : "mixed");
    if (!lim.has_fpu) w_.fpu = 0;
    if (lim.max_regs_per_thread < 24) {
      kMaxLoopNest = 2;
      kWarp = kCnt0 + 2;
      kCta = kWarp + 1;
      kTmp = kCta + 1;
      kData0 = kTmp + 1;
    }
    depth_limit_ = std::min<uint32_t>(lim.stack_depth, 31);
  }

  GeneratedProgram run(uint64_t seed) {
    GeneratedProgram g;
    g.seed = seed;
    g.profile = profile_;
    g.expected_fault = fault_;
    g.kernel = "progen";
    g.stack_depth = lim_.stack_depth;
    choose_shape();
    choose_layout();
    g.grid = grid_;
    g.block = block_;
    g.shared_bytes = shared_bytes_;
    g.regs = regs_;

    prologue();
    const bool small = fault_ != iss::FaultKind::NONE;
    const int segments = small ? int(rng_.range(1, 2)) : int(rng_.range(2, 5));
    for (int s = 0; s < segments; ++s) {
      if (!small && rng_.below(100) < uint32_t(w_.sync * 2 + 5)) {
        uniform_loop_segment();
        continue;
      }
      block(1, small ? int(rng_.range(4, 12)) : int(rng_.range(8, 24)));
      if (rng_.below(100) < uint32_t(w_.sync * 4 + 10)) sync_segment();
    }
    epilogue();

    // Buffers.
    ProgenBuffer in{"in", in_bytes_, {}, true, true};
    in.init.resize(in_bytes_);
    for (uint32_t a = 0; a < in_bytes_; a += 4) {
      uint32_t v;
      switch (rng_.below(4)) {
        case 0: v = rng_.pick(std::vector<uint32_t>(std::begin(kFloats), std::end(kFloats))); break;
        case 1: v = rng_.range(0, 64) - 16; break;
        default: v = rng_.u32();
      }
      for (int b = 0; b < 4; ++b) in.init[a + b] = uint8_t(v >> (8 * b));
    }
    ProgenBuffer out{"out", out_bytes_, {}, true, false};
    out.init.resize(out_bytes_);
    for (auto& b : out.init) b = uint8_t(rng_.u32());
    ProgenBuffer atom{"atom", natom_ * 4, {}, true, false};
    atom.init.resize(natom_ * 4);
    for (auto& b : atom.init) b = uint8_t(rng_.u32());
    g.buffers = {in, out, atom};
    g.params = {{"in", 0, 0}, {"out", 1, 0}, {"atom", 2, 0}};
    for (int k = 0; k < 4; ++k) g.params.push_back({"c" + std::to_string(k), -1, cparam_[k]});

    const uint64_t warps_total = uint64_t(nwarps_) * grid_.count();
    g.instr_budget = 2 * cost_ * warps_total + 10000;

    // Header + directives + body.
    std::ostringstream s;
    s << "// progen kernel: seed " << seed << ", profile " << profile_ << "\n";
    s << "// reproduce: " << gen_command(seed, profile_, lim_) << "\n";
    s << "// grid " << grid_.x << "x" << grid_.y << "x" << grid_.z << ", block " << block_.x << "x" << block_.y
      << "x" << block_.z << " (" << nthreads_ << " threads, " << nwarps_ << " warps)"
      << ", shared " << shared_bytes_ << " bytes, regs " << regs_ << ", stack depth " << lim_.stack_depth << "\n";
    s << "// expected fault: " << iss::fault_kind_name(fault_) << ", instr budget " << g.instr_budget
      << " warp-instructions\n";
    const ProgenLayout lay = default_layout(g, uint32_t(8 * ninstr_));
    s << "// default layout: code 0x" << std::hex << lay.code_base << " (" << std::dec << 8 * ninstr_
      << " bytes), params 0x" << std::hex << lay.param_addr << std::dec << ", memory " << lay.memory_bytes
      << " bytes\n";
    for (size_t k = 0; k < g.buffers.size(); ++k) {
      const auto& b = g.buffers[k];
      s << "//   buffer " << b.name << ": " << b.size << " bytes at 0x" << std::hex << lay.buffer_addrs[k]
        << std::dec << (b.read_only ? ", read-only" : "") << ", window " << k << ", param " << b.name << "\n";
    }
    s << "//   out: " << slot_bytes_ << "-byte slot per thread (gtid * " << slot_bytes_ << "): R16..R"
      << kData0 + nd_ - 1 << ", predicates, scratch at +" << scratch_off_ << "\n";
    s << "//   params:";
    for (const auto& p : g.params)
      s << " " << p.name << (p.buffer >= 0 ? "=&" + g.buffers[size_t(p.buffer)].name : "=" + hex(p.value));
    s << "\n\n.kernel " << g.kernel << "\n";
    for (const auto& p : g.params) s << ".param " << p.name << ", 4\n";
    s << ".regs " << regs_ << "\n";
    if (shared_bytes_) s << ".shared " << shared_bytes_ << "\n";
    s << "\n" << body_.str() << ".end\n";
    g.source = s.str();
    return g;
  }

 private:
  // ---- shape and layout -----------------------------------------------------------
  void choose_shape() {
    uint32_t maxt = std::min(lim_.max_threads_per_block, 32 * lim_.max_warps_per_cta);
    maxt = std::max<uint32_t>(std::min<uint32_t>(maxt, 1024), 1);
    uint32_t mint = 1;
    if (fault_ == iss::FaultKind::STACK_OVERFLOW) mint = std::min<uint32_t>(maxt, 32);
    if (fault_ == iss::FaultKind::STACK_OVERFLOW && (maxt < depth_limit_ + 1 || lim_.stack_depth > 31))
      throw std::invalid_argument("progen: fault-STACK_OVERFLOW needs stack_depth <= 31 and stack_depth + 1 threads per block");
    for (int tries = 0;; ++tries) {
      const uint32_t dims = rng_.below(3);
      Dim d;
      if (dims == 0) {
        // 1D: full warps, partial warps and tiny blocks.
        switch (rng_.below(4)) {
          case 0: d.x = 32 * rng_.range(1, std::max<uint32_t>(1, maxt / 32)); break;
          case 1: d.x = rng_.range(1, 31); break;
          default: d.x = rng_.range(1, maxt);
        }
      } else if (dims == 1) {
        d.x = rng_.range(1, 32);
        d.y = rng_.range(2, std::max<uint32_t>(2, maxt / d.x));
      } else {
        d.x = rng_.range(1, 16);
        d.y = rng_.range(1, 8);
        d.z = rng_.range(2, std::max<uint32_t>(2, maxt / (d.x * d.y)));
      }
      const uint32_t t = d.x * d.y * d.z;
      if (t >= mint && t <= maxt) {
        block_ = {d.x, d.y, d.z};
        break;
      }
      if (tries > 50) {
        block_ = {std::max(mint, std::min<uint32_t>(maxt, 64)), 1, 1};
        break;
      }
    }
    nthreads_ = uint32_t(block_.count());
    nwarps_ = (nthreads_ + 31) / 32;
    const uint32_t max_ctas = std::max<uint32_t>(1, std::min<uint32_t>(lim_.max_ctas, 1536 / nthreads_));
    for (;;) {
      grid_ = {rng_.range(1, 3), rng_.chance(40) ? rng_.range(1, 2) : 1, rng_.chance(20) ? 2u : 1u};
      if (grid_.count() <= max_ctas) break;
    }
    ctas_ = uint32_t(grid_.count());
  }

  struct Dim {
    uint32_t x = 1, y = 1, z = 1;
  };

  void choose_layout() {
    if (lim_.max_windows < 3) throw std::invalid_argument("progen: needs max_windows >= 3");
    if (lim_.max_regs_per_thread < 16 || lim_.max_regs_per_thread > 63)
      throw std::invalid_argument("progen: max_regs_per_thread must be 16..63");
    if (lim_.stack_depth < 1) throw std::invalid_argument("progen: stack_depth must be >= 1");
    if (kData0 == 16)
      nd_ = int(rng_.range(8, std::min<uint32_t>(lim_.max_regs_per_thread - kData0, 32)));
    else  // the compact layout: 2..11 data registers
      nd_ = int(rng_.range(2, lim_.max_regs_per_thread - uint32_t(kData0)));
    regs_ = uint32_t(kData0 + nd_);
    in_bytes_ = 256u << rng_.below(3);
    natom_ = 1u << rng_.range(0, 3);
    scratch_bytes_ = 32;
    scratch_off_ = 4 * (uint32_t(nd_) + 1);
    slot_bytes_ = scratch_off_ + scratch_bytes_ + 4;  // + one word the epilogue tail writes
    out_bytes_ = slot_bytes_ * nthreads_ * ctas_;
    // Shared: an area of sh_words per thread, then the shared atomic words.
    nsh_atom_ = 1u << rng_.range(0, 2);
    const uint32_t budget = lim_.max_shared_bytes;
    sh_words_ = 0;
    if (budget >= 4 * nsh_atom_ + 4 * nthreads_) {
      sh_words_ = std::min<uint32_t>(rng_.range(1, 4), (budget - 4 * nsh_atom_) / (4 * nthreads_));
      sh_atom_off_ = 4 * sh_words_ * nthreads_;
      shared_bytes_ = sh_atom_off_ + 4 * nsh_atom_;
    } else {
      shared_bytes_ = 0;
    }
    for (auto& c : cparam_) c = rng_.chance(50) ? rng_.u32() : rng_.range(0, 40);
    // power-of-two not above nthreads, for read patterns
    pow2_ = 1;
    while (pow2_ * 2 <= nthreads_) pow2_ *= 2;
  }

  // ---- emission -----------------------------------------------------------------------
  void emit(const std::string& s) {
    body_ << "    " << s << ";\n";
    ++ninstr_;
    cost_ += mult_;
  }
  void comment(const std::string& s) { body_ << "    // " << s << "\n"; }
  void label(const std::string& l) { body_ << l << ":\n"; }
  std::string new_label(const char* what) { return std::string(what) + std::to_string(nlabel_++); }

  std::string guard() {
    if (!rng_.chance(guard_pct_)) return "";
    if (rng_.chance(3)) return rng_.chance(50) ? "@PT " : "@!PT ";
    return std::string(rng_.chance(50) ? "@!" : "@") + P(int(rng_.below(7))) + " ";
  }
  int dreg() { return kData0 + int(rng_.below(uint32_t(nd_))); }
  // A source register: data mostly, sometimes the thread's ids or RZ.
  int sreg() {
    const uint32_t r = rng_.below(20);
    if (r == 0) return kGtid;
    if (r == 1) return kTid;
    if (r == 2) return kLane;
    if (r == 3) return isa::kRegZero;
    return dreg();
  }
  int dpred() { return rng_.chance(3) ? isa::kPredTrue : int(rng_.below(6)); }
  std::string pc_operand() { return std::string(rng_.chance(50) ? "!" : "") + P(rng_.chance(15) ? 7 : int(rng_.below(7))); }
  uint32_t int_imm() {
    switch (rng_.below(5)) {
      case 0: return rng_.range(0, 40);
      case 1: return uint32_t(-int32_t(rng_.range(1, 16)));
      case 2: return 1u << rng_.below(32);
      case 3: return rng_.pick(std::vector<uint32_t>{0x7fffffffu, 0x80000000u, 0xffffffffu, 0, 1});
      default: return rng_.u32();
    }
  }
  uint32_t float_imm() {
    if (rng_.chance(70)) return kFloats[rng_.below(sizeof kFloats / sizeof kFloats[0])];
    return rng_.u32();
  }
  std::string b_int() { return rng_.chance(50) ? R(sreg()) : hex(int_imm()); }
  std::string b_float() { return rng_.chance(50) ? R(sreg()) : hex(float_imm()); }

  // ---- instruction kinds ----------------------------------------------------------------
  void alu() {
    const std::string g = guard();
    const std::string d = R(dreg());
    static const std::vector<std::string> rab = {"IADD", "ISUB", "IMUL", "AND", "OR", "XOR", "SHL", "SHR", "SHRA"};
    static const std::vector<std::string> sign = {"IMULHI", "IMIN", "IMAX"};
    static const std::vector<std::string> ra = {"IABS", "NOT", "POPC", "CLZ"};
    switch (rng_.below(10)) {
      case 0:
        emit(g + "MOV " + d + ", " + b_int());
        break;
      case 1:
      case 2: {
        const std::string op = rng_.pick(rab);
        std::string b = b_int();
        if ((op == "SHL" || op == "SHR" || op == "SHRA") && rng_.chance(60)) b = hex(rng_.range(0, 40));
        emit(g + op + " " + d + ", " + R(sreg()) + ", " + b);
        break;
      }
      case 3:
        emit(g + rng_.pick(sign) + (rng_.chance(50) ? ".U32 " : " ") + d + ", " + R(sreg()) + ", " + b_int());
        break;
      case 4:
        emit(g + "IMAD " + d + ", " + R(sreg()) + ", " + R(sreg()) + ", " + R(sreg()));
        break;
      case 5:
        emit(g + rng_.pick(ra) + " " + d + ", " + R(sreg()));
        break;
      case 6:
        isetp(g, dpred());
        break;
      case 7:
        emit(g + "SEL " + d + ", " + R(sreg()) + ", " + b_int() + ", " + pc_operand());
        break;
      case 8: {
        std::vector<uint8_t> ids;
        for (uint8_t id = 0; id < isa::SR_COUNT; ++id) {
          if (id == isa::SR_CLOCK || id == isa::SR_CLOCKHI) continue;
          if (id == isa::SR_SMID && !lim_.use_smid) continue;
          ids.push_back(id);
        }
        emit(g + "S2R " + d + ", " + isa::sreg_name(rng_.pick(ids)));
        break;
      }
      default:
        if (rng_.chance(30))
          emit(g + "NOP");
        else
          emit(g + rng_.pick(rab) + " " + d + ", " + R(sreg()) + ", " + b_int());
    }
  }
  void isetp(const std::string& g, int pd) {
    std::string m = std::string("ISETP.") + kCmpI[rng_.below(6)];
    if (rng_.chance(50)) m += ".U32";
    const bool comb = rng_.chance(60);
    if (comb) m += std::string(".") + kComb[rng_.below(3)];
    std::string s = g + m + " " + P(pd) + ", " + R(sreg()) + ", " + b_int();
    if (comb || rng_.chance(30)) s += ", " + pc_operand();
    emit(s);
  }
  void fsetp(const std::string& g, int pd) {
    std::string m = std::string("FSETP.") + kCmpF[rng_.below(14)];
    const bool comb = rng_.chance(60);
    if (comb) m += std::string(".") + kComb[rng_.below(3)];
    std::string s = g + m + " " + P(pd) + ", " + R(sreg()) + ", " + b_float();
    if (comb || rng_.chance(30)) s += ", " + pc_operand();
    emit(s);
  }
  void fpu() {
    const std::string g = guard();
    const std::string d = R(dreg());
    static const std::vector<std::string> rab = {"FADD", "FSUB", "FMUL", "FMIN", "FMAX"};
    switch (rng_.below(8)) {
      case 0:
      case 1:
        emit(g + rng_.pick(rab) + " " + d + ", " + R(sreg()) + ", " + b_float());
        break;
      case 2:
        emit(g + "FFMA " + d + ", " + R(sreg()) + ", " + R(sreg()) + ", " + R(sreg()));
        break;
      case 3:
        emit(g + (rng_.chance(50) ? "FNEG " : "FABS ") + d + ", " + R(sreg()));
        break;
      case 4:
        fsetp(g, dpred());
        break;
      case 5:
        emit(g + (rng_.chance(50) ? "I2F" : "F2I") + (rng_.chance(50) ? ".U32 " : " ") + d + ", " + R(sreg()));
        break;
      case 6:
        emit(g + "MOV " + d + ", " + hex(float_imm()));
        break;
      default:
        emit(g + rng_.pick(rab) + " " + d + ", " + R(sreg()) + ", " + R(sreg()));
    }
  }
  void warp() {
    const std::string g = guard();
    if (rng_.chance(40)) {
      const std::string pa = std::string(rng_.chance(50) ? "!" : "") + P(rng_.chance(10) ? 7 : int(rng_.below(7)));
      switch (rng_.below(3)) {
        case 0: emit(g + "VOTE.ANY " + P(dpred()) + ", " + pa); break;
        case 1: emit(g + "VOTE.ALL " + P(dpred()) + ", " + pa); break;
        default: emit(g + "VOTE.BALLOT " + R(dreg()) + ", " + pa);
      }
      return;
    }
    std::string b;
    switch (rng_.below(4)) {
      case 0: b = R(sreg()); break;
      case 1: b = hex(rng_.range(0, 40)); break;
      default: b = hex(rng_.range(0, 8));
    }
    std::string s = g + "SHFL." + kShfl[rng_.below(4)] + " " + R(dreg()) + ", " + R(sreg()) + ", " + b;
    const uint32_t lg = rng_.below(7);  // 6: default width
    if (lg < 6) s += ", " + std::to_string(1u << lg);
    emit(s);
  }
  void mem() {
    switch (rng_.below(8)) {
      case 0:
      case 1: {  // LDG from the read-only input, constant or data-dependent address
        const uint32_t w = rng_.below(5);
        const uint32_t wb = kLdBytes[w];
        if (rng_.chance(50)) {
          emit(guard() + "LDG." + kLdW[w] + " " + R(dreg()) + ", [" + R(kIn) + " + " +
               std::to_string(rng_.below(in_bytes_ / wb) * wb) + "]");
        } else {
          emit("AND " + R(kAddr) + ", " + R(sreg()) + ", " + hex((in_bytes_ - 1) & ~(wb - 1)));
          emit("IADD " + R(kAddr) + ", " + R(kAddr) + ", " + R(kIn));
          emit(guard() + "LDG." + kLdW[w] + " " + R(dreg()) + ", [" + R(kAddr) + "]");
        }
        break;
      }
      case 2: {  // LDG from the thread's own slot
        const uint32_t w = rng_.below(5);
        const uint32_t wb = kLdBytes[w];
        emit(guard() + "LDG." + kLdW[w] + " " + R(dreg()) + ", [" + R(kSlot) + " + " +
             std::to_string(rng_.below(slot_bytes_ / wb) * wb) + "]");
        break;
      }
      case 3:
      case 4: {  // STG into the own slot's scratch area
        static const uint32_t sw[] = {1, 2, 4};
        static const char* const sn[] = {"8", "16", "32"};
        const uint32_t k = rng_.below(3);
        const std::string off = std::to_string(scratch_off_ + rng_.below(scratch_bytes_ / sw[k]) * sw[k]);
        if (rng_.chance(25)) {
          // Lanes 4q..4q+3 (one warp) store to the slot of thread 4q in one
          // instruction: the highest active lane's bytes win (docs/isa.md).
          emit("AND " + R(kAddr) + ", " + R(kTid) + ", 3");
          emit("IMUL " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(slot_bytes_));
          emit("ISUB " + R(kAddr) + ", " + R(kSlot) + ", " + R(kAddr));
          emit(guard() + "STG." + sn[k] + " [" + R(kAddr) + " + " + off + "], " + R(sreg()));
        } else {
          emit(guard() + "STG." + sn[k] + " [" + R(kSlot) + " + " + off + "], " + R(sreg()));
        }
        break;
      }
      case 5: {  // LDC of the scalar params c0..c3 (never the pointers: backends place buffers differently)
        const uint32_t w = rng_.below(5);
        const uint32_t wb = kLdBytes[w];
        if (w == 4 && rng_.chance(40))
          emit(guard() + "LDC " + R(dreg()) + ", [PARAM(c" + std::to_string(rng_.below(4)) + ")]");
        else
          emit(guard() + "LDC." + kLdW[w] + " " + R(dreg()) + ", [" + std::to_string(12 + rng_.below(16 / wb) * wb) + "]");
        break;
      }
      default:
        atomg();
    }
  }
  std::string atom_ops(bool* cas) {
    const uint32_t op = rng_.below(8);
    *cas = op == isa::ATOM_CAS;
    std::string m = std::string(".") + kAtomN[op];
    if ((op == isa::ATOM_MIN || op == isa::ATOM_MAX) && rng_.chance(50)) m += ".U32";
    return m;
  }
  void atomg() {
    bool cas;
    const std::string m = atom_ops(&cas);
    const std::string d = rng_.chance(20) ? "RZ" : R(dreg());
    std::string addr;
    if (rng_.chance(50)) {
      addr = "[" + R(kAtom) + " + " + std::to_string(4 * rng_.below(natom_)) + "]";
    } else {
      emit("AND " + R(kAddr) + ", " + R(rng_.chance(50) ? kLane : sreg()) + ", " + hex(natom_ - 1));
      emit("SHL " + R(kAddr) + ", " + R(kAddr) + ", 2");
      emit("IADD " + R(kAddr) + ", " + R(kAddr) + ", " + R(kAtom));
      addr = "[" + R(kAddr) + "]";
    }
    std::string s = guard() + "ATOMG" + m + " " + d + ", " + addr + ", " + R(sreg());
    if (cas) s += ", " + R(sreg());
    emit(s);
  }

  // ---- control flow -------------------------------------------------------------------
  // A condition in P6: divergent (lane/tid/data) or uniform (warp/CTA ids).
  void condition() {
    const uint32_t k = rng_.below(10);
    if (k < 3) {
      emit(std::string("ISETP.") + kCmpI[rng_.below(6)] + ".U32 " + P(kCtl) + ", " + R(kLane) + ", " +
           std::to_string(rng_.range(0, 32)));
    } else if (k < 4) {
      emit(std::string("ISETP.") + kCmpI[rng_.below(6)] + " " + P(kCtl) + ", " + R(rng_.chance(50) ? kWarp : kCta) +
           ", " + std::to_string(rng_.range(0, 2)));
    } else if (k < 5) {
      emit("AND " + R(kTmp) + ", " + R(rng_.chance(50) ? kTid : kGtid) + ", " + hex(1u << rng_.below(6)));
      emit("ISETP.NE " + P(kCtl) + ", " + R(kTmp) + ", 0");
    } else if (k < 6) {
      if (lim_.has_fpu)
        fsetp("", kCtl);
      else
        isetp("", kCtl);
    } else if (k < 7) {
      emit("VOTE.ANY " + P(kCtl) + ", " + (rng_.chance(50) ? "!" : "") + P(int(rng_.below(6))));
    } else {
      isetp("", kCtl);
    }
  }
  std::string branch_guard() { return rng_.chance(50) ? "@P6 " : "@!P6 "; }

  void if_then(int d) {
    const std::string skip = new_label("skip");
    condition();
    emit(branch_guard() + "BRA " + skip);
    block(d + 1, int(rng_.range(1, 6)));
    label(skip);
  }
  void if_else(int d) {
    const std::string els = new_label("else"), join = new_label("join");
    condition();
    emit(branch_guard() + "BRA " + els);
    block(d + 2, int(rng_.range(1, 5)));
    emit("BRA " + join);
    label(els);
    block(d + 2, int(rng_.range(1, 5)));
    label(join);
  }
  void loop(int d) {
    const int c = kCnt0 + loops_;
    uint32_t trips;
    const uint32_t k = rng_.below(4);
    if (k == 0) {
      trips = rng_.range(1, 4);
      emit("MOV " + R(c) + ", " + std::to_string(trips));  // uniform trip count
    } else {
      const uint32_t m = k == 1 ? 1 : 3;
      emit("AND " + R(c) + ", " + R(k == 3 ? sreg() : kLane) + ", " + std::to_string(m));
      emit("IADD " + R(c) + ", " + R(c) + ", 1");
      trips = m + 1;
    }
    const uint64_t saved = mult_;
    ++loops_;
    const std::string top = new_label("loop");
    if (rng_.chance(50)) {  // do { body } while (--c > 0)
      label(top);
      mult_ *= trips;
      block(d + 1, int(rng_.range(1, 6)));
      emit("IADD " + R(c) + ", " + R(c) + ", -1");
      emit("ISETP.GT " + P(kCtl) + ", " + R(c) + ", 0");
      emit("@P6 BRA " + top);
    } else {  // while (c > 0) { body; --c }
      const std::string out = new_label("endloop");
      mult_ *= trips + 1;
      label(top);
      emit("ISETP.LE " + P(kCtl) + ", " + R(c) + ", 0");
      emit("@P6 BRA " + out);
      block(d + 1, int(rng_.range(1, 6)));
      emit("IADD " + R(c) + ", " + R(c) + ", -1");
      emit("BRA " + top);
      label(out);
    }
    --loops_;
    mult_ = saved;
  }

  void straight() {
    const int total = w_.alu + w_.fpu + w_.mem + w_.warp;
    int r = int(rng_.below(uint32_t(total)));
    if ((r -= w_.alu) < 0) return alu();
    if ((r -= w_.fpu) < 0) return fpu();
    if ((r -= w_.mem) < 0) return mem();
    return warp();
  }

  // n items at nesting depth d (reconvergence entries in use, conservatively).
  void block(int d, int n) {
    for (int i = 0; i < n; ++i) {
      if (ninstr_ > 1800) return straight();
      if (rng_.below(100) < uint32_t(w_.ctrl)) {
        const bool can1 = uint32_t(d + 1) <= depth_limit_, can2 = uint32_t(d + 2) <= depth_limit_;
        const bool can_loop = can1 && loops_ < kMaxLoopNest && mult_ <= 16;
        const uint32_t k = rng_.below(3);
        if (k == 0 && can2) {
          if_else(d);
          continue;
        }
        if (k == 1 && can_loop) {
          loop(d);
          continue;
        }
        if (can1) {
          if_then(d);
          continue;
        }
      }
      straight();
    }
  }

  // A loop with the same trip count in every thread (so the CTA stays
  // converged around it) whose body ends in a barrier or shared segment.
  void uniform_loop_segment() {
    const int c = kCnt0 + loops_;
    const uint32_t trips = rng_.range(1, 3);
    comment("uniform loop around a barrier");
    emit("MOV " + R(c) + ", " + std::to_string(trips));
    const uint64_t saved = mult_;
    ++loops_;
    mult_ *= trips;
    const std::string top = new_label("uloop");
    label(top);
    block(2, int(rng_.range(3, 10)));
    sync_segment();
    emit("IADD " + R(c) + ", " + R(c) + ", -1");
    emit("ISETP.GT " + P(kCtl) + ", " + R(c) + ", 0");
    emit("@P6 BRA " + top);
    --loops_;
    mult_ = saved;
  }

  // ---- prologue, shared-memory segment, epilogue ---------------------------------
  void prologue() {
    comment("thread ids: R1 = tid in the CTA, R12 = CTA, R0 = global thread, R2 lane, R11 warp");
    emit("S2R " + R(kTmp) + ", SR_TID.Z");
    emit("S2R " + R(kAddr) + ", SR_NTID.Y");
    emit("S2R " + R(kTid) + ", SR_TID.Y");
    emit("IMAD " + R(kTid) + ", " + R(kTmp) + ", " + R(kAddr) + ", " + R(kTid));
    emit("S2R " + R(kAddr) + ", SR_NTID.X");
    emit("S2R " + R(kTmp) + ", SR_TID.X");
    emit("IMAD " + R(kTid) + ", " + R(kTid) + ", " + R(kAddr) + ", " + R(kTmp));
    emit("S2R " + R(kTmp) + ", SR_CTAID.Z");
    emit("S2R " + R(kAddr) + ", SR_NCTAID.Y");
    emit("S2R " + R(kCta) + ", SR_CTAID.Y");
    emit("IMAD " + R(kCta) + ", " + R(kTmp) + ", " + R(kAddr) + ", " + R(kCta));
    emit("S2R " + R(kAddr) + ", SR_NCTAID.X");
    emit("S2R " + R(kTmp) + ", SR_CTAID.X");
    emit("IMAD " + R(kCta) + ", " + R(kCta) + ", " + R(kAddr) + ", " + R(kTmp));
    emit("IMUL " + R(kGtid) + ", " + R(kCta) + ", " + std::to_string(nthreads_));
    emit("IADD " + R(kGtid) + ", " + R(kGtid) + ", " + R(kTid));
    emit("S2R " + R(kLane) + ", SR_LANEID");
    emit("S2R " + R(kWarp) + ", SR_WARPID");
    emit("LDC " + R(kSlot) + ", [PARAM(out)]");
    emit("IMUL " + R(kAddr) + ", " + R(kGtid) + ", " + std::to_string(slot_bytes_));
    emit("IADD " + R(kSlot) + ", " + R(kSlot) + ", " + R(kAddr));
    emit("LDC " + R(kIn) + ", [PARAM(in)]");
    emit("LDC " + R(kAtom) + ", [PARAM(atom)]");
    comment("data registers: thread-dependent start values");
    for (int k = 0; k < nd_; ++k) {
      const std::string d = R(kData0 + k);
      switch (rng_.below(6)) {
        case 0: emit("MOV " + d + ", " + hex(float_imm())); break;
        case 1: emit("IADD " + d + ", " + R(kGtid) + ", " + hex(int_imm())); break;
        case 2:
          if (lim_.has_fpu)
            emit("I2F " + d + ", " + R(kGtid));
          else
            emit("SHL " + d + ", " + R(kGtid) + ", " + std::to_string(rng_.range(1, 8)));
          break;
        case 3: emit("IMUL " + d + ", " + R(kTid) + ", " + hex(rng_.u32() | 1)); break;
        default: {
          emit("AND " + R(kAddr) + ", " + R(rng_.chance(50) ? kGtid : kLane) + ", " + hex((in_bytes_ / 4) - 1));
          emit("SHL " + R(kAddr) + ", " + R(kAddr) + ", 2");
          emit("IADD " + R(kAddr) + ", " + R(kAddr) + ", " + R(kIn));
          emit("LDG " + d + ", [" + R(kAddr) + " + 0]");
        }
      }
    }
    for (int p = 0; p < 6; ++p)
      emit(std::string("ISETP.") + kCmpI[rng_.below(6)] + ".U32 " + P(p) + ", " + R(kData0 + int(rng_.below(uint32_t(nd_)))) +
           ", " + R(kData0 + int(rng_.below(uint32_t(nd_)))));
    if (sh_words_ == 0) return;
    // The ISA does not promise shared memory's contents at CTA start (the
    // RTL does not clear it): every thread zeroes its own area, thread 0 the
    // shared atomic words, before anything reads them.
    comment("shared memory: zeroed before use");
    emit("IMUL " + R(kTmp) + ", " + R(kTid) + ", " + std::to_string(4 * sh_words_));
    for (uint32_t w = 0; w < sh_words_; ++w) emit("STS [" + R(kTmp) + " + " + std::to_string(4 * w) + "], RZ");
    emit("ISETP.EQ " + P(kCtl) + ", " + R(kTid) + ", 0");
    for (uint32_t a = 0; a < nsh_atom_; ++a) emit("@P6 STS [" + std::to_string(sh_atom_off_ + 4 * a) + "], RZ");
    emit("BAR.SYNC 0");
  }

  std::string bar() {
    const uint32_t id = rng_.below(16);
    if (rng_.chance(50)) return "BAR.SYNC " + std::to_string(id);
    // A thread count that still means every warp of the CTA.
    const uint32_t cnt = rng_.range(32 * (nwarps_ - 1) + 1, 32 * nwarps_);
    return "BAR.SYNC " + std::to_string(id) + ", " + std::to_string(cnt);
  }
  void barrier() {
    if (rng_.chance(25)) {
      // A guard true in at least one lane of every warp (lane 0 always exists): the warp arrives.
      if (rng_.chance(50)) {
        emit("ISETP.EQ " + P(kCtl) + ", " + R(kLane) + ", 0");
        emit("@P6 " + bar());
      } else {
        emit("ISETP.NE " + P(kCtl) + ", " + R(kLane) + ", 0");
        emit("@!P6 " + bar());
      }
    } else {
      emit(bar());
    }
  }

  // Top level only (the whole CTA converged): write own shared area + shared
  // atomics, barrier, read others' areas (strided / broadcast), barrier.
  void sync_segment() {
    if (fault_ == iss::FaultKind::BARRIER_DEADLOCK && rng_.chance(50)) return;
    if (sh_words_ == 0 || rng_.chance(20)) {
      comment("barrier");
      barrier();
      return;
    }
    comment("shared segment: write own area, barrier, read others, barrier");
    const uint32_t area = 4 * sh_words_;
    emit("IMUL " + R(kTmp) + ", " + R(kTid) + ", " + std::to_string(area));
    const int writes = int(rng_.range(1, 4));
    for (int i = 0; i < writes; ++i) {
      static const uint32_t sw[] = {1, 2, 4};
      static const char* const sn[] = {"8", "16", "32"};
      const uint32_t k = rng_.below(3);
      const std::string off = std::to_string(rng_.below(area / sw[k]) * sw[k]);
      if (rng_.chance(25)) {
        // Lanes 4q..4q+3 (one warp) store to the area of thread 4q in one
        // instruction: the highest active lane's bytes win (docs/isa.md).
        emit("AND " + R(kAddr) + ", " + R(kTid) + ", " + hex(~3u));
        emit("IMUL " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(area));
        emit(guard() + "STS." + sn[k] + " [" + R(kAddr) + " + " + off + "], " + R(sreg()));
      } else {
        emit(guard() + "STS." + sn[k] + " [" + R(kTmp) + " + " + off + "], " + R(sreg()));
      }
    }
    const int atoms = int(rng_.range(0, 3));
    for (int i = 0; i < atoms; ++i) {
      bool cas;
      const std::string m = atom_ops(&cas);
      std::string s = guard() + "ATOMS" + m + " " + (rng_.chance(20) ? "RZ" : R(dreg())) + ", [" +
                      std::to_string(sh_atom_off_ + 4 * rng_.below(nsh_atom_)) + "], " + R(sreg());
      if (cas) s += ", " + R(sreg());
      emit(s);
    }
    barrier();
    const int reads = int(rng_.range(1, 4));
    for (int i = 0; i < reads; ++i) {
      const uint32_t k = rng_.below(5);
      if (k == 0) {  // broadcast: everyone reads the same thread's area
        emit("MOV " + R(kAddr) + ", " + std::to_string(area * rng_.below(nthreads_)));
      } else if (k == 1) {  // tid ^ x within the power-of-two part
        emit("XOR " + R(kAddr) + ", " + R(kTid) + ", " + std::to_string(rng_.below(pow2_)));
        emit("AND " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(pow2_ - 1));
        emit("IMUL " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(area));
      } else if (k == 2 && nsh_atom_) {  // the shared atomic words
        emit("MOV " + R(kAddr) + ", " + std::to_string(sh_atom_off_ + 4 * rng_.below(nsh_atom_)));
        emit(guard() + "LDS " + R(dreg()) + ", [" + R(kAddr) + "]");
        continue;
      } else {  // (tid * stride + c) mod pow2: random bank patterns
        emit("IMUL " + R(kAddr) + ", " + R(kTid) + ", " + std::to_string(rng_.range(0, 33)));
        emit("IADD " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(rng_.below(64)));
        emit("AND " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(pow2_ - 1));
        emit("IMUL " + R(kAddr) + ", " + R(kAddr) + ", " + std::to_string(area));
      }
      const uint32_t w = rng_.below(5);
      const uint32_t wb = kLdBytes[w];
      emit(guard() + "LDS." + kLdW[w] + " " + R(dreg()) + ", [" + R(kAddr) + " + " +
           std::to_string(rng_.below(area / wb) * wb) + "]");
    }
    barrier();
  }

  void epilogue() {
    comment("results: every data register and the predicates to the own slot");
    for (int k = 0; k < nd_; ++k) emit("STG [" + R(kSlot) + " + " + std::to_string(4 * k) + "], " + R(kData0 + k));
    emit("MOV " + R(kTmp) + ", 0");
    for (int p = 0; p < 7; ++p) emit("@P" + std::to_string(p) + " OR " + R(kTmp) + ", " + R(kTmp) + ", " + std::to_string(1 << p));
    emit("STG [" + R(kSlot) + " + " + std::to_string(4 * nd_) + "], " + R(kTmp));
    if (fault_ != iss::FaultKind::NONE) {
      fault();
      return;
    }
    comment("an early exit of some threads, then the rest write one more word");
    const std::string tail = "[" + R(kSlot) + " + " + std::to_string(slot_bytes_ - 4) + "]";
    emit("@" + std::string(rng_.chance(50) ? "!" : "") + P(int(rng_.below(6))) + " EXIT");
    if (depth_limit_ >= 2 && rng_.chance(60)) {  // an EXIT inside a divergent branch
      const std::string skip = new_label("tail");
      condition();
      emit(branch_guard() + "BRA " + skip);
      emit("XOR " + R(kTmp) + ", " + R(kData0) + ", " + R(kGtid));
      emit("STG " + tail + ", " + R(kTmp));
      emit("@" + std::string(rng_.chance(50) ? "!" : "") + P(int(rng_.below(6))) + " EXIT");
      emit("IADD " + R(kData0) + ", " + R(kData0) + ", 1");
      label(skip);
    }
    emit("IADD " + R(kTmp) + ", " + R(kData0) + ", " + R(kData0 + 1));
    emit("STG " + tail + ", " + R(kTmp));
    emit("EXIT");
  }

  // ---- faults --------------------------------------------------------------------------
  void only_thread(uint32_t gtid) {
    emit("ISETP.NE " + P(kCtl) + ", " + R(kGtid) + ", " + std::to_string(gtid));
    emit("@P6 EXIT");
  }
  void word(uint64_t w) {
    char b[40];
    std::snprintf(b, sizeof b, ".word 0x%016llx", (unsigned long long)w);
    body_ << "    " << b << ";\n";
    ++ninstr_;
    cost_ += mult_;
  }
  void fault() {
    const uint32_t total = nthreads_ * ctas_;
    const uint32_t tgt = rng_.below(total);
    comment(std::string("fault ") + iss::fault_kind_name(fault_) + " by global thread " + std::to_string(tgt));
    switch (fault_) {
      case iss::FaultKind::ILLEGAL_INSTR: {
        only_thread(tgt);
        const uint32_t k = rng_.below(3);
        if (k == 0) {  // an opcode that is not in the table
          std::vector<uint8_t> bad;
          for (int c = 0; c < 128; ++c)
            if (!isa::op_info(uint8_t(c))) bad.push_back(uint8_t(c));
          word(uint64_t(rng_.pick(bad)) | 0x700 | (uint64_t(rng_.u32()) << 32));
        } else if (k == 1) {  // LDG with width 5..255 (not a width)
          isa::Instr in;
          in.op = isa::Op::LDG;
          in.bimm = true;
          in.rd = kData0;
          in.ra = kIn;
          in.mod = uint8_t(rng_.range(5, 255));
          word(isa::encode(in));
        } else {  // a register the kernel did not declare
          isa::Instr in;
          in.op = isa::Op::IADD;
          in.rd = uint8_t(kData0);
          in.ra = uint8_t(rng_.range(regs_, 62));
          in.rb = uint8_t(kData0);
          word(isa::encode(in));
        }
        emit("EXIT");
        break;
      }
      case iss::FaultKind::INVALID_PC: {
        only_thread(tgt);
        // A raw BRA (the assembler sees an opaque word) far past the end of
        // the code, or to before its start.
        isa::Instr in;
        in.op = isa::Op::BRA;
        in.bimm = true;
        const int32_t delta =
            rng_.chance(50) ? int32_t(rng_.range(4096, 32767)) : -int32_t(ninstr_ + rng_.range(1, 256));
        in.imm = uint32_t(uint16_t(int16_t(delta)));
        word(isa::encode(in));
        emit("EXIT");
        break;
      }
      case iss::FaultKind::OUT_OF_WINDOW: {
        only_thread(tgt);
        switch (rng_.below(6)) {
          case 0: emit("LDG " + R(kData0) + ", [" + R(kIn) + " + " + std::to_string(in_bytes_) + "]"); break;
          case 1:
            emit("LDC " + R(kTmp) + ", [PARAM(out)]");
            emit("STG.8 [" + R(kTmp) + " + " + std::to_string(out_bytes_) + "], " + R(kData0));
            break;
          case 2: emit("ATOMG.ADD " + R(kData0) + ", [" + R(kAtom) + " + " + std::to_string(4 * natom_) + "], " + R(kData0)); break;
          case 3: emit("LDS " + R(kData0) + ", [" + std::to_string(shared_bytes_ + 4 * rng_.below(4)) + "]"); break;
          case 4: emit("LDC.U16 " + R(kData0) + ", [" + std::to_string(28 + 2 * rng_.range(1, 8)) + "]"); break;
          default: emit("LDG.U8 " + R(kData0) + ", [" + R(kIn) + " - 1]");
        }
        emit("EXIT");
        break;
      }
      case iss::FaultKind::MISALIGNED: {
        only_thread(tgt);
        switch (rng_.below(6)) {
          case 0: emit("LDG " + R(kData0) + ", [" + R(kIn) + " + " + std::to_string(4 * rng_.below(in_bytes_ / 4) + rng_.range(1, 3)) + "]"); break;
          case 1: emit("LDG.S16 " + R(kData0) + ", [" + R(kIn) + " + " + std::to_string(2 * rng_.below(in_bytes_ / 2) + 1) + "]"); break;
          case 2: emit("STG.16 [" + R(kSlot) + " + " + std::to_string(scratch_off_ + 1) + "], " + R(kData0)); break;
          case 3: emit("ATOMG.EXCH " + R(kData0) + ", [" + R(kAtom) + " + 2], " + R(kData0)); break;
          case 4: emit("LDC " + R(kData0) + ", [" + std::to_string(12 + 4 * rng_.below(4) + 2) + "]"); break;
          default: emit("STS.32 [" + std::to_string(4 * rng_.below(4) + 1) + "], " + R(kData0));
        }
        emit("EXIT");
        break;
      }
      case iss::FaultKind::TRAP:
        if (rng_.chance(50)) {
          only_thread(tgt);
          emit("TRAP");
        } else {
          emit("ISETP.EQ " + P(kCtl) + ", " + R(kGtid) + ", " + std::to_string(tgt));
          emit("@P6 TRAP");
        }
        emit("EXIT");
        break;
      case iss::FaultKind::STACK_OVERFLOW: {
        // One full-enough warp nests stack_depth divergent if-thens: lane k
        // leaves at level k, so level k needs k + 2 entries and the last one
        // (k = D - 1) pushes past D.
        const uint32_t full_warps = nthreads_ / 32 ? nthreads_ / 32 : 1;  // threads >= D + 1 guaranteed
        const uint32_t cta = rng_.below(ctas_), w = rng_.below(full_warps);
        emit("IMUL " + R(kTmp) + ", " + R(kCta) + ", " + std::to_string(nwarps_));
        emit("IADD " + R(kTmp) + ", " + R(kTmp) + ", " + R(kWarp));
        emit("ISETP.NE " + P(kCtl) + ", " + R(kTmp) + ", " + std::to_string(cta * nwarps_ + w));
        emit("@P6 EXIT");
        const uint32_t D = depth_limit_;
        for (uint32_t k = 0; k < D; ++k) {
          emit("ISETP.EQ " + P(kCtl) + ", " + R(kLane) + ", " + std::to_string(k));
          emit("@P6 BRA so" + std::to_string(k));
        }
        emit("IADD " + R(kData0) + ", " + R(kData0) + ", 1");
        for (uint32_t k = D; k-- > 0;) {
          label("so" + std::to_string(k));
          emit("IADD " + R(kData0) + ", " + R(kData0) + ", " + std::to_string(k + 2));
        }
        emit("EXIT");
        break;
      }
      case iss::FaultKind::BARRIER_DEADLOCK: {
        const uint32_t cta = rng_.below(ctas_);
        emit("ISETP.NE " + P(kCtl) + ", " + R(kCta) + ", " + std::to_string(cta));
        emit("@P6 EXIT");
        if (nwarps_ >= 2 && rng_.chance(60)) {  // warp 0 waits at one id, the others at another
          const uint32_t a = rng_.below(16), b = (a + rng_.range(1, 15)) % 16;
          emit("ISETP.EQ " + P(kCtl) + ", " + R(kWarp) + ", 0");
          emit("@P6 BRA dl_a");
          emit("BAR.SYNC " + std::to_string(b));
          emit("BRA dl_b");
          label("dl_a");
          emit("BAR.SYNC " + std::to_string(a));
          label("dl_b");
        } else {  // more threads than the CTA has
          emit("BAR.SYNC " + std::to_string(rng_.below(16)) + ", " + std::to_string(32 * nwarps_ + rng_.range(1, 64)));
        }
        emit("EXIT");
        break;
      }
      case iss::FaultKind::WATCHDOG:
        only_thread(tgt);
        if (rng_.chance(60)) {
          label("spin");
          emit("BRA spin");
        } else {  // "bounded" by 2^31 trips: endless for any budget
          emit("MOV " + R(kTmp) + ", 0x7fffffff");
          label("spin");
          emit("IADD " + R(kTmp) + ", " + R(kTmp) + ", -1");
          emit("ISETP.GT " + P(kCtl) + ", " + R(kTmp) + ", 0");
          emit("@P6 BRA spin");
        }
        emit("EXIT");
        break;
      default:
        emit("EXIT");
    }
  }

  Rng rng_;
  ProgenLimits lim_;
  std::string profile_;
  iss::FaultKind fault_;
  Weights w_;
  uint32_t depth_limit_ = 6;
  uint32_t guard_pct_ = 25;
  // The register layout above kCnt0 (see kGtid...): set by the constructor.
  int kWarp = 11, kCta = 12, kTmp = 13, kData0 = 16, kMaxLoopNest = 4;

  iss::Dim3 grid_, block_;
  uint32_t nthreads_ = 1, nwarps_ = 1, ctas_ = 1;
  int nd_ = 8;
  uint32_t regs_ = 24;
  uint32_t in_bytes_ = 256, natom_ = 4, scratch_bytes_ = 32, scratch_off_ = 0, slot_bytes_ = 0, out_bytes_ = 0;
  uint32_t nsh_atom_ = 1, sh_words_ = 0, sh_atom_off_ = 0, shared_bytes_ = 0, pow2_ = 1;
  uint32_t cparam_[4] = {};

  std::ostringstream body_;
  uint64_t ninstr_ = 0, cost_ = 0, mult_ = 1;
  int nlabel_ = 0, loops_ = 0;
};

}  // namespace

const std::vector<std::string>& profiles() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> p = {"mixed", "alu", "fpu", "control", "memory", "sync"};
    for (int k = 1; k <= int(iss::FaultKind::WATCHDOG); ++k)
      p.push_back(std::string("fault-") + iss::fault_kind_name(iss::FaultKind(k)));
    return p;
  }();
  return v;
}

bool is_profile(const std::string& profile) {
  const auto& v = profiles();
  return std::find(v.begin(), v.end(), profile) != v.end();
}

std::string gen_command(uint64_t seed, const std::string& profile, const ProgenLimits& limits) {
  const ProgenLimits d;
  std::string s = "baresm gen --seed " + std::to_string(seed) + " --profile " + profile;
  auto number = [&](const char* option, uint32_t value, uint32_t default_value) {
    if (value != default_value) s += std::string(" --") + option + " " + std::to_string(value);
  };
  number("stack-depth", limits.stack_depth, d.stack_depth);
  number("max-threads", limits.max_threads_per_block, d.max_threads_per_block);
  number("max-shared", limits.max_shared_bytes, d.max_shared_bytes);
  number("max-warps", limits.max_warps_per_cta, d.max_warps_per_cta);
  number("max-regs", limits.max_regs_per_thread, d.max_regs_per_thread);
  number("max-windows", limits.max_windows, d.max_windows);
  if (!limits.has_fpu) s += " --no-fpu";
  if (!limits.use_smid) s += " --no-smid";
  return s;
}

GeneratedProgram generate(uint64_t seed, const std::string& profile, const ProgenLimits& limits) {
  if (!is_profile(profile)) {
    std::string all;
    for (const auto& p : profiles()) all += (all.empty() ? "" : ", ") + p;
    throw std::invalid_argument("unknown profile '" + profile + "' (profiles: " + all + ")");
  }
  Gen g(seed, profile, limits);
  return g.run(seed);
}

std::vector<uint32_t> GeneratedProgram::param_values(const std::vector<uint32_t>& buffer_addrs) const {
  std::vector<uint32_t> out;
  for (const auto& p : params) out.push_back(p.buffer >= 0 ? buffer_addrs.at(size_t(p.buffer)) : p.value);
  return out;
}

ProgenLayout default_layout(const GeneratedProgram& p, uint32_t code_bytes) {
  auto up = [](uint32_t v) { return (v + 0xFFFu) & ~0xFFFu; };
  ProgenLayout l;
  l.param_addr = 0x800;
  l.code_base = 0x1000;
  uint32_t at = up(l.code_base + code_bytes) + 0x1000;  // a gap after every range
  for (const auto& b : p.buffers) {
    l.buffer_addrs.push_back(at);
    at = up(at + b.size) + 0x1000;
  }
  l.memory_bytes = at;
  return l;
}

iss::LaunchParams load_program(const GeneratedProgram& p, const isa::Module& m, iss::DeviceMemory& mem,
                               const ProgenLayout& layout) {
  const isa::KernelInfo* k = m.find_kernel(p.kernel);
  if (!k) throw std::invalid_argument("progen: module has no kernel '" + p.kernel + "'");
  for (size_t i = 0; i < m.code.size(); ++i) mem.write(uint32_t(layout.code_base + 8 * i), &m.code[i], 8);
  // The kernel's parameter table (the assembler's, from the .param lines)
  // places them: the one packer, isa::pack_params.
  const std::vector<uint32_t> values = p.param_values(layout.buffer_addrs);
  std::vector<isa::ParamArg> args;
  for (const uint32_t& v : values) args.push_back(isa::ParamArg{&v, 4});
  std::vector<uint8_t> params;
  const isa::PackResult packed = isa::pack_params(*k, args.data(), uint32_t(args.size()), &params);
  if (!packed.ok()) throw std::invalid_argument("progen: " + isa::pack_error_text(packed, k->name));
  if (!params.empty()) mem.write(layout.param_addr, params.data(), uint32_t(params.size()));
  iss::LaunchParams lp;
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    const auto& b = p.buffers[i];
    if (b.size) mem.write(layout.buffer_addrs[i], b.init.data(), b.size);
    lp.windows.push_back({layout.buffer_addrs[i], b.size});
  }
  lp.entry_pc = layout.code_base + k->entry;
  lp.code_base = layout.code_base;
  lp.code_size = uint32_t(8 * m.code.size());
  lp.grid = p.grid;
  lp.block = p.block;
  lp.param_addr = layout.param_addr;
  lp.param_size = uint32_t(params.size());
  lp.regs_per_thread = k->regs;
  lp.shared_bytes = k->shared_bytes;
  lp.instr_budget = p.instr_budget;
  return lp;
}

ModelRun run_on_model(const GeneratedProgram& p, const std::function<void(const iss::RetireEvent&)>& on_retire) {
  ModelRun r;
  isa::AsmResult a = isa::assemble(p.source, "progen_" + std::to_string(p.seed) + ".s");
  if (!a.ok()) {
    r.errors = a.format_errors();
    return r;
  }
  r.assembled = true;
  r.module = std::move(a.module);
  r.layout = default_layout(p, uint32_t(8 * r.module.code.size()));
  iss::DeviceMemory mem(r.layout.memory_bytes);
  r.launch = load_program(p, r.module, mem, r.layout);
  iss::ModelConfig cfg;
  cfg.stack_depth = p.stack_depth;
  iss::FunctionalModel model(mem, cfg);
  if (on_retire) model.set_retire_callback(on_retire);
  r.result = model.run(r.launch);
  r.memory = mem.bytes();
  return r;
}

}  // namespace baresm::progen
