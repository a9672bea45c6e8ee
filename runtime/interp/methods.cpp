// Methods of built-in types: str, bytes, list, tuple, dict, set, property.
// Each is looked up by name on attribute access and bound to its receiver.
#include "runtime/interp/dict_views.h"
#include "runtime/interp/keyword_rules.h"
#include "runtime/interp/unicode_digits.h"
#include "runtime/interp/unicode_text.h"
#include "runtime/interp/float_methods.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/set_ops.h"
#include "runtime/interp/str_translate.h"
#include "runtime/interp/codecs.h"
#include "runtime/interp/signature.h"
#include "runtime/interp/pyformat.h"
#include "runtime/tensor/allocator.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// Argument i of a method call, or TypeError when too few were given.
const Value &argAt(Interpreter &in, Args a, size_t i) {
  if (i >= a.size()) in.raise("TypeError", fmt::format("method expected at least {} argument{}, got {}", i + 1, i ? "s" : "", a.size()));
  return a[i];
}

// The optional [start, end] code-point bounds of str.find / startswith at
// args[first], [first + 1], as code points and byte offsets into s.
struct CodePointWindow {
  int64_t lo, hi;
  size_t blo, bhi;
};
CodePointWindow codePointWindow(Interpreter &in, const std::string &s, Args a, size_t first) {
  int64_t ncp = in.length(in.str(s));
  auto bound = [&](size_t i, int64_t dflt) {
    if (a.size() <= i || a[i].isNone()) return dflt;
    int64_t v = in.toInt(a[i]);
    if (v < 0) v = std::max<int64_t>(0, v + ncp);
    // A start past the end finds nothing, not even "" (CPython).
    return std::min(v, i == first ? ncp + 1 : ncp);
  };
  auto byteOf = [&](int64_t cp) {
    size_t i = 0;
    for (int64_t c = 0; i < s.size(); ++i) {
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) { if (c == cp) break; ++c; }
    }
    return i;
  };
  int64_t lo = bound(first, 0), hi = bound(first + 1, ncp);
  return {lo, hi, byteOf(lo), byteOf(hi)};
}

std::string strip(const std::string &s, const std::string &chars, bool left, bool right) {
  size_t a = 0, b = s.size();
  if (left) while (a < b && chars.find(s[a]) != std::string::npos) ++a;
  if (right) while (b > a && chars.find(s[b - 1]) != std::string::npos) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> splitWs(const std::string &s, int64_t maxsplit) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i >= s.size()) break;
    if (maxsplit >= 0 && int64_t(out.size()) == maxsplit) {
      out.push_back(s.substr(i));  // the rest as it is, trailing whitespace included ("a b ".split(None, 1))
      return out;
    }
    size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// str.rsplit() on whitespace: at most maxsplit cuts counted from the end,
// the remainder kept as it is ("a b  c" -> ["a b", "c"]).
std::vector<std::string> rsplitWs(const std::string &s, int64_t maxsplit) {
  std::vector<std::string> out;
  size_t j = s.size();
  auto space = [&](size_t k) { return std::isspace(static_cast<unsigned char>(s[k])) != 0; };
  while (j > 0) {
    while (j > 0 && space(j - 1)) --j;
    if (j == 0) break;
    if (maxsplit >= 0 && int64_t(out.size()) == maxsplit) {
      out.push_back(s.substr(0, j));  // the rest as it is, leading whitespace included
      break;
    }
    size_t i = j;
    while (i > 0 && !space(i - 1)) --i;
    out.push_back(s.substr(i, j - i));
    j = i;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// str.splitlines(keepends): CPython's line boundaries (\n, \r, \r\n, \v, \f,
// \x1c-\x1e, and in UTF-8 \x85, \u2028, \u2029).
std::vector<std::string> splitLines(const std::string &s, bool keepends) {
  std::vector<std::string> out;
  size_t start = 0, i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    if (c == '\r') len = i + 1 < s.size() && s[i + 1] == '\n' ? 2 : 1;
    else if (c == '\n' || c == '\v' || c == '\f' || c == 0x1c || c == 0x1d || c == 0x1e) len = 1;
    else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x85) len = 2;
    else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
             (static_cast<unsigned char>(s[i + 2]) == 0xa8 || static_cast<unsigned char>(s[i + 2]) == 0xa9))
      len = 3;
    if (!len) {
      ++i;
      continue;
    }
    out.push_back(s.substr(start, i - start + (keepends ? len : 0)));
    i += len;
    start = i;
  }
  if (start < s.size()) out.push_back(s.substr(start));
  return out;
}

