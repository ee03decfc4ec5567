// `baresm` as a user runs it: a subprocess, its exit status, stdout and stderr.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "contract/rings.h"
#include "isa/assembler.h"
#include "isa/module.h"
#include "isa/progen.h"
#include "samples/samples.h"

namespace {

struct CliRun {
  int rc = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// A scratch directory per process (ctest runs the tests of this file in
// parallel processes), removed when the process ends.
struct ScratchDir {
  std::string path = ::testing::TempDir() + "/baresm_cli_" + std::to_string(getpid());
  ScratchDir() { std::system(("mkdir -p " + path).c_str()); }
  ~ScratchDir() { std::system(("rm -rf " + path).c_str()); }
};

std::string tmp(const std::string& name) {
  static const ScratchDir dir;
  return dir.path + "/" + name;
}

// args is appended to the command line as written (the tests quote nothing
// that needs quoting); env is put before it ("NAME=value ").
CliRun baresm_env(const std::string& env, const std::string& args) {
  const std::string out = tmp("stdout"), err = tmp("stderr");
  const std::string cmd = env + std::string(BARESM_EXE) + " " + args + " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  CliRun r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

CliRun baresm(const std::string& args) {
  return baresm_env("", args);
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const std::string kKernels = BARESM_SOURCE_DIR "/kernels";

// ---- help -------------------------------------------------------------------------
TEST(CliHelp, ToolHelp) {
  for (const char* flag : {"--help", "-h"}) {
    const CliRun r = baresm(flag);
    EXPECT_EQ(r.rc, 0) << flag;
    EXPECT_TRUE(has(r.out, "usage: baresm <command>")) << r.out;
    for (const char* cmd : {"asm", "dis", "run", "gen", "launch", "info"})
      EXPECT_TRUE(has(r.out, std::string("  ") + cmd)) << cmd;
  }
}

TEST(CliHelp, NoArgumentsIsAUsageError) {
  const CliRun r = baresm("");
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "usage: baresm")) << r.err;
}

TEST(CliHelp, EachSubcommandHasHelp) {
  const CliRun a = baresm("asm --help");
  EXPECT_EQ(a.rc, 0);
  EXPECT_TRUE(has(a.out, "usage: baresm asm")) << a.out;
  EXPECT_TRUE(has(a.out, "--output")) << a.out;
  const CliRun d = baresm("dis --help");
  EXPECT_EQ(d.rc, 0);
  EXPECT_TRUE(has(d.out, "usage: baresm dis")) << d.out;
  const CliRun r = baresm("run --help");
  EXPECT_EQ(r.rc, 0);
  EXPECT_TRUE(has(r.out, "usage: baresm run")) << r.out;
  for (const char* opt : {"--list", "--all", "--backend", "--seed", "--kernels"})
    EXPECT_TRUE(has(r.out, opt)) << opt;
  EXPECT_TRUE(has(r.out, "backends:\n  model")) << r.out;
  const CliRun g = baresm("gen --help");
  EXPECT_EQ(g.rc, 0);
  EXPECT_TRUE(has(g.out, "usage: baresm gen")) << g.out;
  for (const char* opt : {"--seed", "--profile", "--output", "--run", "--list-profiles", "--stack-depth"})
    EXPECT_TRUE(has(g.out, opt)) << opt;
}

// ---- run --------------------------------------------------------------------------
TEST(CliRunCmd, ListHasEverySampleNameFirst) {
  const CliRun r = baresm("run --list");
  ASSERT_EQ(r.rc, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(lines, line)) {
    ASSERT_FALSE(line.empty());
    names.push_back(line.substr(0, line.find(' ')));
    EXPECT_GT(line.size(), names.back().size() + 5) << "a description follows the name: " << line;
  }
  auto all = baresm::samples::all_samples();
  for (const auto& s : baresm::samples::cuda_only_samples()) all.push_back(s);
  ASSERT_EQ(names.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(names[i], all[i].name);
}

TEST(CliRunCmd, VecAddPasses) {
  const CliRun r = baresm("run vec_add --backend model --seed 3");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "sample vec_add")) << r.out;
  EXPECT_TRUE(has(r.out, "grid ")) << r.out;
  EXPECT_TRUE(has(r.out, "block ")) << r.out;
  EXPECT_TRUE(has(r.out, "warp-instrs")) << r.out;
  EXPECT_TRUE(has(r.out, "\nPASS vec_add: ")) << r.out;
}

TEST(CliRunCmd, FaultSampleReportsAndExitsNonZero) {
  const CliRun r = baresm("run fault_trap");
  EXPECT_NE(r.rc, 0);
  EXPECT_TRUE(has(r.out, "fault: TRAP")) << r.out;
  EXPECT_TRUE(has(r.out, "cta (1,0,0) warp 1 lane 5")) << r.out;
  EXPECT_TRUE(has(r.out, "fault_trap.s:")) << "the report names the source line\n" << r.out;
  EXPECT_TRUE(has(r.out, "expected fault observed")) << r.out;
}

// One line per sample (verdict, name, launches, cycles, time) and a summary
// line; nothing else without -v.
TEST(CliRunCmd, AllPassesWithOneLineEach) {
  const CliRun r = baresm("run --all");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  const auto& all = baresm::samples::all_samples();
  size_t normal = 0;
  for (const auto& s : all) {
    normal += !s.is_fault;
    const std::string verdict = s.is_fault ? "FAULT OK" : "PASS    ";
    const size_t at = r.out.find(verdict + "  " + s.name + " ");
    ASSERT_NE(at, std::string::npos) << s.name << "\n" << r.out;
    const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_TRUE(has(line, " cycles ")) << line;
    EXPECT_TRUE(has(line, " s")) << line;
  }
  std::istringstream lines(r.out);
  std::string line;
  size_t n = 0;
  while (std::getline(lines, line)) ++n;
  EXPECT_EQ(n, all.size() + 1) << "one line per sample and the summary\n" << r.out;
  EXPECT_TRUE(has(r.out, std::to_string(all.size()) + " samples on model: " + std::to_string(normal) +
                             " passed, " + std::to_string(all.size() - normal) +
                             " produced their expected fault, 0 failed ("))
      << r.out;
  EXPECT_TRUE(has(r.out, "ALL OK")) << r.out;
  EXPECT_FALSE(has(r.out, "warp-instrs")) << "per-launch details only with -v\n" << r.out;
  // The normal samples come first, then the faults.
  EXPECT_LT(r.out.find("  transpose "), r.out.find("  fault_"));
}

// -v: every launch with the device's report of it, the table of counts and
// checksums, then the same summary.
TEST(CliRunCmd, AllVerboseShowsEveryLaunch) {
  const CliRun r = baresm("run --all -v");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "sample vec_add: ")) << r.out;
  EXPECT_TRUE(has(r.out, "  vec_add            grid ")) << r.out;
  EXPECT_TRUE(has(r.out, "    [model] ")) << r.out;
  EXPECT_TRUE(has(r.out, " cycles, ")) << r.out;
  EXPECT_TRUE(has(r.out, "IPC ")) << r.out;
  EXPECT_TRUE(has(r.out, "fault: TRAP")) << "fault reports\n" << r.out;
  EXPECT_TRUE(has(r.out, "checksum")) << r.out;
  EXPECT_TRUE(has(r.out, "ALL OK")) << r.out;
  EXPECT_EQ(baresm("run vec_add -v").rc, 2) << "-v goes with --all";
}

