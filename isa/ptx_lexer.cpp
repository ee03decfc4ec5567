#include "isa/ptx_lexer.h"

#include <cctype>
#include <cstring>

namespace baresm::isa::ptx {

namespace {
bool word_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
}  // namespace

std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  int line = 1, col = 1;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < s.size(); ++k, ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else if (s[i] == '\r' && (i + 1 == s.size() || s[i + 1] == '\n')) {
        // The CR of a line ending (CRLF, or a last line without LF) is not a
        // column: the diagnostics show the line without it, and a position
        // after it (the end of the file) would lie past the line's end.
      } else {
        ++col;
      }
    }
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
      advance(1);
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') advance(1);
      continue;
    }
    Token t;
    t.pos = Pos{line, col};
    const size_t start = i;
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const size_t end = s.find("*/", i + 2);
      if (end == std::string_view::npos) {
        t.kind = Tok::BAD;
        t.text = "/*";
        out.push_back(t);
        break;
      }
      advance(end + 2 - i);
      continue;
    }
    if (word_start(c)) {
      t.kind = Tok::WORD;
      advance(1);
      while (i < s.size() && word_char(s[i])) advance(1);
    } else if (c == '.' && i + 1 < s.size() && std::isalpha(static_cast<unsigned char>(s[i + 1]))) {
      t.kind = Tok::DIRECTIVE;
      advance(1);
      while (i < s.size() && word_char(s[i])) advance(1);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Tok::NUMBER;
      const bool hexlike = c == '0' && i + 1 < s.size() && std::strchr("xXfFdD", s[i + 1]) != nullptr;
      advance(1);
      while (i < s.size()) {
        const char d = s[i];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '.') {
          advance(1);
          if (!hexlike && (d == 'e' || d == 'E') && i < s.size() && (s[i] == '+' || s[i] == '-')) advance(1);
        } else {
          break;
        }
      }
    } else if (c == '"') {
      t.kind = Tok::STRING;
      advance(1);
      while (i < s.size() && s[i] != '"' && s[i] != '\n') advance(1);
      if (i >= s.size() || s[i] != '"') {
        t.kind = Tok::BAD;
        t.text = "\"";
        out.push_back(t);
        continue;
      }
      advance(1);
    } else if (std::strchr(",;[]{}()+-@!<>|:=", c) != nullptr) {
      t.kind = Tok::PUNCT;
      advance(1);
    } else {
      t.kind = Tok::BAD;
      advance(1);
    }
    t.text = std::string(s.substr(start, i - start));
    out.push_back(std::move(t));
  }
  Token end;
  end.kind = Tok::END;
  end.pos = Pos{line, col};
  out.push_back(end);
  return out;
}

}  // namespace baresm::isa::ptx
