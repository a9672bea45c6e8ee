// bytes and bytearray: their constructors and methods, with CPython's
// byte-wise (ASCII) semantics and error messages. A bytearray is a
// BytesObject marked mutable: the shared methods return the receiver's kind.
#include "runtime/interp/builtins.h"
#include "runtime/interp/bytes_translate.h"
#include "runtime/interp/codecs.h"
#include "runtime/interp/signature.h"

#include <algorithm>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

Value makeLike(const BytesObject &like, std::string s) {
  auto out = make<BytesObject>(std::move(s));
  out->isMutable = like.isMutable;
  return Value(out);
}

// A bytes-like argument (bytes or bytearray), as CPython's buffer protocol.
const std::string &bytesArg(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(v)));
}

// The byte to find: an int in range(256) or a bytes-like value.
std::string needleArg(Interpreter &in, const Value &v) {
  if (v.isInt() || v.isBool()) {
    int64_t x = v.asInt();
    if (x < 0 || x > 255) in.raise("ValueError", "byte must be in range(0, 256)");
    return std::string(1, char(x));
  }
  if (auto *b = v.as<BytesObject>()) return b->s;
  in.raise("TypeError", fmt::format("argument should be integer or bytes-like object, not '{}'", in.typeName(v)));
}

// CPython's slice-style [start, end) window of find/count/startswith.
std::pair<size_t, size_t> window(Interpreter &in, size_t n, const Value &start, const Value &end) {
  auto clamp = [&](const Value &v, int64_t dflt) {
    if (v.isNone()) return dflt;
    int64_t x = in.toIndex(v);
    if (x < 0) x = std::max<int64_t>(0, x + int64_t(n));
    return std::min<int64_t>(x, int64_t(n));
  };
  int64_t lo = clamp(start, 0), hi = clamp(end, int64_t(n));
  if (!start.isNone() && in.toIndex(start) > int64_t(n)) lo = int64_t(n) + 1;  // past the end: finds nothing
  return {size_t(lo), size_t(std::max(lo, hi))};
}

bool isAsciiSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool isAsciiLower(char c) { return c >= 'a' && c <= 'z'; }
bool isAsciiUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isAsciiAlpha(char c) { return isAsciiLower(c) || isAsciiUpper(c); }
char toLower(char c) { return isAsciiUpper(c) ? char(c + 32) : c; }
char toUpper(char c) { return isAsciiLower(c) ? char(c - 32) : c; }

std::vector<std::string> splitBytes(Interpreter &in, const std::string &s, const Value &sepV, int64_t maxsplit,
                                    bool fromRight) {
  std::vector<std::string> out;
  if (maxsplit < 0) maxsplit = INT64_MAX;
  if (sepV.isNone()) {
    // Runs of ASCII whitespace separate; none at either end.
    if (!fromRight) {
      size_t i = 0;
      while (true) {
        while (i < s.size() && isAsciiSpace(s[i])) ++i;
        if (i >= s.size()) break;
        if (int64_t(out.size()) == maxsplit) { out.push_back(s.substr(i)); break; }
        size_t j = i;
        while (j < s.size() && !isAsciiSpace(s[j])) ++j;
        out.push_back(s.substr(i, j - i));
        i = j;
      }
    } else {
      size_t i = s.size();
      while (true) {
        while (i > 0 && isAsciiSpace(s[i - 1])) --i;
        if (i == 0) break;
        if (int64_t(out.size()) == maxsplit) { out.push_back(s.substr(0, i)); break; }
        size_t j = i;
        while (j > 0 && !isAsciiSpace(s[j - 1])) --j;
        out.push_back(s.substr(j, i - j));
        i = j;
      }
      std::reverse(out.begin(), out.end());
    }
    return out;
  }
  const std::string &sep = bytesArg(in, sepV);
  if (sep.empty()) in.raise("ValueError", "empty separator");
  if (!fromRight) {
    size_t i = 0;
    for (int64_t k = 0; k < maxsplit; ++k) {
      size_t j = s.find(sep, i);
      if (j == std::string::npos) break;
      out.push_back(s.substr(i, j - i));
      i = j + sep.size();
    }
    out.push_back(s.substr(i));
  } else {
    size_t end = s.size();
    for (int64_t k = 0; k < maxsplit && end >= sep.size(); ++k) {
      size_t j = s.rfind(sep, end - sep.size());
      if (j == std::string::npos) break;
      out.push_back(s.substr(j + sep.size(), end - j - sep.size()));
      end = j;
    }
    out.push_back(s.substr(0, end));
    std::reverse(out.begin(), out.end());
  }
  return out;
}