// A failing sample: its line says FAIL with the reason under it, the summary
// counts it, the exit status is 1.
TEST(CliRunCmd, AllWithABrokenKernelFails) {
  const std::string dir = tmp("broken_all");
  ASSERT_EQ(std::system(("rm -rf " + dir + " && cp -r " + kKernels + " " + dir).c_str()), 0);
  std::string src = slurp(dir + "/vec_add.s");
  const size_t p = src.find("FADD R5, R5, R6;");
  ASSERT_NE(p, std::string::npos);
  src.replace(p, 4, "FSUB");
  std::ofstream(dir + "/vec_add.s") << src;
  const CliRun r = baresm("run --all --kernels " + dir);
  EXPECT_EQ(r.rc, 1) << r.out;
  EXPECT_TRUE(has(r.out, "FAIL      vec_add ")) << r.out;
  EXPECT_TRUE(has(r.out, "\n          n=1: c[0] = ")) << "the reason under it\n" << r.out;
  EXPECT_TRUE(has(r.out, " 1 failed (")) << r.out;
  EXPECT_TRUE(has(r.out, "FAILED")) << r.out;
}

TEST(CliRunCmd, BrokenKernelMakesRunFail) {
  // A kernel directory where vec_add computes a - b: the run must say FAIL.
  const std::string dir = tmp("broken");
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  std::string src = slurp(kKernels + "/vec_add.s");
  const size_t p = src.find("FADD R5, R5, R6;");
  ASSERT_NE(p, std::string::npos);
  src.replace(p, 4, "FSUB");
  std::ofstream(dir + "/vec_add.s") << src;
  const CliRun r = baresm("run vec_add --kernels " + dir);
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.out, "FAIL vec_add")) << r.out;
}

// ---- asm / dis ----------------------------------------------------------------------
TEST(CliAsm, RoundTripThroughFiles) {
  for (const char* k : {"vec_add", "prefix_scan", "fault_illegal_opcode"}) {
    const std::string src = kKernels + "/" + k + ".s";
    const std::string a = tmp(std::string(k) + "_a.bsm"), text = tmp(std::string(k) + ".dis.s"),
                      b = tmp(std::string(k) + "_b.bsm");
    CliRun r = baresm("asm " + src + " -o " + a);
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    r = baresm("dis " + a);
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(has(r.out, ".kernel ")) << r.out;
    std::ofstream(text) << r.out;
    r = baresm("asm " + text + " -o " + b + " --name " + src);
    ASSERT_EQ(r.rc, 0) << r.err;
    const std::string ba = slurp(a), bb = slurp(b);
    EXPECT_FALSE(ba.empty());
    EXPECT_EQ(ba, bb) << k << ": re-assembled disassembly differs";
  }
}

TEST(CliAsm, DefaultOutputName) {
  const std::string src = tmp("plain.s");
  std::ofstream(src) << ".kernel k\n.regs 1\n    EXIT;\n.end\n";
  std::remove(tmp("plain.bsm").c_str());
  const CliRun r = baresm("asm " + src);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_FALSE(slurp(tmp("plain.bsm")).empty());
}

TEST(CliAsm, ErrorsArePrintedWithCaretsAndExitOne) {
  const std::string src = tmp("bad.s");
  std::ofstream(src) << ".kernel k\n.regs 4\n    FROB R1, R2;\n    IADD R9, R1, 1;\n    EXIT;\n.end\n";
  const std::string out = tmp("bad.bsm");
  std::remove(out.c_str());
  const CliRun r = baresm("asm " + src + " -o " + out);
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, src + ":3:")) << r.err;
  EXPECT_TRUE(has(r.err, src + ":4:")) << "every error is reported\n" << r.err;
  EXPECT_TRUE(has(r.err, "^")) << r.err;
  EXPECT_TRUE(has(r.err, "2 errors")) << r.err;
  EXPECT_TRUE(slurp(out).empty()) << "nothing written on errors";
}

TEST(CliAsm, MissingInput) {
  CliRun r = baresm("asm");
  EXPECT_EQ(r.rc, 2);
  EXPECT_TRUE(has(r.err, "missing input file")) << r.err;
  r = baresm("asm " + tmp("does_not_exist.s"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "baresm asm: " + tmp("does_not_exist.s") + ": No such file or directory")) << r.err;
}

TEST(CliAsm, DirectoryEmptySourceAndOverwritingTheInputAreRefused) {
  const std::string dir = tmp("srcdir.s");
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  CliRun r = baresm("asm " + dir + " -o " + tmp("dir.bsm"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "baresm asm: " + dir + ": is a directory")) << r.err;
  EXPECT_TRUE(slurp(tmp("dir.bsm")).empty()) << "nothing written";

  const std::string empty = tmp("empty.s");
  std::ofstream(empty) << "// nothing but a comment\n";
  r = baresm("asm " + empty + " -o " + tmp("empty.bsm"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, empty + ": error: no kernels")) << r.err;
  EXPECT_TRUE(slurp(tmp("empty.bsm")).empty()) << "nothing written";

  // -o naming the input, directly or through a link, and IN.bsm as its own default output.
  const std::string src = tmp("self.s"), text = ".kernel k\n.regs 1\n    EXIT;\n.end\n";
  std::ofstream(src) << text;
  ASSERT_EQ(symlink(src.c_str(), tmp("self_link.bsm").c_str()), 0);
  for (const std::string& args : {src + " -o " + src, src + " -o " + tmp("self_link.bsm")}) {
    r = baresm("asm " + args);
    EXPECT_EQ(r.rc, 2) << args;
    EXPECT_TRUE(has(r.err, "the output is the input file")) << r.err;
    EXPECT_EQ(slurp(src), text) << "the source is untouched";
  }
  const std::string named_bsm = tmp("source.bsm");
  std::ofstream(named_bsm) << text;
  r = baresm("asm " + named_bsm);
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_EQ(slurp(named_bsm), text);
}

TEST(CliDis, LoaderErrorsNameTheStatus) {
  const std::string junk = tmp("junk.bsm");
  std::ofstream(junk) << "this is not a module";
  CliRun r = baresm("dis " + junk);
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "INVALID_IMAGE")) << r.err;
  r = baresm("dis " + tmp("does_not_exist.bsm"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "baresm dis: ")) << r.err;
}

