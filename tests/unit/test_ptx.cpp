// The PTX front end (isa/ptx.h, docs/ptx.md) without running anything, so
// that it also runs under the sanitizers (tests/sanitize): every committed
// PTX file translates; what is not supported is an error at its PTX line and
// column naming it, every error of a file reported; register pressure the
// allocator cannot meet without spilling is an error that says so.
// (The feature suite and the CUDA samples on the model: test_ptx_run.cpp.)
#include <dirent.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "isa/disasm.h"
#include "isa/file_io.h"
#include "isa/module.h"
#include "isa/ptx.h"
#include "isa/rng.h"

using namespace baresm;

TEST(PtxTranslate, EveryCommittedPtxFileTranslates) {
  int files = 0;
  const std::string root = BARESM_SOURCE_DIR;
  for (const std::string& dir : {root + "/kernels/cuda", root + "/tests/ptx"}) {
    DIR* d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr) << dir;
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (!isa::is_ptx_path(name)) continue;
      const isa::PtxResult r = isa::translate_ptx_file(dir + "/" + name);
      EXPECT_TRUE(r.ok()) << name << "\n" << r.format_errors();
      EXPECT_FALSE(r.kernels.empty()) << name;
      ++files;
    }
    closedir(d);
  }
  EXPECT_GE(files, 8 + 17);
}

TEST(CudaSamples, KernelInfoLines) {
  const isa::PtxResult p = isa::translate_ptx_file(BARESM_SOURCE_DIR "/kernels/cuda/reduce_sum.ptx");
  ASSERT_TRUE(p.ok()) << p.format_errors();
  ASSERT_EQ(p.kernels.size(), 1u);
  const isa::PtxKernelInfo& k = p.kernels[0];
  EXPECT_EQ(uint32_t(k.regs), p.module.kernels[0].regs);
  EXPECT_EQ(k.smem_bytes, 1024u);
  EXPECT_EQ(k.param_bytes, 20u);  // two 8-byte pointers and a u32
  EXPECT_EQ(k.lmem_bytes, 0u);
  EXPECT_EQ(uint32_t(k.instrs) * 8, p.module.kernels[0].code_bytes);
  EXPECT_NE(k.info_line().find("kernel reduce_sum: " + std::to_string(k.regs) + " registers"),
            std::string::npos)
      << k.info_line();
  EXPECT_NE(k.info_line().find("0 bytes lmem, 1024 bytes smem, 20 bytes param"), std::string::npos)
      << k.info_line();
}

