#include "isa/ptx_diag.h"

namespace baresm::isa::ptx {

DiagSink::DiagSink(std::string_view source, std::string file) : file_(std::move(file)) {
  size_t start = 0;
  while (start <= source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    std::string l(source.substr(start, end - start));
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines_.push_back(std::move(l));
    start = end + 1;
  }
}

void DiagSink::error(Pos p, const std::string& msg) {
  Diagnostic d;
  d.file = file_;
  d.line = p.line;
  d.column = p.col;
  d.message = msg;
  // Tabs stay (the caret line keeps them to line up); other control bytes are escaped.
  if (p.line >= 1 && size_t(p.line) <= lines_.size())
    for (char c : lines_[size_t(p.line) - 1])
      d.source_line += c == '\t' ? std::string(1, c) : printable(std::string(1, c));
  diags.push_back(std::move(d));
}

void DiagSink::file_error(const std::string& msg) {
  Diagnostic d;
  d.file = file_;
  d.message = msg;
  diags.push_back(std::move(d));
}

}  // namespace baresm::isa::ptx