// A module whose names carry newlines (written by hand, not by the assembler)
// is refused, so dis never prints the directives they would inject.
TEST(CliDis, NamesWithControlCharactersAreRefused) {
  baresm::isa::AsmResult a = baresm::isa::assemble(".kernel k\n.regs 1\n    EXIT;\n.end\n", "k.s");
  ASSERT_TRUE(a.ok()) << a.format_errors();
  baresm::isa::Module m = a.module;
  m.kernels[0].name = "k\n.end\n.kernel evil";
  const std::vector<uint8_t> bytes = baresm::isa::write_module(m);
  const std::string path = tmp("evil.bsm");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), long(bytes.size()));
  const CliRun r = baresm("dis " + path);
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "INVALID_IMAGE: invalid image: kernel 0: the name contains a control character"))
      << r.err;
  EXPECT_FALSE(has(r.out, ".kernel evil")) << r.out;
}

// ---- bad command lines: a message and a non-zero exit each ----------------------------
TEST(CliErrors, BadCommandLines) {
  struct Case {
    const char* args;
    const char* message;
  };
  const Case cases[] = {
      {"frob", "unknown command 'frob'"},
      {"--frob", "unknown option '--frob'"},
      {"run", "name a sample"},
      {"run no_such_sample", "unknown sample 'no_such_sample'"},
      {"run vec_add --backend gpu", "baresm run: unknown backend 'gpu' (available: "},
      {"run vec_add --trace x.fst", "need --backend rtl"},
      {"run vec_add --port /dev/ttyUSB1", "baresm run: --port and --baud need --backend serial"},
      {"run vec_add --backend serial", "baresm run: --backend serial needs --port PATH"},
      {"info --backend serial --port /dev/null --baud 12345",
       "baresm info: --baud '12345': not a rate the serial port supports (9600, "},
      {"launch x.s --grid 1 --block 32 --backend model --baud 9600", "--port and --baud need --backend serial"},
      {"run vec_add --frob", "unrecognised option '--frob'"},
      {"run vec_add --seed banana", "seed"},
      {"run vec_add --all", "only one of"},
      {"run vec_add fault_trap", "too many positional options"},
      {"asm a.s b.s", "too many positional options"},
      {"dis", "missing input file"},
      {"dis --frob x.bsm", "unrecognised option '--frob'"},
      {"gen", "missing --seed"},
      {"gen --seed 1 --profile nope", "baresm gen: unknown profile 'nope' (profiles: mixed, "},
      {"gen --seed banana", "seed"},
      {"gen --seed 1 x.s", "unexpected argument 'x.s'"},
  };
  for (const Case& c : cases) {
    const CliRun r = baresm(c.args);
    EXPECT_EQ(r.rc, 2) << c.args << "\n" << r.err;
    EXPECT_TRUE(has(r.err, c.message)) << c.args << "\nstderr: " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args << "\nstdout: " << r.out;
  }
}

// A serial port that cannot be opened: exit 1, one line naming the link and the cause.
TEST(CliErrors, SerialPortThatCannotBeOpened) {
  for (const std::string cmd : {"info", "run vec_add"}) {
    const CliRun r = baresm(cmd + " --backend serial --port " + tmp("no_such_tty"));
    EXPECT_EQ(r.rc, 1) << cmd << "\n" << r.err;
    EXPECT_TRUE(has(r.err, "could not be started: serial link: cannot open " + tmp("no_such_tty") +
                               ": No such file or directory"))
        << cmd << "\n" << r.err;
  }
}

// Every numeric option is range-checked: one line naming the option and why, exit 2.
TEST(CliErrors, OptionValuesAreRangeChecked) {
  const char* cases[][2] = {
      {"run vec_add --seed -1", "baresm run: --seed '-1': not a whole number in 0..18446744073709551615"},
      {"run vec_add --seed 18446744073709551616", "--seed '18446744073709551616': not a whole number"},
      {"run vec_add --seed 1e3", "--seed '1e3': not a whole number"},
      {"run vec_add --backend rtl --mem-latency -1", "--mem-latency '-1': not a whole number in 1..1000"},
      {"run vec_add --backend rtl --mem-latency 0", "--mem-latency '0': not a whole number in 1..1000"},
      {"run vec_add --backend rtl --mem-latency 1000000",
       "--mem-latency '1000000': not a whole number in 1..1000"},
      {"run vec_add --backend rtl --mem-seed -2", "--mem-seed '-2': not a whole number"},
      {"run vec_add --backend rtl --trace-window 5:3", "--trace-window '5:3': START is after END"},
      {"run vec_add --backend rtl --trace-window abc", "--trace-window 'abc': expected START:END"},
      {"run vec_add --backend rtl --trace-window 1:2:3", "--trace-window '1:2:3': expected START:END"},
      {"run vec_add --backend rtl --trace-window -1:", "--trace-window '-1:': START and END must be whole"},
      {"gen --seed -1", "baresm gen: --seed '-1': not a whole number"},
      {"gen --seed 1 --max-threads 0", "--max-threads '0': not a whole number in 1..1024"},
      {"gen --seed 1 --stack-depth -1", "--stack-depth '-1': not a whole number in 1..1024"},
      {"gen --seed 1 --max-shared 4294967296", "--max-shared '4294967296': not a whole number"},
      {"gen --seed 1 --max-regs 15", "--max-regs '15': not a whole number in 16..63"},
      {"gen --seed 1 --max-warps 33", "--max-warps '33': not a whole number in 1..32"},
      {"gen --seed 1 --max-windows 2", "--max-windows '2': not a whole number in 3..8"},
  };
  for (const auto& c : cases) {
    const CliRun r = baresm(c[0]);
    EXPECT_EQ(r.rc, 2) << c[0] << "\n" << r.err;
    EXPECT_TRUE(has(r.err, c[1])) << c[0] << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c[0] << "\nstdout: " << r.out;
  }
  // In range, in either base, they are taken.
  EXPECT_EQ(baresm("run vec_add --seed 0x10").rc, 0);
  EXPECT_EQ(baresm("gen --seed 18446744073709551615 --max-threads 1024 -o " + tmp("max.s")).rc, 0);
}

// --trace opens its path the way any tool opens an output: created or
// truncated, through symlinks, refused unless a regular file; it never
// removes or replaces anything, beside the path included.
TEST(CliRunCmd, TraceWritesThroughThePathAndRemovesNothing) {
  const std::string dir = tmp("trace"), scratch = tmp("trace_tmp");
  ASSERT_EQ(std::system(("mkdir -p " + dir + " " + scratch).c_str()), 0);
  const std::string real = dir + "/real.fst", link = dir + "/link.fst", fifo = dir + "/fifo";
  std::ofstream(real) << "old contents";
  ASSERT_EQ(symlink("real.fst", link.c_str()), 0);
  std::ofstream(link + ".hier") << "not the trace's";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  const std::string env = "TMPDIR=" + scratch + " ";
  auto run = [&](const std::string& args) {
    return baresm_env(env, "run vec_add --backend rtl --trace-window 0:100 --trace " + args);
  };

  CliRun r = run(link);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the symlink is followed, not replaced";
  const std::string fst = slurp(real);
  EXPECT_GT(fst.size(), 1000u) << "the trace went to the link's target";
  EXPECT_EQ(fst.find("old contents"), std::string::npos) << "truncated first";
  EXPECT_EQ(slurp(link + ".hier"), "not the trace's");
  EXPECT_EQ(slurp(dir + "/real.fst.hier"), "");

  for (const std::string& bad : {fifo, dir}) {
    r = run(bad);
    EXPECT_EQ(r.rc, 2) << bad;
    EXPECT_TRUE(has(r.err, "baresm run: --trace " + bad + ": not a regular file (")) << r.err;
  }
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO is still there";
  r = run(dir + "/no_such_dir/x.fst");
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "x.fst: No such file or directory")) << r.err;
  // The private copy the backend wrote is gone.
  EXPECT_EQ(std::system(("test -z \"$(ls -A " + scratch + ")\"").c_str()), 0) << "scratch left behind";
}