// ---- diagnostics --------------------------------------------------------------------------------
namespace {
const char* kHead = ".version 8.0\n.target sm_80\n.address_size 64\n";

std::string kernel_with(const std::string& regs, const std::string& body) {
  return std::string(kHead) + ".visible .entry k(.param .u64 p)\n{\n" + regs + body + "\tret;\n}\n";
}
const char* kRegs = "\t.reg .pred %p<4>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<10>;\n\t.reg .b16 %rs<4>;\n";

// "file:line:col: error: ..." of every diagnostic.
std::vector<std::string> errors_of(const std::string& src) {
  const isa::PtxResult r = isa::translate_ptx(src, "t.ptx");
  std::vector<std::string> v;
  for (const auto& d : r.diagnostics)
    v.push_back(d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
  return v;
}
}  // namespace

TEST(PtxErrors, EveryUnsupportedInstructionAtItsLineAndColumn) {
  // Lines 7.. of the file (6 lines of header and declarations before the body).
  const std::string body =
      "\tdiv.u16 %rs1, %rs1, %rs2;\n"                 // 10 (div.u64 is lowered since)
      "\tatom.global.add.u64 %rd1, [%rd2], %rd3;\n"   // 11
      "\tbrev.b64 %rd1, %rd2;\n"                      // 12
      "\tatom.global.exch.b64 %rd1, [%rd2], %rd3;\n"  // 13
      "\tshfl.sync.bfly.b32 %r1, %r2, 1, 31, 255;\n"  // 14
      "\tld.u32 %r1, [%rd1];\n"                       // 15
      "\tadd.f32.ftz %r1, %r2, %r3;\n"                // 16  (not a valid spelling either)
      "\tmul.hi.u16 %rs1, %rs1, %rs2;\n"              // 17
      "\tcvt.rn.f32.u64 %r1, %rd1;\n"                 // 18
      "\tadd.s32 %r1, %r2, 1;\n";                     // 19: fine
  const auto e = errors_of(kernel_with(kRegs, body));
  ASSERT_EQ(e.size(), 9u);
  EXPECT_EQ(e[0],
            "t.ptx:10:2: PTX instruction 'div.u16' is not supported (only .u32/.s32/.u64/.s64 integer division is "
            "lowered)");
  EXPECT_EQ(e[1],
            "t.ptx:11:2: PTX instruction 'atom.global.add.u64' is not supported (the old value of a 64-bit "
            "atomic add: the device's atomics are 32 bits, and the two halves of it would not be one value)");
  EXPECT_EQ(e[2], "t.ptx:12:2: PTX instruction 'brev.b64' is not supported (modifier .b64)");
  EXPECT_EQ(e[3], "t.ptx:13:2: PTX instruction 'atom.global.exch.b64' is not supported (.b64 atomics)");
  EXPECT_EQ(e[4], "t.ptx:14:38: shfl.sync member masks other than 0xffffffff are not supported yet");
  EXPECT_EQ(e[5].rfind("t.ptx:15:2: PTX instruction 'ld.u32' is not supported (generic addressing", 0), 0u)
      << e[5];
  EXPECT_EQ(e[6].rfind("t.ptx:16:2: PTX instruction 'add.f32.ftz' is not supported", 0), 0u) << e[6];
  EXPECT_EQ(e[7].rfind("t.ptx:17:", 0), 0u) << e[7];
  EXPECT_NE(e[7].find("mul.hi.u16"), std::string::npos) << e[7];
  EXPECT_EQ(e[8].rfind("t.ptx:18:2: PTX instruction 'cvt.rn.f32.u64' is not supported", 0), 0u) << e[8];
}

TEST(PtxErrors, UnsupportedFloatAndBitFormsAtTheirLine) {
  const std::string body =
      "\tdiv.rz.f32 %r1, %r2, %r3;\n"             // 10
      "\tsqrt.rm.f32 %r1, %r2;\n"                 // 11
      "\trsqrt.rn.f32 %r1, %r2;\n"                // 12
      "\tsin.approx.f32 %r1, %r2;\n"              // 13
      "\tprmt.b32.f4e %r1, %r2, %r3, 1;\n"        // 14
      "\tprmt.b32 %r1, %r2, %r3, %r4;\n"          // 15
      "\tfence.proxy.alias;\n"                    // 16
      "\tbfind.u64 %r1, %rd1;\n"                  // 17
      "\tfma.rz.ftz.f32 %r1, %r2, %r3, %r2;\n"    // 18: lowered since (PtxFp.FmaDirectedRoundingsBitExact)
      "\tatom.global.inc.s32 %r1, [%rd1], 3;\n";  // 19
  const auto e = errors_of(kernel_with(kRegs, body));
  ASSERT_EQ(e.size(), 9u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0],
            "t.ptx:10:2: PTX instruction 'div.rz.f32' is not supported (only the .rn rounding is lowered)");
  EXPECT_EQ(e[1],
            "t.ptx:11:2: PTX instruction 'sqrt.rm.f32' is not supported (only the .rn rounding is lowered)");
  EXPECT_EQ(e[2], "t.ptx:12:2: PTX instruction 'rsqrt.rn.f32' is not supported");
  EXPECT_EQ(e[3],
            "t.ptx:13:2: PTX instruction 'sin.approx.f32' is not supported (f32 special functions are not "
            "lowered yet)");
  EXPECT_EQ(e[4],
            "t.ptx:14:2: PTX instruction 'prmt.b32.f4e' is not supported (modifier .f4e (only the default "
            "mode is lowered))");
  EXPECT_EQ(e[5], "t.ptx:15:26: 'prmt.b32' with a selector that is not a constant is not supported yet");
  EXPECT_EQ(e[6], "t.ptx:16:2: PTX instruction 'fence.proxy.alias' is not supported (proxy fences)");
  EXPECT_EQ(e[7].rfind("t.ptx:17:2: PTX instruction 'bfind.u64' is not supported", 0), 0u) << e[7];
  EXPECT_EQ(e[8], "t.ptx:19:2: PTX instruction 'atom.global.inc.s32' is not supported");
}

TEST(PtxErrors, RegisterWidthsAreChecked) {
  const auto e = errors_of(kernel_with(std::string(kRegs) + "\t.reg .f64 %fd<2>;\n",
                                       "\tld.global.u32 %rs1, [%rd1];\n"  // 11
                                       "\tadd.s32 %r1, %rd1, 1;\n"        // 12
                                       "\tmov.f64 %fd1, %fd0;\n"));       // 13
  ASSERT_EQ(e.size(), 3u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0], "t.ptx:11:16: register '%rs1' is narrower than .u32");
  EXPECT_EQ(e[1], "t.ptx:12:15: register '%rd1' is .b64, the instruction expects 32 bits");
  EXPECT_EQ(e[2], "t.ptx:13:2: PTX instruction 'mov.f64' is not supported (.f64)");
}