Value bytesList(const BytesObject &like, Interpreter &in, const std::vector<std::string> &parts) {
  std::vector<Value> items;
  for (auto &p : parts) items.push_back(makeLike(like, p));
  return in.list(std::move(items));
}

std::string stripBytes(Interpreter &in, const std::string &s, const Value &chars, bool left, bool right) {
  auto strip = [&](char c) {
    if (chars.isNone()) return isAsciiSpace(c);
    return bytesArg(in, chars).find(c) != std::string::npos;
  };
  size_t a = 0, b = s.size();
  if (left) while (a < b && strip(s[a])) ++a;
  if (right) while (b > a && strip(s[b - 1])) --b;
  return s.substr(a, b - a);
}

Value pad(Interpreter &in, const BytesObject &self, const Bound &b, const std::string &how) {
  int64_t width = in.toIndex(b[0]);
  static const std::string space = " ";
  const std::string &fill = b[1].isNone() && !b.given("fillchar") ? space : bytesArg(in, b[1]);
  if (fill.size() != 1)
    in.raise("TypeError", fmt::format("{}() argument 2 must be a byte string of length 1, not {}", how,
                                      in.typeName(b[1])));
  const std::string &s = self.s;
  if (width <= int64_t(s.size())) return makeLike(self, s);
  size_t total = size_t(width) - s.size();
  size_t left = how == "ljust" ? 0 : how == "rjust" ? total : total / 2 + (total & size_t(width) & 1);
  return makeLike(self, std::string(left, fill[0]) + s + std::string(total - left, fill[0]));
}

Value predicate(const std::string &s, const std::string &name) {
  if (name == "isascii")  // b''.isascii() is True
    return Value::boolean(std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 128; }));
  if (s.empty()) return Value::boolean(false);
  auto all = [&](bool (*f)(char)) { return std::all_of(s.begin(), s.end(), f); };
  if (name == "isdigit") return Value::boolean(all(isAsciiDigit));
  if (name == "isalpha") return Value::boolean(all(isAsciiAlpha));
  if (name == "isalnum") return Value::boolean(all([](char c) { return isAsciiAlpha(c) || isAsciiDigit(c); }));
  if (name == "isspace") return Value::boolean(all(isAsciiSpace));
  bool anyCased = std::any_of(s.begin(), s.end(), isAsciiAlpha);
  if (name == "isupper") return Value::boolean(anyCased && !std::any_of(s.begin(), s.end(), isAsciiLower));
  return Value::boolean(anyCased && !std::any_of(s.begin(), s.end(), isAsciiUpper));  // islower
}

Value findLike(Interpreter &in, const std::string &s, const std::string &name, const Bound &b) {
  std::string sub = needleArg(in, b[0]);
  auto [lo, hi] = window(in, s.size(), b[1], b[2]);
  if (lo > s.size()) {
    if (name == "count") return Value::integer(0);
    if (name == "index" || name == "rindex") in.raise("ValueError", "subsection not found");
    return Value::integer(-1);
  }
  std::string_view view(s.data() + lo, hi - lo);
  if (name == "count") {
    if (sub.empty()) return Value::integer(int64_t(view.size()) + 1);
    int64_t n = 0;
    for (size_t p = view.find(sub); p != std::string_view::npos; p = view.find(sub, p + sub.size())) ++n;
    return Value::integer(n);
  }
  size_t p = name[0] == 'r' ? view.rfind(sub) : view.find(sub);
  if (p == std::string_view::npos) {
    if (name == "index" || name == "rindex") in.raise("ValueError", "subsection not found");
    return Value::integer(-1);
  }
  return Value::integer(int64_t(lo + p));
}

