// Assembler: docs/isa.md "Assembly syntax" -> Module.
//
// One pass over the lines builds the code with branch targets left open, then
// a second pass per kernel resolves labels, checks that no kernel can run off
// its end, and fills in reconvergence points from the kernel's CFG (cfg.h).
// Every error is reported; after one, the rest of that line is skipped.
#include "isa/assembler.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>

#include "isa/cfg.h"
#include "isa/file_io.h"
#include "isa/isa.h"

namespace baresm::isa {

std::string Diagnostic::format() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  s += ": error: " + message;
  if (line > 0) {
    s += "\n" + source_line + "\n";
    // Keep tabs so the caret lines up under tab-indented source.
    for (int i = 0; i + 1 < column; ++i)
      s += (size_t(i) < source_line.size() && source_line[size_t(i)] == '\t') ? '\t' : ' ';
    s += '^';
  }
  return s;
}

std::string AsmResult::format_errors() const {
  std::string s;
  for (const auto& d : diagnostics) s += d.format() + "\n";
  return s;
}

// Text for quoting in a message: non-printable bytes as \xNN.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", u);
      out += buf;
    }
  }
  return out;
}
std::string quote(std::string_view s) {
  return "'" + printable(s) + "'";
}

namespace {

enum class Tk { END, IDENT, DIRECTIVE, NUMBER, PUNCT };

struct Token {
  Tk kind = Tk::END;
  std::string text;
  int col = 0;  // 1-based
  bool is(char c) const { return kind == Tk::PUNCT && text.size() == 1 && text[0] == c; }
};

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Splits one source line into tokens; comments (// and #) end the line.
std::vector<Token> tokenize(std::string_view line) {
  std::vector<Token> toks;
  size_t i = 0, n = line.size();
  while (i < n) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '#' || (c == '/' && i + 1 < n && line[i + 1] == '/')) break;
    Token t;
    t.col = int(i) + 1;
    size_t start = i;
    if (is_ident_start(c)) {
      t.kind = Tk::IDENT;
      while (i < n && is_ident_char(line[i])) ++i;
    } else if (c == '.' && i + 1 < n && is_ident_start(line[i + 1])) {
      t.kind = Tk::DIRECTIVE;
      ++i;
      while (i < n && is_ident_char(line[i])) ++i;
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(line[i + 1]))) {
      t.kind = Tk::NUMBER;
      const bool hex = c == '0' && i + 1 < n && (line[i + 1] == 'x' || line[i + 1] == 'X');
      while (i < n && is_ident_char(line[i])) {
        char d = line[i++];
        // The exponent sign of a decimal float: 2e-3, 1.5E+7.
        if (!hex && (d == 'e' || d == 'E') && i < n && (line[i] == '+' || line[i] == '-')) ++i;
      }
    } else {
      t.kind = Tk::PUNCT;
      ++i;
    }
    t.text = std::string(line.substr(start, i - start));
    toks.push_back(std::move(t));
  }
  Token end;
  end.kind = Tk::END;
  end.col = int(n) + 1;
  // Point end-of-line errors just past the last token rather than past trailing comments.
  if (!toks.empty()) end.col = toks.back().col + int(toks.back().text.size());
  toks.push_back(end);
  return toks;
}

std::string describe(const Token& t) {
  return t.kind == Tk::END ? "end of line" : quote(t.text);
}

bool valid_name(const std::string& s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Parses a decimal or 0x-hex integer; false when the text is not one.
bool parse_uint_text(const std::string& t, uint64_t* v, bool* overflow) {
  *v = 0;
  *overflow = false;
  size_t i = 0;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    i = 2;
  }
  if (i >= t.size()) return false;
  for (; i < t.size(); ++i) {
    char c = t[i];
    int d;
    if (is_digit(c))
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    if (*v > (UINT64_MAX - uint64_t(d)) / uint64_t(base)) *overflow = true;
    *v = *v * uint64_t(base) + uint64_t(d);
  }
  return true;
}

bool looks_float(const std::string& t) {
  if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) return false;
  return t.find_first_of(".eEfF") != std::string::npos;
}

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

struct Imm {
  bool is_float = false;
  int64_t value = 0;  // integers, sign applied (saturated on overflow)
  uint32_t bits = 0;  // floats: binary32 bits
  std::string text;   // as written, sign included
  int col = 0;
};

