// The .bsm module format (docs/module-format.md): writer and a defensive reader.
// The reader treats its input as hostile: every count, offset and size is
// checked against the image before anything is read or allocated.
#include "isa/module.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <string_view>

#include "isa/file_io.h"
#include "isa/isa.h"

namespace baresm::isa {

namespace {

// ---- layout constants (docs/module-format.md) ---------------------------------
constexpr uint32_t kHeaderBytes = 88;    // what the writer writes (1.1)
constexpr uint32_t kHeaderBytes10 = 80;  // the least a reader accepts (1.0: no local table)
constexpr uint32_t kAttrEntryBytes = 8;   // kernel-attribute entry: local_bytes, units
constexpr uint32_t kKernelEntryBytes = 32;
constexpr uint32_t kParamEntryBytes = 16;
constexpr uint32_t kLineEntryBytes = 12;

// Header field offsets.
enum : uint32_t {
  H_MAGIC = 0,
  H_VERSION_MAJOR = 4,
  H_VERSION_MINOR = 6,
  H_HEADER_SIZE = 8,
  H_FLAGS = 12,
  H_ARCH_ID = 16,
  H_MAX_REGS = 20,
  H_MAX_SHARED = 24,
  H_KERNEL_COUNT = 28,
  H_KERNEL_OFFSET = 32,
  H_PARAM_COUNT = 36,
  H_PARAM_OFFSET = 40,
  H_LINE_COUNT = 44,
  H_LINE_OFFSET = 48,
  H_CODE_OFFSET = 52,
  H_CODE_SIZE = 56,
  H_STRING_OFFSET = 60,
  H_STRING_SIZE = 64,
  H_SOURCE_NAME = 68,
  H_TOTAL_SIZE = 72,
  H_CRC = 76,
  H_ATTR_COUNT = 80,  // 1.1: entries in the kernel-attribute table (kernel_count, or 0)
  H_ATTR_OFFSET = 84,
};

uint32_t crc_table_entry(uint32_t i) {
  uint32_t c = i;
  for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  return c;
}

// CRC-32 (IEEE 802.3, reflected, as zlib's crc32()).
uint32_t crc32(const uint8_t* p, size_t n) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) t[i] = crc_table_entry(i);
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = uint8_t(v >> (8 * i));
}
uint16_t get16(const uint8_t* p) {
  return uint16_t(p[0] | (p[1] << 8));
}
uint32_t get32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
uint64_t get64(const uint8_t* p) {
  return uint64_t(get32(p)) | (uint64_t(get32(p + 4)) << 32);
}

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

// Deduplicating string table; offset 0 is always the empty string.
class StringTable {
 public:
  StringTable() { bytes_.push_back(0); }
  uint32_t add(const std::string& s) {
    if (s.empty()) return 0;
    auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    uint32_t off = uint32_t(bytes_.size());
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    bytes_.push_back(0);
    index_.emplace(s, off);
    return off;
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
  std::map<std::string, uint32_t> index_;
};

LoadResult fail(LoadStatus st, std::string msg) {
  LoadResult r;
  r.status = st;
  r.message = std::move(msg);
  return r;
}
LoadResult invalid(const std::string& msg) {
  return fail(LoadStatus::INVALID_IMAGE, "invalid image: " + msg);
}

// Section offsets as write_module lays them out.
struct Layout {
  uint64_t kernel_off, param_off, attr_off, line_off, code_off, string_off, total;
};
Layout layout(const Module& m, size_t nparams, size_t string_bytes) {
  Layout l;
  uint64_t off = kHeaderBytes;
  l.kernel_off = off;
  off += uint64_t(m.kernels.size()) * kKernelEntryBytes;
  l.param_off = off;
  off += uint64_t(nparams) * kParamEntryBytes;
  l.attr_off = off;
  off += uint64_t(m.kernels.size()) * kAttrEntryBytes;
  l.line_off = off;
  off += uint64_t(m.lines.size()) * kLineEntryBytes;
  off = align_up(off, 8);
  l.code_off = off;
  off += uint64_t(m.code.size()) * kInstrBytes;
  l.string_off = off;
  off += string_bytes;
  l.total = align_up(off, 4);
  return l;
}

// Names end up in disassembly text and diagnostics: a control character
// (a newline above all) would let a name forge source lines.
bool has_control_char(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  return false;
}

struct Section {
  const char* name;
  uint64_t offset;
  uint64_t size;
};

}  // namespace