Value strMethod(Interpreter &in, const std::string &s, const std::string &name, Args a, const Kwargs &kw) {
  if (name == "translate" || name == "maketrans") return name[0] == 't' ? strTranslate(in, s, a) : strMaketrans(in, a);
  auto arg = [&](size_t i) -> std::string {
    if (i >= a.size()) in.raise("TypeError", fmt::format("{}() missing argument", name));
    auto *v = a[i].as<StrObject>();
    if (!v) in.raise("TypeError", fmt::format("must be str, not {}", in.typeName(a[i])));
    return v->s;
  };
  if (name == "join") {
    std::string out;
    bool first = true;
    for (auto &v : in.toList(argAt(in, a, 0))) {
      auto *p = v.as<StrObject>();
      if (!p) in.raise("TypeError", fmt::format("sequence item {}: expected str instance, {} found", 0, in.typeName(v)));
      if (!first) out += s;
      first = false;
      out += p->s;
    }
    return in.str(out);
  }
  if (name == "format") return in.str(strFormat(in, s, a, kw));
  if (name == "format_map") {
    if (a.size() != 1 || !kw.empty())
      in.raise("TypeError", fmt::format("str.format_map() takes exactly one argument ({} given)", a.size() + kw.size()));
    return in.str(strFormatMap(in, s, a[0]));
  }
  if (name == "split" || name == "rsplit") {
    Value sepv = a.size() > 0 ? a[0] : Value();
    int64_t maxsplit = a.size() > 1 ? in.toInt(a[1]) : -1;
    for (const auto &[k, v] : kw) {
      if (k == "sep") sepv = v;
      if (k == "maxsplit") maxsplit = in.toInt(v);
    }
    std::vector<Value> out;
    if (sepv.isNone()) {
      for (auto &p : name == "rsplit" ? rsplitWs(s, maxsplit) : splitWs(s, maxsplit)) out.push_back(in.str(p));
      return in.list(out);
    }
    std::string sep = in.str(sepv);
    if (sep.empty()) in.raise("ValueError", "empty separator");
    if (name == "rsplit" && maxsplit >= 0) {
      // Split from the right: at most maxsplit cuts, counted from the end.
      size_t end = s.size();
      int64_t n = 0;
      while (n < maxsplit && end >= sep.size()) {
        size_t f = s.rfind(sep, end - sep.size());
        if (f == std::string::npos) break;
        out.insert(out.begin(), in.str(s.substr(f + sep.size(), end - f - sep.size())));
        end = f;
        ++n;
      }
      out.insert(out.begin(), in.str(s.substr(0, end)));
      return in.list(out);
    }
    size_t pos = 0;
    int64_t n = 0;
    for (;;) {
      size_t f = s.find(sep, pos);
      if (f == std::string::npos || (maxsplit >= 0 && n == maxsplit)) break;
      out.push_back(in.str(s.substr(pos, f - pos)));
      pos = f + sep.size();
      ++n;
    }
    out.push_back(in.str(s.substr(pos)));
    return in.list(out);
  }
  if (name == "splitlines") {
    bool keepends = a.size() > 0 && in.truth(a[0]);
    for (const auto &[k, v] : kw)
      if (k == "keepends") keepends = in.truth(v);
    std::vector<Value> out;
    for (auto &line : splitLines(s, keepends)) out.push_back(in.str(line));
    return in.list(out);
  }
  const std::string ws = " \t\n\r\f\v";
  if (name == "strip") return in.str(strip(s, a.empty() || a[0].isNone() ? ws : arg(0), true, true));
  if (name == "lstrip") return in.str(strip(s, a.empty() || a[0].isNone() ? ws : arg(0), true, false));
  if (name == "rstrip") return in.str(strip(s, a.empty() || a[0].isNone() ? ws : arg(0), false, true));
  if (name == "replace") {
    std::string from = arg(0), to = arg(1), out;
    int64_t count = a.size() > 2 ? in.toInt(a[2]) : -1;
    // The result can be far larger than the input ("a" * 10**6 replacing
    // "a" by a long string): past the memory budget it is MemoryError.
    int64_t limit = memoryLimit();
    auto grow = [&](const std::string &piece) {
      if (limit > 0 && int64_t(out.size() + piece.size()) > limit) in.raise("MemoryError", "");
      out += piece;
    };
    if (from.empty()) {
      // CPython inserts `to` before every character and at the end.
      for (size_t i = 0; i <= s.size(); ++i) {
        bool boundary = i == s.size() || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
        if (boundary && count != 0) { grow(to); if (count > 0) --count; }
        if (i < s.size()) out += s[i];
      }
      return in.str(out);
    }
    size_t pos = 0;
    for (;;) {
      size_t f = s.find(from, pos);
      if (f == std::string::npos || count == 0) break;
      grow(s.substr(pos, f - pos));
      grow(to);
      pos = f + from.size();
      if (count > 0) --count;  // negative: no limit
    }
    grow(s.substr(pos));
    return in.str(out);
  }
  if (name == "startswith" || name == "endswith") {
    // s[start:end].startswith(prefix), with CPython's bounds (a start past
    // the end matches nothing, not even "").
    auto [lo, hi, blo, bhi] = codePointWindow(in, s, a, 1);
    bool tuple = argAt(in, a, 0).as<TupleObject>();
    std::vector<Value> opts = tuple ? a[0].as<TupleObject>()->items : std::vector<Value>{a[0]};
    // Each option is checked when reached, as CPython does: "abc".startswith(("a", 1)) is True.
    auto option = [&](const Value &o) -> const std::string & {
      if (auto *str = o.as<StrObject>()) return str->s;
      in.raise("TypeError", tuple ? fmt::format("tuple for {} must only contain str, not {}", name, in.typeName(o))
                                  : fmt::format("{} first arg must be str or a tuple of str, not {}", name,
                                                in.typeName(o)));
    };
    if (lo > hi) {
      for (auto &o : opts) option(o);
      return Value::boolean(false);
    }
    std::string_view window(s.data() + blo, bhi - blo);
    for (auto &o : opts) {
      const std::string &p = option(o);
      bool ok = name == "startswith" ? window.substr(0, p.size()) == p
                                     : window.size() >= p.size() && window.substr(window.size() - p.size()) == p;
      if (ok) return Value::boolean(true);
    }
    return Value::boolean(false);
  }
  if (name == "upper" || name == "lower" || name == "title" || name == "capitalize" || name == "swapcase" ||
      name == "casefold") {
    if (!isAsciiText(s)) {
      CaseOp op = name == "upper"        ? CaseOp::Upper
                  : name == "lower"      ? CaseOp::Lower
                  : name == "title"      ? CaseOp::Title
                  : name == "capitalize" ? CaseOp::Capitalize
                  : name == "swapcase"   ? CaseOp::Swapcase
                                         : CaseOp::Casefold;
      return in.str(unicodeCaseMap(s, op));
    }
    std::string out = s;
    bool start = true;
    for (size_t i = 0; i < out.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(out[i]);
      if (name == "upper") out[i] = char(std::toupper(c));
      else if (name == "lower" || name == "casefold") out[i] = char(std::tolower(c));
      else if (name == "swapcase") out[i] = char(std::isupper(c) ? std::tolower(c) : std::toupper(c));
      else if (name == "capitalize") out[i] = char(i == 0 ? std::toupper(c) : std::tolower(c));
      else {
        out[i] = char(start ? std::toupper(c) : std::tolower(c));
        start = !std::isalpha(c);
      }
    }
    return in.str(out);
  }
  if (name == "find" || name == "index" || name == "rfind" || name == "rindex") {
    std::string sub = arg(0);
    auto [lo, hi, blo, bhi] = codePointWindow(in, s, a, 1);
    size_t f = std::string::npos;
    if (lo <= hi && bhi - blo >= sub.size()) {
      std::string window = s.substr(blo, bhi - blo);
      size_t w = name[0] == 'r' ? window.rfind(sub) : window.find(sub);
      if (w != std::string::npos) f = blo + w;
    }
    if (f == std::string::npos) {
      if (name.find("index") != std::string::npos) in.raise("ValueError", "substring not found");
      return Value::integer(-1);
    }
    // Convert the byte offset to a code-point index.
    int64_t cp = 0;
    for (size_t i = 0; i < f; ++i) if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++cp;
    return Value::integer(cp);
  }
  if (name == "count") {
    // str.count(sub[, start[, end]]) over the code-point window, as find.
    std::string sub = arg(0);
    auto [lo, hi, blo, bhi] = codePointWindow(in, s, a, 1);
    if (lo > hi) return Value::integer(0);
    if (sub.empty()) return Value::integer(hi - lo + 1);
    std::string window = s.substr(blo, bhi - blo);
    int64_t n = 0;
    for (size_t pos = window.find(sub); pos != std::string::npos; pos = window.find(sub, pos + sub.size())) ++n;
    return Value::integer(n);
  }
  // A width past the memory budget is CPython's MemoryError up front (the
  // padding cannot be allocated), not minutes of appending first.
  auto checkWidth = [&](int64_t w, size_t unitBytes) {
    int64_t limit = memoryLimit();
    if (limit > 0 && w > 0 && uint64_t(w) > uint64_t(limit) / std::max<size_t>(unitBytes, 1))
      in.raise("MemoryError", "");
  };
  if (name == "ljust" || name == "rjust" || name == "center") {
    int64_t w = in.toIndex(argAt(in, a, 0));
    std::string fill = a.size() > 1 ? arg(1) : " ";
    checkWidth(w, fill.size());
    int64_t len = in.length(in.str(s));
    if (w <= len) return in.str(s);
    int64_t padn = w - len;
    auto rep = [&](int64_t n) { std::string o; for (int64_t i = 0; i < n; ++i) o += fill; return o; };
    if (name == "ljust") return in.str(s + rep(padn));
    if (name == "rjust") return in.str(rep(padn) + s);
    int64_t left = padn / 2 + (padn & w & 1);
    return in.str(rep(left) + s + rep(padn - left));
  }
  if (name == "zfill") {
    int64_t w = in.toIndex(argAt(in, a, 0));
    int64_t len = int64_t(s.size());
    if (w <= len) return in.str(s);
    checkWidth(w, 1);
    bool sign = !s.empty() && (s[0] == '-' || s[0] == '+');
    return in.str((sign ? s.substr(0, 1) : "") + std::string(size_t(w - len), '0') + (sign ? s.substr(1) : s));
  }
  auto all = [&](auto pred) {
    if (s.empty()) return Value::boolean(false);
    for (unsigned char c : s) if (!pred(c)) return Value::boolean(false);
    return Value::boolean(true);
  };
  if (name == "isascii") return Value::boolean(isAsciiText(s));
  if (name == "isdigit" || name == "isdecimal") {
    // Unicode's digits (unicode_digits.h): '٣'.isdecimal() is True, '²'.isdigit() too.
    bool digit = name == "isdigit", any = false;
    for (size_t i = 0; i < s.size();) {
      char32_t cp = nextCodePoint(s, i);
      if (!(digit ? isUnicodeDigit(cp) : unicodeDecimalValue(cp) >= 0)) return Value::boolean(false);
      any = true;
    }
    return Value::boolean(any);
  }
  // Non-ASCII text: CPython's rules over Unicode's properties (unicode_text.h).
  if (name == "istitle" || name == "isprintable" ||
      (!isAsciiText(s) && (name == "isnumeric" || name == "isalpha" || name == "isalnum" || name == "isspace" ||
                           name == "isupper" || name == "islower" || name == "isidentifier"))) {
    StrTest t = name == "istitle"       ? StrTest::Title
                : name == "isprintable" ? StrTest::Printable
                : name == "isnumeric"   ? StrTest::Numeric
                : name == "isalpha"     ? StrTest::Alpha
                : name == "isalnum"     ? StrTest::Alnum
                : name == "isspace"     ? StrTest::Space
                : name == "isupper"     ? StrTest::Upper
                : name == "islower"     ? StrTest::Lower
                                        : StrTest::Identifier;
    return Value::boolean(unicodeStrTest(s, t));
  }
  if (name == "isnumeric") return all([](unsigned char c) { return std::isdigit(c) != 0; });
  if (name == "isalpha") return all([](unsigned char c) { return std::isalpha(c) != 0; });
  if (name == "isalnum") return all([](unsigned char c) { return std::isalnum(c) != 0; });
  // CPython counts the information separators \x1c-\x1f as white space.
  if (name == "isspace") return all([](unsigned char c) { return std::isspace(c) != 0 || (c >= 0x1c && c <= 0x1f); });
  if (name == "isupper" || name == "islower") {
    bool cased = false;
    for (unsigned char c : s) {
      if (std::isalpha(c)) {
        cased = true;
        if (name == "isupper" ? std::islower(c) : std::isupper(c)) return Value::boolean(false);
      }
    }
    return Value::boolean(cased);
  }
  if (name == "isidentifier") {
    bool ok = !s.empty() && !std::isdigit(static_cast<unsigned char>(s[0]));
    for (unsigned char c : s) ok = ok && (std::isalnum(c) || c == '_' || c >= 0x80);
    return Value::boolean(ok);
  }
  if (name == "encode") {
    static const Signature sig("encode(encoding='utf-8', errors='strict')");
    Bound b = sig.bind(in, a, kw);
    return Value(make<BytesObject>(encodeText(in, s, lookupEncoding(in, in.str(b[0])), in.str(b[1]))));
  }
  if (name == "rpartition") {
    std::string sep = arg(0);
    size_t f = s.rfind(sep);
    if (f == std::string::npos) return in.tuple({in.str(""), in.str(""), in.str(s)});
    return in.tuple({in.str(s.substr(0, f)), in.str(sep), in.str(s.substr(f + sep.size()))});
  }
  if (name == "expandtabs") {
    // Columns count code points; a newline or carriage return restarts them.
    static const Signature sig("expandtabs(tabsize=8)");
    int64_t tab = in.toIndex(sig.bind(in, a, kw)[0]), column = 0;
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == '\t') {
        if (tab > 0) {
          int64_t n = tab - column % tab;
          out.append(size_t(n), ' ');
          column += n;
        }
        continue;
      }
      out += c;
      if (c == '\n' || c == '\r') column = 0;
      else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
    }
    return in.str(out);
  }
  if (name == "removeprefix" || name == "removesuffix") {
    std::string affix = arg(0);
    bool prefix = name == "removeprefix";
    if (s.size() >= affix.size() && (prefix ? s.compare(0, affix.size(), affix) == 0
                                            : s.compare(s.size() - affix.size(), affix.size(), affix) == 0))
      return in.str(prefix ? s.substr(affix.size()) : s.substr(0, s.size() - affix.size()));
    return in.str(s);
  }
  if (name == "partition") {
    std::string sep = arg(0);
    size_t f = s.find(sep);
    if (f == std::string::npos) return in.tuple({in.str(s), in.str(""), in.str("")});
    return in.tuple({in.str(s.substr(0, f)), in.str(sep), in.str(s.substr(f + sep.size()))});
  }
  in.raise("AttributeError", fmt::format("'str' object has no attribute '{}'", name));
}