TEST(PtxErrors, UnsupportedDirectivesAndEveryErrorOfTheFile) {
  const std::string src = std::string(kHead) +
                          ".global .align 4 .u32 g;\n"                            // 4: unreferenced, accepted
                          ".func f()\n{\n\tret;\n}\n"                             // 5..8: accepted, never called
                          ".visible .entry k(.param .u64 p) .maxntid 64, 1, 1\n"  // 9
                          "{\n"
                          "\t.local .align 4 .b8 stack[];\n"  // 11
                          "\t.reg .b32 %r<4>;\n"
                          "\tfoo.bar %r1;\n"  // 13
                          "\tret;\n}\n";
  const auto e = errors_of(src);
  ASSERT_EQ(e.size(), 3u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0], "t.ptx:9:34: directive '.maxntid' is not supported by the PTX front end");
  EXPECT_EQ(e[1], "t.ptx:11:28: an unsized .local array is not valid PTX");
  EXPECT_EQ(
      e[2],
      "t.ptx:13:2: PTX instruction 'foo.bar' is not supported (no PTX instruction 'foo' is translated)");
}

// Device functions are inlined (ptx_inline.h), recursive ones emitted once
// with a call stack: what cannot be translated exactly is refused by name at
// its line and column -- a function without a body (vprintf), an indirect
// call, a parameter read with another width than it was written, a
// parameter's address. (f and g call each other: that is recursion, which
// translates.)
TEST(PtxErrors, CallsThatCannotBeInlinedAreRefusedByName) {
  const std::string src = std::string(kHead) +
                          ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"  // 4
                          ".func (.param .b32 r) f(.param .b32 a)\n"                                          // 5
                          "{\n\t.reg .b32 %r<3>;\n"                                                           // 6-7
                          "\tld.param.u32 %r1, [a];\n"                                                         // 8
                          "\t{ .param .b32 q0; st.param.b32 [q0+0], %r1; .param .b32 q1;\n"                    // 9
                          "\tcall.uni (q1), g, (q0);\n"                                                        // 10
                          "\tld.param.b32 %r2, [q1+0]; }\n"                                                    // 11
                          "\tst.param.b32 [r+0], %r2;\n\tret;\n}\n"                                             // 12-14
                          ".func (.param .b32 r) g(.param .b32 a)\n"                                          // 15
                          "{\n\t.reg .b32 %r<3>;\n"                                                           // 16-17
                          "\tld.param.u32 %r1, [a];\n"                                                         // 18
                          "\t{ .param .b32 q0; st.param.b32 [q0+0], %r1; .param .b32 q1;\n"                    // 19
                          "\tcall.uni (q1), f, (q0);\n"                                                        // 20
                          "\tld.param.b32 %r2, [q1+0]; }\n"                                                    // 21
                          "\tst.param.b32 [r+0], %r2;\n\tret;\n}\n"                                             // 22-24
                          ".visible .entry k(.param .u64 p)\n"                                                // 25
                          "{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"                                        // 26-28
                          "\t{ .param .b32 a0; st.param.b32 [a0+0], 1; .param .b32 r0;\n"                     // 29
                          "\tcall.uni (r0), f, (a0);\n"                                                        // 30
                          "\tld.param.b32 %r1, [r0+0]; }\n"                                                    // 31
                          "\t{ .param .b64 a0; .param .b64 a1; .param .b32 r0;\n"                               // 32
                          "\tcall.uni (r0), vprintf, (a0, a1);\n"                                              // 33
                          "\tcall.uni (r0), %rd1, (a0, a1), proto;\n"                                          // 34
                          "\tmov.u64 %rd2, a0;\n"                                                              // 35
                          "\tst.param.b32 [a0+0], %r1;\n"                                                      // 36
                          "\tld.param.b64 %rd1, [a0+0]; }\n"                                                   // 37
                          "\tret;\n}\n";
  const auto e = errors_of(src);
  ASSERT_EQ(e.size(), 4u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0].rfind("t.ptx:33:17: call of 'vprintf', a function declared without a body", 0), 0u) << e[0];
  EXPECT_EQ(e[1].rfind("t.ptx:34:2: PTX instruction 'call.uni' is an indirect call", 0), 0u) << e[1];
  EXPECT_EQ(e[2].rfind("t.ptx:35:16: call parameter 'a0' used by 'mov.u64': only ld.param and st.param", 0), 0u) << e[2];
  EXPECT_EQ(e[3].rfind("t.ptx:37:2: 'ld.param.b64' reads 8 bytes at 'a0'+0, which were written as 4 bytes", 0), 0u) << e[3];
}

