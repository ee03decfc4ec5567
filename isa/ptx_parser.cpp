#include "isa/ptx_parser.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "isa/ptx.h"
#include "isa/ptx_lexer.h"

namespace baresm::isa::ptx {

namespace {

struct ParseError {};

// Bytes of a PTX fundamental type: "u32" -> 4; 0 when it is not one.
uint32_t type_bytes(const std::string& t) {
  if (t == "pred") return 1;
  if (t.size() < 2) return 0;
  const char k = t[0];
  if (k != 'b' && k != 'u' && k != 's' && k != 'f') return 0;
  const int bits = std::atoi(t.c_str() + 1);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return 0;
  if (k == 'f' && bits == 8) return 0;
  if (std::to_string(bits) != t.substr(1)) return 0;
  return uint32_t(bits / 8);
}

class Parser {
 public:
  Parser(std::string_view src, DiagSink* d) : toks_(lex(src)), d_(d) {}

  File run() {
    while (peek().kind != Tok::END) {
      try {
        top_level();
      } catch (const ParseError&) {
        recover_top();
      }
    }
    return std::move(file_);
  }

 private:
  std::vector<Token> toks_;
  size_t i_ = 0;
  DiagSink* d_;
  File file_;
  // The registers declared in the nested scopes being parsed, innermost
  // last: (declaration as written, the unique prefix it was renamed to).
  std::vector<std::vector<std::pair<RegDecl, std::string>>> scopes_;
  int scope_regs_ = 0;

  // A register name as the innermost scope that declares it renamed it.
  std::string scoped(const std::string& name) const {
    for (auto sc = scopes_.rbegin(); sc != scopes_.rend(); ++sc)
      for (const auto& [r, np] : *sc) {
        if (r.count == 0) {
          if (name == r.prefix) return np;
          continue;
        }
        if (name.size() <= r.prefix.size() || name.compare(0, r.prefix.size(), r.prefix) != 0) continue;
        const std::string digits = name.substr(r.prefix.size());
        if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 7 ||
            (digits.size() > 1 && digits[0] == '0'))
          continue;
        if (std::atoi(digits.c_str()) < r.count) return np + digits;
      }
    return name;
  }
  void rename_scoped(Instruction* in) const {
    if (scopes_.empty()) return;
    if (!in->guard.empty()) in->guard = scoped(in->guard);
    for (Operand& o : in->ops) {
      if (o.kind == Operand::REG || (o.kind == Operand::ADDR && o.base_is_reg)) o.name = scoped(o.name);
      for (Operand& e : o.elems)
        if (e.kind == Operand::REG) e.name = scoped(e.name);
    }
  }