// Standard output on a full device, and -o naming one: each command reports
// the write error in one line (command, file, cause) and fails.
TEST(CliErrors, WriteErrorsAreReported) {
  auto to_full = [&](const std::string& args) {
    const std::string err = tmp("stderr_full");
    const int st = std::system((std::string(BARESM_EXE) + " " + args + " >/dev/full 2>" + err).c_str());
    return CliRun{WIFEXITED(st) ? WEXITSTATUS(st) : -1, "", slurp(err)};
  };
  const std::string bsm = tmp("wfull.bsm");
  ASSERT_EQ(baresm("asm " + kKernels + "/fault_trap.s -o " + bsm).rc, 0);
  const std::string enospc = "No space left on device";
  for (const std::string& args :
       {"dis " + bsm, std::string("run vec_add"), std::string("gen --seed 3"), std::string("run --list")}) {
    const std::string cmd = args.substr(0, args.find(' '));
    CliRun r = to_full(args);
    EXPECT_EQ(r.rc, 1) << args << ": " << r.err;
    EXPECT_TRUE(has(r.err, "baresm " + cmd + ": standard output: " + enospc + "\n")) << args << ": " << r.err;
  }
  CliRun r = baresm("asm " + kKernels + "/fault_trap.s -o /dev/full");
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "baresm asm: cannot write '/dev/full': " + enospc)) << r.err;
  r = baresm("gen --seed 3 -o /dev/full");
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.err, "baresm gen: cannot write '/dev/full': " + enospc)) << r.err;
}

// A full file system under --trace: where the FST writer keeps its files
// (TMPDIR; it raised SIGBUS and lost the results) and where PATH lies. Needs a
// small tmpfs, so it runs only where mounting one is allowed (root).
TEST(CliRunCmd, TraceOnAFullFileSystemFailsAndKeepsTheResults) {
  const std::string mnt = tmp("fullfs"), scratch = tmp("fullfs_scratch");
  ASSERT_EQ(std::system(("mkdir -p " + mnt + " " + scratch).c_str()), 0);
  if (std::system(("mount -t tmpfs -o size=64k tmpfs " + mnt + " 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (not root)";
  struct Unmount {
    std::string m;
    ~Unmount() { (void)std::system(("umount " + m).c_str()); }
  } unmount{mnt};
  // Fill it: nothing more can be written there.
  (void)std::system(("dd if=/dev/zero of=" + mnt + "/fill bs=4k 2>/dev/null").c_str());
  const std::string args = "run vec_add --backend rtl --trace-window 0:100 --trace ";

  const std::string out = tmp("full_trace.fst");
  CliRun r = baresm_env("TMPDIR=" + mnt + " ", args + out);
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "PASS vec_add")) << r.out;
  EXPECT_TRUE(has(r.err, "baresm run: --trace " + out + ": the FST writer crashed (SIGBUS)")) << r.err;
  EXPECT_EQ(std::system(("test \"$(ls -A " + mnt + ")\" = fill").c_str()), 0) << "scratch left behind";

  const std::string on_full = mnt + "/t.fst";
  r = baresm_env("TMPDIR=" + scratch + " ", args + on_full);
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "PASS vec_add")) << r.out;
  EXPECT_TRUE(has(r.err, "baresm run: --trace " + on_full + ": write failed: No space left on device"))
      << r.err;
  EXPECT_EQ(std::system(("test -z \"$(ls -A " + scratch + ")\"").c_str()), 0) << "scratch left behind";
}

// ---- gen --------------------------------------------------------------------------
TEST(CliGen, ListProfilesAndDeterministicOutput) {
  const CliRun l = baresm("gen --list-profiles");
  ASSERT_EQ(l.rc, 0) << l.err;
  EXPECT_TRUE(has(l.out, "mixed\n")) << l.out;
  EXPECT_TRUE(has(l.out, "fault-WATCHDOG\n")) << l.out;
  const CliRun a = baresm("gen --seed 11 --profile control -o " + tmp("g11.s"));
  ASSERT_EQ(a.rc, 0) << a.err;
  const CliRun b = baresm("gen --seed 11 --profile control");
  ASSERT_EQ(b.rc, 0) << b.err;
  EXPECT_EQ(slurp(tmp("g11.s")), b.out);
  EXPECT_TRUE(has(b.out, "baresm gen --seed 11 --profile control")) << b.out;
  EXPECT_EQ(baresm("asm " + tmp("g11.s") + " -o " + tmp("g11.bsm")).rc, 0);
}

// The header's "reproduce:" line names every limit that differs from the
// default, and the command it names writes the same text (the random
// suite's failure reports print it for the SM's own limits).
TEST(CliGen, ReproduceLineGivesTheSameProgram) {
  baresm::progen::ProgenLimits lim;  // an SM like micro/arty: fewer registers, warps, no FPU
  lim.stack_depth = 4;
  lim.max_threads_per_block = 128;
  lim.max_shared_bytes = 2048;
  lim.max_warps_per_cta = 4;
  lim.max_regs_per_thread = 16;
  lim.max_windows = 8;
  lim.has_fpu = false;
  lim.use_smid = false;
  const baresm::progen::GeneratedProgram g = baresm::progen::generate(7, "control", lim);
  const std::string cmd = baresm::progen::gen_command(7, "control", lim);
  EXPECT_EQ(cmd,
            "baresm gen --seed 7 --profile control --stack-depth 4 --max-threads 128 --max-shared 2048 "
            "--max-warps 4 --max-regs 16 --max-windows 8 --no-fpu --no-smid");
  ASSERT_TRUE(has(g.source, "// reproduce: " + cmd + "\n")) << g.source.substr(0, 300);
  const CliRun r = baresm(cmd.substr(std::string("baresm ").size()));
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, g.source);
  // With the default limits nothing is added.
  EXPECT_EQ(baresm::progen::gen_command(7, "alu", {}), "baresm gen --seed 7 --profile alu");
}