// Recursive functions (docs/ptx.md "Recursion"): what cannot run with the
// threads of a warp at different depths, or cannot be laid out once for
// every activation, is refused by name at its line and column: a barrier
// and a shuffle inside the cycle, a .local variable's address used other
// than by mov and ld/st.local, a parameter written with another width at a
// second call.
TEST(PtxErrors, RecursionRefusedWhereItCannotRun) {
  const std::string src = std::string(kHead) +
                          ".func (.param .b32 r) f(.param .b32 a)\n"                                          // 4
                          "{\n\t.local .align 4 .b8 __local_depot0[8];\n"                                    // 5-6
                          "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"                                         // 7-8
                          "\tld.param.u32 %r1, [a];\n"                                                         // 9
                          "\tbar.sync 0;\n"                                                                   // 10
                          "\tshfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;\n"                                       // 11
                          "\tadd.u64 %rd1, __local_depot0, 4;\n"                                              // 12
                          "\t{ .param .b32 q0; st.param.b32 [q0+0], %r1; .param .b32 q1;\n"                    // 13
                          "\tcall.uni (q1), f, (q0);\n"                                                        // 14
                          "\tld.param.b32 %r2, [q1+0]; }\n"                                                    // 15
                          "\t{ .param .b64 q0; st.param.b64 [q0+0], %rd1; .param .b32 q1;\n"                   // 16
                          "\tcall.uni (q1), f, (q0);\n"                                                        // 17
                          "\tld.param.b32 %r4, [q1+0]; }\n"                                                    // 18
                          "\tst.param.b32 [r+0], %r2;\n\tret;\n}\n"                                             // 19-21
                          ".visible .entry k(.param .u64 p)\n"                                                // 22
                          "{\n\t.reg .b32 %r<4>;\n"                                                           // 23-24
                          "\t{ .param .b32 a0; st.param.b32 [a0+0], 1; .param .b32 r0;\n"                     // 25
                          "\tcall.uni (r0), f, (a0);\n"                                                        // 26
                          "\tld.param.b32 %r1, [r0+0]; }\n"                                                    // 27
                          "\tret;\n}\n";
  const auto e = errors_of(src);
  ASSERT_EQ(e.size(), 4u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0].rfind("t.ptx:10:2: PTX instruction 'bar.sync' inside recursive function 'f'", 0), 0u) << e[0];
  EXPECT_EQ(e[1].rfind("t.ptx:11:2: PTX instruction 'shfl.sync.bfly.b32' inside recursive function 'f'", 0), 0u) << e[1];
  EXPECT_EQ(e[2], "t.ptx:12:16: .local variable '__local_depot0' of recursive function 'f' used by 'add.u64': only mov "
                  "of its address and ld/st.local through it are supported");
  EXPECT_EQ(e[3], "t.ptx:17:2: call of recursive function 'f': parameter 'a' is written with other offsets or widths "
                  "than at its first call");
}

// __device__ and __constant__ variables a kernel uses are refused by name
// where they are used (their data is not in the module yet); unreferenced
// ones and those only another kernel uses are not errors.
TEST(PtxErrors, ModuleVariablesRefusedWhereTheyCannotBe) {
  const std::string src = std::string(kHead) +
                          ".global .align 4 .u32 counter;\n"                            // 4
                          ".const .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"  // 5
                          ".extern .shared .align 8 .b8 sized[16];\n"                   // 6
                          ".extern .global .align 4 .u32 elsewhere;\n"                  // 7
                          ".visible .entry k(.param .u64 p)\n{\n" +                     // 8, 9
                          kRegs +                                                       // 10..13
                          "\tld.shared.u32 %r1, [counter];\n"                           // 14
                          "\tld.global.u32 %r2, [elsewhere];\n"                         // 15
                          "\tld.shared.u32 %r3, [sized];\n"                             // 16
                          "\tld.local.u32 %r4, [table];\n"                              // 17
                          "\tret;\n}\n"
                          ".visible .entry other(.param .u64 p)\n{\n\tret;\n}\n"
                          ".global .align 8 .u64 ptr = generic(counter);\n"             // 24
                          ".global .align 4 .u32 mixed[2] = {1, 0f3F800000};\n"         // 25
                          ".const .align 4 .f32 ints[2] = {1, 2};\n"                    // 26
                          ".global .align 4 .u32 many[2] = {1, 2, 3};\n";               // 27
  const auto e = errors_of(src);
  ASSERT_EQ(e.size(), 9u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0], "t.ptx:24:29: the initialiser of 'ptr' holds an address ('generic'): pointers initialised to "
                  "variables are not supported");
  EXPECT_EQ(e[1], "t.ptx:25:38: a floating-point value in the initialiser of .u32 variable 'mixed'");
  EXPECT_EQ(e[2], "t.ptx:26:33: the initialiser of .f32 variable 'ints' needs 0f bit patterns, found '1'");
  EXPECT_EQ(e[3], "t.ptx:27:23: the initialiser of 'many' has more elements than the variable (2)");
  EXPECT_EQ(e[4],
            "t.ptx:6:30: an .extern .shared variable with a size ('sized') is not supported: dynamic shared "
            "memory is an unsized array");
  EXPECT_EQ(e[5],
            "t.ptx:7:31: .extern .global variable 'elsewhere' is defined in another compilation unit "
            "(relocatable device code, -rdc): not supported");
  EXPECT_EQ(e[6], "t.ptx:14:21: module-scope variable 'counter' as a shared address is not supported");
  EXPECT_EQ(e[7], "t.ptx:15:21: symbol 'elsewhere' as a global address is not supported");
  EXPECT_EQ(e[8],
            "t.ptx:17:20: module-scope variable 'table' (a __device__ or __constant__ variable) as a .shared or "
            ".local address is not supported");
}