  const Token& peek(size_t k = 0) const { return toks_[std::min(i_ + k, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = toks_[i_];
    if (i_ + 1 < toks_.size()) ++i_;
    return t;
  }
  static std::string describe(const Token& t) {
    if (t.kind == Tok::END) return "end of file";
    return quote(t.text);
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) {
    d_->error(t.pos, msg);
    throw ParseError{};
  }
  void expect(char c, const char* what) {
    if (!peek().is(c))
      fail(peek(), std::string("expected '") + c + "' " + what + ", found " + describe(peek()));
    next();
  }
  // Consumes the rest of the current line (directives nvcc writes without ';').
  void skip_line(int line) {
    while (peek().kind != Tok::END && peek().pos.line == line) next();
  }
  // After an error at the top level: on to the next ';' or past a balanced '{...}'.
  void recover_top() {
    int depth = 0;
    while (peek().kind != Tok::END) {
      const Token& t = next();
      if (t.is('{')) ++depth;
      if (t.is('}') && --depth <= 0) return;
      if (t.is(';') && depth == 0) return;
    }
  }
  // After an error inside a body: past the next ';' of this statement, or up to a '}'.
  void recover_body() {
    while (peek().kind != Tok::END && !peek().is('}')) {
      if (next().is(';')) return;
    }
  }

  int64_t parse_int_tok(const Token& t, const char* what) {
    if (t.kind != Tok::NUMBER) fail(t, std::string("expected ") + what + ", found " + describe(t));
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(t.text.c_str(), &end, 0);
    if (errno || *end != '\0' || v > uint64_t(INT64_MAX))
      fail(t, std::string("expected ") + what + ", found " + describe(t));
    return int64_t(v);
  }

  // ---- module level ----------------------------------------------------------------
  void top_level() {
    const Token& t = peek();
    if (t.kind != Tok::DIRECTIVE) fail(t, "expected a directive, found " + describe(t));
    const std::string d = t.text;
    const int line = t.pos.line;
    if (d == ".version") {
      next();
      if (peek().pos.line == line) file_.version = next().text;
      skip_line(line);
      return;
    }
    if (d == ".target") {
      next();
      if (peek().pos.line != line || peek().kind != Tok::WORD)
        fail(peek(), "expected a target after .target");
      const Token& tg = next();
      file_.target = tg.text;
      if (tg.text.rfind("sm_", 0) != 0)
        d_->error(tg.pos,
                  "target " + quote(tg.text) + " is not supported (the PTX front end reads sm_50 .. sm_90)");
      // Further entries (", texmode_independent", debug) change nothing here.
      skip_line(line);
      return;
    }
    if (d == ".address_size") {
      next();
      const Token& n = next();
      file_.address_size = int(parse_int_tok(n, "an address size"));
      if (file_.address_size != 64)
        d_->error(n.pos, ".address_size " + n.text + " is not supported (only 64, what nvcc writes)");
      skip_line(line);
      return;
    }
    if (d == ".file") {
      next();
      skip_line(line);
      return;
    }
    if (d == ".visible" || d == ".weak" || d == ".extern") {
      next();
      if (peek().kind == Tok::DIRECTIVE && peek().text == ".entry" && d != ".extern") return kernel();
      if (peek().kind == Tok::DIRECTIVE && peek().text == ".func") return function();
      if (peek().kind == Tok::DIRECTIVE && is_space(peek().text)) return module_var(d == ".extern");
      unsupported_directive(peek());
    }
    if (d == ".entry") return kernel();
    if (d == ".func") return function();
    if (is_space(d)) return module_var(false);
    unsupported_directive(t);
  }

  static bool is_space(const std::string& d) { return d == ".global" || d == ".const" || d == ".shared"; }

  // [.extern|.visible|.weak] .global/.const/.shared [.align N] [.v2|.v4] .type
  // name[N]...[ = initialiser];  Whether a kernel may use it is the lowering's
  // question: one nothing references is ignored (the placeholders of CUDA
  // 13's headers), a referenced one is translated or refused there.
  void module_var(bool is_extern) {
    const Token& sp = next();
    ModuleVar v;
    v.space = sp.text.substr(1);
    v.is_extern = is_extern;
    v.pos = sp.pos;
    std::string type;
    uint32_t vec = 1;
    while (peek().kind == Tok::DIRECTIVE) {
      const Token& a = next();
      if (a.text == ".align") {
        const Token& n = next();
        const int64_t al = parse_int_tok(n, "an alignment");
        if (al < 1 || al > 4096 || (al & (al - 1))) fail(n, "alignment " + n.text + " is not a power of two");
        v.align = uint32_t(al);
      } else if (a.text == ".v2" || a.text == ".v4") {
        vec = a.text == ".v2" ? 2 : 4;
      } else if (type_bytes(a.text.substr(1)) && a.text != ".pred") {
        type = a.text.substr(1);
      } else {
        fail(a, "module-scope variable attribute " + quote(a.text) + " is not supported");
      }
    }
    if (type.empty())
      fail(peek(), "expected a type for the " + sp.text + " variable, found " + describe(peek()));
    const Token& n = peek();
    if (n.kind != Tok::WORD)
      fail(n, "expected a name for the " + sp.text + " variable, found " + describe(n));
    v.name = n.text;
    v.pos = n.pos;
    next();
    uint64_t count = vec;
    bool unsized = false;
    while (peek().is('[')) {
      next();
      if (peek().is(']')) {  // name[]: sized by its initialiser, or (extern) elsewhere
        unsized = true;
        next();
        continue;
      }
      const Token& c = next();
      const int64_t dim = parse_int_tok(c, "an array size");
      if (dim > (16 << 20) || (count *= uint64_t(dim)) > (16u << 20))  // each factor bounded: no wrap
        fail(c, sp.text.substr(1) + " variable " + quote(v.name) + " is too large");
      expect(']', "to close the array size");
    }
    if (peek().is('=')) {
      next();
      v.initialised = true;
      try {
        initialiser(type, v.name, &v.init);
      } catch (const ParseError&) {  // on to the ';' (recover_top would stop at a '}' inside the braces)
        while (peek().kind != Tok::END && !peek().is(';')) next();
        throw;
      }
    }
    v.size = uint32_t(count * type_bytes(type));
    if (unsized) {  // name[] = {...}: as many elements (rows) as the initialiser lists
      const uint64_t row = v.size;
      v.size = v.initialised ? uint32_t((v.init.size() + row - 1) / row * row) : 0;
    } else if (v.init.size() > v.size) {
      fail(n, "the initialiser of " + quote(v.name) + " has more elements than the variable (" +
                  std::to_string(v.size / type_bytes(type)) + ")");
    }
    if (v.align < type_bytes(type)) v.align = type_bytes(type);
    expect(';', ("after the " + sp.text + " variable").c_str());
    for (const ModuleVar& o : file_.vars)
      if (o.name == v.name) fail(n, "module-scope variable " + quote(v.name) + " is declared twice");
    file_.vars.push_back(std::move(v));
  }

  // `= value` or `= {v, v, {v, v}, ...}` (braces nest for arrays of arrays
  // and vectors): each value appended to *out as `type` (little-endian).
  // Integers for integer types, 0f/0d bit patterns for .f32/.f64; an address
  // (a variable's name, generic(name)) is refused by name.
  void initialiser(const std::string& type, const std::string& var, std::vector<uint8_t>* out) {
    const uint32_t eb = type_bytes(type);
    int depth = 0;
    do {
      if (peek().is('{')) {
        next();
        ++depth;
        continue;
      }
      const Token& t = peek();
      bool neg = false;
      if (t.is('-') && peek(1).kind == Tok::NUMBER) {
        neg = true;
        next();
      }
      if (peek().kind != Tok::NUMBER) {
        if (peek().kind == Tok::WORD)
          fail(peek(), "the initialiser of " + quote(var) + " holds an address (" + quote(peek().text) +
                           "): pointers initialised to variables are not supported");
        fail(peek(), "expected a value in the initialiser of " + quote(var) + ", found " + describe(peek()));
      }
      const Token& num = peek();
      const Operand o = number(neg);
      uint64_t bits;
      if (type[0] == 'f') {
        if (!(type == "f32" ? o.is_float : o.is_double))
          fail(num, "the initialiser of ." + type + " variable " + quote(var) + " needs " +
                        (type == "f32" ? "0f" : "0d") + " bit patterns, found " + quote(num.text));
        bits = type == "f32" ? o.bits : uint64_t(o.value);
      } else {
        if (o.is_float || o.is_double)
          fail(num, "a floating-point value in the initialiser of ." + type + " variable " + quote(var));
        bits = uint64_t(o.value);
      }
      if (out->size() + eb > (16u << 20)) fail(num, "the initialiser of " + quote(var) + " is too large");
      for (uint32_t b = 0; b < eb; ++b) out->push_back(uint8_t(bits >> (8 * b)));
      while (depth > 0 && peek().is('}')) {
        next();
        --depth;
      }
      if (depth > 0) expect(',', ("between the values of the initialiser of " + var).c_str());
    } while (depth > 0);
  }

  [[noreturn]] void unsupported_directive(const Token& t) {
    if (t.kind == Tok::DIRECTIVE) {
      fail(t, "directive " + quote(t.text) + " is not supported by the PTX front end");
    }
    fail(t, "expected a directive, found " + describe(t));
  }

  void kernel() {
    next();  // .entry
    Kernel k;
    const Token& name = peek();
    if (name.kind != Tok::WORD) fail(name, "expected a kernel name after .entry, found " + describe(name));
    k.name = name.text;
    k.pos = name.pos;
    next();
    if (peek().is('(')) param_list(&k.params);
    // Performance directives (.maxntid, .reqntid, ...) would go here.
    while (peek().kind == Tok::DIRECTIVE) {
      const Token& t = peek();
      d_->error(t.pos, "directive " + quote(t.text) + " is not supported by the PTX front end");
      next();
      while (peek().kind != Tok::END && !peek().is('{') && peek().kind != Tok::DIRECTIVE) next();
    }
    expect('{', "to open the kernel body");
    body(&k, 1);
    file_.kernels.push_back(std::move(k));
  }

  // ( .param ..., .param ... ): a kernel's or a function's parameters, or a
  // function's return values.
  void param_list(std::vector<Param>* out) {
    next();  // (
    while (!peek().is(')')) {
      out->push_back(param());
      if (peek().is(',')) {
        next();
        continue;
      }
      if (!peek().is(')'))
        fail(peek(), "expected ',' or ')' in the parameter list, found " + describe(peek()));
    }
    next();
  }

  // .func [(.param ret)] name [(.param ...)] [.noreturn] { body } | ;
  // A device function: its body is parsed as a kernel's; the inliner
  // (ptx_inline) expands it into each kernel that calls it. Without a body
  // (.extern .func, a prototype) it is only a declaration.
  void function() {
    next();  // .func
    Kernel f;
    f.is_func = true;
    if (peek().is('(')) param_list(&f.rets);
    const Token& name = peek();
    if (name.kind != Tok::WORD) fail(name, "expected a function name after .func, found " + describe(name));
    f.name = name.text;
    f.pos = name.pos;
    next();
    if (peek().is('(')) param_list(&f.params);
    while (peek().kind == Tok::DIRECTIVE) {
      const Token& t = peek();
      if (t.text != ".noreturn")  // a hint (nvcc's __assertfail): changes nothing
        d_->error(t.pos, "directive " + quote(t.text) + " is not supported on a .func");
      next();
    }
    if (peek().is(';')) {
      next();
      f.has_body = false;
      file_.funcs.push_back(std::move(f));
      return;
    }
    expect('{', "to open the function body");
    body(&f, 1);
    file_.funcs.push_back(std::move(f));
  }

  Param param() {
    const Token& t = peek();
    if (t.kind != Tok::DIRECTIVE || t.text != ".param")
      fail(t, "expected .param in the parameter list, found " + describe(t));
    next();
    Param p;
    p.pos = t.pos;
    uint32_t align = 0;
    bool ptr = false;
    while (peek().kind == Tok::DIRECTIVE) {
      const Token& a = next();
      if (a.text == ".align") {
        const Token& n = next();
        const int64_t v = parse_int_tok(n, "an alignment");
        if (v < 1 || v > 256 || (v & (v - 1)))
          fail(n, "alignment " + n.text + " is not a power of two up to 256");
        // After .ptr it is the alignment of the memory pointed to, not of the parameter.
        if (!ptr) align = uint32_t(v);
      } else if (a.text == ".ptr") {
        ptr = true;
      } else if (a.text == ".global" || a.text == ".shared" || a.text == ".const" || a.text == ".local") {
        // Pointer attributes: what the pointer points to, not how it is passed.
      } else if (type_bytes(a.text.substr(1)) && a.text != ".pred") {
        p.type = a.text.substr(1);
      } else {
        fail(a, "parameter attribute " + quote(a.text) + " is not supported");
      }
    }
    if (p.type.empty())
      fail(peek(), "expected a parameter type (.u32, .u64, .f32, .b8 ...), found " + describe(peek()));
    const Token& n = peek();
    if (n.kind != Tok::WORD) fail(n, "expected a parameter name, found " + describe(n));
    p.name = n.text;
    p.pos = n.pos;
    next();
    uint32_t count = 1;
    if (peek().is('[')) {
      next();
      const Token& c = next();
      const int64_t v = parse_int_tok(c, "an array size");
      if (v < 1 || v > 4096) fail(c, "parameter array size " + c.text + " is out of range");
      count = uint32_t(v);
      expect(']', "to close the array size");
    }
    const uint32_t elem = type_bytes(p.type);
    p.size = elem * count;
    p.align = align ? align : elem;
    return p;
  }

  // ---- kernel bodies -----------------------------------------------------------------
  void body(Kernel* k, int depth) {
    while (true) {
      const Token& t = peek();
      if (t.kind == Tok::END) fail(t, "unexpected end of file: missing '}' of kernel " + quote(k->name));
      if (t.is('}')) {
        next();
        return;
      }
      try {
        if (t.is('{')) {
          // A nested scope (nvcc writes them around inline assembly and
          // each call sequence): flattened; the registers it declares are
          // renamed apart (they may repeat an outer or earlier name).
          next();
          scopes_.emplace_back();
          body(k, depth + 1);
          scopes_.pop_back();
          continue;
        }
        statement(k);
      } catch (const ParseError&) {
        recover_body();
      }
    }
  }

  void statement(Kernel* k) {
    const Token& t = peek();
    if (t.kind == Tok::DIRECTIVE) return body_directive(k);
    if (t.kind == Tok::WORD && peek(1).is(':')) {
      Statement s;
      s.kind = Statement::LABEL;
      s.label = t.text;
      s.pos = t.pos;
      next();
      next();
      k->body.push_back(std::move(s));
      return;
    }
    Statement s;
    s.kind = Statement::INSTR;
    Instruction& in = s.instr;
    if (peek().is('@')) {
      next();
      if (peek().is('!')) {
        next();
        in.guard_neg = true;
      }
      const Token& g = peek();
      if (g.kind != Tok::WORD || g.text[0] != '%')
        fail(g, "expected a predicate register after '@', found " + describe(g));
      in.guard = g.text;
      next();
    }
    const Token& op = peek();
    if (op.kind != Tok::WORD || op.text[0] == '%') fail(op, "expected an instruction, found " + describe(op));
    next();
    s.pos = in.pos = op.pos;
    in.full = op.text;
    size_t dot = op.text.find('.');
    in.opcode = op.text.substr(0, dot);
    while (dot != std::string::npos) {
      const size_t nd = op.text.find('.', dot + 1);
      in.mods.push_back(op.text.substr(dot + 1, nd == std::string::npos ? std::string::npos : nd - dot - 1));
      dot = nd;
    }
    if (in.opcode == "call") {
      call_operands(&in);
    } else if (!peek().is(';')) {
      while (true) {
        in.ops.push_back(operand());
        if (in.ops.size() == 1 && peek().is('|')) {
          next();
          in.ops.push_back(operand());
          in.pipe_dst = 1;
        }
        if (peek().is(',')) {
          next();
          continue;
        }
        break;
      }
    }
    if (!peek().is(';'))
      fail(peek(), "expected ';' after the operands of " + quote(in.full) + ", found " + describe(peek()));
    next();
    rename_scoped(&in);
    k->body.push_back(std::move(s));
  }

  // call [(r, ...),] callee[, (a, ...)][, prototype or target list]
  void call_operands(Instruction* in) {
    auto list = [&](std::vector<Operand>* out) {
      next();  // (
      while (!peek().is(')')) {
        out->push_back(operand());
        if (peek().is(',')) {
          next();
          continue;
        }
        if (!peek().is(')')) fail(peek(), "expected ',' or ')' in the call's list, found " + describe(peek()));
      }
      next();
    };
    if (peek().is('(')) {
      list(&in->call_rets);
      expect(',', "after the call's return list");
    }
    in->ops.push_back(operand());
    if (peek().is(',')) {
      next();
      if (peek().is('(')) {
        list(&in->call_args);
        if (peek().is(',')) next(), in->call_prototype = true, operand();
      } else {
        in->call_prototype = true;
        operand();
      }
    }
  }

  Operand number(bool neg) {
    const Token& t = peek();
    Operand o;
    o.kind = Operand::IMM;
    o.pos = t.pos;
    const std::string& s = t.text;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
      const bool dbl = s[1] == 'd' || s[1] == 'D';
      const std::string hex = s.substr(2);
      char* end = nullptr;
      const unsigned long long v = std::strtoull(hex.c_str(), &end, 16);
      if (*end != '\0' || hex.size() != (dbl ? 16u : 8u))
        fail(t, "malformed floating-point literal " + quote(s));
      if (neg) fail(t, "a '-' before a bit-pattern float literal is not supported");
      next();
      if (dbl) {
        o.is_double = true;
        o.value = int64_t(v);  // the bits (module-scope initialisers read them)
      } else {
        o.is_float = true;
        o.bits = uint32_t(v);
      }
      return o;
    }
    if (s.find_first_of(".eE") != std::string::npos && s.find_first_of("xX") == std::string::npos)
      fail(t, "decimal floating-point literal " + quote(s) +
                  " is not supported (nvcc writes 0f/0d bit patterns)");
    std::string digits = s;
    if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.pop_back();
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), &end, 0);
    if (errno || *end != '\0' || digits.empty()) fail(t, "malformed number " + quote(s));
    next();
    o.value = neg ? -int64_t(v) : int64_t(v);
    return o;
  }