void checkArgs(Interpreter &in, const char *type, const std::string &name, Args a, size_t lo, size_t hi) {
  if (a.size() >= lo && a.size() <= hi) return;
  // CPython's wording for methods of one argument and of none.
  if (lo == hi && hi <= 1)
    in.raise("TypeError", fmt::format("{}.{}() takes {} ({} given)", type, name,
                                      hi == 1 ? "exactly one argument" : "no arguments", a.size()));
  in.raise("TypeError", fmt::format("{}.{}() takes {} argument{} ({} given)", type, name,
                                      lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
                                      hi == 1 ? "" : "s", a.size()));
}

Value listMethod(Interpreter &in, ListObject &l, const Value &self, const std::string &name, Args a, const Kwargs &kw) {
  auto &v = l.items;
  if (name == "append") { checkArgs(in, "list", name, a, 1, 1); v.push_back(a[0]); return Value(); }
  if (name == "extend") { for (auto &x : in.toList(argAt(in, a, 0))) v.push_back(x); return Value(); }
  if (name == "insert") {
    int64_t i = in.toIndex(argAt(in, a, 0)), n = int64_t(v.size());
    if (i < 0) i = std::max<int64_t>(0, i + n);
    v.insert(v.begin() + long(std::min(i, n)), argAt(in, a, 1));
    return Value();
  }
  if (name == "pop") {
    if (v.empty()) in.raise("IndexError", "pop from empty list");
    int64_t i = a.empty() ? int64_t(v.size()) - 1 : in.toInt(a[0]);
    if (i < 0) i += int64_t(v.size());
    if (i < 0 || i >= int64_t(v.size())) in.raise("IndexError", "pop index out of range");
    Value x = v[size_t(i)];
    v.erase(v.begin() + long(i));
    return x;
  }
  if (name == "remove") {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].is(argAt(in, a, 0)) || in.equals(v[i], a[0])) { v.erase(v.begin() + long(i)); return Value(); }
    in.raise("ValueError", "list.remove(x): x not in list");
  }
  if (name == "index") {
    for (size_t i = 0; i < v.size(); ++i)
      if (v[i].is(argAt(in, a, 0)) || in.equals(v[i], a[0])) return Value::integer(int64_t(i));
    in.raise("ValueError", fmt::format("{} is not in list", in.repr(a[0])));
  }
  if (name == "count") {
    int64_t n = 0;
    for (auto &x : v) if (x.is(argAt(in, a, 0)) || in.equals(x, a[0])) ++n;
    return Value::integer(n);
  }
  if (name == "clear") { v.clear(); return Value(); }
  if (name == "copy") return in.list(v);
  if (name == "reverse") { std::reverse(v.begin(), v.end()); return Value(); }
  if (name == "sort") {
    Value key, rev = Value::boolean(false);
    for (const auto &[k, x] : kw) { if (k == "key") key = x; if (k == "reverse") rev = x; }
    std::vector<Value> keys = v;
    if (!key.isNone()) for (auto &k : keys) k = in.call(key, std::vector<Value>{k});
    std::vector<size_t> idx(v.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    bool r = in.truth(rev);
    std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
      return r ? in.truth(in.compare(CmpOp::Lt, keys[y], keys[x])) : in.truth(in.compare(CmpOp::Lt, keys[x], keys[y]));
    });
    std::vector<Value> out;
    for (size_t i : idx) out.push_back(v[i]);
    v = std::move(out);
    return Value();
  }
  in.raise("AttributeError", fmt::format("'list' object has no attribute '{}'", name));
}