// FMA contraction (docs/ptx.md): pairs whose treatment by ptxas was not
// established on the GPU are refused at the add rather than rounded twice.
TEST(PtxErrors, ContractionsNotEstablishedAreRefusedByName) {
  const auto e = errors_of(kernel_with(std::string(kRegs) + "\t.reg .f32 %f<10>;\n",  // 10
                                       "\tmul.f32 %f1, %f2, %f3;\n"                   // 11
                                       "\tadd.sat.f32 %f4, %f1, %f5;\n"               // 12
                                       "\tmul.ftz.f32 %f6, %f2, %f3;\n"               // 13
                                       "\tsub.f32 %f7, %f5, %f6;\n"                   // 14
                                       "\tmul.f32 %f8, %f2, %f3;\n"                   // 15
                                       "\tadd.f32 %f9, %f8, %f8;\n"));                // 16
  ASSERT_EQ(e.size(), 3u) << ::testing::PrintToString(e);
  EXPECT_EQ(e[0],
            "t.ptx:12:2: PTX instruction 'add.sat.f32' is not supported ('mul.f32' feeding 'add.sat.f32': "
            "ptxas's contraction with .sat or mixed .ftz is not established)");
  EXPECT_EQ(e[1],
            "t.ptx:14:2: PTX instruction 'sub.f32' is not supported ('mul.ftz.f32' feeding 'sub.f32': "
            "ptxas's contraction with .sat or mixed .ftz is not established)");
  EXPECT_EQ(e[2],
            "t.ptx:16:2: PTX instruction 'add.f32' is not supported (its two operands are one 'mul.f32' "
            "product: ptxas's contraction is not established)");
}

TEST(PtxErrors, NotPtxAtAll) {
  EXPECT_EQ(errors_of(""), std::vector<std::string>{"t.ptx:0:0: no .version directive: this is not PTX"});
  EXPECT_EQ(errors_of(kHead), std::vector<std::string>{"t.ptx:0:0: no .entry kernel in the file"});
  const auto e = errors_of(".version 8.0\n.target sm_80\n.address_size 32\n");
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0], "t.ptx:3:15: .address_size 32 is not supported (only 64, what nvcc writes)");
}

TEST(PtxErrors, UndeclaredRegisterAndLabel) {
  const auto e = errors_of(kernel_with(kRegs, "\tadd.s32 %r1, %r77, 1;\n\tbra $L__nowhere;\n"));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], "t.ptx:10:15: '%r77' is not a declared register or a supported special register");
  EXPECT_EQ(e[1], "t.ptx:11:6: label '$L__nowhere' is not defined in this kernel");
}

TEST(PtxRegalloc, TooManyLiveValuesSpillToLocalMemory) {
  // 70 values loaded, then all summed: 70 are live at once, more than R0..R62.
  std::string body = "\tld.param.u64 %rd1, [p];\n";
  for (int i = 0; i < 70; ++i)
    body += "\tld.global.u32 %r" + std::to_string(i + 10) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  body += "\tmov.u32 %r1, 0;\n";
  for (int i = 0; i < 70; ++i) body += "\tadd.s32 %r1, %r1, %r" + std::to_string(i + 10) + ";\n";
  body += "\tst.global.u32 [%rd1], %r1;\n";
  const std::string src = kernel_with("\t.reg .b32 %r<100>;\n\t.reg .b64 %rd<2>;\n", body);
  const isa::PtxResult r = isa::translate_ptx(src, "t.ptx");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  ASSERT_EQ(r.kernels.size(), 1u);
  const isa::PtxKernelInfo& k = r.kernels[0];
  // 70 values + pointer + sum + frame in 63 registers: the longest-lived
  // loads (the first ones, summed last) go to the frame, a few more than
  // the excess because each reload needs a register while they are live.
  EXPECT_EQ(k.regs, 63);
  EXPECT_GE(k.spill_bytes, 4u * 10);
  EXPECT_LE(k.spill_bytes, 4u * 16);
  EXPECT_EQ(k.lmem_bytes, k.spill_bytes);
  EXPECT_EQ(r.module.kernels[0].local_bytes, k.lmem_bytes);
  EXPECT_NE(k.info_line().find(std::to_string(k.lmem_bytes) + " bytes lmem (" + std::to_string(k.spill_bytes) +
                               " bytes spill)"),
            std::string::npos)
      << k.info_line();
  // Each spilled value: one STG after its load, one LDG before its use; the frame prologue (22).
  const int spilled = int(k.spill_bytes / 4);
  EXPECT_EQ(k.instrs, 1 + 70 + 1 + 70 + 1 + 1 + 22 + 2 * spilled) << r.assembly;

  // 60 live values fit: the allocator uses exactly what is live (+ the pointer and the sum).
  std::string fits = "\tld.param.u64 %rd1, [p];\n";
  for (int i = 0; i < 60; ++i)
    fits += "\tld.global.u32 %r" + std::to_string(i + 10) + ", [%rd1+" + std::to_string(4 * i) + "];\n";
  fits += "\tmov.u32 %r1, 0;\n";
  for (int i = 0; i < 60; ++i) fits += "\tadd.s32 %r1, %r1, %r" + std::to_string(i + 10) + ";\n";
  fits += "\tst.global.u32 [%rd1], %r1;\n";
  const isa::PtxResult ok =
      isa::translate_ptx(kernel_with("\t.reg .b32 %r<100>;\n\t.reg .b64 %rd<2>;\n", fits), "t.ptx");
  ASSERT_TRUE(ok.ok()) << ok.format_errors();
  EXPECT_EQ(ok.kernels[0].regs, 62);
}