Value affix(Interpreter &in, const std::string &s, const std::string &name, const Bound &b) {
  const auto bounds = window(in, s.size(), b[1], b[2]);
  const size_t lo = bounds.first, hi = bounds.second;  // (lambdas below cannot capture bindings under clang-14)
  auto test = [&](const Value &v) {
    auto *x = v.as<BytesObject>();
    if (!x)
      in.raise("TypeError", fmt::format("{} first arg must be bytes or a tuple of bytes, not {}", name, in.typeName(v)));
    if (lo > s.size() || hi - lo < x->s.size()) return false;
    return name == "startswith" ? s.compare(lo, x->s.size(), x->s) == 0
                                : s.compare(hi - x->s.size(), x->s.size(), x->s) == 0;
  };
  if (auto *t = b[0].as<TupleObject>()) {
    for (auto &v : t->items)
      if (test(v)) return Value::boolean(true);
    return Value::boolean(false);
  }
  return Value::boolean(test(b[0]));
}

Value mutate(Interpreter &in, BytesObject &self, const std::string &name, Args a, const Kwargs &kw) {
  auto byteValue = [&](const Value &v) {
    int64_t x = in.toIndex(v);
    if (x < 0 || x > 255) in.raise("ValueError", "byte must be in range(0, 256)");
    return char(x);
  };
  if (name == "append") {
    static const Signature sig("append(item, /)");
    self.s += byteValue(sig.bind(in, a, kw)[0]);
  } else if (name == "extend") {
    static const Signature sig("extend(iterable_of_ints, /)");
    Bound b = sig.bind(in, a, kw);
    if (auto *x = b[0].as<BytesObject>()) self.s += x->s;
    else if (b[0].as<StrObject>()) in.raise("TypeError", "expected iterable of integers; got: 'str'");
    else for (auto &v : in.toList(b[0])) self.s += byteValue(v);
  } else if (name == "pop") {
    static const Signature sig("pop(index=-1, /)");
    Bound b = sig.bind(in, a, kw);
    if (self.s.empty()) in.raise("IndexError", "pop from empty bytearray");
    int64_t i = in.toIndex(b[0]), n = int64_t(self.s.size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) in.raise("IndexError", "pop index out of range");
    int64_t v = static_cast<unsigned char>(self.s[size_t(i)]);
    self.s.erase(size_t(i), 1);
    return Value::integer(v);
  } else if (name == "insert") {
    static const Signature sig("insert(index, item, /)");
    Bound b = sig.bind(in, a, kw);
    int64_t i = in.toIndex(b[0]), n = int64_t(self.s.size());
    if (i < 0) i = std::max<int64_t>(0, i + n);
    self.s.insert(size_t(std::min(i, n)), 1, byteValue(b[1]));
  } else if (name == "remove") {
    static const Signature sig("remove(value, /)");
    char c = byteValue(sig.bind(in, a, kw)[0]);
    size_t p = self.s.find(c);
    if (p == std::string::npos) in.raise("ValueError", "value not found in bytearray");
    self.s.erase(p, 1);
  } else if (name == "clear") {
    static const Signature sig("clear()");
    sig.bind(in, a, kw);
    self.s.clear();
  } else if (name == "reverse") {
    static const Signature sig("reverse()");
    sig.bind(in, a, kw);
    std::reverse(self.s.begin(), self.s.end());
  } else {  // copy
    static const Signature sig("copy()");
    sig.bind(in, a, kw);
    return makeLike(self, self.s);
  }
  return Value();
}