TEST(CliGen, RunReportsTheExpectedEnd) {
  const CliRun n = baresm("gen --seed 4 --profile mixed --run");
  EXPECT_EQ(n.rc, 0) << n.out << n.err;
  EXPECT_TRUE(has(n.out, "completed without fault")) << n.out;
  EXPECT_TRUE(has(n.out, "AS EXPECTED")) << n.out;
  const CliRun f = baresm("gen --seed 4 --profile fault-MISALIGNED --run");
  EXPECT_EQ(f.rc, 0) << f.out << f.err;
  EXPECT_TRUE(has(f.out, "MISALIGNED at pc")) << f.out;
}

TEST(CliErrors, MissingKernelDirectoryFailsTheRun) {
  const CliRun r = baresm("run vec_add --kernels " + tmp("no_such_dir"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(has(r.out, "cannot read kernel file")) << r.out;
}

// ---- the PTX front end ----------------------------------------------------------------
const std::string kCudaDir = std::string(BARESM_SOURCE_DIR) + "/kernels/cuda/";

TEST(CliPtx, AsmPicksThePtxFrontEndByExtension) {
  const std::string out = tmp("vec_add_ptx.bsm");
  const CliRun r = baresm("asm " + kCudaDir + "vec_add.ptx -o " + out);
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, "baresm-ptx info: kernel vec_add: ")) << r.out;
  EXPECT_TRUE(has(r.out, " registers, 1 predicate, 0 bytes lmem, 0 bytes smem, 28 bytes param")) << r.out;
  const baresm::isa::LoadResult m = baresm::isa::read_module_file(out);
  ASSERT_EQ(m.status, baresm::isa::LoadStatus::OK) << m.message;
  ASSERT_EQ(m.module.kernels.size(), 1u);
  EXPECT_EQ(m.module.kernels[0].name, "vec_add");
  EXPECT_EQ(m.module.kernels[0].param_bytes, 28u);
  // The disassembly of a module built from PTX names the PTX line of each word.
  const CliRun d = baresm("dis " + out);
  EXPECT_EQ(d.rc, 0) << d.err;
  EXPECT_TRUE(has(d.out, ".loc 28, 2")) << d.out;
  const CliRun p = baresm("dis --plain " + out + " --source " + kCudaDir + "vec_add.ptx");
  EXPECT_EQ(p.rc, 0) << p.err;
  EXPECT_TRUE(has(p.out, "FADD R")) << p.out;
  EXPECT_TRUE(has(p.out, "| 49: add.f32 %f3, %f2, %f1;")) << p.out;
  EXPECT_EQ(baresm("dis " + out + " --source " + kCudaDir + "vec_add.ptx").rc, 2) << "--source needs --plain";
}

TEST(CliPtx, PtxCommandEmitsAssembly) {
  const CliRun r = baresm("ptx " + kCudaDir + "saxpy.ptx --emit-asm");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(has(r.out, ".kernel saxpy\n")) << r.out;
  EXPECT_TRUE(has(r.out, "FFMA R")) << r.out;
  EXPECT_TRUE(has(r.out, ".param saxpy_param_1, 8, 8\n")) << r.out;
  const CliRun h = baresm("ptx --help");
  EXPECT_EQ(h.rc, 0);
  EXPECT_TRUE(has(h.out, "usage: baresm ptx")) << h.out;
  EXPECT_EQ(baresm("ptx " + kCudaDir + "saxpy.ptx --emit-asm -o x.bsm").rc, 2);
}

TEST(CliPtx, EveryUnsupportedConstructIsReportedAtItsLine) {
  const std::string src = tmp("bad.ptx");
  std::ofstream(src) << ".version 8.0\n.target sm_80\n.address_size 64\n"
                        ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n"
                        "\tdiv.rz.f32 %r1, %r2, %r3;\n"
                        "\tsin.approx.f32 %r1, %r2;\n"
                        "\tret;\n}\n";
  const std::string out = tmp("bad_ptx.bsm");
  std::remove(out.c_str());
  const CliRun r = baresm("asm " + src + " -o " + out);
  EXPECT_EQ(r.rc, 1);
  EXPECT_TRUE(
      has(r.err, src + ":7:2: error: PTX instruction 'div.rz.f32' is not supported (only the .rn rounding"))
      << r.err;
  EXPECT_TRUE(has(r.err, src + ":8:2: error: PTX instruction 'sin.approx.f32' is not supported")) << r.err;
  EXPECT_TRUE(has(r.err, "2 errors")) << r.err;
  EXPECT_TRUE(slurp(out).empty()) << "nothing written on errors";
}

// "checksum: fnv1a64 0x... over N bytes read back" for the H200's row of
// `name` in tests/data/h200_checksums.txt (tools/h200/run_cuda's output).
std::string h200_checksum_line(const std::string& name) {
  std::ifstream f(BARESM_SOURCE_DIR "/tests/data/h200_checksums.txt");
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    std::string n, sum, bytes;
    ss >> n >> sum >> bytes;
    if (n == name) return "checksum: fnv1a64 " + sum + " over " + bytes + " bytes read back";
  }
  return "(no H200 row for " + name + ")";
}

TEST(CliPtx, RunFromCudaOnTheModel) {
  const CliRun r = baresm("run vec_add --source cuda");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, h200_checksum_line("vec_add"))) << r.out;
  EXPECT_TRUE(has(r.out, "kernel cuda/vec_add.ptx")) << r.out;
  EXPECT_TRUE(has(r.out, "\nPASS vec_add: ")) << r.out;
  const CliRun all = baresm("run --all --source cuda");
  EXPECT_EQ(all.rc, 0) << all.out;
  EXPECT_TRUE(has(all.out, "10 samples on model: 10 passed, 0 produced their expected fault, 0 failed")) << all.out;
  const CliRun asm_only = baresm("run warp_stats");
  EXPECT_EQ(asm_only.rc, 2);
  EXPECT_TRUE(has(asm_only.err, "exists only in CUDA")) << asm_only.err;
  const CliRun none = baresm("run fault_trap --source cuda");
  EXPECT_EQ(none.rc, 2);
  EXPECT_TRUE(has(none.err, "has no CUDA version")) << none.err;
  EXPECT_EQ(baresm("run vec_add --source fortran").rc, 2);
}

// Every CUDA sample from its nvcc PTX on the verilated device: it passes its
// C++ reference and reads back the bytes the H200 wrote (the checksum table's
// rows name the samples).
std::vector<std::string> h200_samples() {
  std::ifstream f(BARESM_SOURCE_DIR "/tests/data/h200_checksums.txt");
  std::vector<std::string> names;
  std::string line, n;
  while (std::getline(f, line))
    if (!line.empty() && line[0] != '#' && (std::istringstream(line) >> n)) names.push_back(n);
  return names;
}

class CudaOnRtl : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaOnRtl, PassesWithTheH200sChecksum) {
  const std::string& name = GetParam();
  const CliRun r = baresm("run " + name + " --source cuda --backend rtl");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, h200_checksum_line(name))) << r.out;
  EXPECT_TRUE(has(r.out, "\nPASS " + name + ": ")) << r.out;
}