TEST(PtxRegalloc, PredicatesBeyondP6AreKeptInRegisters) {
  std::string body;
  for (int i = 0; i < 8; ++i)
    body += "\tsetp.eq.s32 %p" + std::to_string(i) + ", %r1, " + std::to_string(i) + ";\n";
  for (int i = 0; i < 8; ++i) body += "\t@%p" + std::to_string(i) + " add.s32 %r2, %r2, 1;\n";
  const isa::PtxResult r =
      isa::translate_ptx(kernel_with("\t.reg .pred %p<8>;\n\t.reg .b32 %r<4>;\n", body), "t.ptx");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  EXPECT_EQ(r.kernels[0].preds, 7);
  EXPECT_GE(r.kernels[0].preds_in_regs, 1);
  EXPECT_NE(r.kernels[0].info_line().find("kept in registers"), std::string::npos)
      << r.kernels[0].info_line();
}

TEST(PtxRegalloc, DeadResultsGoToRZ) {
  // histogram's atom.shared.add result is never read: RZ, no register.
  const isa::PtxResult p = isa::translate_ptx_file(BARESM_SOURCE_DIR "/kernels/cuda/histogram.ptx");
  ASSERT_TRUE(p.ok()) << p.format_errors();
  EXPECT_NE(p.assembly.find("ATOMS.ADD RZ, "), std::string::npos) << p.assembly;
  EXPECT_NE(p.assembly.find("ATOMG.ADD RZ, "), std::string::npos) << p.assembly;
}

// ---- robustness ----------------------------------------------------------------------------
// Mutated PTX (the committed files, with lines dropped, duplicated or swapped,
// tokens replaced, bytes flipped): the front end never crashes or throws;
// it either translates (and the module then loads) or reports errors at
// positions inside the file. Fixed seed, so a failure is reproducible.
TEST(PtxFuzz, MutatedPtxNeverCrashes) {
  std::vector<std::string> sources;
  const std::string root = BARESM_SOURCE_DIR;
  for (const std::string& dir : {root + "/kernels/cuda", root + "/tests/ptx"}) {
    DIR* d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr) << dir;
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (!isa::is_ptx_path(name)) continue;
      std::string text, error;
      ASSERT_TRUE(isa::read_file(dir + "/" + name, isa::kMaxSourceBytes, &text, &error)) << error;
      sources.push_back(text);
    }
    closedir(d);
  }
  std::sort(sources.begin(), sources.end());  // readdir order is the file system's
  ASSERT_FALSE(sources.empty());
  const char* tokens[] = {"%r1",
                          "%rd1",
                          "%p1",
                          "%rs1",
                          "%f1",
                          "[",
                          "]",
                          "{",
                          "}",
                          ";",
                          ",",
                          "|",
                          "!",
                          "@%p1",
                          "-",
                          "+",
                          "0f",
                          "0x",
                          "99999999999999999999",
                          "-2147483648",
                          ".reg",
                          ".shared",
                          ".param",
                          ".u64",
                          ".b16",
                          "bra",
                          "ret",
                          "$L__BB0_2",
                          "/*",
                          "\"",
                          "setp.lt.s32",
                          "shfl.sync.up.b32",
                          "div.s32",
                          "atom.global.cas.b32",
                          "\n",
                          "%tid.x"};
  baresm::SplitMix64 rng(2026);
  int translated = 0, failed = 0;
  for (int c = 0; c < 1500; ++c) {
    std::string s = sources[rng.below(uint32_t(sources.size()))];
    std::vector<std::string> lines;
    {
      size_t a = 0;
      while (a <= s.size()) {
        size_t b = s.find('\n', a);
        if (b == std::string::npos) b = s.size();
        lines.push_back(s.substr(a, b - a));
        a = b + 1;
      }
    }
    const int edits = 1 + int(rng.below(4));
    for (int e = 0; e < edits && !lines.empty(); ++e) {
      const uint32_t i = rng.below(uint32_t(lines.size()));
      switch (rng.below(5)) {
        case 0:
          lines.erase(lines.begin() + i);
          break;
        case 1:
          lines.insert(lines.begin() + i, lines[rng.below(uint32_t(lines.size()))]);
          break;
        case 2:
          std::swap(lines[i], lines[rng.below(uint32_t(lines.size()))]);
          break;
        case 3: {
          std::string& l = lines[i];
          const size_t at = l.empty() ? 0 : rng.below(uint32_t(l.size()));
          l.insert(at, tokens[rng.below(sizeof tokens / sizeof *tokens)]);
          break;
        }
        default: {
          std::string& l = lines[i];
          if (!l.empty()) l[rng.below(uint32_t(l.size()))] = char(rng.below(256));
        }
      }
    }
    std::string m;
    for (const auto& l : lines) m += l + "\n";
    const isa::PtxResult r = isa::translate_ptx(m, "fuzz.ptx");
    const int nlines = int(std::count(m.begin(), m.end(), '\n')) + 1;
    if (r.ok()) {
      ++translated;
      const isa::LoadResult lr =
          isa::read_module(isa::write_module(r.module).data(), isa::write_module(r.module).size());
      EXPECT_EQ(lr.status, isa::LoadStatus::OK) << "case " << c << ": " << lr.message;
    } else {
      ++failed;
      for (const auto& d : r.diagnostics) {
        EXPECT_GE(d.line, 0) << "case " << c;
        EXPECT_LE(d.line, nlines) << "case " << c << ": " << d.message;
        EXPECT_FALSE(d.message.empty()) << "case " << c;
      }
    }
  }
  EXPECT_GT(translated, 50);
  EXPECT_GT(failed, 500);
}

