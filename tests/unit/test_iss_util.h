// Shared helpers of the functional-model tests: a tiny program builder on top
// of isa::encode (exact control over every field, reconvergence points
// included) and a rig that loads code, parameters and data into device memory.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "isa/iss.h"

namespace isstest {

using namespace baresm;
using isa::Instr;
using isa::Op;
constexpr int RZ = isa::kRegZero;
constexpr int PT = isa::kPredTrue;

class Prog {
 public:
  // OP rd, ra, rb, rc (register operands)
  Prog& r(Op op, int rd, int ra = RZ, int rb = RZ, int rc = RZ, uint8_t mod = 0) {
    Instr in;
    in.op = op;
    in.rd = uint8_t(rd);
    in.ra = uint8_t(ra);
    in.rb = uint8_t(rb);
    in.rc = uint8_t(rc);
    in.mod = mod;
    return push(in);
  }
  // OP rd, ra, imm32
  Prog& i(Op op, int rd, int ra, uint32_t imm, uint8_t mod = 0) {
    Instr in;
    in.op = op;
    in.bimm = true;
    in.rd = uint8_t(rd);
    in.ra = uint8_t(ra);
    in.imm = imm;
    in.mod = mod;
    return push(in);
  }
  Prog& mov(int rd, uint32_t imm) { return i(Op::MOV, rd, RZ, imm); }
  Prog& s2r(int rd, uint8_t sr) { return r(Op::S2R, rd, RZ, RZ, RZ, sr); }
  // ISETP.cmp[.U32].comb pd, ra, imm, [!]pc
  Prog& isetp(uint8_t cmp, int pd, int ra, uint32_t imm, bool uns = false, uint8_t comb = 0,
              int pc = PT, bool pc_neg = false) {
    return i(Op::ISETP, (pc << 3) | pd, ra, imm,
             uint8_t(cmp | (uns ? isa::kCmpUnsigned : 0) | (comb << 4) | (pc_neg ? 0x40 : 0)));
  }
  Prog& isetpr(uint8_t cmp, int pd, int ra, int rb, bool uns = false, uint8_t comb = 0,
               int pc = PT, bool pc_neg = false) {
    return r(Op::ISETP, (pc << 3) | pd, ra, rb, RZ,
             uint8_t(cmp | (uns ? isa::kCmpUnsigned : 0) | (comb << 4) | (pc_neg ? 0x40 : 0)));
  }
  Prog& ld(Op op, uint8_t w, int rd, int ra, uint32_t imm) { return i(op, rd, ra, imm, w); }
  Prog& ldg(int rd, int ra, uint32_t imm) { return ld(Op::LDG, isa::LDW_32, rd, ra, imm); }
  Prog& st(Op op, uint8_t w, int ra, uint32_t imm, int rs) { return i(op, rs, ra, imm, w); }
  Prog& stg(int ra, uint32_t imm, int rs) { return st(Op::STG, isa::LDW_32, ra, imm, rs); }
  Prog& atom(Op op, uint8_t mod, int rd, int ra, int32_t imm20, int rb, int rc = RZ) {
    Instr in;
    in.op = op;
    in.rd = uint8_t(rd);
    in.ra = uint8_t(ra);
    in.rb = uint8_t(rb);
    in.rc = uint8_t(rc);
    in.imm = uint32_t(imm20);
    in.mod = mod;
    return push(in);
  }
  Prog& bra(const std::string& target, const std::string& reconv = "") {
    Instr in;
    in.op = Op::BRA;
    in.bimm = true;
    fix_.push_back({ins_.size(), target, reconv});
    return push(in);
  }
  // BRA with raw deltas in instructions
  Prog& bra_raw(int16_t target, int16_t reconv) {
    return i(Op::BRA, RZ, RZ, uint32_t(uint16_t(target)) | uint32_t(uint16_t(reconv)) << 16);
  }
  Prog& exit() { return r(Op::EXIT, RZ); }
  Prog& trap() { return r(Op::TRAP, RZ); }
  Prog& nop() { return r(Op::NOP, RZ); }
  Prog& bar(uint32_t id, uint32_t count = 0) { return i(Op::BAR, RZ, RZ, id | count << 16); }
  Prog& raw(uint64_t word) {
    raw_[ins_.size()] = word;
    return push(Instr{});
  }
  // Guard of the last instruction.
  Prog& g(int p, bool neg = false) {
    ins_.back().pg = uint8_t(p);
    ins_.back().pg_neg = neg;
    return *this;
  }
  Prog& L(const std::string& name) {
    labels_[name] = int(ins_.size());
    return *this;
  }
  int here() const { return int(ins_.size()); }
  uint32_t pc_of(const std::string& label) const { return uint32_t(labels_.at(label)) * 8; }

