// A minimal PNG writer for the timeline's picture (no image library is
// needed): 8-bit RGB, one zlib stream compressed with deflate's fixed
// Huffman codes and only two kinds of match -- the pixel to the left and the
// pixel above -- which is what a picture of flat coloured bars needs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace baresm::timeline {

// rgb: width*height pixels, 3 bytes each, row by row from the top.
std::string encode_png(int width, int height, const std::vector<uint8_t>& rgb);

uint32_t crc32(const uint8_t* p, size_t n, uint32_t crc = 0);
uint32_t adler32(const uint8_t* p, size_t n);

// 5x7 glyphs (6 pixels apart) for the picture's text; a character without
// a glyph draws as its lower-case one, else as a blank.
const uint8_t* glyph(char c);  // 7 rows, bit 4 the leftmost pixel

}  // namespace baresm::timeline