// The name lists (isa/ptx.h) the fuzzing dictionary is generated from are the
// ones the front end reads: every opcode on ptx_opcode_names() reaches its
// lowering (whatever it then says about missing modifiers or operands, never
// the "not dispatched" internal error nor the refusal of an unknown name),
// and a name not on it is refused as unknown.
TEST(PtxNames, EveryOpcodeIsDispatched) {
  const auto& ops = isa::ptx_opcode_names();
  ASSERT_FALSE(ops.empty());
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
  EXPECT_EQ(std::adjacent_find(ops.begin(), ops.end()), ops.end());
  for (const std::string& op : ops) {
    for (const std::string& e : errors_of(kernel_with(kRegs, "\t" + op + ";\n"))) {
      EXPECT_EQ(e.find("internal"), std::string::npos) << op << ": " << e;
      EXPECT_EQ(e.find("is translated)"), std::string::npos) << op << ": " << e;
    }
  }
  const auto e = errors_of(kernel_with(kRegs, "\tfrob.u32 %r1;\n"));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(
      e[0],
      "t.ptx:10:2: PTX instruction 'frob.u32' is not supported (no PTX instruction 'frob' is translated)");
}

// Every directive on ptx_directive_names() is read somewhere: at module level,
// in a body or as a parameter attribute, it is not refused as unsupported.
TEST(PtxNames, EveryDirectiveIsRead) {
  ASSERT_FALSE(isa::ptx_directive_names().empty());
  for (const std::string& d : isa::ptx_directive_names()) {
    ASSERT_EQ(d[0], '.') << d;
    const std::string refused = "directive '" + d + "' is not supported";
    const std::string placements[] = {
        std::string(kHead) + d + " 1\n" + kernel_with(kRegs, "").substr(std::string(kHead).size()),
        kernel_with(kRegs, "\t" + d + " 1;\n"),
        std::string(kHead) + ".visible .entry k(.param " + d + " 8 .u64 p)\n{\n\tret;\n}\n",
    };
    bool read = false;
    for (const std::string& src : placements) {
      bool refused_here = false;
      for (const std::string& e : errors_of(src)) refused_here |= e.find(refused) != std::string::npos;
      read |= !refused_here;
    }
    EXPECT_TRUE(read) << d;
  }
  for (const std::string& t : isa::ptx_type_names())
    EXPECT_TRUE(errors_of(kernel_with("\t.reg " + t + " %x;\n", "")).empty()) << t;
  const auto e = errors_of(kernel_with(kRegs, "\t.maxnreg 4;\n"));
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "t.ptx:10:2: directive '.maxnreg' is not supported by the PTX front end");
  ASSERT_FALSE(isa::ptx_sreg_names().empty());
  for (const std::string& s : isa::ptx_sreg_names())
    EXPECT_TRUE(errors_of(kernel_with(kRegs, "\tmov.u32 %r1, " + s + ";\n")).empty()) << s;
}

// Found by fuzzing (tests/fuzz/regressions/ptx/eof_after_cr.ptx): the CR of
// a last line without LF counted as a column, so an error at the end of the
// file lay one column past the end of the line the diagnostic shows.
TEST(PtxErrors, EndOfFileAfterACarriageReturnIsAtTheEndOfTheLine) {
  const std::string src = std::string(kHead) + ".visible .entry k(\r\n\t.param .u64 p\r";
  auto e = errors_of(src);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "t.ptx:5:15: expected ',' or ')' in the parameter list, found end of file");
  e = errors_of(std::string(kHead) + ".visible .entry k(\r\n\t.param .u64 p\r\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "t.ptx:6:1: expected ',' or ')' in the parameter list, found end of file");
  e = errors_of(std::string(kHead) +
                ".visible .entry k(\r\n\t.param .u64 p\r\r");  // a CR inside the line is one
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "t.ptx:5:16: expected ',' or ')' in the parameter list, found end of file");
}