const KernelInfo* Module::find_kernel(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const LineEntry* Module::line_for(uint32_t pc) const {
  // Entries are sorted by pc; take the last one at or before pc.
  auto it = std::upper_bound(lines.begin(), lines.end(), pc,
                             [](uint32_t v, const LineEntry& e) { return v < e.pc; });
  if (it == lines.begin()) return nullptr;
  --it;
  return &*it;
}

std::string Module::offset_name(uint32_t off) const {
  char b[32];
  for (const auto& k : kernels) {
    if (off >= k.entry && off < k.entry + k.code_bytes) {
      std::snprintf(b, sizeof b, "+0x%x", off - k.entry);
      return k.name + b;
    }
  }
  std::snprintf(b, sizeof b, "0x%08x", off);
  return b;
}

const char* load_status_name(LoadStatus s) {
  switch (s) {
    case LoadStatus::OK:
      return "OK";
    case LoadStatus::INVALID_IMAGE:
      return "INVALID_IMAGE";
    case LoadStatus::NO_BINARY_FOR_DEVICE:
      return "NO_BINARY_FOR_DEVICE";
  }
  return "UNKNOWN";
}

std::vector<uint8_t> write_module(const Module& m) {
  StringTable strings;
  const uint32_t source_name = strings.add(m.source_name);
  std::vector<uint32_t> kernel_names, param_names;
  for (const auto& k : m.kernels) {
    kernel_names.push_back(strings.add(k.name));
    for (const auto& p : k.params) param_names.push_back(strings.add(p.name));
  }
  size_t nparams = param_names.size();

  // Sections in file order: kernels, params, lines, code (8-aligned), strings.
  const Layout l = layout(m, nparams, strings.bytes().size());
  const uint64_t kernel_off = l.kernel_off, param_off = l.param_off, line_off = l.line_off,
                 code_off = l.code_off, string_off = l.string_off, total = l.total;

  std::vector<uint8_t> b(total, 0);
  put32(b, H_MAGIC, kModuleMagic);
  put16(b, H_VERSION_MAJOR, m.version_major);
  // The layout below is 1.1's (the kernel-attribute table): never claim less.
  put16(b, H_VERSION_MINOR, std::max<uint16_t>(m.version_minor, 1));
  put32(b, H_HEADER_SIZE, kHeaderBytes);
  put32(b, H_FLAGS, 0);
  put32(b, H_ARCH_ID, m.target.arch_id);
  put32(b, H_MAX_REGS, m.target.max_regs);
  put32(b, H_MAX_SHARED, m.target.max_shared_bytes);
  put32(b, H_KERNEL_COUNT, uint32_t(m.kernels.size()));
  put32(b, H_KERNEL_OFFSET, uint32_t(kernel_off));
  put32(b, H_PARAM_COUNT, uint32_t(nparams));
  put32(b, H_PARAM_OFFSET, uint32_t(param_off));
  put32(b, H_LINE_COUNT, uint32_t(m.lines.size()));
  put32(b, H_LINE_OFFSET, uint32_t(line_off));
  put32(b, H_CODE_OFFSET, uint32_t(code_off));
  put32(b, H_CODE_SIZE, uint32_t(m.code.size() * kInstrBytes));
  put32(b, H_STRING_OFFSET, uint32_t(string_off));
  put32(b, H_STRING_SIZE, uint32_t(strings.bytes().size()));
  put32(b, H_SOURCE_NAME, source_name);
  put32(b, H_TOTAL_SIZE, uint32_t(total));
  put32(b, H_ATTR_COUNT, uint32_t(m.kernels.size()));
  put32(b, H_ATTR_OFFSET, uint32_t(l.attr_off));

  size_t pi = 0;
  for (size_t i = 0; i < m.kernels.size(); ++i) {
    const KernelInfo& k = m.kernels[i];
    size_t at = kernel_off + i * kKernelEntryBytes;
    put32(b, at + 0, kernel_names[i]);
    put32(b, at + 4, k.entry);
    put32(b, at + 8, k.code_bytes);
    put32(b, at + 12, k.regs);
    put32(b, at + 16, k.shared_bytes);
    put32(b, at + 20, k.param_bytes);
    put32(b, at + 24, uint32_t(pi));
    put32(b, at + 28, uint32_t(k.params.size()));
    put32(b, l.attr_off + i * kAttrEntryBytes, k.local_bytes);
    put32(b, l.attr_off + i * kAttrEntryBytes + 4, kernel_units(m, k));
    for (const auto& p : k.params) {
      size_t pat = param_off + pi * kParamEntryBytes;
      put32(b, pat + 0, param_names[pi]);
      put32(b, pat + 4, p.offset);
      put32(b, pat + 8, p.size);
      put32(b, pat + 12, p.align);
      ++pi;
    }
  }
  for (size_t i = 0; i < m.lines.size(); ++i) {
    size_t at = line_off + i * kLineEntryBytes;
    put32(b, at + 0, m.lines[i].pc);
    put32(b, at + 4, m.lines[i].line);
    put32(b, at + 8, m.lines[i].column);
  }
  for (size_t i = 0; i < m.code.size(); ++i) put64(b, code_off + i * kInstrBytes, m.code[i]);
  std::copy(strings.bytes().begin(), strings.bytes().end(), b.begin() + string_off);

  put32(b, H_CRC, crc32(b.data() + kHeaderBytes, b.size() - kHeaderBytes));
  return b;
}

uint64_t module_image_bytes(const Module& m) {
  StringTable strings;
  strings.add(m.source_name);
  size_t nparams = 0;
  for (const auto& k : m.kernels) {
    strings.add(k.name);
    for (const auto& p : k.params) strings.add(p.name);
    nparams += k.params.size();
  }
  return layout(m, nparams, strings.bytes().size()).total;
}

LoadResult read_module(const uint8_t* data, size_t size, const DeviceLimits* limits) {
  if (data == nullptr && size != 0) return invalid("null data");
  if (size > kMaxModuleBytes)
    return invalid(std::to_string(size) + " bytes, more than the " + std::to_string(kMaxModuleBytes) +
                   "-byte module limit");
  if (size < 4) return invalid("truncated: " + std::to_string(size) + " bytes, too short for the magic");
  const uint32_t magic = get32(data);
  if (magic != kModuleMagic)
    return invalid("bad magic " + hex32(magic) + ", expected BSM\\0 (" + hex32(kModuleMagic) + ")");
  if (size < kHeaderBytes10)
    return invalid("truncated: " + std::to_string(size) + " bytes, the header needs " +
                   std::to_string(kHeaderBytes10));
  const uint16_t vmaj = get16(data + H_VERSION_MAJOR), vmin = get16(data + H_VERSION_MINOR);
  if (vmaj != kModuleVersionMajor)
    return invalid("unsupported version " + std::to_string(vmaj) + "." + std::to_string(vmin) +
                   " (this reader supports " + std::to_string(kModuleVersionMajor) + ".x)");
  const uint32_t header_size = get32(data + H_HEADER_SIZE);
  const uint32_t total = get32(data + H_TOTAL_SIZE);
  if (total != size) {
    if (total > size)
      return invalid("truncated: header says " + std::to_string(total) + " bytes, got " +
                     std::to_string(size));
    return invalid("size mismatch: header says " + std::to_string(total) + " bytes, got " +
                   std::to_string(size));
  }
  // 1.0 headers are 80 bytes; from 1.1 on at least 88 (the local table's fields).
  if (header_size < (vmin >= 1 ? kHeaderBytes : kHeaderBytes10) || header_size > total || header_size % 4 != 0)
    return invalid("bad header size " + std::to_string(header_size) + " for version 1." + std::to_string(vmin));
  const uint32_t crc = get32(data + H_CRC);
  const uint32_t actual_crc = crc32(data + header_size, size - header_size);
  if (crc != actual_crc)
    return invalid("CRC mismatch: header says " + hex32(crc) + ", contents give " + hex32(actual_crc));
  if (get32(data + H_FLAGS) != 0) return invalid("unknown flags " + hex32(get32(data + H_FLAGS)));

  const uint32_t nkernels = get32(data + H_KERNEL_COUNT);
  const uint32_t nparams = get32(data + H_PARAM_COUNT);
  const uint32_t nlines = get32(data + H_LINE_COUNT);
  const uint32_t code_size = get32(data + H_CODE_SIZE);
  const uint32_t string_size = get32(data + H_STRING_SIZE);
  const uint32_t nattrs = vmin >= 1 ? get32(data + H_ATTR_COUNT) : 0;
  // Sizes are computed in 64 bits so huge counts cannot wrap around.
  Section sections[] = {
      {"kernel table", get32(data + H_KERNEL_OFFSET), uint64_t(nkernels) * kKernelEntryBytes},
      {"parameter table", get32(data + H_PARAM_OFFSET), uint64_t(nparams) * kParamEntryBytes},
      {"line table", get32(data + H_LINE_OFFSET), uint64_t(nlines) * kLineEntryBytes},
      {"code", get32(data + H_CODE_OFFSET), code_size},
      {"string table", get32(data + H_STRING_OFFSET), string_size},
      {"kernel-attribute table", vmin >= 1 ? get32(data + H_ATTR_OFFSET) : 0, uint64_t(nattrs) * kAttrEntryBytes},
  };
  constexpr size_t kSections = sizeof sections / sizeof sections[0];
  for (const auto& s : sections) {
    if (s.size == 0) continue;
    if (s.offset < header_size || s.offset > total || s.size > total - s.offset)
      return invalid(std::string(s.name) + " [" + std::to_string(s.offset) + ", +" + std::to_string(s.size) +
                     ") lies outside the image body [" + std::to_string(header_size) + ", " +
                     std::to_string(total) + ")");
  }
  for (size_t i = 0; i < kSections; ++i)
    for (size_t j = i + 1; j < kSections; ++j) {
      const Section &a = sections[i], &c = sections[j];
      if (a.size == 0 || c.size == 0) continue;
      if (a.offset < c.offset + c.size && c.offset < a.offset + a.size)
        return invalid(std::string(a.name) + " overlaps " + c.name);
    }
  if (sections[0].offset % 4 || sections[1].offset % 4 || sections[2].offset % 4 || sections[5].offset % 4)
    return invalid("misaligned table offset");
  if (sections[3].offset % 8 || code_size % kInstrBytes)
    return invalid("code at offset " + std::to_string(sections[3].offset) + " size " +
                   std::to_string(code_size) + " is not 8-byte aligned");
  if (nattrs != 0 && nattrs != nkernels)
    return invalid("kernel-attribute table has " + std::to_string(nattrs) + " entries for " +
                   std::to_string(nkernels) + " kernels");
  if (string_size == 0) return invalid("empty string table");
  const uint8_t* strtab = data + sections[4].offset;
  if (strtab[string_size - 1] != 0) return invalid("string table does not end with NUL");

  // A string is an offset into the string table; its NUL must lie inside it.
  auto get_string = [&](uint32_t off, std::string* out) -> bool {
    if (off >= string_size) return false;
    const void* nul = std::memchr(strtab + off, 0, string_size - off);
    if (!nul) return false;
    out->assign(reinterpret_cast<const char*>(strtab + off),
                static_cast<const uint8_t*>(nul) - (strtab + off));
    return true;
  };

  LoadResult r;
  Module& m = r.module;
  m.version_major = vmaj;
  m.version_minor = vmin;
  m.target.arch_id = get32(data + H_ARCH_ID);
  m.target.max_regs = get32(data + H_MAX_REGS);
  m.target.max_shared_bytes = get32(data + H_MAX_SHARED);
  if (!get_string(get32(data + H_SOURCE_NAME), &m.source_name)) return invalid("bad source name offset");
  if (has_control_char(m.source_name)) return invalid("the source name contains a control character");

  m.code.resize(code_size / kInstrBytes);
  for (size_t i = 0; i < m.code.size(); ++i) m.code[i] = get64(data + sections[3].offset + i * kInstrBytes);

  std::set<std::string> names;
  std::vector<bool> param_used(nparams, false);
  m.kernels.resize(nkernels);
  for (uint32_t i = 0; i < nkernels; ++i) {
    const uint8_t* e = data + sections[0].offset + uint64_t(i) * kKernelEntryBytes;
    KernelInfo& k = m.kernels[i];
    const std::string which = "kernel " + std::to_string(i);
    if (!get_string(get32(e), &k.name) || k.name.empty()) return invalid(which + ": bad name offset");
    if (has_control_char(k.name)) return invalid(which + ": the name contains a control character");
    const std::string kn = "kernel '" + k.name + "'";
    if (!names.insert(k.name).second) return invalid("duplicate " + kn);
    k.entry = get32(e + 4);
    k.code_bytes = get32(e + 8);
    k.regs = get32(e + 12);
    k.shared_bytes = get32(e + 16);
    k.param_bytes = get32(e + 20);
    const uint32_t first = get32(e + 24), count = get32(e + 28);
    k.local_bytes = nattrs ? get32(data + sections[5].offset + uint64_t(i) * kAttrEntryBytes) : 0;
    if (k.local_bytes > kMaxLocalBytes || k.local_bytes % 4)
      return invalid(kn + ": " + std::to_string(k.local_bytes) +
                     " bytes of local memory per thread (a multiple of 4, at most " +
                     std::to_string(kMaxLocalBytes) + ")");
    if (k.entry % kInstrBytes || k.code_bytes % kInstrBytes || k.code_bytes == 0 ||
        uint64_t(k.entry) + k.code_bytes > code_size)
      return invalid(kn + ": code [" + std::to_string(k.entry) + ", +" + std::to_string(k.code_bytes) +
                     ") is not an aligned, non-empty range inside the " + std::to_string(code_size) +
                     "-byte code");
    // The device refuses a descriptor with 0 registers (DCHK_REGS): refuse it here, at load.
    if (k.regs == 0 || k.regs > uint32_t(kMaxRegsPerThread))
      return invalid(kn + ": " + std::to_string(k.regs) + " registers (1 to " +
                     std::to_string(kMaxRegsPerThread) + ")");
    if (k.regs > m.target.max_regs)
      return invalid(kn + ": needs " + std::to_string(k.regs) + " registers, the header's maximum is " +
                     std::to_string(m.target.max_regs));
    // The assembler's limits (module.h): what it cannot write, the loader does not accept.
    if (k.shared_bytes > kMaxSharedBytes)
      return invalid(kn + ": " + std::to_string(k.shared_bytes) + " bytes of shared memory, more than the " +
                     std::to_string(kMaxSharedBytes) + "-byte limit");
    if (k.param_bytes > kMaxParamBytes)
      return invalid(kn + ": " + std::to_string(k.param_bytes) + " parameter bytes, more than the " +
                     std::to_string(kMaxParamBytes) + "-byte limit");
    if (uint64_t(first) + count > nparams)
      return invalid(kn + ": parameters [" + std::to_string(first) + ", +" + std::to_string(count) +
                     ") outside the " + std::to_string(nparams) + "-entry parameter table");
    // The optional units: recorded (1.1) or, in a 1.0 image, found from the
    // code; a recorded mask must be what the code uses (the driver trusts it).
    uint32_t fpu_pc = 0;
    const uint32_t used = kernel_units(m, k, &fpu_pc);
    k.units = nattrs ? get32(data + sections[5].offset + uint64_t(i) * kAttrEntryBytes + 4) : used;
    if (k.units & ~kKnownUnits) return invalid(kn + ": unknown units " + hex32(k.units));
    if (k.units != used)
      return invalid(kn + ": records units " + hex32(k.units) + ", its code uses " + hex32(used) +
                     ((used & kUnitFpu) ? " (an FPU instruction at " + m.offset_name(fpu_pc) + ")" : ""));
    k.params.resize(count);
    std::set<std::string> pnames;
    for (uint32_t j = 0; j < count; ++j) {
      const uint8_t* pe = data + sections[1].offset + uint64_t(first + j) * kParamEntryBytes;
      if (param_used[first + j])
        return invalid(kn + ": parameter entry " + std::to_string(first + j) + " is shared");
      param_used[first + j] = true;
      ParamInfo& p = k.params[j];
      if (!get_string(get32(pe), &p.name) || p.name.empty())
        return invalid(kn + ": parameter " + std::to_string(j) + " has a bad name offset");
      if (has_control_char(p.name))
        return invalid(kn + ": parameter " + std::to_string(j) + ": the name contains a control character");
      if (!pnames.insert(p.name).second) return invalid(kn + ": duplicate parameter '" + p.name + "'");
      p.offset = get32(pe + 4);
      p.size = get32(pe + 8);
      p.align = get32(pe + 12);
      const bool pow2 = p.align != 0 && (p.align & (p.align - 1)) == 0 && p.align <= kMaxParamAlign;
      if (p.size == 0 || !pow2 || p.offset % p.align || uint64_t(p.offset) + p.size > k.param_bytes)
        return invalid(kn + ": parameter '" + p.name + "' (offset " + std::to_string(p.offset) + ", size " +
                       std::to_string(p.size) + ", align " + std::to_string(p.align) +
                       ") is misaligned or outside param_bytes " + std::to_string(k.param_bytes));
    }
    // Two parameters sharing bytes would make one argument overwrite the other at launch.
    // Sorted by offset, any overlap shows between neighbours (n log n for hostile tables).
    std::vector<const ParamInfo*> by_off;
    for (const auto& p : k.params) by_off.push_back(&p);
    std::sort(by_off.begin(), by_off.end(),
              [](const ParamInfo* x, const ParamInfo* y) { return x->offset < y->offset; });
    for (size_t j = 1; j < by_off.size(); ++j) {
      const ParamInfo &x = *by_off[j - 1], &y = *by_off[j];
      if (uint64_t(x.offset) + x.size > y.offset)
        return invalid(kn + ": parameter '" + x.name + "' [" + std::to_string(x.offset) + ", +" +
                       std::to_string(x.size) + ") overlaps '" + y.name + "' at offset " +
                       std::to_string(y.offset));
    }
  }
  // The header's maximum must be the most any kernel needs, not more (the assembler writes exactly that).
  {
    uint32_t most = 0;
    for (const auto& k : m.kernels) most = std::max(most, k.regs);
    if (m.target.max_regs != most)
      return invalid("header register maximum " + std::to_string(m.target.max_regs) +
                     " is not the most any kernel needs (" + std::to_string(most) + ")");
  }

  m.lines.resize(nlines);
  for (uint32_t i = 0; i < nlines; ++i) {
    const uint8_t* e = data + sections[2].offset + uint64_t(i) * kLineEntryBytes;
    LineEntry& l = m.lines[i];
    l.pc = get32(e);
    l.line = get32(e + 4);
    l.column = get32(e + 8);
    if (l.pc % kInstrBytes || l.pc >= code_size)
      return invalid("line entry " + std::to_string(i) + ": pc " + std::to_string(l.pc) +
                     " outside the code");
    if (i > 0 && l.pc < m.lines[i - 1].pc) return invalid("line table is not sorted by pc");
  }

  if (limits) {
    if (m.target.arch_id != limits->arch_id)
      return fail(LoadStatus::NO_BINARY_FOR_DEVICE, "no binary for device: module targets arch " +
                                                        hex32(m.target.arch_id) + ", the device is arch " +
                                                        hex32(limits->arch_id));
    for (const auto& k : m.kernels) {
      if (k.regs > limits->max_regs_per_thread)
        return fail(LoadStatus::NO_BINARY_FOR_DEVICE, "no binary for device: kernel '" + k.name + "' needs " +
                                                          std::to_string(k.regs) +
                                                          " registers per thread, the device has " +
                                                          std::to_string(limits->max_regs_per_thread));
      if ((k.units & kUnitFpu) && !(limits->units & kUnitFpu)) {
        uint32_t pc = 0;
        kernel_units(m, k, &pc);
        return fail(LoadStatus::NO_BINARY_FOR_DEVICE, "no binary for device: kernel '" + k.name +
                                                          "' uses the FPU (first at " + m.offset_name(pc) +
                                                          "), the device has none (CONFIG6.HAS_FPU = 0)");
      }
      if (k.shared_bytes > limits->max_shared_per_cta)
        return fail(LoadStatus::NO_BINARY_FOR_DEVICE, "no binary for device: kernel '" + k.name + "' needs " +
                                                          std::to_string(k.shared_bytes) +
                                                          " bytes of shared memory, the device has " +
                                                          std::to_string(limits->max_shared_per_cta));
    }
  }
  return r;
}

uint32_t kernel_units(const Module& m, const KernelInfo& k, uint32_t* first_fpu_pc) {
  uint32_t units = 0;
  const size_t first = k.entry / kInstrBytes, end = std::min(m.code.size(), first + k.code_bytes / kInstrBytes);
  for (size_t i = first; i < end; ++i) {
    const OpInfo* info = op_info(uint8_t(m.code[i] & 0x7F));
    if (info && info->unit == UNIT_FPU && !(units & kUnitFpu)) {
      units |= kUnitFpu;
      if (first_fpu_pc) *first_fpu_pc = uint32_t(i * kInstrBytes);
    }
  }
  return units;
}

LoadResult read_module_file(const std::string& path, const DeviceLimits* limits) {
  std::string bytes, error;
  if (!read_file(path, kMaxModuleBytes, &bytes, &error)) return invalid("'" + path + "': " + error);
  return read_module(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), limits);
}

}  // namespace baresm::isa