Value bytesMethod(Interpreter &in, const Value &selfV, const std::string &name, Args a, const Kwargs &kw) {
  const BytesObject &self = *selfV.as<BytesObject>();
  const std::string &s = self.s;
  if (name == "translate") return bytesTranslate(in, self, a, kw);
  if (name == "decode") {
    static const Signature sig("decode(encoding='utf-8', errors='strict')");
    Bound b = sig.bind(in, a, kw);
    return in.str(decodeText(in, s, lookupEncoding(in, in.str(b[0])), in.str(b[1])));
  }
  if (name == "replace") {
    static const Signature sig("replace(old, new, count=-1, /)");
    Bound b = sig.bind(in, a, kw);
    const std::string &from = bytesArg(in, b[0]), &to = bytesArg(in, b[1]);
    int64_t count = in.toIndex(b[2]);
    if (count < 0) count = INT64_MAX;
    std::string out;
    size_t i = 0;
    int64_t done = 0;
    if (from.empty()) {
      // An empty pattern matches between every byte (and at both ends).
      for (; done < count && i <= s.size(); ++done) {
        out += to;
        if (i < s.size()) out += s[i];
        ++i;
      }
      if (i < s.size()) out += s.substr(i);
      return makeLike(self, out);
    }
    for (; done < count; ++done) {
      size_t j = s.find(from, i);
      if (j == std::string::npos) break;
      out += s.substr(i, j - i) + to;
      i = j + from.size();
    }
    return makeLike(self, out + s.substr(i));
  }
  if (name == "split" || name == "rsplit") {
    static const Signature sig("split(sep=None, maxsplit=-1)");
    Bound b = sig.bind(in, a, kw);
    return bytesList(self, in, splitBytes(in, s, b[0], in.toIndex(b[1]), name == "rsplit"));
  }
  if (name == "splitlines") {
    static const Signature sig("splitlines(keepends=False)");
    bool keep = in.truth(sig.bind(in, a, kw)[0]);
    std::vector<std::string> parts;
    size_t i = 0;
    while (i < s.size()) {
      size_t j = i;
      while (j < s.size() && s[j] != '\n' && s[j] != '\r') ++j;
      size_t eol = j;
      if (j < s.size()) j += (s[j] == '\r' && j + 1 < s.size() && s[j + 1] == '\n') ? 2 : 1;
      parts.push_back(s.substr(i, (keep ? j : eol) - i));
      i = j;
    }
    return bytesList(self, in, parts);
  }
  if (name == "join") {
    static const Signature sig("join(iterable_of_bytes, /)");
    Bound b = sig.bind(in, a, kw);
    std::string out;
    auto items = in.toList(b[0]);
    for (size_t i = 0; i < items.size(); ++i) {
      auto *x = items[i].as<BytesObject>();
      if (!x)
        in.raise("TypeError", fmt::format("sequence item {}: expected a bytes-like object, {} found", i,
                                          in.typeName(items[i])));
      if (i) out += s;
      out += x->s;
    }
    return makeLike(self, out);
  }
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    static const Signature sig("strip(bytes=None, /)");
    Bound b = sig.bind(in, a, kw);
    return makeLike(self, stripBytes(in, s, b[0], name != "rstrip", name != "lstrip"));
  }
  if (name == "startswith" || name == "endswith") {
    static const Signature sig("startswith(prefix, start=None, end=None, /)");
    return affix(in, s, name, sig.bind(in, a, kw));
  }
  if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count") {
    static const Signature sig("find(sub, start=None, end=None, /)");
    return findLike(in, s, name, sig.bind(in, a, kw));
  }
  if (name == "upper" || name == "lower" || name == "swapcase" || name == "capitalize" || name == "title") {
    static const Signature sig("upper()");
    sig.bind(in, a, kw);
    std::string out = s;
    bool prevCased = false;
    for (size_t i = 0; i < out.size(); ++i) {
      char c = out[i];
      if (name == "upper") c = toUpper(c);
      else if (name == "lower") c = toLower(c);
      else if (name == "swapcase") c = isAsciiUpper(c) ? toLower(c) : toUpper(c);
      else if (name == "capitalize") c = i == 0 ? toUpper(c) : toLower(c);
      else c = prevCased ? toLower(c) : toUpper(c);
      prevCased = isAsciiAlpha(out[i]);
      out[i] = c;
    }
    return makeLike(self, out);
  }
  if (name.rfind("is", 0) == 0) {
    static const Signature sig("isdigit()");
    sig.bind(in, a, kw);
    return predicate(s, name);
  }
  if (name == "hex") {
    static const Signature sig("hex(sep=!None, bytes_per_sep=!1)");
    sig.bind(in, a, kw);
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) out += digits[c >> 4], out += digits[c & 15];
    return in.str(out);
  }
  if (name == "partition" || name == "rpartition") {
    static const Signature sig("partition(sep, /)");
    const std::string &sep = bytesArg(in, sig.bind(in, a, kw)[0]);
    if (sep.empty()) in.raise("ValueError", "empty separator");
    size_t p = name == "partition" ? s.find(sep) : s.rfind(sep);
    if (p == std::string::npos)
      return name == "partition" ? in.tuple({makeLike(self, s), makeLike(self, ""), makeLike(self, "")})
                                 : in.tuple({makeLike(self, ""), makeLike(self, ""), makeLike(self, s)});
    return in.tuple({makeLike(self, s.substr(0, p)), makeLike(self, sep), makeLike(self, s.substr(p + sep.size()))});
  }
  if (name == "removeprefix" || name == "removesuffix") {
    static const Signature sig("removeprefix(prefix, /)");
    const std::string &x = bytesArg(in, sig.bind(in, a, kw)[0]);
    if (name == "removeprefix" && s.compare(0, x.size(), x) == 0) return makeLike(self, s.substr(x.size()));
    if (name == "removesuffix" && s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0)
      return makeLike(self, s.substr(0, s.size() - x.size()));
    return makeLike(self, s);
  }
  if (name == "ljust" || name == "rjust" || name == "center") {
    // fillchar defaults to b' ' (a bytes default the signature text cannot spell).
    static const Signature sig("ljust(width, fillchar=None, /)");
    return pad(in, self, sig.bind(in, a, kw), name);
  }
  if (name == "zfill") {
    static const Signature sig("zfill(width, /)");
    int64_t width = in.toIndex(sig.bind(in, a, kw)[0]);
    if (width <= int64_t(s.size())) return makeLike(self, s);
    size_t sign = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
    return makeLike(self, s.substr(0, sign) + std::string(size_t(width) - s.size(), '0') + s.substr(sign));
  }
  return mutate(in, const_cast<BytesObject &>(self), name, a, kw);
}

}  // namespace