INSTANTIATE_TEST_SUITE_P(All, CudaOnRtl, ::testing::ValuesIn(h200_samples()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// (H200Checksums.TableCoversEveryCudaSample checks the table names every CUDA sample.)
TEST(CliPtx, TheH200TableIsRead) { EXPECT_FALSE(h200_samples().empty()); }

// ---- launch / info ------------------------------------------------------------------
namespace launch {

void write_floats(const std::string& path, const std::vector<float>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
}

std::vector<float> inputs(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(i) * scale + offset;
  return v;
}

std::string as_bytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// c = a + b over 100 elements: two CTAs of 64, the second one partly past n
// (vec_add linearises a 2D grid, so "1,2" covers the same elements as "2").
void vec_add_end_to_end(const std::string& backend, const std::string& grid, const std::string& grid_text) {
  const size_t n = 100;
  const std::vector<float> a = inputs(n, 0.25f, -3.0f), b = inputs(n, -1.5f, 7.125f);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  const std::string fa = tmp(backend + "_a.bin"), fb = tmp(backend + "_b.bin"), fc = tmp(backend + "_c.bin");
  write_floats(fa, a);
  write_floats(fb, b);
  std::remove(fc.c_str());
  const CliRun r = baresm("launch " + kKernels + "/vec_add.s --grid " + grid +
                          " --block 64 --arg buf:in=" + fa + " --arg buf:in=" + fb +
                          " --arg buf:out=400 --arg u32:100 --out c=" + fc + " --backend " + backend);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(
      has(r.out, "launch vec_add grid " + grid_text + " block 64 shared 0 on " + backend + ": COMPLETED"))
      << r.out;
  for (const char* part :
       {"cycles ", "warp-instructions ", "IPC ", "CTAs done 2", "device counters: ", "launches 1, failed 0"})
    EXPECT_TRUE(has(r.out, part)) << part << "\n" << r.out;
  EXPECT_TRUE(has(r.out, "c: 400 bytes, fnv1a64 0x")) << r.out;
  EXPECT_EQ(slurp(fc), as_bytes(want)) << "c.bin holds a + b";
}

}  // namespace launch

TEST(CliLaunch, VecAddFromAssemblyOnTheModel) {
  launch::vec_add_end_to_end("model", "1,2", "1x2");
}

TEST(CliLaunch, VecAddFromAssemblyOnTheRtl) {
  launch::vec_add_end_to_end("rtl", "2", "2");
}

// An f32 scalar and an inout buffer named by position; 96 threads loop over 200 elements.
TEST(CliLaunch, SaxpyInoutByPosition) {
  const size_t n = 200;
  const float alpha = 1.5f;
  const std::vector<float> x = launch::inputs(n, 0.3f, 1.0f), y = launch::inputs(n, -0.7f, 2.0f);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = std::fma(alpha, x[i], y[i]);  // FFMA rounds once
  const std::string fx = tmp("sx.bin"), fy = tmp("sy.bin"), fout = tmp("sy_out.bin");
  launch::write_floats(fx, x);
  launch::write_floats(fy, y);
  const CliRun r =
      baresm("launch " + kKernels + "/saxpy.s --grid 3 --block 32 --arg f32:1.5 --arg buf:in=" + fx +
             " --arg buf:inout=" + fy + " --arg u32:200 --out 2=" + fout);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "launch saxpy grid 3 block 32 shared 0 on model: COMPLETED")) << r.out;
  EXPECT_TRUE(has(r.out, "y: 800 bytes, fnv1a64 0x")) << r.out;
  EXPECT_EQ(slurp(fout), launch::as_bytes(want));
  EXPECT_EQ(slurp(fy), launch::as_bytes(y)) << "the input file is left alone";
}

// nvcc's PTX, translated in memory: its pointers are 8-byte parameters with
// mangled names, so the output is named by position.
TEST(CliLaunch, VecAddFromPtxOnTheModel) {
  const size_t n = 70;
  const std::vector<float> a = launch::inputs(n, 1.25f, 0.5f), b = launch::inputs(n, 0.125f, -9.0f);
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  const std::string fa = tmp("pa.bin"), fb = tmp("pb.bin"), fc = tmp("pc.bin");
  launch::write_floats(fa, a);
  launch::write_floats(fb, b);
  const CliRun r = baresm("launch " + kKernels + "/cuda/vec_add.ptx --grid 3 --block 32 --arg buf:in=" + fa +
                          " --arg buf:in=" + fb + " --arg buf:out=280 --arg u32:70 --out 2=" + fc);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "vec_add_param_2: 280 bytes, fnv1a64 0x")) << r.out;
  EXPECT_EQ(slurp(fc), launch::as_bytes(want));
}

// --watchdog reaches the device: an endless loop ends after that budget.
TEST(CliLaunch, WatchdogEndsAnEndlessKernel) {
  const CliRun r =
      baresm("launch " + kKernels +
             "/fault_endless_loop.s --grid 1 --block 32 --arg u32:0 --arg u32:0 --watchdog 1000");
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "FAILED: LAUNCH_TIMEOUT")) << r.out;
  EXPECT_TRUE(has(r.out, "warp-instructions 1000,")) << "the model's budget is warp-instructions\n" << r.out;
  EXPECT_TRUE(has(r.out, ": `BRA L_")) << r.out;
}

TEST(CliLaunch, FaultReportsTheDisassembledInstruction) {
  const std::string out = tmp("never.bin");
  std::remove(out.c_str());
  const CliRun r =
      baresm("launch " + kKernels + "/fault_trap.s --grid 2 --block 64 --arg u32:1 --arg u32:37");
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "on model: FAILED: TRAP")) << r.out;
  EXPECT_TRUE(has(r.out, "fault:  TRAP")) << r.out;
  EXPECT_TRUE(has(r.out, "cta (1,0,0) warp 1 lane 5")) << r.out;
  EXPECT_TRUE(has(r.out, "= fault_trap+0x")) << r.out;
  EXPECT_TRUE(has(r.out, ": `@P0 TRAP;`")) << "the faulting instruction, disassembled\n" << r.out;
  EXPECT_TRUE(has(r.out, "fault_trap.s:21)")) << r.out;
  // An out-of-window store: the address is reported, and no output is written.
  const CliRun w =
      baresm("launch " + kKernels + "/fault_out_of_window.s --grid 2 --block 64 --arg buf:out=256 " +
             "--arg u32:64 --arg u32:1 --arg u32:3 --out buf=" + out);
  EXPECT_EQ(w.rc, 1) << w.out << w.err;
  EXPECT_TRUE(has(w.out, "fault:  OUT_OF_WINDOW")) << w.out;
  EXPECT_TRUE(has(w.out, "  addr:   0x")) << w.out;
  struct stat st;
  EXPECT_NE(stat(out.c_str(), &st), 0) << "a failed launch writes no output";
}