  std::vector<uint64_t> words() const {
    std::vector<Instr> v = ins_;
    for (const auto& f : fix_) {
      int t = labels_.at(f.target) - int(f.at);
      int r = f.reconv.empty() ? 0 : labels_.at(f.reconv) - int(f.at);
      v[f.at].imm = uint32_t(uint16_t(int16_t(t))) | uint32_t(uint16_t(int16_t(r))) << 16;
    }
    std::vector<uint64_t> w;
    for (size_t k = 0; k < v.size(); ++k) {
      auto it = raw_.find(k);
      w.push_back(it != raw_.end() ? it->second : isa::encode(v[k]));
    }
    return w;
  }

 private:
  struct Fix {
    size_t at;
    std::string target, reconv;
  };
  Prog& push(const Instr& in) {
    ins_.push_back(in);
    return *this;
  }
  std::vector<Instr> ins_;
  std::vector<Fix> fix_;
  std::map<std::string, int> labels_;
  std::map<size_t, uint64_t> raw_;
};

// Memory map of the rig: code at kCode, parameters at kParam, one global
// window [kData, kData + kDataSize).
struct Rig {
  static constexpr uint32_t kMemSize = 1u << 20;
  static constexpr uint32_t kCode = 0x1000;
  static constexpr uint32_t kParam = 0x800;
  static constexpr uint32_t kData = 0x20000;
  static constexpr uint32_t kDataSize = 0x20000;

  iss::DeviceMemory mem{kMemSize};
  iss::ModelConfig cfg;
  iss::LaunchParams lp;
  std::vector<iss::RetireEvent> events;
  bool record = false;

  Rig() {
    lp.regs_per_thread = 16;
    lp.windows = {{kData, kDataSize}};
    lp.param_addr = kParam;
  }
  void load(const std::vector<uint64_t>& code) {
    for (size_t k = 0; k < code.size(); ++k) {
      uint64_t w = code[k];
      mem.write(uint32_t(kCode + 8 * k), &w, 8);
    }
    lp.entry_pc = kCode;
    lp.code_base = kCode;
    lp.code_size = uint32_t(8 * code.size());
  }
  void load(const Prog& p) { load(p.words()); }
  void params(const std::vector<uint32_t>& v) {
    for (size_t k = 0; k < v.size(); ++k) mem.write32(uint32_t(kParam + 4 * k), v[k]);
    lp.param_size = uint32_t(4 * v.size());
  }
  iss::LaunchResult run(iss::Dim3 grid, iss::Dim3 block) {
    lp.grid = grid;
    lp.block = block;
    iss::FunctionalModel m(mem, cfg);
    events.clear();
    if (record) m.set_retire_callback([this](const iss::RetireEvent& e) { events.push_back(e); });
    return m.run(lp);
  }
  iss::LaunchResult run(uint32_t threads) { return run({1, 1, 1}, {threads, 1, 1}); }
  uint32_t out(uint32_t i) const { return mem.read32(kData + 4 * i); }
  void set(uint32_t i, uint32_t v) { mem.write32(kData + 4 * i, v); }
};

}  // namespace isstest