Value dictMethod(Interpreter &in, DictObject &d, const std::string &name, Args a, const Kwargs &kw) {
  if (name == "keys" || name == "values" || name == "items") return newDictView(name, Ref<DictObject>(&d));
  if (name == "popitem") {
    auto items = d.items();
    if (items.empty()) in.raiseValue(newKeyError(in, in.str("popitem(): dictionary is empty")));
    d.erase(in, items.back().first);
    return in.tuple({items.back().first, items.back().second});
  }
  if (name == "get") {
    if (a.empty() || a.size() > 2)
      in.raise("TypeError", fmt::format("get expected at {} {} argument{}, got {}", a.empty() ? "least" : "most",
                                        a.empty() ? 1 : 2, a.empty() ? "" : "s", a.size()));
    auto v = d.get(in, argAt(in, a, 0));
    return v ? *v : (a.size() > 1 ? a[1] : Value());
  }
  if (name == "setdefault") {
    if (auto v = d.get(in, argAt(in, a, 0))) return *v;
    Value dv = a.size() > 1 ? a[1] : Value();
    d.set(in, a[0], dv);
    return dv;
  }
  if (name == "pop") {
    auto v = d.get(in, argAt(in, a, 0));
    if (!v) {
      if (a.size() > 1) return a[1];
      in.raiseValue(newKeyError(in, a[0]));
    }
    d.erase(in, a[0]);
    return *v;
  }
  if (name == "update") {
    if (!a.empty()) dictUpdateFrom(in, d, a[0]);
    for (const auto &[k, v] : kw) d.set(in, in.str(k), v);
    return Value();
  }
  if (name == "copy") {
    auto c = make<DictObject>();
    for (auto &[k, v] : d.items()) c->set(in, k, v);
    return c;
  }
  if (name == "clear") {
    d.entries.clear();
    d.index.clear();
    d.liveCount = 0;
    return Value();
  }
  in.raise("AttributeError", fmt::format("'dict' object has no attribute '{}'", name));
}

}  // namespace