std::optional<Value> bytesMethodOf(Interpreter &in, const Value &self, const std::string &name) {
  static const std::vector<std::string> shared = {
      "decode", "replace", "split", "rsplit", "splitlines", "join", "strip", "lstrip", "rstrip", "startswith",
      "endswith", "find", "rfind", "index", "rindex", "count", "upper", "lower", "swapcase", "capitalize", "title",
      "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isascii", "hex", "partition", "rpartition",
      "removeprefix", "removesuffix", "ljust", "rjust", "center", "zfill", "translate"};
  static const std::vector<std::string> mutating = {"append", "extend", "pop", "insert", "remove", "clear",
                                                    "reverse", "copy"};
  auto *b = self.as<BytesObject>();
  bool known = std::find(shared.begin(), shared.end(), name) != shared.end() ||
               (b->isMutable && std::find(mutating.begin(), mutating.end(), name) != mutating.end());
  if (!known) return std::nullopt;
  Value keep = self;
  return in.native(name, [keep, name](Interpreter &in, Args a, const Kwargs &kw) {
    return bytesMethod(in, keep, name, a, kw);
  });
}

Value constructBytes(Interpreter &in, Args a, const Kwargs &kw, bool isMutable) {
  static const Signature sigBytes("bytes(source=None, encoding=None, errors=None)");
  static const Signature sigArray("bytearray(source=None, encoding=None, errors=None)");
  Bound b = (isMutable ? sigArray : sigBytes).bind(in, a, kw);
  const char *type = isMutable ? "bytearray" : "bytes";
  auto out = make<BytesObject>("");
  out->isMutable = isMutable;
  const Value &src = b[0];
  if (auto *s = src.as<StrObject>()) {
    if (b[1].isNone()) in.raise("TypeError", "string argument without an encoding");
    out->s = encodeText(in, s->s, lookupEncoding(in, in.str(b[1])), b[2].isNone() ? "strict" : in.str(b[2]));
    return Value(out);
  }
  if (!b[1].isNone()) in.raise("TypeError", "encoding without a string argument");
  if (!b[2].isNone()) in.raise("TypeError", "errors without a string argument");
  if (src.isNone()) {
    if (b.given("source")) in.raise("TypeError", fmt::format("cannot convert 'NoneType' object to {}", type));
    return Value(out);
  }
  if (auto *inst = src.as<InstanceObject>(); inst && !isMutable)
    if (auto m = inst->klass->lookup("__bytes__")) {
      Value r = in.call(Value(make<BoundMethod>(src, *m)), {});
      auto *rb = r.as<BytesObject>();
      if (!rb || rb->isMutable)
        in.raise("TypeError", fmt::format("__bytes__ returned non-bytes (type {})", in.typeName(r)));
      return r;
    }
  if (src.isInt() || src.isBool()) {
    if (src.asInt() < 0) in.raise("ValueError", "negative count");
    out->s.assign(size_t(src.asInt()), '\0');
    return Value(out);
  }
  if (auto *x = src.as<BytesObject>()) {
    if (!isMutable && !x->isMutable) return src;
    out->s = x->s;
    return Value(out);
  }
  if (src.isFloat()) in.raise("TypeError", fmt::format("cannot convert 'float' object to {}", type));
  for (auto &v : in.toList(src)) {
    if (!v.isInt() && !v.isBool())
      in.raise("TypeError", fmt::format("'{}' object cannot be interpreted as an integer", in.typeName(v)));
    if (v.asInt() < 0 || v.asInt() > 255) in.raise("ValueError", "bytes must be in range(0, 256)");
    out->s += char(v.asInt());
  }
  return Value(out);
}