struct KernelState {
  std::string name;
  int line = 0, col = 0;  // of the .kernel directive
  size_t first = 0;       // global index of its first code word
  size_t count = 0;       // code words so far
  int regs = -1;
  bool have_shared = false;
  uint32_t shared = 0;
  bool have_local = false;
  uint32_t local = 0;  // .local: bytes of local memory per thread
  std::vector<ParamInfo> params;
  uint64_t param_end = 0;
  struct Label {
    size_t index;
    int line, col;
  };
  std::map<std::string, Label> labels;
  int errors = 0;
  size_t statements = 0;  // code statements seen (instructions and .word), erroneous ones included
  bool ended = false;
  bool missing_regs_reported = false;
};

struct Fixup {
  size_t index;  // global code index of the BRA
  size_t kernel;
  std::string label;
  int line, col;
};

struct WordMeta {
  bool raw = false;  // from .word: taken verbatim, never patched
  int line = 0, col = 0;
};

// Thrown inside the line parser only, caught at the line boundary: it is
// the "skip to the next line" of error recovery, never leaves this file.
struct LineError {};

class Assembler {
 public:
  Assembler(std::string_view src, std::string_view file) : file_(file) {
    size_t start = 0;
    while (start <= src.size()) {
      size_t nl = src.find('\n', start);
      if (nl == std::string_view::npos) nl = src.size();
      std::string_view l = src.substr(start, nl - start);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.push_back(l);
      if (nl == src.size()) break;
      start = nl + 1;
    }
  }