// Found by fuzzing (tests/fuzz/regressions/ptx/no_version_then_kernel_errors.ptx):
// a file without .version got "this is not PTX" and then the lowering's
// errors about its kernels, file-level error first; it is the only one now.
TEST(PtxErrors, NotPtxIsTheOnlyError) {
  const std::string src =
      ".target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar %r1;\n\tret;\n}\n";
  const isa::PtxResult r = isa::translate_ptx(src, "t.ptx");
  ASSERT_EQ(r.diagnostics.size(), 1u) << r.format_errors();
  EXPECT_EQ(r.diagnostics[0].line, 0);
  EXPECT_EQ(r.diagnostics[0].message, "no .version directive: this is not PTX");
  EXPECT_TRUE(r.kernels.empty());
}

// Found by fuzzing (tests/fuzz/regressions/ptx/kernel_without_ret.ptx): a
// kernel whose last instruction is not ret/exit was translated into code
// that the assembler refused ("can fall through past its last instruction",
// reported as an internal error). It ends at its closing brace, as under
// ptxas: an EXIT there, also after a guarded branch or a final label.
TEST(PtxTranslate, AKernelWithoutRetEndsAtItsClosingBrace) {
  const std::string head = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                           "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, %tid.x;\n";
  for (const std::string& tail : {std::string("\tadd.s32 %r2, %r1, 1;\n}\n"),
                                  std::string("\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra $L1;\n$L1:\n}\n"),
                                  std::string("\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra $L1;\n\tret;\n$L1:\n}\n")}) {
    const isa::PtxResult r = isa::translate_ptx(head + tail, "t.ptx");
    ASSERT_TRUE(r.ok()) << tail << r.format_errors();
    const size_t last = r.assembly.rfind("EXIT");
    ASSERT_NE(last, std::string::npos) << r.assembly;
  }
}

// nvcc -lineinfo: `.loc FILE LINE COL` before the PTX of each CUDA line and
// the `.file` table after the kernels; `baresm dis --plain --source x.ptx`
// shows each PTX line's CUDA line through DisasmOptions::origin_lines.
TEST(PtxLineInfo, CudaLinesOfPtxLines) {
  const std::string src =
      ".version 8.0\n.target sm_80\n.address_size 64\n"        // 1-3
      ".visible .entry k(.param .u64 p)\n{\n"                    // 4-5
      "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"                // 6-7
      "\t.loc\t1 7 3\n"                                          // 8
      "\tld.param.u64 %rd1, [p];\n"                              // 9
      "\t/* .loc 1 99 1 is a comment */ ld.global.u32 %r1, [%rd1];\n"  // 10
      "\t.loc\t2 3 1 // another file\n"                          // 11
      "\tadd.s32 %r2, %r1, 1;\n"                                 // 12
      "\tst.global.u32 [%rd1], %r2;\n"                           // 13
      "\tret;\n}\n"                                              // 14-15
      "\t.file\t1 \"/src/k.cu\"\n\t.file\t2 \"inc.h\", 1700000000, 42\n";  // 16-17
  const std::vector<isa::PtxSourceLoc> locs = isa::ptx_source_locations(src);
  ASSERT_EQ(locs.size(), 19u);  // index 0 unused, 17 lines and the empty 18th after the last newline
  EXPECT_TRUE(locs[7].file.empty());
  EXPECT_EQ(locs[9].file, "/src/k.cu");
  EXPECT_EQ(locs[9].line, 7);
  EXPECT_EQ(locs[10].line, 7);  // the .loc in a comment changes nothing
  EXPECT_EQ(locs[12].file, "inc.h");
  EXPECT_EQ(locs[12].line, 3);

  const isa::PtxResult r = isa::translate_ptx(src, "k.ptx");
  ASSERT_TRUE(r.ok()) << r.format_errors();
  std::vector<std::string> lines, origins(locs.size());
  std::istringstream ss(src);
  for (std::string l; std::getline(ss, l);) lines.push_back(l);
  origins[12] = "inc.h:3: x + 1";
  isa::DisasmOptions o;
  o.line_info = false;
  o.source_lines = &lines;
  o.origin_lines = &origins;
  const std::string text = isa::disassemble(r.module, o);
  EXPECT_NE(text.find("| 12: add.s32 %r2, %r1, 1; | inc.h:3: x + 1"), std::string::npos) << text;
  EXPECT_NE(text.find("| 13: st.global.u32 [%rd1], %r2;\n"), std::string::npos) << text;
}