Value bytesFromHex(Interpreter &in, Args a, const Kwargs &kw, bool isMutable) {
  static const Signature sig("fromhex(string, /)");
  Bound b = sig.bind(in, a, kw);
  auto *text = b[0].as<StrObject>();
  if (!text) in.raise("TypeError", fmt::format("fromhex() argument must be str, not {}", in.typeName(b[0])));
  auto nibble = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  const std::string &s = text->s;
  auto out = make<BytesObject>("");
  out->isMutable = isMutable;
  for (size_t i = 0; i < s.size();) {
    if (isAsciiSpace(s[i])) {
      ++i;
      continue;
    }
    int hi = nibble(s[i]), lo = i + 1 < s.size() ? nibble(s[i + 1]) : -1;
    if (hi < 0 || lo < 0)
      in.raise("ValueError", fmt::format("non-hexadecimal number found in fromhex() arg at position {}",
                                         hi < 0 ? i : i + 1));
    out->s += char(hi * 16 + lo);
    i += 2;
  }
  return Value(out);
}

void setBytearrayItem(Interpreter &in, BytesObject &b, const Value &key, const Value &v) {
  auto bytesOf = [&](const Value &x) {
    if (x.isInt() || x.isBool()) in.raise("TypeError", "can assign only bytes, buffers, or iterables of ints in range(0, 256)");
    Value conv = constructBytes(in, std::vector<Value>{x}, {}, false);
    return conv.as<BytesObject>()->s;
  };
  if (auto *sl = key.as<SliceObject>()) {
    int64_t start, stop, step;
    sliceBounds(in, *sl, int64_t(b.s.size()), start, stop, step);
    std::string repl = bytesOf(v);
    if (step == 1) {
      b.s.replace(size_t(start), size_t(std::max<int64_t>(stop - start, 0)), repl);
      return;
    }
    std::vector<int64_t> at;
    for (__int128 i = start; step > 0 ? i < stop : i > stop; i += step) at.push_back(int64_t(i));
    if (at.size() != repl.size())
      in.raise("ValueError", fmt::format("attempt to assign bytes of size {} to extended slice of size {}",
                                         repl.size(), at.size()));
    for (size_t k = 0; k < at.size(); ++k) b.s[size_t(at[k])] = repl[k];
    return;
  }
  int64_t i = in.toIndex(key), n = int64_t(b.s.size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) in.raise("IndexError", "bytearray index out of range");
  int64_t x = in.toIndex(v);
  if (x < 0 || x > 255) in.raise("ValueError", "byte must be in range(0, 256)");
  b.s[size_t(i)] = char(x);
}

}  // namespace tfs::runtime