Value dictFromKeysOf(Interpreter &in, const Value &cls) {
  return in.native("fromkeys", [cls](Interpreter &in, Args a, const Kwargs &kw) -> Value {
    if (!kw.empty()) in.raise("TypeError", "dict.fromkeys() takes no keyword arguments");
    if (a.empty()) in.raise("TypeError", "fromkeys expected at least 1 argument, got 0");
    if (a.size() > 2) in.raise("TypeError", fmt::format("fromkeys expected at most 2 arguments, got {}", a.size()));
    Value value = a.size() > 1 ? a[1] : Value();
    auto *c = cls.as<ClassObject>();
    if (c && c->name == "dict" && c->construct) {
      auto d = make<DictObject>();
      for (auto &k : in.toList(a[0])) d->set(in, k, value);
      return Value(d);
    }
    Value d = in.call(cls, {});
    for (auto &k : in.toList(a[0])) in.setItem(d, k, value);
    return d;
  });
}

Value newKeyError(Interpreter &in, const Value &key) {
  Value e = in.newException(in.exceptionClass("KeyError"), "");
  e.as<InstanceObject>()->set("args", in.tuple({key}));
  return e;
}

std::optional<Value> builtinMethod(Interpreter &in, const Value &self, const std::string &name) {
  // The method's keywords are checked as CPython's (keyword_rules.h).
  auto bind = [&](auto fn) -> Value {
    return in.native(name, [self, name, fn](Interpreter &in, Args a, const Kwargs &kw) {
      if (!kw.empty()) checkBuiltinKeywords(in, in.typeName(self) + std::string(".") + name, kw);
      return fn(in, self, name, a, kw);
    });
  };
  static const std::vector<std::string> strMethods = {
      "join", "format", "format_map", "split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "replace",
      "startswith", "endswith", "upper", "lower", "title", "capitalize", "swapcase", "find", "index",
      "rfind", "rindex", "count", "ljust", "rjust", "center", "zfill", "isdigit", "isnumeric",
      "isdecimal", "isalpha", "isalnum", "isspace", "isupper", "islower", "isidentifier", "isascii", "encode", "casefold", "istitle", "isprintable",
      "partition", "rpartition", "removeprefix", "removesuffix", "expandtabs", "translate", "maketrans"};
  // Only the methods a builtin container has are attributes (hasattr([],
  // "as_list") is False, as in CPython).
  static const std::vector<std::string> listMethods = {
      "append", "extend", "insert", "remove", "pop", "clear", "index", "count", "sort", "reverse", "copy"};
  static const std::vector<std::string> dictMethods = {
      "keys", "values", "items", "get", "pop", "popitem", "setdefault", "update", "clear", "copy", "fromkeys"};
  static const std::vector<std::string> setMethods = {
      "add", "discard", "remove", "pop", "clear", "copy", "union", "intersection", "difference",
      "symmetric_difference", "update", "intersection_update", "difference_update",
      "symmetric_difference_update", "issubset", "issuperset", "isdisjoint"};
  // (Dunder names keep their operator forms: d.__or__, l.__len__.)
  bool dunder = name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0;
  auto lacks = [&](const std::vector<std::string> &names) {
    return !dunder && std::find(names.begin(), names.end(), name) == names.end();
  };
  if ((self.as<ListObject>() && lacks(listMethods)) || (self.as<DictObject>() && lacks(dictMethods)) ||
      (self.as<SetObject>() && lacks(setMethods)))
    return std::nullopt;
  static const std::vector<std::string> frozensetMethods = {
      "copy", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint"};
  if (auto *st = self.as<SetObject>(); st && st->frozen && lacks(frozensetMethods)) return std::nullopt;
  if (self.as<StrObject>() && std::find(strMethods.begin(), strMethods.end(), name) == strMethods.end())
    return std::nullopt;
  if (self.as<StrObject>())
    return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &kw) {
      return strMethod(in, s.as<StrObject>()->s, n, a, kw);
    });
  if (self.as<BytesObject>()) return bytesMethodOf(in, self, name);
  auto known = [&](std::initializer_list<const char *> names) {
    for (const char *n : names)
      if (name == n) return true;
    return false;
  };
  if (self.as<ListObject>() && !known({"append", "extend", "insert", "pop", "remove", "index", "count", "clear",
                                       "copy", "reverse", "sort"}))
    return std::nullopt;
  if (self.as<DictObject>() && !known({"keys", "values", "items", "popitem", "get", "setdefault", "pop", "update",
                                       "copy", "clear", "fromkeys"}))
    return std::nullopt;
  if (self.as<SetObject>() && !known({"add", "discard", "remove", "update", "union", "intersection", "difference",
                                      "symmetric_difference", "issubset", "issuperset", "isdisjoint", "copy", "pop",
                                      "clear", "difference_update", "intersection_update",
                                      "symmetric_difference_update"}))
    return std::nullopt;
  if (self.as<ListObject>())
    return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &kw) {
      return listMethod(in, *s.as<ListObject>(), s, n, a, kw);
    });
  if (self.as<TupleObject>()) {
    if (name != "index" && name != "count") return std::nullopt;
    return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &kw) {
      ListObject tmp(s.as<TupleObject>()->items);
      return listMethod(in, tmp, s, n, a, kw);
    });
  }
  if (self.as<DictObject>() && name == "fromkeys") return dictFromKeysOf(in, Value(in.typeOf(self)));
  if (self.as<DictObject>())
    return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &kw) {
      return dictMethod(in, *s.as<DictObject>(), n, a, kw);
    });
  if (self.as<SetObject>())
    return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &) {
      return setMethod(in, *s.as<SetObject>(), n, a);
    });
  if (auto *p = self.as<PropertyObject>()) {
    if (name == "setter" || name == "getter" || name == "deleter") {
      Ref<PropertyObject> old(p);
      return in.native(name, [old, name](Interpreter &, Args a, const Kwargs &) -> Value {
        auto np = make<PropertyObject>();
        np->getter = name == "getter" ? a[0] : old->getter;
        np->setter = name == "setter" ? a[0] : old->setter;
        np->deleter = name == "deleter" ? a[0] : old->deleter;
        np->doc = old->doc;
        return np;
      });
    }
    if (name == "fget") return p->getter;
    if (name == "fset") return p->setter;
    if (name == "fdel") return p->deleter;
    if (name == "__doc__") return p->doc.isNone() && !p->getter.isNone() ? in.getAttrOpt(p->getter, "__doc__").value_or(Value()) : p->doc;
  }
  // classmethod / staticmethod: the wrapped function (__func__), and abc's
  // __isabstractmethod__ read through it as CPython's descriptors do.
  const Value *wrapped = nullptr;
  if (auto *cm = self.as<ClassMethodObject>()) wrapped = &cm->func;
  if (auto *sm = self.as<StaticMethodObject>()) wrapped = &sm->func;
  if (wrapped) {
    if (name == "__func__" || name == "__wrapped__") return *wrapped;
    // The descriptor protocol called by hand: sm.__get__(obj, cls) is the
    // function, cm.__get__(obj, cls) the function bound to the class.
    if (name == "__get__") {
      bool isClassMethod = self.as<ClassMethodObject>() != nullptr;
      Value func = *wrapped;
      return in.native("__get__", [isClassMethod, func](Interpreter &in, Args a, const Kwargs &) -> Value {
        if (a.empty() || a.size() > 2) in.raise("TypeError", fmt::format("expected 1 or 2 arguments, got {}", a.size()));
        if (!isClassMethod) return func;
        Value owner = a.size() == 2 && !a[1].isNone() ? a[1] : Value(in.typeOf(a[0]));
        return Value(make<BoundMethod>(owner, func));
      });
    }
    if (name == "__isabstractmethod__") {
      auto flag = in.getAttrOpt(*wrapped, "__isabstractmethod__");
      return Value::boolean(flag && in.truth(*flag));
    }
  }
  if (auto *sl = self.as<SliceObject>()) {
    if (name == "start") return sl->lower;
    if (name == "stop") return sl->upper;
    if (name == "step") return sl->step;
    if (name == "indices")
      return bind([](Interpreter &in, const Value &s, const std::string &, Args a, const Kwargs &) -> Value {
        // CPython's slice.indices(length): the bounds clamped to the length.
        const auto *sl = s.as<SliceObject>();
        if (a.size() != 1) in.raise("TypeError", fmt::format("indices() takes exactly one argument ({} given)", a.size()));
        int64_t length = in.toInt(a[0]);
        if (length < 0) in.raise("ValueError", "length should not be negative");
        int64_t step = sl->step.isNone() ? 1 : in.toInt(sl->step);
        if (step == 0) in.raise("ValueError", "slice step cannot be zero");
        int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? length - 1 : length;
        auto clamp = [&](const Value &b, int64_t dflt) {
          if (b.isNone()) return dflt;
          int64_t x = in.toInt(b);
          if (x < 0) return std::max(x + length, lo);
          return std::min(x, hi);
        };
        int64_t start = clamp(sl->lower, step < 0 ? hi : lo), stop = clamp(sl->upper, step < 0 ? lo : hi);
        return in.tuple({Value::integer(start), Value::integer(stop), Value::integer(step)});
      });
  }
  if (auto *r = self.as<RangeObject>()) {
    if (name == "start") return Value::integer(r->start);
    if (name == "stop") return Value::integer(r->stop);
    if (name == "step") return Value::integer(r->step);
    if (name == "index" || name == "count")
      return bind([](Interpreter &in, const Value &s, const std::string &n, Args a, const Kwargs &kw) {
        // An int argument is answered by arithmetic (range(10**18).index(5)
        // must not build a list); anything else compares element by element.
        const auto *r = s.as<RangeObject>();
        if (a.size() == 1 && (a[0].isInt() || a[0].isBool())) {
          bool in_ = rangeContains(*r, a[0].asInt());
          if (n == "count") return Value::integer(in_ ? 1 : 0);
          if (!in_) in.raise("ValueError", fmt::format("{} is not in range", in.repr(a[0])));
          return Value::integer(int64_t((__int128(a[0].asInt()) - r->start) / r->step));
        }
        ListObject tmp(in.toList(s));
        if (n == "index" && !tmp.items.empty() && a.size() == 1 && !in.contains(s, a[0]))
          in.raise("ValueError", fmt::format("{} is not in range", in.repr(a[0])));
        return listMethod(in, tmp, s, n, a, kw);
      });
  }
  if (self.isFloat() && name == "is_integer") {
    double d = self.asFloat();
    return in.native(name, [d](Interpreter &, Args, const Kwargs &) { return Value::boolean(d == std::floor(d)); });
  }
  if (self.isFloat() && (name == "hex" || name == "as_integer_ratio")) {
    double d = self.asFloat();
    return in.native(name, [d, name](Interpreter &in, Args a, const Kwargs &kw) {
      static const Signature sig("hex()");
      sig.bind(in, a, kw);
      return name == "hex" ? in.str(floatHex(d)) : floatAsIntegerRatio(in, d);
    });
  }
  if ((self.isInt() || self.isFloat()) && (name == "real")) return self;
  if (self.isFloat() && name == "imag") return Value::real(0.0);
  if (self.isFloat() && name == "conjugate") {
    double d = self.asFloat();
    return in.native(name, [d](Interpreter &in, Args a, const Kwargs &kw) {
      static const Signature sig("conjugate()");
      sig.bind(in, a, kw);
      return Value::real(d);
    });
  }
  if (self.isInt() || self.isBool()) {
    int64_t v = self.asInt();
    uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    if (name == "imag") return Value::integer(0);
    if (name == "numerator" || name == "real") return Value::integer(v);
    if (name == "denominator") return Value::integer(1);
    if (name == "bit_length" || name == "bit_count" || name == "conjugate" || name == "as_integer_ratio")
      return in.native(name, [v, mag, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
        static const Signature sig("bit_length()");
        sig.bind(in, a, kw);
        if (name == "bit_length") return Value::integer(mag ? 64 - __builtin_clzll(mag) : 0);
        if (name == "bit_count") return Value::integer(__builtin_popcountll(mag));
        if (name == "conjugate") return Value::integer(v);
        return in.tuple({Value::integer(v), Value::integer(1)});
      });
    if (name == "to_bytes")
      return in.native(name, [self](Interpreter &in, Args a, const Kwargs &kw) { return intToBytes(in, self, a, kw); });
  }
  return std::nullopt;
}

}  // namespace tfs::runtime
