// Literal decoding: see literals.h.
#include "frontend/literals.h"

#include <cerrno>
#include <cstdlib>
#include <fmt/format.h>

namespace tfs::frontend {
namespace {
[[noreturn]] void syntaxError(const SourceSpan &span, std::string msg) {
  throw SyntaxErrorException{Diagnostic{"SyntaxError", std::move(msg), span, {}, {}}};
}
int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

StringPrefix stringPrefix(const std::string &token) {
  StringPrefix p;
  size_t i = 0;
  while (i < token.size() && token[i] != '\'' && token[i] != '"') {
    char c = char(std::tolower(static_cast<unsigned char>(token[i])));
    p.raw |= c == 'r';
    p.bytes |= c == 'b';
    p.fstring |= c == 'f';
    ++i;
  }
  p.prefixLen = i;
  p.quoteLen = token.compare(i, 3, "'''") == 0 || token.compare(i, 3, "\"\"\"") == 0 ? 3 : 1;
  return p;
}

std::string decodeStringBody(const std::string &body, bool raw, bool bytes,
                             const SourceSpan &span) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '\r') {  // normalize newlines inside triple-quoted strings
      out += '\n';
      if (i + 1 < body.size() && body[i + 1] == '\n')
        ++i;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= body.size()) {
      if (bytes && static_cast<unsigned char>(c) >= 0x80)
        syntaxError(span, "bytes can only contain ASCII literal characters");
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
    case '\n': break;
    case '\r': if (i + 1 < body.size() && body[i + 1] == '\n') ++i; break;
    case '\\': out += '\\'; break;
    case '\'': out += '\''; break;
    case '"': out += '"'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case 't': out += '\t'; break;
    case 'v': out += '\v'; break;
    case 'x': {
      int h1 = i + 1 < body.size() ? hexValue(body[i + 1]) : -1;
      int h2 = i + 2 < body.size() ? hexValue(body[i + 2]) : -1;
      if (h1 < 0 || h2 < 0)
        syntaxError(span, fmt::format("({} error) truncated \\xXX escape",
                                      bytes ? "value" : "unicode"));
      uint32_t v = uint32_t(h1 * 16 + h2);
      if (bytes) out += char(v); else appendUtf8(out, v);
      i += 2;
      break;
    }
    case 'u':
    case 'U': {
      if (bytes) { out += '\\'; out += e; break; }
      size_t n = e == 'u' ? 4 : 8;
      uint32_t v = 0;
      for (size_t k = 1; k <= n; ++k) {
        int h = i + k < body.size() ? hexValue(body[i + k]) : -1;
        if (h < 0)
          syntaxError(span, fmt::format("(unicode error) 'unicodeescape' codec can't decode "
                                        "bytes: truncated \\{}{} escape", e,
                                        std::string(n, 'X')));
        v = v * 16 + uint32_t(h);
      }
      appendUtf8(out, v);
      i += n;
      break;
    }
    case 'N':
      if (bytes) { out += "\\N"; break; }
      // Named escapes need the Unicode name database, which tfs lacks:
      // refuse rather than keep the text unchanged.
      syntaxError(span, "(unicode error) \\N{...} escapes are not supported by tfs; "
                        "use \\u or \\U escapes");
    default:
      if (e >= '0' && e <= '7') {
        uint32_t v = uint32_t(e - '0');
        for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++k)
          v = v * 8 + uint32_t(body[++i] - '0');
        if (bytes) out += char(v & 0xFF); else appendUtf8(out, v);
      } else {
        out += '\\';
        out += e;
      }
    }
  }
  return out;
}

void decodeNumber(const std::string &text, ast::Constant &out) {
  std::string t;
  for (char c : text)
    if (c != '_') t += c;
  if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) {
    // An imaginary literal (`4j`, `1.5e3J`): carried as a BigInt constant
    // whose text ends in j (ast.h's Constant has no complex kind, and adding
    // one would rebuild every file that includes the AST); the interpreter
    // makes the complex value from the text, and printers show it as written.
    if (t.size() > 1 && t[0] == '0' && std::string("xXoObB").find(t[1]) != std::string::npos) {
      char p = char(std::tolower(static_cast<unsigned char>(t[1])));
      syntaxError(out.span, p == 'x' ? "invalid hexadecimal literal" : p == 'o' ? "invalid octal literal"
                                                                      : "invalid binary literal");
    }
    out.type = ast::Constant::Type::BigInt;
    out.s = t;
    return;
  }
  bool isFloat = t.find_first_of(".eE") != std::string::npos &&
                 !(t.size() > 1 && t[0] == '0' && std::string("xXoObB").find(t[1]) != std::string::npos);
  if (isFloat) {
    out.type = ast::Constant::Type::Float;
    out.f = std::strtod(t.c_str(), nullptr);
    return;
  }
  int base = 10;
  size_t start = 0;
  if (t.size() > 1 && t[0] == '0') {
    char p = char(std::tolower(static_cast<unsigned char>(t[1])));
    if (p == 'x') base = 16, start = 2;
    else if (p == 'o') base = 8, start = 2;
    else if (p == 'b') base = 2, start = 2;
  }
  errno = 0;
  unsigned long long v = std::strtoull(t.c_str() + start, nullptr, base);
  if (errno == ERANGE || v > uint64_t(INT64_MAX)) {
    out.type = ast::Constant::Type::BigInt;
    out.s = t;
    return;
  }
  out.type = ast::Constant::Type::Int;
  out.i = int64_t(v);
}

}  // namespace tfs::frontend