  Operand operand() {
    const Token& t = peek();
    Operand o;
    o.pos = t.pos;
    if (t.is('[')) {
      next();
      o.kind = Operand::ADDR;
      if (peek().kind == Tok::WORD) {
        o.name = peek().text;
        o.base_is_reg = o.name[0] == '%';
        next();
        if (peek().is('+') || peek().is('-')) {
          bool neg = next().is('-');
          if (!neg && peek().is('-')) {  // nvcc writes [%rd1+-4]
            next();
            neg = true;
          }
          if (peek().kind != Tok::NUMBER) fail(peek(), "expected an offset, found " + describe(peek()));
          o.value = number(neg).value;
        }
      } else if (peek().kind == Tok::NUMBER) {
        o.value = number(false).value;
      } else {
        fail(peek(), "expected an address, found " + describe(peek()));
      }
      expect(']', "to close the address");
      return o;
    }
    if (t.is('!')) {
      next();
      if (peek().kind != Tok::WORD || peek().text[0] != '%')
        fail(peek(), "expected a predicate after '!', found " + describe(peek()));
      o = operand();
      o.negated = true;
      o.pos = t.pos;
      return o;
    }
    if (t.is('-') && peek(1).kind == Tok::NUMBER) {
      next();
      return number(true);
    }
    if (t.kind == Tok::NUMBER) return number(false);
    if (t.kind == Tok::WORD) {
      o.kind = t.text[0] == '%' ? Operand::REG : Operand::SYMBOL;
      o.name = t.text;
      next();
      if (peek().is('+') && o.kind == Operand::SYMBOL)
        fail(peek(), "symbol arithmetic outside an address is not supported");
      return o;
    }
    if (t.is('{')) {
      next();
      o.kind = Operand::VEC;
      while (true) {
        if (peek().is('{')) fail(peek(), "nested vector operands are not supported");
        o.elems.push_back(operand());
        if (peek().is(',')) {
          next();
          continue;
        }
        break;
      }
      expect('}', "to close the vector operand");
      return o;
    }
    fail(t, "expected an operand, found " + describe(t));
  }

