// The input of the disassembler target (fuzz_disasm.cpp), shared with the
// seed generator: a few bytes of kernel layout, then instruction words, so
// that the fuzzer spends its time on instruction words and control flow
// rather than on the image format (fuzz_module.cpp does that).
//
//   byte 0            kernels - 1 in bits [1:0]; bit 2: the line table says
//                     line 0 column 0 everywhere (else line = index + 1)
//   4 bytes a kernel  regs - 1 (mod 63); params in [1:0], parameter size
//                     log2 in [3:2], shared bytes / 256 in [7:4]; the
//                     kernel's instruction count, 16-bit little-endian
//   the rest          64-bit little-endian instruction words, taken by the
//                     kernels in order (the last one takes what is left; a
//                     kernel left without words gets an EXIT)
//
// The module it builds is what the assembler would lay out (kernels back to
// back, parameters packed, one line entry per instruction), so the
// disassembler must reproduce it exactly.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/isa.h"
#include "isa/module.h"

namespace baresm::fuzz {

inline isa::Module module_from_input(const uint8_t* data, size_t size) {
  isa::Module m;
  m.target.arch_id = isa::kArchId;
  m.source_name = "fuzz.s";
  if (size == 0) return m;
  const unsigned nk = 1 + (data[0] & 3);
  const bool zero_lines = data[0] & 4;
  size_t at = 1;
  struct Layout {
    uint8_t b[4] = {0, 0, 1, 0};
  };
  std::vector<Layout> lay(nk);
  for (unsigned k = 0; k < nk; ++k)
    for (int i = 0; i < 4 && at < size; ++i) lay[k].b[i] = data[at++];
  std::vector<uint64_t> words;
  for (; at + 8 <= size; at += 8) {
    uint64_t w = 0;
    for (int i = 0; i < 8; ++i) w |= uint64_t(data[at + size_t(i)]) << (8 * i);
    words.push_back(w);
  }
  size_t next = 0;
  for (unsigned k = 0; k < nk; ++k) {
    isa::KernelInfo ki;
    ki.name = "k" + std::to_string(k);
    ki.regs = 1 + lay[k].b[0] % uint32_t(isa::kMaxRegsPerThread);
    ki.shared_bytes = uint32_t(lay[k].b[1] >> 4) * 256;
    const unsigned np = lay[k].b[1] & 3, psize = 1u << ((lay[k].b[1] >> 2) & 3);
    uint32_t end = 0;
    for (unsigned j = 0; j < np; ++j) {
      isa::ParamInfo p;
      p.name = "p" + std::to_string(j);
      p.size = psize;
      p.align = std::min(psize, 8u);
      p.offset = (end + p.align - 1) / p.align * p.align;
      end = p.offset + p.size;
      ki.params.push_back(p);
    }
    ki.param_bytes = (end + 3) / 4 * 4;
    size_t n = size_t(lay[k].b[2]) | size_t(lay[k].b[3]) << 8;
    if (k + 1 == nk || n > words.size() - next) n = words.size() - next;
    ki.entry = uint32_t(m.code.size() * isa::kInstrBytes);
    m.code.insert(m.code.end(), words.begin() + long(next), words.begin() + long(next + n));
    next += n;
    if (n == 0) {
      isa::Instr exit;
      exit.op = isa::Op::EXIT;
      m.code.push_back(isa::encode(exit));
    }
    ki.code_bytes = uint32_t(m.code.size() * isa::kInstrBytes) - ki.entry;
    m.target.max_regs = std::max(m.target.max_regs, ki.regs);
    m.target.max_shared_bytes = std::max(m.target.max_shared_bytes, ki.shared_bytes);
    m.kernels.push_back(ki);
  }
  for (size_t i = 0; i < m.code.size(); ++i)
    m.lines.push_back(isa::LineEntry{uint32_t(i * isa::kInstrBytes), zero_lines ? 0 : uint32_t(i + 1),
                                     zero_lines ? 0u : 5u});
  return m;
}

// The input that module_from_input turns into m's kernel layout and code (for
// seeds; parameters and shared memory are approximated, line numbers dropped).
inline std::vector<uint8_t> input_from_module(const isa::Module& m) {
  std::vector<uint8_t> in;
  const size_t nk = std::min<size_t>(std::max<size_t>(m.kernels.size(), 1), 4);
  in.push_back(uint8_t(nk - 1));
  for (size_t k = 0; k < nk; ++k) {
    const isa::KernelInfo* ki = k < m.kernels.size() ? &m.kernels[k] : nullptr;
    const uint32_t regs = ki ? ki->regs : 1, n = ki ? ki->code_bytes / isa::kInstrBytes : 0;
    const uint32_t np = ki ? std::min<uint32_t>(uint32_t(ki->params.size()), 3) : 0;
    const uint32_t sh = ki ? std::min<uint32_t>(ki->shared_bytes / 256, 15) : 0;
    in.push_back(uint8_t(regs - 1));
    in.push_back(uint8_t(np | 2u << 2 | sh << 4));
    in.push_back(uint8_t(n));
    in.push_back(uint8_t(n >> 8));
  }
  for (uint64_t w : m.code)
    for (int i = 0; i < 8; ++i) in.push_back(uint8_t(w >> (8 * i)));
  return in;
}

}  // namespace baresm::fuzz
