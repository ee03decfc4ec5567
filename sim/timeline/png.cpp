#include "sim/timeline/png.h"

#include <array>
#include <cctype>

namespace baresm::timeline {

uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

uint32_t adler32(const uint8_t* p, size_t n) {
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < n; ++i) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

namespace {

struct BitWriter {
  std::string out;
  uint32_t acc = 0;
  int n = 0;
  void bits(uint32_t v, int count) {  // LSB first, as deflate packs numbers
    for (int i = 0; i < count; ++i) {
      acc |= ((v >> i) & 1u) << n;
      if (++n == 8) {
        out.push_back(char(acc));
        acc = 0;
        n = 0;
      }
    }
  }
  void code(uint32_t c, int len) {  // Huffman codes go MSB first
    for (int i = len - 1; i >= 0; --i) bits((c >> i) & 1u, 1);
  }
  void flush() {
    if (n) out.push_back(char(acc));
    acc = 0;
    n = 0;
  }
};

// Deflate's fixed literal/length code (RFC 1951, 3.2.6).
void lit_len(BitWriter& w, uint32_t v) {
  if (v < 144)
    w.code(0x30 + v, 8);
  else if (v < 256)
    w.code(0x190 + v - 144, 9);
  else if (v < 280)
    w.code(v - 256, 7);
  else
    w.code(0xC0 + v - 280, 8);
}

constexpr uint16_t kLenBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                   31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr uint8_t kLenExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                   2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr uint16_t kDistBase[30] = {1,    2,    3,    4,    5,    7,    9,    13,    17,    25,
                                    33,   49,   65,   97,   129,  193,  257,  385,   513,   769,
                                    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr uint8_t kDistExtra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

void match(BitWriter& w, uint32_t len, uint32_t dist) {
  int l = 28;
  while (kLenBase[l] > len) --l;
  lit_len(w, 257 + uint32_t(l));
  w.bits(len - kLenBase[l], kLenExtra[l]);
  int d = 29;
  while (kDistBase[d] > dist) --d;
  w.code(uint32_t(d), 5);
  w.bits(dist - kDistBase[d], kDistExtra[d]);
}

std::string zlib_fixed(const std::vector<uint8_t>& data, size_t stride) {
  BitWriter w;
  w.out = std::string("\x78\x01", 2);
  w.bits(1, 1);  // BFINAL
  w.bits(1, 2);  // BTYPE 01: fixed Huffman codes
  const size_t n = data.size();
  for (size_t i = 0; i < n;) {
    uint32_t best = 0, dist = 0;
    for (size_t d : {size_t(3), stride}) {
      if (d > i || d > 32768) continue;
      uint32_t l = 0;
      while (l < 258 && i + l < n && data[i + l] == data[i + l - d]) ++l;
      if (l > best) best = l, dist = uint32_t(d);
    }
    if (best >= 3) {
      match(w, best, dist);
      i += best;
    } else {
      lit_len(w, data[i++]);
    }
  }
  lit_len(w, 256);
  w.flush();
  const uint32_t a = adler32(data.data(), n);
  for (int s = 24; s >= 0; s -= 8) w.out.push_back(char(a >> s));
  return w.out;
}

void chunk(std::string* png, const char* type, const std::string& body) {
  const uint32_t len = uint32_t(body.size());
  for (int s = 24; s >= 0; s -= 8) png->push_back(char(len >> s));
  std::string td = std::string(type, 4) + body;
  *png += td;
  const uint32_t c = crc32(reinterpret_cast<const uint8_t*>(td.data()), td.size());
  for (int s = 24; s >= 0; s -= 8) png->push_back(char(c >> s));
}

}  // namespace

std::string encode_png(int width, int height, const std::vector<uint8_t>& rgb) {
  const size_t stride = 1 + size_t(width) * 3;
  std::vector<uint8_t> raw;
  raw.reserve(stride * size_t(height));
  for (int y = 0; y < height; ++y) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), rgb.begin() + long(size_t(y) * size_t(width) * 3),
               rgb.begin() + long(size_t(y + 1) * size_t(width) * 3));
  }
  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  for (uint32_t v : {uint32_t(width), uint32_t(height)})
    for (int s = 24; s >= 0; s -= 8) ihdr.push_back(char(v >> s));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, no interlace
  chunk(&png, "IHDR", ihdr);
  chunk(&png, "IDAT", zlib_fixed(raw, stride));
  chunk(&png, "IEND", "");
  return png;
}

const uint8_t* glyph(char c) {
  struct G {
    char c;
    uint8_t rows[7];
  };
  static const G kFont[] = {
      {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}}, {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
      {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}}, {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
      {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}}, {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
      {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}}, {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
      {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}}, {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
      {'a', {0x00, 0x00, 0x0E, 0x01, 0x0F, 0x11, 0x0F}}, {'b', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x1E}},
      {'c', {0x00, 0x00, 0x0E, 0x10, 0x10, 0x11, 0x0E}}, {'d', {0x01, 0x01, 0x0D, 0x13, 0x11, 0x11, 0x0F}},
      {'e', {0x00, 0x00, 0x0E, 0x11, 0x1F, 0x10, 0x0E}}, {'f', {0x06, 0x09, 0x08, 0x1C, 0x08, 0x08, 0x08}},
      {'g', {0x00, 0x0F, 0x11, 0x11, 0x0F, 0x01, 0x0E}}, {'h', {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11}},
      {'i', {0x04, 0x00, 0x0C, 0x04, 0x04, 0x04, 0x0E}}, {'j', {0x02, 0x00, 0x06, 0x02, 0x02, 0x12, 0x0C}},
      {'k', {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12}}, {'l', {0x0C, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E}},
      {'m', {0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11}}, {'n', {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11}},
      {'o', {0x00, 0x00, 0x0E, 0x11, 0x11, 0x11, 0x0E}}, {'p', {0x00, 0x00, 0x1E, 0x11, 0x1E, 0x10, 0x10}},
      {'q', {0x00, 0x00, 0x0D, 0x13, 0x0F, 0x01, 0x01}}, {'r', {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10}},
      {'s', {0x00, 0x00, 0x0E, 0x10, 0x0E, 0x01, 0x1E}}, {'t', {0x08, 0x08, 0x1C, 0x08, 0x08, 0x09, 0x06}},
      {'u', {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0D}}, {'v', {0x00, 0x00, 0x11, 0x11, 0x11, 0x0A, 0x04}},
      {'w', {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0A}}, {'x', {0x00, 0x00, 0x11, 0x0A, 0x04, 0x0A, 0x11}},
      {'y', {0x00, 0x00, 0x11, 0x11, 0x0F, 0x01, 0x0E}}, {'z', {0x00, 0x00, 0x1F, 0x02, 0x04, 0x08, 0x1F}},
      {'S', {0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E}}, {'M', {0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11}},
      {'C', {0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E}}, {'T', {0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
      {'A', {0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11}}, {'P', {0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10}},
      {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E}}, {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C}},
      {',', {0x00, 0x00, 0x00, 0x00, 0x0C, 0x04, 0x08}}, {':', {0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00}},
      {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1F}}, {'-', {0x00, 0x00, 0x00, 0x1F, 0x00, 0x00, 0x00}},
      {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}}, {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}},
      {'/', {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}},
  };
  static const uint8_t kBlank[7] = {};
  for (const G& g : kFont)
    if (g.c == c) return g.rows;
  const char lower = char(std::tolower(uint8_t(c)));
  if (lower != c) return glyph(lower);
  return kBlank;
}

}  // namespace baresm::timeline