  void body_directive(Kernel* k) {
    const Token t = next();
    if (t.text == ".loc" || t.text == ".file") {
      // Debug line information: accepted, not yet used.
      skip_line(t.pos.line);
      return;
    }
    if (t.text == ".reg") {
      const Token& ty = peek();
      if (ty.kind != Tok::DIRECTIVE || !type_bytes(ty.text.substr(1)))
        fail(ty, "expected a register type after .reg, found " + describe(ty));
      const std::string type = ty.text.substr(1);
      next();
      while (true) {
        // A name without '%' is a register too (nvcc's temp_param_reg in
        // each call sequence, which nothing reads).
        const Token& n = peek();
        if (n.kind != Tok::WORD) fail(n, "expected a register name, found " + describe(n));
        RegDecl r;
        r.type = type;
        r.prefix = n.text;
        r.pos = n.pos;
        next();
        if (peek().is('<')) {
          next();
          const Token& c = next();
          const int64_t v = parse_int_tok(c, "a register count");
          if (v < 1 || v > 1000000) fail(c, "register count " + c.text + " is out of range");
          r.count = int(v);
          expect('>', "after the register count");
        }
        if (!scopes_.empty()) {  // renamed apart: prefix$N_ (a range) or name$N
          const std::string np = r.prefix + "$" + std::to_string(++scope_regs_) + (r.count ? "_" : "");
          scopes_.back().emplace_back(r, np);
          r.prefix = np;
        }
        k->regs.push_back(std::move(r));
        if (!peek().is(',')) break;
        next();
      }
      expect(';', "after .reg");
      return;
    }
    if (t.text == ".shared" || t.text == ".local") {
      // The same declaration syntax for both spaces: [.align N] .type name[N]...;
      const std::string space = t.text;
      SharedVar v;
      v.pos = t.pos;
      std::string type;
      while (peek().kind == Tok::DIRECTIVE) {
        const Token& a = next();
        if (a.text == ".align") {
          const Token& n = next();
          const int64_t al = parse_int_tok(n, "an alignment");
          if (al < 1 || al > 4096 || (al & (al - 1)))
            fail(n, "alignment " + n.text + " is not a power of two");
          v.align = uint32_t(al);
        } else if (type_bytes(a.text.substr(1)) && a.text != ".pred") {
          type = a.text.substr(1);
        } else {
          fail(a, space.substr(1) + "-variable attribute " + quote(a.text) + " is not supported");
        }
      }
      if (type.empty())
        fail(peek(), "expected a type for the " + space + " variable, found " + describe(peek()));
      const Token& n = peek();
      if (n.kind != Tok::WORD) fail(n, "expected a name for the " + space + " variable, found " + describe(n));
      v.name = n.text;
      v.pos = n.pos;
      next();
      uint64_t count = 1;
      while (peek().is('[')) {
        next();
        if (peek().is(']'))
          fail(peek(), space == ".shared" ? "an unsized .shared array (dynamic shared memory) is not supported yet"
                                          : "an unsized .local array is not valid PTX");
        const Token& c = next();
        const int64_t cnt = parse_int_tok(c, "an array size");
        count *= uint64_t(cnt);
        if (count > (16u << 20)) fail(c, space.substr(1) + " array " + quote(v.name) + " is too large");
        expect(']', "to close the array size");
      }
      if (peek().is('=')) fail(peek(), "initialised " + space + " variables are not supported");
      v.size = uint32_t(count * type_bytes(type));
      if (v.align < type_bytes(type)) v.align = type_bytes(type);
      expect(';', ("after the " + space + " variable").c_str());
      (space == ".shared" ? k->shared : k->locals).push_back(std::move(v));
      return;
    }
    if (t.text == ".param") {
      // A call sequence's argument or return value: .param [.align N] .type name[N];
      --i_;
      Statement st;
      st.kind = Statement::PARAM;
      st.param = param();
      st.pos = st.param.pos;
      expect(';', "after the .param variable");
      k->body.push_back(std::move(st));
      return;
    }
    if (t.text == ".pragma") {
      // "nounroll" (what #pragma unroll 1 leaves) is a hint to ptxas that
      // changes no result; any other pragma is refused.
      const Token& str = peek();
      if (str.kind != Tok::STRING || str.text != "\"nounroll\"")
        fail(str, "pragma " + describe(str) + " is not supported (only \"nounroll\")");
      next();
      expect(';', "after .pragma");
      return;
    }
    fail(t, "directive " + quote(t.text) + " is not supported by the PTX front end");
  }
};

}  // namespace

File parse(std::string_view source, DiagSink* diags) {
  Parser p(source, diags);
  return p.run();
}

}  // namespace baresm::isa::ptx

namespace baresm::isa {

const std::vector<std::string>& ptx_directive_names() {
  static const std::vector<std::string> names = {
      // module level (top_level)
      ".version",
      ".target",
      ".address_size",
      ".file",
      ".visible",
      ".weak",
      ".extern",
      ".entry",
      ".func",
      ".noreturn",
      // a kernel's body (body_directive)
      ".loc",
      ".reg",
      ".shared",
      ".pragma",
      // parameter attributes (param)
      ".param",
      ".align",
      ".ptr",
      ".global",
      ".const",
      ".local",
      // module-scope variables (module_var)
      ".v2",
      ".v4",
  };
  return names;
}

// The types type_bytes accepts, with their dot.
const std::vector<std::string>& ptx_type_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const char* k : {"b", "u", "s", "f"})
      for (int bits : {8, 16, 32, 64})
        if (ptx::type_bytes(k + std::to_string(bits)))
          v.push_back("." + std::string(k) + std::to_string(bits));
    v.push_back(".pred");
    return v;
  }();
  return names;
}

}  // namespace baresm::isa
