#include "samples/context.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "isa/assembler.h"
#include "isa/ptx.h"

namespace baresm::samples {

std::string hex32(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%08x", v);
  return b;
}

uint32_t f32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

namespace {
std::string dim_text(const iss::Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// The statement of a source line, without its comment.
std::string trim(std::string s) {
  for (const char* c : {"//", "#"}) {
    const size_t p = s.find(c);
    if (p != std::string::npos) s.resize(p);
  }
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}
}  // namespace

SampleContext::SampleContext(const Sample& s, Backend& b, const RunOptions& o, SampleResult* r)
    : sample_(s), backend_(b), opts_(o), result_(r), rng_(o.seed * 0x100000001B3ull + 12345) {
  if (opts_.kernels_dir.empty()) opts_.kernels_dir = default_kernels_dir();
}

SampleContext::~SampleContext() {
  for (const Buffer& b : buffers_) backend_.free(b);
  if (loaded_) backend_.unload_module(handle_);
}

bool SampleContext::prepare() {
  const bool cuda = opts_.source == KernelSource::CUDA;
  if (kernel_file().empty()) {
    fail(cuda ? "sample " + sample_.name + " has no CUDA version (kernels/cuda/" + sample_.name + ".cu)"
              : "sample " + sample_.name + " exists only in CUDA: run it with --source cuda");
    return false;
  }
  const std::string path = opts_.kernels_dir + "/" + kernel_file();
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    fail("cannot read kernel file " + path + " (use --kernels DIR to point at kernels/)");
    return false;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  {
    std::istringstream lines(src);
    std::string line;
    while (std::getline(lines, line)) source_lines_.push_back(line);
  }
  if (cuda) {
    isa::PtxResult p = isa::translate_ptx(src, kernel_file());
    if (!p.ok()) {
      fail("kernel " + path + " does not translate:\n" + p.format_errors());
      return false;
    }
    module_ = std::move(p.module);
  } else {
    isa::AsmResult a = isa::assemble(src, kernel_file());
    if (!a.ok()) {
      fail("kernel " + path + " does not assemble:\n" + a.format_errors());
      return false;
    }
    module_ = std::move(a.module);
  }
  const std::vector<uint8_t> image = isa::write_module(module_);
  const Status s = backend_.load_module(image, &handle_);
  if (s != Status::OK) {
    fail(std::string("load_module: ") + status_name(s) + ": " + backend_.last_error());
    return false;
  }
  loaded_ = true;
  return true;
}

void SampleContext::check(Status s, const char* what) {
  if (s == Status::OK) return;
  fail(std::string("backend ") + what + " failed: " + status_name(s) + ": " + backend_.last_error());
  throw SampleAbort{};
}

Buffer SampleContext::alloc(uint32_t bytes) {
  Buffer b;
  check(backend_.alloc(bytes ? bytes : 4, &b), "alloc");
  buffers_.push_back(b);
  return b;
}

void SampleContext::release(const Buffer& b) {
  for (auto it = buffers_.begin(); it != buffers_.end(); ++it) {
    if (it->addr == b.addr) {
      buffers_.erase(it);
      check(backend_.free(b), "free");
      return;
    }
  }
}

const LaunchReport& SampleContext::launch(const std::string& kernel, iss::Dim3 grid, iss::Dim3 block,
                                          const std::vector<Arg>& args, const std::vector<Buffer>& windows,
                                          const std::string& note, uint64_t watchdog) {
  const isa::KernelInfo* k = module_.find_kernel(kernel);
  if (!k) {
    fail("no kernel '" + kernel + "' in " + kernel_file());
    throw SampleAbort{};
  }
  std::vector<uint8_t> params;
  std::string err;
  if (!pack_params(*k, args, &params, &err)) {
    fail(err);
    throw SampleAbort{};
  }
  LaunchConfig cfg;
  cfg.grid = grid;
  cfg.block = block;
  cfg.windows = windows;
  cfg.watchdog = watchdog;
  LaunchRecord rec;
  rec.kernel = kernel;
  rec.grid = grid;
  rec.block = block;
  rec.note = note;
  check(backend_.launch(handle_, kernel, cfg, params, &rec.report), "launch");
  result_->launches.push_back(std::move(rec));
  const LaunchReport& r = result_->launches.back().report;
  if (!r.fault.ok() && !result_->faulted) {
    result_->faulted = true;
    result_->fault = r.fault;
    result_->fault_report = fault_report(r);
  }
  return r;
}

bool SampleContext::completed(const LaunchReport& r) {
  if (r.fault.ok()) return true;
  const LaunchRecord& rec = result_->launches.back();
  fail("launch of " + rec.kernel + " grid " + dim_text(rec.grid) + " block " + dim_text(rec.block) +
       " faulted: " + r.fault.describe());
  return false;
}

std::string SampleContext::where(uint32_t off) const {
  std::string s = module_.offset_name(off);
  if (const isa::LineEntry* le = module_.line_for(off)) {
    s += " (" + kernel_file() + ":" + std::to_string(le->line);
    if (le->line >= 1 && le->line <= source_lines_.size())
      s += ": `" + trim(source_lines_[le->line - 1]) + "`";
    s += ")";
  }
  return s;
}

std::string SampleContext::fault_report(const LaunchReport& r) const {
  const iss::FaultInfo& f = r.fault;
  std::string s = "fault: " + std::string(iss::fault_kind_name(f.kind)) + "\n";
  s += "  where:  cta " + dim_text(f.cta) + " warp " + std::to_string(f.warp) + " lane " +
       std::to_string(f.lane) + " (thread " + std::to_string(f.warp * 32 + f.lane) + " of the CTA)\n";
  s += "  pc:     " + hex32(f.pc);
  if (f.pc >= r.code_base && f.pc - r.code_base < module_.code.size() * isa::kInstrBytes)
    s += " = " + where(f.pc - r.code_base);
  s += "\n";
  if (f.kind == iss::FaultKind::OUT_OF_WINDOW || f.kind == iss::FaultKind::MISALIGNED)
    s += "  addr:   " + hex32(f.addr) + "\n";
  if (f.kind == iss::FaultKind::BARRIER_DEADLOCK) {
    s += "  waiting warps:";
    for (int w = 0; w < 64; ++w)
      if ((f.waiting_warps >> w) & 1) s += " " + std::to_string(w);
    s += "\n";
  }
  if (!f.detail.empty()) s += "  detail: " + f.detail + "\n";
  return s;
}

void SampleContext::expect_fault(const LaunchReport& r, const Expect& e) {
  const iss::FaultInfo& f = r.fault;
  std::string want = iss::fault_kind_name(e.kind);
  if (e.pcs.empty()) {
    fail("internal: no expected PC found in " + kernel_file());
    return;
  }
  want += " at " + where(e.pcs[0]);
  for (size_t i = 1; i < e.pcs.size(); ++i) want += " or " + where(e.pcs[i]);
  if (f.ok()) {
    fail("expected " + want + ", but the launch completed without a fault");
    return;
  }
  std::vector<std::string> wrong;
  if (f.kind != e.kind) wrong.push_back(std::string("kind ") + iss::fault_kind_name(f.kind));
  const uint32_t off = f.pc - r.code_base;
  bool pc_ok = false;
  for (uint32_t p : e.pcs) pc_ok |= (f.pc >= r.code_base && off == p);
  if (!pc_ok) wrong.push_back("pc " + hex32(f.pc));
  if (e.cta_x >= 0 && (f.cta.x != e.cta_x || f.cta.y != 0 || f.cta.z != 0))
    wrong.push_back("cta " + dim_text(f.cta) + " (expected " + std::to_string(e.cta_x) + ")");
  if (e.warp >= 0 && f.warp != e.warp)
    wrong.push_back("warp " + std::to_string(f.warp) + " (expected " + std::to_string(e.warp) + ")");
  if (e.lane >= 0 && f.lane != e.lane)
    wrong.push_back("lane " + std::to_string(f.lane) + " (expected " + std::to_string(e.lane) + ")");
  if (e.addr >= 0 && f.addr != uint32_t(e.addr))
    wrong.push_back("addr " + hex32(f.addr) + " (expected " + hex32(uint32_t(e.addr)) + ")");
  if (wrong.empty()) {
    pass("expected fault observed: " + want);
    return;
  }
  std::string msg = "expected " + want + ", got";
  for (size_t i = 0; i < wrong.size(); ++i) msg += (i ? ", " : " ") + wrong[i];
  fail(msg);
}

void SampleContext::pass(const std::string& msg) {
  if (failed_) return;
  result_->passed = true;
  result_->message = msg;
}

void SampleContext::fail(const std::string& msg) {
  if (failed_) return;  // the first failure is the one worth reading
  failed_ = true;
  result_->passed = false;
  result_->message = msg;
}

}  // namespace baresm::samples
