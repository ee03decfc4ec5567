#include "cudart/fatbin.h"

#include <zstd.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace baresm::cudart {

namespace {

template <class T>
T rd(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

bool fail(std::string* err, size_t offset, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
bool fail(std::string* err, size_t offset, const char* fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char head[64];
  std::snprintf(head, sizeof head, "fatbinary offset 0x%zx: ", offset);
  if (err) *err = std::string(head) + msg;
  return false;
}

// The fixed part of an entry header (its header_size may be larger).
constexpr size_t kEntryHeaderMin = 64;
constexpr size_t kFatbinHeaderBytes = 16;

}  // namespace

bool parse_fatbin(const uint8_t* data, size_t available, Fatbin* out, std::string* err) {
  *out = Fatbin{};
  if (!data) return fail(err, 0, "null fatbinary pointer");
  if (available < kFatbinHeaderBytes)
    return fail(err, 0, "truncated: %zu bytes, the header alone is %zu", available, kFatbinHeaderBytes);
  const uint32_t magic = rd<uint32_t>(data);
  if (magic != kFatbinMagic) return fail(err, 0, "bad magic 0x%08x (expected 0x%08x)", magic, kFatbinMagic);
  const uint16_t version = rd<uint16_t>(data + 4);
  const uint16_t header_bytes = rd<uint16_t>(data + 6);
  const uint64_t body_bytes = rd<uint64_t>(data + 8);
  if (version != 1) return fail(err, 4, "fatbinary version %u is not supported (expected 1)", version);
  if (header_bytes < kFatbinHeaderBytes)
    return fail(err, 6, "header size %u is smaller than %zu", header_bytes, kFatbinHeaderBytes);
  if (body_bytes > kMaxFatbinBytes)
    return fail(err, 8, "body size %llu exceeds the %llu-byte bound", (unsigned long long)body_bytes,
                (unsigned long long)kMaxFatbinBytes);
  const uint64_t total = header_bytes + body_bytes;
  if (total > available)
    return fail(err, 8, "truncated: the header claims %llu bytes, %zu are there", (unsigned long long)total,
                available);
  out->base = data;
  out->total_bytes = size_t(total);
  size_t off = header_bytes;
  while (off < total) {
    if (total - off < kEntryHeaderMin)
      return fail(err, off, "truncated entry header: %llu bytes left, an entry header is at least %zu",
                  (unsigned long long)(total - off), kEntryHeaderMin);
    const uint8_t* h = data + off;
    FatbinEntry e;
    e.kind = rd<uint16_t>(h + 0);
    const uint32_t eh_bytes = rd<uint32_t>(h + 4);
    e.payload_bytes = rd<uint64_t>(h + 8);
    e.compressed_bytes = rd<uint32_t>(h + 16);
    e.version_minor = rd<uint16_t>(h + 24);
    e.version_major = rd<uint16_t>(h + 26);
    e.arch = rd<uint32_t>(h + 28);
    e.flags = rd<uint64_t>(h + 40);
    e.decompressed_bytes = rd<uint64_t>(h + 56);
    e.header_offset = off;
    if (eh_bytes < kEntryHeaderMin)
      return fail(err, off + 4, "entry header size %u is smaller than %zu", eh_bytes, kEntryHeaderMin);
    if (eh_bytes > total - off)
      return fail(err, off + 4, "entry header size %u runs past the end of the fatbinary", eh_bytes);
    if (e.payload_bytes > total - off - eh_bytes)
      return fail(err, off + 8, "entry payload of %llu bytes runs past the end of the fatbinary (%llu left)",
                  (unsigned long long)e.payload_bytes, (unsigned long long)(total - off - eh_bytes));
    if (e.compressed() && e.compressed_bytes > e.payload_bytes)
      return fail(err, off + 16, "compressed size %u is larger than the payload (%llu bytes)", e.compressed_bytes,
                  (unsigned long long)e.payload_bytes);
    e.payload_offset = off + eh_bytes;
    out->entries.push_back(e);
    off += eh_bytes + size_t(e.payload_bytes);
  }
  return true;
}

bool parse_fatbin_section(const uint8_t* data, size_t size, std::vector<Fatbin>* out, std::string* err) {
  out->clear();
  size_t off = 0;
  while (off < size) {
    Fatbin fb;
    if (!parse_fatbin(data + off, size - off, &fb, err)) {
      if (err) *err = "section offset 0x" + [&] {
        char b[24];
        std::snprintf(b, sizeof b, "%zx", off);
        return std::string(b);
      }() + ": " + *err;
      return false;
    }
    out->push_back(fb);
    off += (fb.total_bytes + 7) & ~size_t(7);
  }
  return true;
}

bool unwrap_fatbin(const void* wrapper, const uint8_t** data, std::string* err) {
  if (!wrapper) {
    if (err) *err = "fatbinary wrapper: null pointer";
    return false;
  }
  const uint8_t* w = static_cast<const uint8_t*>(wrapper);
  const uint32_t magic = rd<uint32_t>(w);
  const uint32_t version = rd<uint32_t>(w + 4);
  char msg[256];
  if (magic != kFatbinWrapperMagic) {
    std::snprintf(msg, sizeof msg, "fatbinary wrapper: bad magic 0x%08x (expected 0x%08x)", magic,
                  kFatbinWrapperMagic);
    if (err) *err = msg;
    return false;
  }
  if (version != 1) {
    std::snprintf(msg, sizeof msg,
                  "fatbinary wrapper: version %u (%s) is not supported: only whole-program compilation "
                  "(no -rdc=true / separate device linking) is",
                  version, version == 2 ? "relocatable device code, linked by nvlink" : "unknown");
    if (err) *err = msg;
    return false;
  }
  *data = rd<const uint8_t*>(w + 8);
  return true;
}

bool entry_ptx(const Fatbin& fb, const FatbinEntry& e, std::string* ptx, std::string* err) {
  if (e.kind != kEntryPtx) return fail(err, e.header_offset, "entry kind %u is not PTX", e.kind);
  const uint8_t* payload = fb.base + e.payload_offset;
  if (e.flags & kFlagCompressedLz4)
    return fail(err, e.header_offset + 40,
                "PTX entry is LZ4-compressed (flags 0x%llx, nvcc before 13): not supported; rebuild with nvcc 13 "
                "or -Xfatbin -compress=false",
                (unsigned long long)e.flags);
  if (e.flags & kFlagCompressedZstd) {
    if (e.decompressed_bytes == 0 || e.decompressed_bytes > kMaxFatbinBytes)
      return fail(err, e.header_offset + 56, "decompressed size %llu is out of range",
                  (unsigned long long)e.decompressed_bytes);
    const unsigned long long frame = ZSTD_getFrameContentSize(payload, e.compressed_bytes);
    if (frame == ZSTD_CONTENTSIZE_ERROR)
      return fail(err, e.payload_offset, "PTX payload is not a zstd frame (flags say zstd-compressed)");
    if (frame != ZSTD_CONTENTSIZE_UNKNOWN && frame != e.decompressed_bytes)
      return fail(err, e.payload_offset, "zstd frame holds %llu bytes, the entry header says %llu", frame,
                  (unsigned long long)e.decompressed_bytes);
    std::string out(size_t(e.decompressed_bytes), '\0');
    const size_t n = ZSTD_decompress(out.data(), out.size(), payload, e.compressed_bytes);
    if (ZSTD_isError(n))
      return fail(err, e.payload_offset, "zstd: %s (%u compressed bytes)", ZSTD_getErrorName(n), e.compressed_bytes);
    if (n != out.size())
      return fail(err, e.payload_offset, "zstd produced %zu bytes, the entry header says %zu", n, out.size());
    *ptx = std::move(out);
  } else {
    *ptx = std::string(reinterpret_cast<const char*>(payload), size_t(e.payload_bytes));
  }
  while (!ptx->empty() && ptx->back() == '\0') ptx->pop_back();
  if (ptx->find('\0') != std::string::npos)
    return fail(err, e.payload_offset, "PTX text holds a NUL byte at %zu", ptx->find('\0'));
  return true;
}

const FatbinEntry* best_ptx_entry(const Fatbin& fb) {
  const FatbinEntry* best = nullptr;
  for (const FatbinEntry& e : fb.entries)
    if (e.kind == kEntryPtx && (!best || e.arch > best->arch)) best = &e;
  return best;
}

bool elf_section(const std::vector<uint8_t>& elf, const std::string& name, size_t* offset, size_t* size,
                 std::string* err) {
  auto bad = [&](const char* why) {
    if (err) *err = std::string("ELF: ") + why;
    return false;
  };
  if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) return bad("not an ELF file");
  if (elf[4] != 2 || elf[5] != 1) return bad("not ELF64 little-endian");
  const uint64_t shoff = rd<uint64_t>(&elf[0x28]);
  const uint16_t shentsize = rd<uint16_t>(&elf[0x3A]);
  const uint16_t shnum = rd<uint16_t>(&elf[0x3C]);
  const uint16_t shstrndx = rd<uint16_t>(&elf[0x3E]);
  if (shentsize < 64 || shoff > elf.size() || uint64_t(shnum) * shentsize > elf.size() - shoff || shstrndx >= shnum)
    return bad("section header table out of range");
  const uint8_t* strh = &elf[shoff + size_t(shstrndx) * shentsize];
  const uint64_t stroff = rd<uint64_t>(strh + 0x18), strsize = rd<uint64_t>(strh + 0x20);
  if (stroff > elf.size() || strsize > elf.size() - stroff) return bad("section name table out of range");
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint8_t* sh = &elf[shoff + size_t(i) * shentsize];
    const uint32_t nm = rd<uint32_t>(sh);
    if (nm >= strsize) continue;
    const char* s = reinterpret_cast<const char*>(&elf[stroff + nm]);
    if (std::strncmp(s, name.c_str(), strsize - nm) != 0) continue;
    const uint64_t o = rd<uint64_t>(sh + 0x18), z = rd<uint64_t>(sh + 0x20);
    if (o > elf.size() || z > elf.size() - o) return bad("section out of range");
    *offset = size_t(o);
    *size = size_t(z);
    return true;
  }
  return bad(("no section " + name).c_str());
}

}  // namespace baresm::cudart
