// The parameter packer (isa/params.h), the one in the tree: the driver's
// Device::launch, progen's load_program and the bench pack through it. Every
// argument lands at the offset the assembler's table gives its parameter,
// the gaps are zero, and each way an argument list can be wrong is refused
// with the parameter and the numbers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/params.h"

using namespace baresm::isa;

namespace {

// Sizes 1, 4, 2, 8, 3, 12 and a 4-byte parameter aligned to 16: offsets
// 0, 4, 8, 16, 24, 32, 48 (test_assembler checks the table itself).
const KernelInfo& mixed_kernel() {
  static const Module m = [] {
    AsmResult r = assemble(
        ".kernel mixed\n"
        ".param a, 1\n.param b, 4\n.param c, 2\n.param d, 8\n.param e, 3\n.param f, 12\n.param g, 4, 16\n"
        ".regs 4\n"
        "EXIT\n"
        ".end\n",
        "mixed.s");
    EXPECT_TRUE(r.ok()) << r.format_errors();
    return r.module;
  }();
  return m.kernels.at(0);
}

struct Args {
  uint8_t a = 0x11;
  uint32_t b = 0x22222222;
  uint16_t c = 0x3333;
  uint64_t d = 0x4444444444444444ull;
  uint8_t e[3] = {0x55, 0x56, 0x57};
  uint8_t f[12] = {0x60, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B};
  uint32_t g = 0x77777777;
  std::vector<ParamArg> list() const {
    return {{&a, 1}, {&b, 4}, {&c, 2}, {&d, 8}, {e, 3}, {f, 12}, {&g, 4}};
  }
};

TEST(ParamPacker, EveryArgumentAtItsTableOffsetGapsZero) {
  const KernelInfo& k = mixed_kernel();
  ASSERT_EQ(k.param_bytes, 52u);
  const Args v;
  const std::vector<ParamArg> args = v.list();
  std::vector<uint8_t> out(7, 0xEE);  // resized and overwritten
  const PackResult r = pack_params(k, args.data(), uint32_t(args.size()), &out);
  ASSERT_TRUE(r.ok()) << pack_error_text(r, k.name);
  ASSERT_EQ(out.size(), 52u);
  std::vector<uint8_t> want(52, 0);
  for (size_t i = 0; i < args.size(); ++i) std::memcpy(&want[k.params[i].offset], args[i].ptr, args[i].size);
  EXPECT_EQ(out, want);
  EXPECT_EQ(out[1], 0);   // the gap between a (1 byte) and b (at 4)
  EXPECT_EQ(out[27], 0);  // after e (3 bytes at 24)
}

TEST(ParamPacker, TheTableFormTheDriverUsesIsTheSame) {
  const KernelInfo& k = mixed_kernel();
  std::vector<ParamSlot> slots;
  for (const ParamInfo& p : k.params) slots.push_back({p.offset, p.size, p.align});
  const Args v;
  const std::vector<ParamArg> args = v.list();
  std::vector<uint8_t> by_kernel;
  ASSERT_TRUE(pack_params(k, args.data(), uint32_t(args.size()), &by_kernel).ok());
  uint8_t buf[kMaxParamBytes];
  std::memset(buf, 0xEE, sizeof buf);
  ASSERT_TRUE(pack_params(slots.data(), uint32_t(slots.size()), k.param_bytes, args.data(),
                          uint32_t(args.size()), buf, sizeof buf)
                  .ok());
  EXPECT_EQ(std::vector<uint8_t>(buf, buf + k.param_bytes), by_kernel);
}

TEST(ParamPacker, NoParametersNoBytes) {
  KernelInfo k;
  k.name = "empty";
  std::vector<uint8_t> out(3, 1);
  EXPECT_TRUE(pack_params(k, nullptr, 0, &out).ok());
  EXPECT_TRUE(out.empty());
}

// Each way an argument list can be wrong, with what the message names.
TEST(ParamPacker, EachWrongListIsRefusedNamingTheParameter) {
  const KernelInfo& k = mixed_kernel();
  const Args v;
  std::vector<uint8_t> out;
  auto text = [&](const PackResult& r) { return pack_error_text(r, k.name); };

  std::vector<ParamArg> args = v.list();
  PackResult r = pack_params(k, args.data(), 6, &out);
  EXPECT_EQ(r.error, PackError::COUNT);
  EXPECT_EQ(text(r), "kernel mixed takes 7 parameters, 6 given");

  r = pack_params(k, nullptr, 7, &out);
  EXPECT_EQ(r.error, PackError::NO_ARGS);
  EXPECT_EQ(text(r), "null argument list");

  args = v.list();
  args[3].size = 4;  // d is 8 bytes
  r = pack_params(k, args.data(), 7, &out);
  EXPECT_EQ(r.error, PackError::SIZE);
  EXPECT_EQ(r.index, 3u);
  EXPECT_EQ(text(r), "parameter 3 of mixed is 8 bytes, argument has 4");

  args = v.list();
  args[1].ptr = nullptr;  // no bytes for b
  r = pack_params(k, args.data(), 7, &out);
  EXPECT_EQ(r.error, PackError::SIZE);
  EXPECT_EQ(r.index, 1u);

  // A table that natural alignment does not produce, and one that overruns.
  std::vector<ParamSlot> slots = {{0, 4, 4}, {6, 4, 4}};
  const uint32_t w0 = 1, w1 = 2;
  const ParamArg two[] = {{&w0, 4}, {&w1, 4}};
  uint8_t buf[16];
  r = pack_params(slots.data(), 2, 12, two, 2, buf, sizeof buf);
  EXPECT_EQ(r.error, PackError::LAYOUT);
  EXPECT_EQ(pack_error_text(r, "t"), "parameter 1 of t: natural alignment places it at 4, the module says 6");
  slots[1].offset = 4;
  r = pack_params(slots.data(), 2, 6, two, 2, buf, sizeof buf);
  EXPECT_EQ(r.error, PackError::OVERRUN);
  EXPECT_EQ(pack_error_text(r, "t"), "parameter 1 of t overruns the 6-byte buffer");
  r = pack_params(slots.data(), 2, 8, two, 2, buf, 4);
  EXPECT_EQ(r.error, PackError::BUFFER);
  r = pack_params(slots.data(), 2, 8, two, 2, buf, sizeof buf);
  ASSERT_TRUE(r.ok());
  uint32_t got[2];
  std::memcpy(got, buf, 8);
  EXPECT_EQ(got[0], 1u);
  EXPECT_EQ(got[1], 2u);
}

}  // namespace
