#include "runtime/interp/codecs.h"
#include "runtime/interp/unicode_text.h"

#include "frontend/literals.h"

#include "runtime/interp/interpreter.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

std::string normalized(std::string_view name) {
  std::string n;
  for (char c : name) n += c == '_' || c == ' ' ? '-' : char(std::tolower(static_cast<unsigned char>(c)));
  return n;
}

bool oneOf(const std::string &n, std::initializer_list<const char *> names) {
  return std::any_of(names.begin(), names.end(), [&](const char *x) { return n == x; });
}

enum class Handler : uint8_t { Strict, Ignore, Replace };

// Looked up when an error happens, as CPython does.
Handler lookupHandler(Interpreter &in, std::string_view errors) {
  if (errors == "strict") return Handler::Strict;
  if (errors == "ignore") return Handler::Ignore;
  if (errors == "replace") return Handler::Replace;
  if (errors == "surrogateescape" || errors == "backslashreplace" || errors == "xmlcharrefreplace" ||
      errors == "namereplace" || errors == "surrogatepass")
    in.raise("NotImplementedError", fmt::format("error handler '{}' is not supported by tfs", errors));
  in.raise("LookupError", fmt::format("unknown error handler name '{}'", errors));
}

[[noreturn]] void raiseDecodeError(Interpreter &in, Encoding e, std::string_view bytes, size_t start, size_t end,
                                   const std::string &reason, size_t base) {
  unsigned char first = static_cast<unsigned char>(bytes[start]);
  start += base;
  end += base;
  std::string msg =
      end - start == 1
          ? fmt::format("'{}' codec can't decode byte 0x{:02x} in position {}: {}", encodingName(e),
                        first, start, reason)
          : fmt::format("'{}' codec can't decode bytes in position {}-{}: {}", encodingName(e), start, end - 1, reason);
  Value exc = in.newException(in.exceptionClass("UnicodeDecodeError"), msg);
  auto *inst = exc.as<InstanceObject>();
  inst->set("encoding", in.str(encodingName(e)));
  inst->set("object", Value(make<BytesObject>(std::string(bytes))));
  inst->set("start", Value::integer(int64_t(start)));
  inst->set("end", Value::integer(int64_t(end)));
  inst->set("reason", in.str(reason));
  in.raiseValue(exc);
}

// One UTF-8 sequence at bytes[i]: its code point and length, or the
// invalid range's end and reason (CPython's decoder: the maximal prefix of a
// valid sequence is one error).
struct Utf8Step {
  uint32_t cp = 0;
  size_t length = 0;       // > 0: valid
  size_t errorEnd = 0;     // else: the error covers [i, errorEnd)
  const char *reason = nullptr;
  bool truncated = false;  // ran out of input inside a valid prefix
};

