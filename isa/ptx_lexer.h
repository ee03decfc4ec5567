// PTX lexer: the whole file to tokens with their line and column. Handles
// // and /* */ comments (which may span lines), identifiers with PTX's
// characters (%r1, $L__BB0_2, %tid.x, add.s32 as one word), directives
// (.reg), numbers (decimal, 0x hex, 0f/0d float bits, decimal floats),
// strings ("file.cu") and punctuation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/ptx_ast.h"

namespace baresm::isa::ptx {

enum class Tok { END, WORD, DIRECTIVE, NUMBER, STRING, PUNCT, BAD };

struct Token {
  Tok kind = Tok::END;
  std::string text;
  Pos pos;
  bool is(char c) const { return kind == Tok::PUNCT && text.size() == 1 && text[0] == c; }
};

// The last token is END. An unterminated block comment or string, or a byte
// PTX does not use, becomes a BAD token (the parser reports it).
std::vector<Token> lex(std::string_view src);

}  // namespace baresm::isa::ptx