TEST(CliLaunch, ModuleWithSeveralKernelsNeedsKernel) {
  const std::string src = tmp("two.s");
  std::ofstream(src) << ".kernel first\n.param p, 4\n.regs 2\n    EXIT;\n.end\n"
                        ".kernel second\n.param q, 4\n.param r, 8\n.regs 2\n    EXIT;\n.end\n";
  const std::string bsm = tmp("two.bsm");
  ASSERT_EQ(baresm("asm " + src + " -o " + bsm).rc, 0);
  const CliRun none = baresm("launch " + bsm + " --grid 1 --block 32 --arg u32:1");
  EXPECT_EQ(none.rc, 2);
  EXPECT_TRUE(has(none.err, "has 2 kernels (first, second): pick one with --kernel")) << none.err;
  const CliRun wrong = baresm("launch " + bsm + " --kernel third --grid 1 --block 32");
  EXPECT_EQ(wrong.rc, 2);
  EXPECT_TRUE(has(wrong.err, "--kernel 'third': no such kernel in " + bsm + " (kernels: first, second)"))
      << wrong.err;
  // The .bsm runs, and the 8-byte parameter takes u64.
  const CliRun ok =
      baresm("launch " + bsm + " --kernel second --grid 1 --block 32 --arg s32:-3 --arg u64:0x10");
  EXPECT_EQ(ok.rc, 0) << ok.out << ok.err;
  EXPECT_TRUE(has(ok.out, "launch second grid 1 block 32 shared 0 on model: COMPLETED")) << ok.out;
  const CliRun narrow =
      baresm("launch " + bsm + " --kernel second --grid 1 --block 32 --arg s32:-3 --arg u32:1");
  EXPECT_EQ(narrow.rc, 2);
  EXPECT_TRUE(has(narrow.err, "--arg 'u32:1': parameter 1 'r' of kernel 'second' is 8 bytes; u32 is 4"))
      << narrow.err;
}

