// Positional-only parameters, read from the source around the parameters'
// spans: the parser checks the `/` marker's place (CPython's SyntaxErrors)
// and drops it, so the gap after the last positional-only parameter is the
// one holding a '/'. The common case (one line, no '/') allocates nothing:
// binding a keyword argument asks this on every call.
#include "frontend/positional_only.h"

#include "frontend/source.h"

#include <string>
#include <string_view>

namespace tfs::frontend {

namespace {

// The byte offset of 1-based code-point column `col` in `line`.
size_t byteOffset(std::string_view line, uint32_t col) {
  size_t i = 0;
  for (uint32_t c = 1; c < col && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

// Whether the source from (line, col) to (endLine, endCol) holds a '/'
// outside comments; `stopAt` ends the search early (the closing ')' or a
// lambda's ':' after the last parameter).
bool slashBetween(const SourceFile &file, uint32_t line, uint32_t col, uint32_t endLine, uint32_t endCol,
                  std::string_view stopAt) {
  for (uint32_t l = line; l <= endLine && l <= file.lineCount(); ++l) {
    std::string_view text = file.line(l);
    size_t from = l == line ? byteOffset(text, col) : 0;
    size_t to = l == endLine ? byteOffset(text, endCol) : text.size();
    for (size_t i = from; i < to && i < text.size(); ++i) {
      char c = text[i];
      if (c == '#') break;
      if (c == '/') return true;
      if (stopAt.find(c) != std::string_view::npos) return false;
    }
  }
  return false;
}

}  // namespace

int positionalOnlyParams(const std::vector<ast::Param> &params, bool lambda) {
  for (size_t i = 0; i < params.size(); ++i) {
    const SourceSpan &a = params[i].span;
    if (!a.file || params[i].kind != ast::Param::Kind::Positional) return 0;
    bool slash = i + 1 < params.size()
                     ? slashBetween(*a.file, a.endLine, a.endCol, params[i + 1].span.line, params[i + 1].span.col, "")
                     : slashBetween(*a.file, a.endLine, a.endCol, a.endLine + 3, 1u << 30, lambda ? ":" : ")");
    if (slash) return int(i + 1);
  }
  return 0;
}

}  // namespace tfs::frontend