  AsmResult run() {
    for (size_t i = 0; i < lines_.size(); ++i) {
      line_no_ = int(i) + 1;
      toks_ = tokenize(lines_[i]);
      pos_ = 0;
      try {
        parse_line();
      } catch (const LineError&) {
      }
    }
    if (cur_ >= 0) {
      const int k = cur_;
      end_kernel();
      error_at(kernels_[size_t(k)].line, kernels_[size_t(k)].col,
               "kernel " + quote(kernels_[size_t(k)].name) + " has no .end", k);
    }
    for (size_t k = 0; k < kernels_.size(); ++k) finish_kernel(k);
    // Whole-file errors (line 0): they sort before every line's.
    for (char c : file_)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        error_at(0, 0,
                 "the file name " + quote(file_) +
                     " contains a control character, which a module cannot record (give --name)");
        break;
      }
    // Not an error of any line, so only said when no line has one.
    if (kernels_.empty() && diags_.empty()) error_at(0, 0, "no kernels: the source has no .kernel directive");
    AsmResult r = build();
    if (r.ok() && module_image_bytes(r.module) > kMaxModuleBytes)
      r.diagnostics.push_back(
          file_error("the module would be " + std::to_string(module_image_bytes(r.module)) +
                     " bytes, more than the " + std::to_string(kMaxModuleBytes) + "-byte module limit"));
    return r;
  }

 private:
  // ---- diagnostics ------------------------------------------------------------
  void error_at(int line, int col, const std::string& msg, int kernel = -2) {
    Diagnostic d;
    d.file = std::string(file_);
    d.line = line;
    d.column = col;
    d.message = msg;
    if (line >= 1 && size_t(line) <= lines_.size()) d.source_line = std::string(lines_[size_t(line) - 1]);
    diags_.push_back(std::move(d));
    int k = kernel == -2 ? cur_ : kernel;
    if (k >= 0) kernels_[size_t(k)].errors++;
  }
  Diagnostic file_error(const std::string& msg) const {
    Diagnostic d;
    d.file = std::string(file_);
    d.message = msg;
    return d;
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) {
    error_at(line_no_, t.col, msg);
    throw LineError{};
  }

  // ---- token cursor -------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  const Token& next() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool at_stmt_end() const { return peek().kind == Tk::END || peek().is(';'); }

  // ',' between operands: n is the operand it follows (1-based).
  void expect_comma(int n) {
    if (!peek().is(','))
      fail(peek(), "expected ',' after operand " + std::to_string(n) + ", found " + describe(peek()));
    next();
  }
  bool optional_comma() {
    if (!peek().is(',')) return false;
    next();
    return true;
  }
  void expect_stmt_end(const std::string& what) {
    if (!at_stmt_end()) fail(peek(), "unexpected " + describe(peek()) + " after " + what);
    if (peek().is(';')) next();
  }

  // ---- lines ----------------------------------------------------------------
  void parse_line() {
    while (peek().kind != Tk::END) {
      const Token& t = peek();
      if (t.is(';')) {
        next();
        continue;
      }
      if (t.kind == Tk::IDENT && peek(1).is(':')) {
        define_label(t);
        next();
        next();
        continue;
      }
      if (t.kind == Tk::DIRECTIVE) {
        directive();
        continue;
      }
      instruction();
    }
  }

  void define_label(const Token& t) {
    if (!valid_name(t.text)) fail(t, "invalid label name " + quote(t.text));
    if (cur_ < 0) fail(t, "label " + quote(t.text) + " outside a .kernel");
    KernelState& k = kernels_[size_t(cur_)];
    auto it = k.labels.find(t.text);
    if (it != k.labels.end())
      fail(t, "duplicate label " + quote(t.text) + " (first defined at line " +
                  std::to_string(it->second.line) + ")");
    k.labels.emplace(t.text, KernelState::Label{code_.size(), line_no_, t.col});  // global index
  }

  // ---- numbers ------------------------------------------------------------------
  // An immediate: [-] (integer | float | inf).
  Imm parse_imm(const std::string& what, bool allow_float) {
    Imm im;
    im.col = peek().col;
    bool neg = false;
    if (peek().is('-')) {
      neg = true;
      next();
    }
    const Token& t = peek();
    im.text = (neg ? "-" : "") + t.text;
    if (t.kind == Tk::IDENT && t.text == "inf") {
      if (!allow_float) fail(t, "float literal " + quote(im.text) + " is not allowed as " + what);
      next();
      im.is_float = true;
      im.bits = neg ? 0xFF800000u : 0x7F800000u;
      return im;
    }
    if (t.kind != Tk::NUMBER) fail(t, "expected " + what + ", found " + describe(t));
    next();
    uint64_t v;
    bool overflow;
    if (parse_uint_text(t.text, &v, &overflow)) {
      if (overflow || v > uint64_t(INT64_MAX))
        im.value = neg ? INT64_MIN : INT64_MAX;
      else
        im.value = neg ? -int64_t(v) : int64_t(v);
      return im;
    }
    if (!looks_float(t.text)) fail(t, "malformed number " + quote(t.text));
    if (!allow_float) fail(t, "float literal " + quote(im.text) + " is not allowed as " + what);
    std::string body = t.text;
    if (body.back() == 'f' || body.back() == 'F') body.pop_back();
    // strtof would take hex floats, "inf", "nan": only plain decimal forms here.
    bool ok = !body.empty() && body.find_first_not_of("0123456789.eE+-") == std::string::npos;
    char* end = nullptr;
    errno = 0;
    float f = ok ? std::strtof(body.c_str(), &end) : 0.0f;
    if (!ok || end != body.c_str() + body.size()) fail(t, "malformed number " + quote(t.text));
    if (std::isinf(f)) fail(t, "float literal " + quote(im.text) + " is out of range of binary32");
    im.is_float = true;
    im.bits = float_bits(neg ? -f : f);
    return im;
  }

  // An integer in [lo, hi], for directive arguments and small fields.
  int64_t parse_int(const std::string& what, int64_t lo, int64_t hi) {
    Imm im = parse_imm("a " + what, false);
    if (im.value < lo || im.value > hi)
      fail_at(im.col, what + " " + printable(im.text) + " is out of range (" + std::to_string(lo) + ".." +
                          std::to_string(hi) + ")");
    return im.value;
  }

  // 32-bit operand value: any int32 or uint32, or a float's bits.
  uint32_t imm32_of(const Imm& im, const std::string& what) {
    if (im.is_float) return im.bits;
    if (im.value < INT32_MIN || im.value > int64_t(UINT32_MAX))
      fail_at(im.col, "immediate " + printable(im.text) + " does not fit the 32-bit " + what);
    return uint32_t(im.value);
  }

  // ---- registers and predicates ----------------------------------------------------
  static bool reg_like(const Token& t) {
    if (t.kind != Tk::IDENT || t.text.size() < 2 || t.text[0] != 'R') return false;
    if (t.text == "RZ") return true;
    return std::all_of(t.text.begin() + 1, t.text.end(), is_digit);
  }

  uint8_t parse_reg(int n) {
    const Token& t = peek();
    if (!reg_like(t))
      fail(t, "expected a register as operand " + std::to_string(n) + ", found " + describe(t));
    next();
    if (t.text == "RZ") return kRegZero;
    if (t.text.size() > 3 || std::stoi(t.text.substr(1)) >= kMaxRegsPerThread)
      fail(t, "no register " + quote(t.text) + " (R0..R62 and RZ)");
    int r = std::stoi(t.text.substr(1));
    const KernelState& k = kernels_[size_t(cur_)];
    if (k.regs >= 0 && r >= k.regs)
      fail(t, "register " + t.text + " is beyond .regs " + std::to_string(k.regs) + " of kernel " +
                  quote(k.name));
    return uint8_t(r);
  }

  // [!]Pn; '!' only where allow_neg.
  uint8_t parse_pred(int n, bool allow_neg, bool* neg) {
    if (neg) *neg = false;
    if (peek().is('!')) {
      if (!allow_neg) fail(peek(), "operand " + std::to_string(n) + " cannot be negated");
      next();
      *neg = true;
    }
    const Token& t = peek();
    if (t.kind == Tk::IDENT && t.text == "PT") {
      next();
      return kPredTrue;
    }
    if (t.kind == Tk::IDENT && t.text.size() == 2 && t.text[0] == 'P' && t.text[1] >= '0' &&
        t.text[1] <= '6') {
      next();
      return uint8_t(t.text[1] - '0');
    }
    if (t.kind == Tk::IDENT && t.text.size() >= 2 && t.text[0] == 'P' && is_digit(t.text[1]))
      fail(t, "no predicate " + quote(t.text) + " (P0..P6 and PT)");
    fail(t, "expected a predicate as operand " + std::to_string(n) + ", found " + describe(t));
  }

  // Operand b: a register, or an immediate when the opcode allows one.
  void parse_b(Instr* in, const OpInfo& info, int n) {
    if (reg_like(peek())) {
      in->bimm = false;
      in->rb = parse_reg(n);
      return;
    }
    const Token& t = peek();
    const bool numeric = t.kind == Tk::NUMBER || t.is('-') || (t.kind == Tk::IDENT && t.text == "inf");
    if (!numeric)
      fail(t,
           "expected a register or an immediate as operand " + std::to_string(n) + ", found " + describe(t));
    if (!(info.flags & F_BIMM_OK))
      fail(t, std::string(info.mnemonic) + " does not take an immediate as operand " + std::to_string(n));
    Imm im = parse_imm("an immediate", true);
    in->bimm = true;
    in->imm = imm32_of(im, "immediate operand");
  }

  // [Rn], [Rn + imm], [Rn - imm], [imm], and PARAM(name) for LDC.
  void parse_mem(Instr* in, const OpInfo& info, int n, bool imm20) {
    const Token& open = peek();
    if (!open.is('['))
      fail(open,
           "expected a memory operand '[...]' as operand " + std::to_string(n) + ", found " + describe(open));
    next();
    in->ra = kRegZero;
    int64_t off = 0;
    int off_col = peek().col;
    std::string off_text;
    bool have_reg = false;
    if (reg_like(peek())) {
      in->ra = parse_reg(n);
      have_reg = true;
    }
    bool have_off = !have_reg;
    bool neg = false;
    if (have_reg && (peek().is('+') || peek().is('-'))) {
      neg = peek().is('-');
      next();
      have_off = true;
    }
    if (have_off) {
      off_col = peek().col;
      if (peek().kind == Tk::IDENT && peek().text == "PARAM") {
        if (info.op != Op::LDC) fail(peek(), "PARAM() is only allowed in LDC");
        if (neg) fail(peek(), "PARAM() cannot be subtracted");
        next();
        if (!peek().is('(')) fail(peek(), "expected '(' after PARAM, found " + describe(peek()));
        next();
        const Token& name = peek();
        if (name.kind != Tk::IDENT) fail(name, "expected a parameter name, found " + describe(name));
        next();
        if (!peek().is(')'))
          fail(peek(), "expected ')' after PARAM(" + printable(name.text) + ", found " + describe(peek()));
        next();
        const KernelState& k = kernels_[size_t(cur_)];
        const ParamInfo* p = nullptr;
        for (const auto& q : k.params)
          if (q.name == name.text) p = &q;
        if (!p) fail(name, "unknown parameter " + quote(name.text) + " of kernel " + quote(k.name));
        off = p->offset;
        off_text = "PARAM(" + name.text + ")";
      } else {
        Imm im = parse_imm("an address offset", false);
        // -INT64_MIN does not exist: saturate (it is out of range either way).
        off = !neg ? im.value : im.value == INT64_MIN ? INT64_MAX : -im.value;
        off_text = (neg ? "-" : "") + im.text;
      }
    }
    if (!peek().is(']')) fail(peek(), "expected ']' to close the memory operand, found " + describe(peek()));
    next();
    if (imm20) {
      if (!fits_imm20(off))
        fail_at(off_col, "offset " + printable(off_text) +
                             " does not fit the signed 20-bit atomic offset (-524288..524287)");
    } else if (off < INT32_MIN || off > int64_t(UINT32_MAX)) {
      fail_at(off_col, "offset " + printable(off_text) + " does not fit 32 bits");
    }
    in->imm = uint32_t(off);
  }
  [[noreturn]] void fail_at(int col, const std::string& msg) {
    error_at(line_no_, col, msg);
    throw LineError{};
  }

  // ---- directives ---------------------------------------------------------------
  KernelState& need_kernel(const Token& d) {
    if (cur_ < 0) fail(d, printable(d.text) + " outside a .kernel");
    return kernels_[size_t(cur_)];
  }
  void need_before_code(const Token& d, const KernelState& k) {
    if (k.statements > 0)
      fail(d, printable(d.text) + " must come before the first instruction of kernel " + quote(k.name));
  }

  void directive() {
    const Token d = next();
    const auto& known = directive_names();
    if (std::find(known.begin(), known.end(), d.text) == known.end())
      fail(d, "unknown directive " + quote(d.text));
    if (d.text == ".kernel") {
      const Token name = peek();
      if (name.kind != Tk::IDENT || !valid_name(name.text))
        fail(name, "expected a kernel name after .kernel, found " + describe(name));
      next();
      expect_stmt_end(".kernel " + name.text);
      if (cur_ >= 0) {
        error_at(line_no_, d.col,
                 "missing .end of kernel " + quote(kernels_[size_t(cur_)].name) + " before .kernel");
        end_kernel();
      }
      if (!kernel_names_.insert(name.text).second)
        error_at(line_no_, name.col, "duplicate kernel " + quote(name.text), -1);
      KernelState k;
      k.name = name.text;
      k.line = line_no_;
      k.col = d.col;
      k.first = code_.size();
      kernels_.push_back(std::move(k));
      cur_ = int(kernels_.size()) - 1;
      return;
    }
    if (d.text == ".end") {
      need_kernel(d);
      expect_stmt_end(".end");
      end_kernel();
      return;
    }
    if (d.text == ".regs") {
      KernelState& k = need_kernel(d);
      need_before_code(d, k);
      if (k.regs >= 0) fail(d, "duplicate .regs in kernel " + quote(k.name));
      int64_t n = parse_int("register count", 1, kMaxRegsPerThread);
      expect_stmt_end(".regs");
      k.regs = int(n);
      return;
    }
    if (d.text == ".shared") {
      KernelState& k = need_kernel(d);
      need_before_code(d, k);
      if (k.have_shared) fail(d, "duplicate .shared in kernel " + quote(k.name));
      int64_t n = parse_int("shared memory size", 0, int64_t(kMaxSharedBytes));
      expect_stmt_end(".shared");
      k.have_shared = true;
      k.shared = uint32_t(n);
      return;
    }
    if (d.text == ".local") {
      KernelState& k = need_kernel(d);
      need_before_code(d, k);
      if (k.have_local) fail(d, "duplicate .local in kernel " + quote(k.name));
      const Token at = peek();
      int64_t n = parse_int("local memory size per thread", 0, int64_t(kMaxLocalBytes));
      if (n % 4) fail(at, ".local " + std::to_string(n) + ": local memory is a whole number of 4-byte words");
      expect_stmt_end(".local");
      k.have_local = true;
      k.local = uint32_t(n);
      return;
    }
    if (d.text == ".param") {
      KernelState& k = need_kernel(d);
      need_before_code(d, k);
      const Token name = peek();
      if (name.kind != Tk::IDENT || !valid_name(name.text))
        fail(name, "expected a parameter name after .param, found " + describe(name));
      next();
      for (const auto& p : k.params)
        if (p.name == name.text)
          fail(name, "duplicate parameter " + quote(name.text) + " in kernel " + quote(k.name));
      expect_comma(1);
      const int size_col = peek().col;
      int64_t size = parse_int("parameter size", 1, int64_t(kMaxParamBytes));
      // Default alignment: min(size, 8) rounded up to a power of two.
      uint32_t align = 1;
      while (align < std::min<int64_t>(size, 8)) align <<= 1;
      if (optional_comma()) {
        const int col = peek().col;
        int64_t a = parse_int("parameter alignment", 1, int64_t(kMaxParamAlign));
        if (a & (a - 1)) fail_at(col, "parameter alignment " + std::to_string(a) + " is not a power of two");
        align = uint32_t(a);
      }
      expect_stmt_end(".param");
      ParamInfo p;
      p.name = name.text;
      p.size = uint32_t(size);
      p.align = align;
      uint64_t off = (k.param_end + align - 1) / align * align;
      if (off + uint64_t(size) > kMaxParamBytes)
        fail_at(size_col, "parameters of kernel " + quote(k.name) + " exceed " +
                              std::to_string(kMaxParamBytes) + " bytes");
      p.offset = uint32_t(off);
      k.param_end = off + uint64_t(size);
      k.params.push_back(std::move(p));
      return;
    }
    if (d.text == ".word") {
      need_kernel(d);
      code_statement(d);
      const Token t = peek();
      uint64_t v;
      bool overflow;
      if (t.kind != Tk::NUMBER || !parse_uint_text(t.text, &v, &overflow))
        fail(t, "expected a 64-bit integer after .word, found " + describe(t));
      if (overflow) fail(t, "value " + quote(t.text) + " does not fit 64 bits");
      next();
      expect_stmt_end(".word");
      emit(v, true, d.col);
      return;
    }
    if (d.text == ".loc") {
      need_kernel(d);
      int64_t l = parse_int("line number", 0, UINT32_MAX);
      int64_t c = 0;
      if (optional_comma()) c = parse_int("column number", 0, UINT32_MAX);
      expect_stmt_end(".loc");
      loc_ = LineEntry{0, uint32_t(l), uint32_t(c)};
      have_loc_ = true;
      return;
    }
    fail(d, "internal: directive " + quote(d.text) + " is listed but not handled");
  }

  // ---- instructions -------------------------------------------------------------
  // A statement that puts a word into the kernel's code: an instruction or a
  // .word. Both are the kernel's code (a kernel of .word alone has code, and
  // .regs after a .word comes after code), so both are counted here.
  KernelState& code_statement(const Token& first) {
    KernelState& k = kernels_[size_t(cur_)];
    k.statements++;
    if (k.regs < 0 && !k.missing_regs_reported) {
      k.missing_regs_reported = true;
      error_at(line_no_, first.col, "kernel " + quote(k.name) + " has no .regs before its first instruction");
    }
    return k;
  }

  void instruction() {
    const Token first = peek();
    if (cur_ < 0) fail(first, "instruction outside a .kernel");
    code_statement(first);
    Instr in;
    if (peek().is('@')) {
      next();
      bool neg = false;
      if (peek().is('!')) {
        next();
        neg = true;
      }
      const Token& p = peek();
      if (!(p.kind == Tk::IDENT && p.text.size() >= 2 && p.text[0] == 'P'))
        fail(p, "expected a guard predicate (P0..P6, PT) after '@', found " + describe(p));
      in.pg = parse_pred(0, false, nullptr);
      in.pg_neg = neg;
    }
    const Token mn = peek();
    if (mn.kind != Tk::IDENT) fail(mn, "expected a mnemonic, found " + describe(mn));
    next();
    std::string upper = mn.text;
    for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    std::vector<std::string> parts;
    {
      size_t s = 0;
      while (true) {
        size_t dot = upper.find('.', s);
        parts.push_back(upper.substr(s, dot == std::string::npos ? std::string::npos : dot - s));
        if (dot == std::string::npos) break;
        s = dot + 1;
      }
    }
    const OpInfo* info = op_by_mnemonic(parts[0]);
    if (!info) fail(mn, "unknown mnemonic " + quote(mn.text.substr(0, mn.text.find('.'))));
    for (size_t i = 1; i < parts.size(); ++i)
      if (parts[i].empty()) fail(mn, "empty modifier in " + quote(mn.text));
    in.op = info->op;
    std::string err = parse_suffixes(std::vector<std::string>(parts.begin() + 1, parts.end()), &in);
    if (!err.empty()) fail(mn, err);

    std::string label;
    int label_col = 0;
    operands(&in, *info, &label, &label_col);
    expect_stmt_end("the operands of " + mn.text);

    const size_t index = emit(encode(in), false, first.col);
    if (info->op == Op::BRA) fixups_.push_back(Fixup{index, size_t(cur_), label, line_no_, label_col});
  }

  void operands(Instr* in, const OpInfo& info, std::string* label, int* label_col) {
    switch (info.format) {
      case FMT_NONE:
        break;
      case FMT_RB:
        in->rd = parse_reg(1);
        expect_comma(1);
        parse_b(in, info, 2);
        break;
      case FMT_RA:
        in->rd = parse_reg(1);
        expect_comma(1);
        in->ra = parse_reg(2);
        break;
      case FMT_RAB:
        in->rd = parse_reg(1);
        expect_comma(1);
        in->ra = parse_reg(2);
        expect_comma(2);
        parse_b(in, info, 3);
        break;
      case FMT_RABC:
        in->rd = parse_reg(1);
        expect_comma(1);
        in->ra = parse_reg(2);
        expect_comma(2);
        in->rb = parse_reg(3);
        expect_comma(3);
        in->rc = parse_reg(4);
        break;
      case FMT_SETP: {
        uint8_t pd = parse_pred(1, false, nullptr);
        expect_comma(1);
        in->ra = parse_reg(2);
        expect_comma(2);
        parse_b(in, info, 3);
        uint8_t pc = kPredTrue;
        bool neg = false;
        if (optional_comma()) pc = parse_pred(4, true, &neg);
        in->rd = uint8_t(pd | (pc << 3));
        if (neg) in->mod |= 0x40;
        break;
      }
      case FMT_SEL: {
        in->rd = parse_reg(1);
        expect_comma(1);
        in->ra = parse_reg(2);
        expect_comma(2);
        parse_b(in, info, 3);
        expect_comma(3);
        bool neg = false;
        uint8_t pc = parse_pred(4, true, &neg);
        in->mod = uint8_t(pc | (neg ? 8 : 0));
        break;
      }
      case FMT_S2R: {
        in->rd = parse_reg(1);
        expect_comma(1);
        const Token& t = peek();
        if (t.kind != Tk::IDENT)
          fail(t, "expected a special register (SR_TID.X, ...) as operand 2, found " + describe(t));
        auto id = sreg_by_name(t.text);
        if (!id) fail(t, "unknown special register " + quote(t.text));
        next();
        in->mod = *id;
        break;
      }
      case FMT_LD:
        in->bimm = true;
        in->rd = parse_reg(1);
        expect_comma(1);
        parse_mem(in, info, 2, false);
        break;
      case FMT_ST:
        in->bimm = true;
        parse_mem(in, info, 1, false);
        expect_comma(1);
        in->rd = parse_reg(2);
        break;
      case FMT_ATOM: {
        in->rd = parse_reg(1);
        expect_comma(1);
        parse_mem(in, info, 2, true);
        expect_comma(2);
        in->rb = parse_reg(3);
        const bool cas = (in->mod & 0xF) == ATOM_CAS;
        if (cas) {
          if (!peek().is(','))
            fail(peek(),
                 mnemonic_text(*in) + " needs a 4th operand (the value to store), found " + describe(peek()));
          next();
          in->rc = parse_reg(4);
        } else if (peek().is(',')) {
          fail(peek(), "only " + std::string(info.mnemonic) + ".CAS takes a 4th operand");
        }
        break;
      }
      case FMT_VOTE: {
        if (in->mod == VOTE_BALLOT)
          in->rd = parse_reg(1);
        else
          in->rd = parse_pred(1, false, nullptr);
        expect_comma(1);
        bool neg = false;
        uint8_t pa = parse_pred(2, true, &neg);
        in->ra = uint8_t(pa | (neg ? 8 : 0));
        break;
      }
      case FMT_SHFL: {
        in->rd = parse_reg(1);
        expect_comma(1);
        in->ra = parse_reg(2);
        expect_comma(2);
        parse_b(in, info, 3);
        if (optional_comma()) {
          const int col = peek().col;
          int64_t w = parse_int("SHFL width", 1, 32);
          if (w & (w - 1))
            fail_at(col, "SHFL width " + std::to_string(w) + " is not a power of two (1, 2, 4, 8, 16, 32)");
          int lg = 0;
          while ((1 << lg) < w) ++lg;
          in->mod = uint8_t((in->mod & 3) | (lg << 2));
        }
        break;
      }
      case FMT_BRA: {
        in->bimm = true;
        const Token& t = peek();
        if (t.kind != Tk::IDENT || !valid_name(t.text))
          fail(t, "expected a label after BRA, found " + describe(t));
        *label = t.text;
        *label_col = t.col;
        next();
        break;
      }
      case FMT_BAR: {
        in->bimm = true;
        int64_t id = parse_int("barrier id", 0, 15);
        int64_t count = 0;
        if (optional_comma()) {
          Imm im = parse_imm("a thread count", false);
          if (im.value < 0 || im.value > 0xFFFF)
            fail_at(im.col, "immediate " + printable(im.text) +
                                " does not fit the 16-bit barrier thread count (0..65535)");
          count = im.value;
        }
        in->imm = uint32_t(id) | (uint32_t(count) << 16);
        break;
      }
    }
  }

  size_t emit(uint64_t word, bool raw, int col) {
    KernelState& k = kernels_[size_t(cur_)];
    const size_t index = code_.size();
    code_.push_back(word);
    meta_.push_back(WordMeta{raw, line_no_, col});
    LineEntry e{uint32_t(index * kInstrBytes), uint32_t(line_no_), uint32_t(col)};
    if (have_loc_) {
      e.line = loc_.line;
      e.column = loc_.column;
      have_loc_ = false;
    }
    lines_out_.push_back(e);
    k.count++;
    return index;
  }

  void end_kernel() {
    KernelState& k = kernels_[size_t(cur_)];
    k.ended = true;
    if (k.regs < 0 && !k.missing_regs_reported) {
      k.missing_regs_reported = true;
      error_at(k.line, k.col, "kernel " + quote(k.name) + " has no .regs");
    }
    if (k.statements == 0) error_at(k.line, k.col, "kernel " + quote(k.name) + " has no instructions");
    cur_ = -1;
    have_loc_ = false;
  }

  // Labels, fall-through and reconvergence, once the whole kernel is known.
  void finish_kernel(size_t ki) {
    KernelState& k = kernels_[ki];
    for (const Fixup& f : fixups_) {
      if (f.kernel != ki) continue;
      auto it = k.labels.find(f.label);
      if (it == k.labels.end()) {
        error_at(f.line, f.col, "undefined label " + quote(f.label) + " in kernel " + quote(k.name), int(ki));
        continue;
      }
      const size_t target = it->second.index;
      if (target >= k.first + k.count) {
        error_at(f.line, f.col,
                 "label " + quote(f.label) + " is past the last instruction of kernel " + quote(k.name),
                 int(ki));
        continue;
      }
      const int64_t delta = int64_t(target) - int64_t(f.index);
      if (delta < INT16_MIN || delta > INT16_MAX) {
        error_at(f.line, f.col,
                 "branch to " + quote(f.label) + " is " + std::to_string(delta) +
                     " instructions away, beyond the 16-bit range",
                 int(ki));
        continue;
      }
      code_[f.index] =
          (code_[f.index] & ~(uint64_t(0xFFFF) << 32)) | (uint64_t(uint16_t(int16_t(delta))) << 32);
    }
    if (k.errors > 0 || k.count == 0) return;  // the CFG of a broken kernel would only add noise
    const uint64_t* words = code_.data() + k.first;
    if (can_fall_off_end(words, k.count)) {
      const WordMeta& m = meta_[k.first + k.count - 1];
      error_at(m.line, m.col, "kernel " + quote(k.name) + " can fall through past its last instruction",
               int(ki));
      return;
    }
    const std::vector<int64_t> reconv = reconvergence_deltas(words, k.count);
    for (size_t i = 0; i < k.count; ++i) {
      const size_t g = k.first + i;
      if (meta_[g].raw || reconv[i] == 0) continue;
      if (reconv[i] < INT16_MIN || reconv[i] > INT16_MAX) {
        error_at(meta_[g].line, meta_[g].col,
                 "the reconvergence point of this branch is " + std::to_string(reconv[i]) +
                     " instructions away, beyond the 16-bit range",
                 int(ki));
        continue;
      }
      code_[g] = (code_[g] & ~(uint64_t(0xFFFF) << 48)) | (uint64_t(uint16_t(int16_t(reconv[i]))) << 48);
    }
  }

  AsmResult build() {
    AsmResult r;
    Module& m = r.module;
    m.source_name = std::string(file_);
    m.target.arch_id = kArchId;
    for (const KernelState& k : kernels_) {
      KernelInfo ki;
      ki.name = k.name;
      ki.entry = uint32_t(k.first * kInstrBytes);
      ki.code_bytes = uint32_t(k.count * kInstrBytes);
      ki.regs = uint32_t(std::max(k.regs, 0));
      ki.shared_bytes = k.shared;
      ki.param_bytes = uint32_t((k.param_end + 3) / 4 * 4);
      ki.local_bytes = k.local;
      ki.params = k.params;
      m.target.max_regs = std::max(m.target.max_regs, ki.regs);
      m.target.max_shared_bytes = std::max(m.target.max_shared_bytes, ki.shared_bytes);
      m.kernels.push_back(std::move(ki));
    }
    m.code = std::move(code_);
    m.lines = std::move(lines_out_);
    std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    r.diagnostics = std::move(diags_);
    return r;
  }

  std::string_view file_;
  std::vector<std::string_view> lines_;
  int line_no_ = 0;
  std::vector<Token> toks_;
  size_t pos_ = 0;

  std::vector<Diagnostic> diags_;
  std::vector<KernelState> kernels_;
  std::set<std::string> kernel_names_;
  int cur_ = -1;
  std::vector<uint64_t> code_;
  std::vector<WordMeta> meta_;
  std::vector<LineEntry> lines_out_;
  std::vector<Fixup> fixups_;
  LineEntry loc_;
  bool have_loc_ = false;
};

}  // namespace

const std::vector<std::string>& directive_names() {
  static const std::vector<std::string> names = {".kernel", ".end",  ".regs", ".shared",
                                                 ".local",  ".param", ".word", ".loc"};
  return names;
}

AsmResult assemble(std::string_view source, std::string_view filename) {
  return Assembler(source, filename).run();
}

AsmResult assemble_file(const std::string& path) {
  std::string text, error;
  if (!read_file(path, kMaxSourceBytes, &text, &error)) {
    AsmResult r;
    Diagnostic d;
    d.file = path;
    d.message = error;
    r.diagnostics.push_back(d);
    return r;
  }
  return assemble(text, path);
}

}  // namespace baresm::isa