Utf8Step utf8Step(std::string_view b, size_t i) {
  Utf8Step s;
  auto byte = [&](size_t k) { return static_cast<unsigned char>(b[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) {
    s.cp = c;
    s.length = 1;
    return s;
  }
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) need = 1;
  else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    s.errorEnd = i + 1;
    s.reason = "invalid start byte";
    return s;
  }
  uint32_t cp = c & (need == 1 ? 0x1F : need == 2 ? 0x0F : 0x07);
  for (size_t k = 1; k <= need; ++k) {
    if (i + k >= b.size()) {
      s.errorEnd = b.size();
      s.reason = "unexpected end of data";
      s.truncated = true;
      return s;
    }
    unsigned char d = byte(i + k);
    bool ok = k == 1 ? d >= lo && d <= hi : d >= 0x80 && d <= 0xBF;
    if (!ok) {
      s.errorEnd = i + k;
      s.reason = "invalid continuation byte";
      return s;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  s.cp = cp;
  s.length = need + 1;
  return s;
}

}  // namespace

Encoding lookupEncoding(Interpreter &in, std::string_view name) {
  std::string n = normalized(name);
  if (oneOf(n, {"utf-8", "utf8", "u8", "utf", "cp65001"})) return Encoding::Utf8;
  if (oneOf(n, {"utf-8-sig", "utf8-sig"})) return Encoding::Utf8Sig;
  if (oneOf(n, {"ascii", "us-ascii", "646", "us"})) return Encoding::Ascii;
  if (oneOf(n, {"latin-1", "latin1", "latin", "l1", "iso-8859-1", "iso8859-1", "8859", "cp819", "iso-ir-100"}))
    return Encoding::Latin1;
  if (oneOf(n, {"utf-16", "utf16", "utf-16-le", "utf-16le", "utf-16-be", "utf-16be", "utf-32", "utf32", "utf-32-le",
                "utf-32le", "utf-32-be", "utf-32be", "cp1252", "windows-1252", "cp437", "cp850", "iso-8859-15",
                "iso8859-15", "latin-9", "latin9", "shift-jis", "shift_jis", "sjis", "euc-jp", "gbk", "gb2312",
                "gb18030", "big5", "euc-kr", "koi8-r", "cp1251", "windows-1251", "mac-roman", "utf-7", "idna",
                "punycode", "unicode-escape", "raw-unicode-escape", "base64", "hex", "rot13", "rot-13"}))
    in.raise("NotImplementedError", fmt::format("encoding '{}' is not supported by tfs", name));
  in.raise("LookupError", fmt::format("unknown encoding: {}", name));
}

const char *encodingName(Encoding e) {
  switch (e) {
  case Encoding::Utf8: return "utf-8";
  case Encoding::Utf8Sig: return "utf-8-sig";
  case Encoding::Ascii: return "ascii";
  case Encoding::Latin1: return "latin-1";
  }
  return "utf-8";
}

std::string decodeText(Interpreter &in, std::string_view bytes, Encoding e, std::string_view errors,
                       size_t *consumed, bool final, size_t positionBase) {
  std::string out;
  out.reserve(bytes.size());
  size_t i = 0;
  if (e == Encoding::Utf8Sig && bytes.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto onError = [&](size_t start, size_t end, const char *reason) {
    switch (lookupHandler(in, errors)) {
    case Handler::Strict: raiseDecodeError(in, e, bytes, start, end, reason, positionBase);
    case Handler::Ignore: break;
    case Handler::Replace: out += "\xEF\xBF\xBD"; break;
    }
  };
  while (i < bytes.size()) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) {
      out += char(c);
      ++i;
      continue;
    }
    if (e == Encoding::Latin1) {
      frontend::appendUtf8(out, c);
      ++i;
      continue;
    }
    if (e == Encoding::Ascii) {
      onError(i, i + 1, "ordinal not in range(128)");
      ++i;
      continue;
    }
    Utf8Step s = utf8Step(bytes, i);
    if (s.length) {
      out.append(bytes.substr(i, s.length));
      i += s.length;
      continue;
    }
    if (s.truncated && !final) break;
    onError(i, s.errorEnd, s.reason);
    i = s.errorEnd;
  }
  if (consumed) *consumed = i;
  return out;
}

std::string encodeText(Interpreter &in, std::string_view text, Encoding e, std::string_view errors) {
  if (e == Encoding::Utf8) return std::string(text);
  if (e == Encoding::Utf8Sig) return "\xEF\xBB\xBF" + std::string(text);
  const uint32_t limit = e == Encoding::Ascii ? 0x80 : 0x100;
  std::string out;
  out.reserve(text.size());
  size_t i = 0, charIndex = 0;
  while (i < text.size()) {
    Utf8Step s = utf8Step(text, i);
    size_t len = s.length ? s.length : 1;
    if (s.cp < limit && s.length) {
      out += char(s.cp);
      i += len;
      ++charIndex;
      continue;
    }
    // A run of unencodable characters is one error, as in CPython.
    size_t startChar = charIndex, endChar = charIndex, j = i;
    uint32_t first = s.cp;
    while (j < text.size()) {
      Utf8Step t = utf8Step(text, j);
      if (t.length && t.cp < limit) break;
      j += t.length ? t.length : 1;
      ++endChar;
    }
    switch (lookupHandler(in, errors)) {
    case Handler::Strict: {
      const char *range = e == Encoding::Ascii ? "ordinal not in range(128)" : "ordinal not in range(256)";
      std::string msg =
          endChar - startChar == 1
              ? fmt::format("'{}' codec can't encode character '{}' in position {}: {}", encodingName(e),
                            codePointEscape(first), startChar, range)
              : fmt::format("'{}' codec can't encode characters in position {}-{}: {}", encodingName(e), startChar,
                            endChar - 1, range);
      Value exc = in.newException(in.exceptionClass("UnicodeEncodeError"), msg);
      auto *inst = exc.as<InstanceObject>();
      inst->set("encoding", in.str(encodingName(e)));
      inst->set("object", in.str(std::string(text)));
      inst->set("start", Value::integer(int64_t(startChar)));
      inst->set("end", Value::integer(int64_t(endChar)));
      inst->set("reason", in.str(range));
      in.raiseValue(exc);
    }
    case Handler::Ignore: break;
    case Handler::Replace: out.append(endChar - startChar, '?'); break;
    }
    i = j;
    charIndex = endChar;
  }
  return out;
}

}  // namespace tfs::runtime