// Each bad command line: one line naming the option, the value and why;
// exit 2, nothing on standard output, no device started.
TEST(CliLaunch, BadCommandLinesAreOneLineEach) {
  const std::string a = tmp("bad_a.bin");
  launch::write_floats(a, launch::inputs(4, 1.0f, 0.0f));
  const std::string vec = "launch " + kKernels + "/vec_add.s ";
  const std::string ok_args = " --arg buf:in=" + a + " --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4";
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {vec + "--grid 1 --block 4 --arg x32:5 --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "baresm launch: --arg 'x32:5': unknown kind 'x32' (kinds: u32:N, "},
      {vec + "--grid 1 --block 4 --arg buf:in=" + a + " --arg u32:4",
       "baresm launch: --arg: kernel 'vec_add' takes 4 parameters (a, b, c, n), 2 given"},
      {vec + "--grid 0 --block 4" + ok_args,
       "baresm launch: --grid '0': a dimension is 0 (each must be at least 1)"},
      {vec + "--grid 1,2,3,4 --block 4" + ok_args,
       "--grid '1,2,3,4': expected X[,Y[,Z]]: at most 3 dimensions"},
      {vec + "--grid 1 --block 4,x" + ok_args, "--block '4,x': expected X[,Y[,Z]], each a whole number"},
      {vec + "--grid 1 --block 4 --arg buf:in=" + tmp("missing.bin") + " --arg buf:in=" + a +
           " --arg buf:out=16 --arg u32:4",
       "--arg 'buf:in=" + tmp("missing.bin") + "': " + tmp("missing.bin") + ": No such file or directory"},
      {vec + "--grid 1 --block 4" + ok_args + " --out a=x.bin",
       "--out 'a=x.bin': parameter 'a' is buf:in=" + a + ", not an output buffer"},
      {vec + "--grid 1 --block 4" + ok_args + " --out n=x.bin",
       "--out 'n=x.bin': parameter 'n' is u32:4, not an output"},
      {vec + "--grid 1 --block 4" + ok_args + " --out d=x.bin",
       "--out 'd=x.bin': kernel 'vec_add' has no parameter d (parameters: a, b, c, n)"},
      {vec + "--grid 1 --block 4" + ok_args + " --out 4=x.bin",
       "kernel 'vec_add' has no parameter at position 4"},
      {vec + "--grid 1 --block 4" + ok_args + " --out c", "--out 'c': expected PARAM=FILE"},
      {vec + "--grid 1 --block 4" + ok_args + " --out c=x.bin --out 2=y.bin",
       "parameter 'c' already goes to x.bin"},
      {vec + "--grid 1 --block 4 --arg u32:-1 --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "--arg 'u32:-1': not a whole number in 0..4294967295"},
      {vec + "--grid 1 --block 4 --arg s32:2147483648 --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "--arg 's32:2147483648': not a whole number in -2147483648..2147483647"},
      {vec + "--grid 1 --block 4 --arg f32:1.5x --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "--arg 'f32:1.5x': not a number"},
      {vec + "--grid 1 --block 4 --arg buf:out=0 --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "--arg 'buf:out=0': the size is not a whole number of bytes in 1..4294967295"},
      {vec + "--grid 1 --block 4 --arg buf:sideways=1 --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4",
       "--arg 'buf:sideways=1': expected buf:in=FILE, buf:out=BYTES or buf:inout=FILE"},
      {vec + "--grid 1 --block 4" + ok_args + " --shared -1",
       "--shared '-1': not a whole number in 0..4294967295"},
      {vec + "--grid 1 --block 4" + ok_args + " --backend gpu",
       "--backend 'gpu': unknown backend (available: model, serial, rtl)"},
      {"launch " + tmp("nope.s") + " --grid 1 --block 4",
       "baresm launch: " + tmp("nope.s") + ": No such file"},
      {"info --backend gpu", "baresm info: --backend 'gpu': unknown backend (available: model, serial, rtl)"},
  };
  for (const Case& c : cases) {
    const CliRun r = baresm(c.args);
    EXPECT_EQ(r.rc, 2) << c.args << "\n" << r.err;
    EXPECT_TRUE(has(r.err, c.message)) << c.args << "\nstderr: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line\n" << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args << "\nstdout: " << r.out;
  }
  // Missing required options: the usage error and a pointer to --help.
  EXPECT_TRUE(has(baresm(vec + "--block 4" + ok_args).err, "missing --grid"));
  EXPECT_TRUE(has(baresm(vec + "--grid 4" + ok_args).err, "missing --block"));
  EXPECT_EQ(baresm(vec + "--grid 4" + ok_args).rc, 2);
  // A block the device cannot run is the driver's refusal: a failed launch.
  const CliRun big = baresm(vec + "--grid 1 --block 2048" + ok_args);
  EXPECT_EQ(big.rc, 1) << big.err;
  EXPECT_TRUE(has(big.err, "baresm launch: launch refused: INVALID_CONFIGURATION")) << big.err;
}

// Outputs go through write_whole_file: a failed write is reported and fails
// the command, after the completed launch's report.
TEST(CliLaunch, OutputWriteErrorsFailTheCommand) {
  const std::string a = tmp("w_a.bin");
  launch::write_floats(a, launch::inputs(4, 1.0f, 0.0f));
  const std::string args = "launch " + kKernels + "/vec_add.s --grid 1 --block 4 --arg buf:in=" + a +
                           " --arg buf:in=" + a + " --arg buf:out=16 --arg u32:4 --out c=";
  CliRun r = baresm(args + "/dev/full");
  EXPECT_EQ(r.rc, 1) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "COMPLETED")) << r.out;
  EXPECT_TRUE(has(r.err, "baresm launch: cannot write '/dev/full': No space left on device")) << r.err;
  r = baresm(args + tmp("no_such_dir/c.bin"));
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_TRUE(has(r.err, "no_such_dir/c.bin': No such file or directory")) << r.err;
  const std::string err = tmp("info_full_err");
  const int st = std::system((std::string(BARESM_EXE) + " info >/dev/full 2>" + err).c_str());
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 1);
  EXPECT_TRUE(has(slurp(err), "baresm info: standard output: No space left on device")) << slurp(err);
}

// What info prints is the device's: the model and the verilated device are
// configured differently (8 and 32 lanes), and each shows its own.
TEST(CliInfo, ModelAndRtlReportTheirOwnConfiguration) {
  const CliRun m = baresm("info");
  ASSERT_EQ(m.rc, 0) << m.err;
  const CliRun r = baresm("info --backend rtl");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string ring_row = "ring format version        " + std::to_string(baresm::cq::kDESC_VERSION);
  for (const CliRun* x : {&m, &r}) {
    for (const char* row :
         {"architecture               0x42534d31 (\"BSM1\")", "register map version       1.2",
          ring_row.c_str(), "warp size                  32", "FPU                        yes", "CTA slots ",
          "registers per thread ", "shared memory ", "queue pairs ", "address windows ",
          "device memory              4194304 bytes (4 MiB)", "protected range "})
      EXPECT_TRUE(has(x->out, row)) << row << "\n" << x->out;
  }
  EXPECT_TRUE(has(m.out, "device 0 (backend model, transport model)")) << m.out;
  EXPECT_TRUE(has(m.out, "lanes                      8 ")) << m.out;
  EXPECT_TRUE(has(r.out, "device 0 (backend rtl, transport rtl)")) << r.out;
  EXPECT_TRUE(has(r.out, "lanes                      32 ")) << r.out;
  EXPECT_EQ(baresm("info --help").rc, 0);
  EXPECT_EQ(baresm("info extra").rc, 2);
}

// ---- timeline (docs/timeline.md) ---------------------------------------------------
// A sample's warp timeline on the RTL passes every check of `baresm
// timeline --check` (the checker itself is tested in test_timeline.cpp) and
// draws as PNG and SVG.
TEST(CliTimeline, ReduceSumOnTheRtl) {
  const std::string json = tmp("rs.json"), png = tmp("rs.png"), svg = tmp("rs.svg");
  const CliRun r = baresm("run reduce_sum --backend rtl --timeline " + json);
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  const std::string text = slurp(json);
  EXPECT_EQ(text.rfind("{\"otherData\":{\"tool\":\"baresm --timeline\"", 0), 0u) << text.substr(0, 80);
  const CliRun c = baresm("timeline " + json + " --check -o " + png);
  EXPECT_EQ(c.rc, 0) << c.out << c.err;
  // reduce_sum launches 7 grids (its passes and the host's checks).
  EXPECT_TRUE(has(c.out, ": valid timeline: ")) << c.out;
  EXPECT_TRUE(has(c.out, "16 warp slots, 7 SM launches")) << c.out;
  EXPECT_EQ(slurp(png).substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(baresm("timeline " + json + " -o " + svg + " --cycles 1000:3000").rc, 0);
  EXPECT_EQ(slurp(svg).rfind("<svg ", 0), 0u);
  // A file with one state interval fewer fails the check, naming the gap.
  const size_t at = text.find("\"cat\":\"state\"");
  ASSERT_NE(at, std::string::npos);
  const size_t begin = text.rfind("\n{", at), end = text.find("},\n", at);
  const std::string broken = tmp("broken.json");
  {
    std::ofstream f(broken);
    f << text.substr(0, begin) << text.substr(end + 2);
  }
  const CliRun b = baresm("timeline " + broken + " --check");
  EXPECT_EQ(b.rc, 1);
  EXPECT_TRUE(has(b.err, "have no state (gap)")) << b.err;
}

TEST(CliTimeline, LaunchOnTheRtl) {
  const std::string json = tmp("launch.json"), fa = tmp("tl_a.bin");
  launch::write_floats(fa, launch::inputs(100, 1.0f, 0.5f));
  const CliRun r = baresm("launch " + kKernels + "/vec_add.s --grid 2 --block 64 --arg buf:in=" + fa +
                          " --arg buf:in=" + fa + " --arg buf:out=400 --arg u32:100 --backend rtl --timeline " +
                          json);
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  const CliRun c = baresm("timeline " + json + " --check");
  EXPECT_EQ(c.rc, 0) << c.out << c.err;
  EXPECT_TRUE(has(c.out, "16 warp slots, 1 SM launches")) << c.out;
  // Both CTAs held warp slots (the checker compares them with the grid).
  EXPECT_TRUE(has(slurp(json), "\"ctas_placed\":2")) << "two CTAs placed";
}

TEST(CliTimeline, BadCommandLines) {
  const char* cases[][2] = {
      {"run vec_add --timeline t.json",
       "baresm run: --timeline 't.json': needs --backend rtl: the model backend has no clock cycles"},
      {"launch x.s --grid 1 --block 32 --timeline t.json",
       "baresm launch: --timeline 't.json': needs --backend rtl: the model backend has no clock cycles"},
      {"run vec_add --backend rtl --timeline /", "--timeline '/': not a regular file"},
      {"timeline", "missing FILE.json"},
      {"timeline t.json", "give --check, -o FILE.png|FILE.svg or both"},
      {"timeline t.json -o t.gif", "--output 't.gif': the picture is a PNG or an SVG"},
      {"timeline t.json -o t.png --cycles 9:3", "--cycles '9:3': START is not before END"},
      {"timeline /no/such.json --check", "baresm timeline: /no/such.json: No such file or directory"},
  };
  for (const auto& c : cases) {
    const CliRun r = baresm(c[0]);
    EXPECT_EQ(r.rc, 2) << c[0] << "\n" << r.err;
    EXPECT_TRUE(has(r.err, c[1])) << c[0] << "\nstderr: " << r.err;
  }
  const CliRun h = baresm("timeline --help");
  EXPECT_EQ(h.rc, 0);
  for (const char* opt : {"usage: baresm timeline", "--check", "--output", "--cycles"})
    EXPECT_TRUE(has(h.out, opt)) << opt << "\n" << h.out;
}

}  // namespace
