// repr/str of built-in values, the format-spec mini-language, %-formatting
// and str.format, following CPython 3.11 (see pyformat.h).
#include "frontend/literals.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/unicode_digits.h"
#include "runtime/interp/unicode_text.h"

#include "runtime/interp/big_int.h"
#include "runtime/tensor/allocator.h"
#include "runtime/tensor/format.h"

#include <cmath>
#include <fmt/format.h>

namespace tfs::runtime {

std::string quoteStr(const std::string &s) {
  bool hasSingle = s.find('\'') != std::string::npos, hasDouble = s.find('"') != std::string::npos;
  char q = hasSingle && !hasDouble ? '"' : '\'';
  std::string out(1, q);
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\') out += "\\\\";
    else if (c == q) { out += '\\'; out += char(c); }
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 32 || c == 127) out += fmt::format("\\x{:02x}", c);
    else if (c < 0x80) out += char(c);
    else {
      // CPython's repr keeps printable characters and escapes the rest
      // (unicode_text.h): '\x85', '\xa0', '\u2028', '\U000e0001'.
      size_t start = i;
      char32_t cp = nextCodePoint(s, i);
      if (isPrintableCodePoint(cp)) out.append(s, start, i - start);
      else out += codePointEscape(cp);
      continue;
    }
    ++i;
  }
  return out + q;
}

std::string quoteBytes(const std::string &s) { return bytesRepr(s); }

namespace {
std::string classModule(Interpreter &in, const ClassObject &c) {
  auto it = c.dict.find("__module__");
  return it != c.dict.end() && it->second.as<StrObject>() ? it->second.as<StrObject>()->s : "__main__";
}
std::string classQualname(Interpreter &in, const ClassObject &c) {
  auto it = c.dict.find("__qualname__");
  return it != c.dict.end() && it->second.as<StrObject>() ? it->second.as<StrObject>()->s : c.name;
}
thread_local int reprDepth = 0;

std::string seqRepr(Interpreter &in, const std::vector<Value> &items, const char *open, const char *close,
                    bool tupleComma) {
  if (++reprDepth > 200) {
    --reprDepth;
    in.raise("RecursionError", "maximum recursion depth exceeded while getting the repr of an object");
  }
  std::string out = open;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += in.repr(items[i]);
  }
  if (tupleComma && items.size() == 1) out += ",";
  --reprDepth;
  return out + close;
}
}  // namespace

std::string Interpreter::repr(const Value &v) {
  switch (v.tag()) {
  case Value::Tag::None: return "None";
  case Value::Tag::Bool: return v.asBool() ? "True" : "False";
  case Value::Tag::Int: return std::to_string(v.asInt());
  case Value::Tag::Float: return pythonFloatRepr(v.asFloat());
  case Value::Tag::Obj: break;
  }
  if (auto *s = v.as<StrObject>()) return quoteStr(s->s);
  if (auto *s = v.as<BytesObject>()) return s->isMutable ? "bytearray(" + quoteBytes(s->s) + ")" : quoteBytes(s->s);
  if (auto *l = v.as<ListObject>()) return seqRepr(*this, l->items, "[", "]", false);
  if (auto *t = v.as<TupleObject>()) return seqRepr(*this, t->items, "(", ")", true);
  if (auto *d = v.as<DictObject>()) {
    std::string out = "{";
    bool first = true;
    for (auto &[k, val] : d->items()) {
      if (!first) out += ", ";
      first = false;
      out += repr(k) + ": " + repr(val);
    }
    return out + "}";
  }
  if (auto *s = v.as<SetObject>()) {
    const char *type = s->frozen ? "frozenset" : "set";
    if (s->t.size() == 0) return std::string(type) + "()";
    std::vector<Value> keys = s->t.keys();
    std::string items = seqRepr(*this, keys, "{", "}", false);
    return s->frozen ? "frozenset(" + items + ")" : items;
  }
  if (auto *r = v.as<RangeObject>())
    return r->step == 1 ? fmt::format("range({}, {})", r->start, r->stop)
                        : fmt::format("range({}, {}, {})", r->start, r->stop, r->step);
  if (auto *sl = v.as<SliceObject>())
    return fmt::format("slice({}, {}, {})", repr(sl->lower), repr(sl->upper), repr(sl->step));
  if (auto *c = v.as<ClassObject>()) {
    if (auto m = metaclassMethod(*this, v, "__repr__")) return str(call(*m, {}));
    return defaultObjectRepr(*this, v);
  }
  if (auto *fn = v.as<FunctionObject>()) return fmt::format("<function {} at 0x{:x}>", fn->qualname, reinterpret_cast<uintptr_t>(fn));
  if (auto *nf = v.as<NativeFunction>()) return fmt::format("<built-in function {}>", nf->name);
  if (auto *m = v.as<ModuleObject>()) return fmt::format("<module '{}'>", m->name);
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__repr__"); m && !m->as<NativeFunction>()) {
      // The code that asked for the text stays the current position (an
      // error message built from repr() points at its caller, not at the
      // __repr__'s last line).
      frontend::SourceSpan at = span_;
      Value r = call(Value(make<BoundMethod>(v, *m)), {});
      span_ = at;
      if (auto *s = r.as<StrObject>()) return s->s;
      raise("TypeError", fmt::format("__repr__ returned non-string (type {})", typeName(r)));
    }
    if (inst->klass->isException) return exceptionRepr(*this, v);
    if (const Value *b = builtinPart(v)) {
      // A subclass of set or frozenset names itself: S({1, 2}), S().
      if (auto *s = b->as<SetObject>()) {
        if (s->t.size() == 0) return inst->klass->name + "()";
        std::vector<Value> keys = s->t.keys();
        return inst->klass->name + "(" + seqRepr(*this, keys, "{", "}", false) + ")";
      }
      return repr(*b);
    }
    return defaultObjectRepr(*this, v);
  }
  if (auto r = v.obj()->repr(*this)) return *r;
  if (auto *sp = v.as<SuperObject>())
    return fmt::format("<super: <class '{}'>, <{} object>>", sp->start->name, typeName(sp->self));
  return defaultObjectRepr(*this, v);
}

std::string defaultObjectRepr(Interpreter &in, const Value &v) {
  if (auto *inst = v.as<InstanceObject>())
    return fmt::format("<{}.{} object at 0x{:x}>", classModule(in, *inst->klass), classQualname(in, *inst->klass),
                       reinterpret_cast<uintptr_t>(inst));
  if (auto *c = v.as<ClassObject>()) {
    if (!c->module.empty()) return fmt::format("<class '{}.{}'>", c->module, c->name);
    if (c->construct != nullptr || c->dict.count("__builtin__")) return fmt::format("<class '{}'>", c->name);
    return fmt::format("<class '{}.{}'>", classModule(in, *c), classQualname(in, *c));
  }
  return fmt::format("<{} object at 0x{:x}>", in.typeName(v), reinterpret_cast<uintptr_t>(v.obj()));
}

std::string exceptionRepr(Interpreter &in, const Value &v) {
  auto *inst = v.as<InstanceObject>();
  auto it = inst->attrs.find("args");
  std::string args = it != inst->attrs.end() ? in.repr(it->second) : "()";
  auto *t = it != inst->attrs.end() ? it->second.as<TupleObject>() : nullptr;
  if (t && t->items.size() == 1) args = "(" + in.repr(t->items[0]) + ")";
  return inst->klass->name + args;
}

std::string Interpreter::str(const Value &v) {
  if (auto *s = v.as<StrObject>()) return s->s;
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__str__"); m && !m->as<NativeFunction>()) {
      frontend::SourceSpan at = span_;  // as for __repr__
      Value r = call(Value(make<BoundMethod>(v, *m)), {});
      span_ = at;
      if (auto *s = r.as<StrObject>()) return s->s;
      raise("TypeError", fmt::format("__str__ returned non-string (type {})", typeName(r)));
    }
    if (inst->klass->isException) return exceptionMessage(v);
    if (const Value *b = builtinPart(v)) {
      auto userRepr = inst->klass->lookup("__repr__");
      if ((!userRepr || !userRepr->as<FunctionObject>()) && !b->as<SetObject>()) return str(*b);
    }
    return repr(v);
  }
  if (Object *o = v.obj(); o && !v.as<ListObject>() && !v.as<TupleObject>() && !v.as<DictObject>())
    if (auto s = o->str(*this)) return *s;
  return repr(v);
}

std::string Interpreter::format(const Value &v, const std::string &spec) {
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__format__")) {
      Value args[] = {str(spec)};
      Value r = call(Value(make<BoundMethod>(v, *m)), args);
      auto *s = r.as<StrObject>();
      if (!s) raise("TypeError", fmt::format("__format__ must return a str, not {}", typeName(r)));
      return s->s;
    }
    // An empty spec is str(v) (CPython's object/int/float.__format__), so a
    // namedtuple's __repr__ shows; else the builtin part's formatting.
    if (const Value *b = builtinPart(v)) return spec.empty() ? str(v) : format(*b, spec);
    if (spec.empty()) return str(v);
    raise("TypeError", fmt::format("unsupported format string passed to {}.__format__", typeName(v)));
  }
  if (v.isObj() && !v.as<StrObject>()) {
    if (auto s = v.obj()->format(*this, spec)) return *s;
    if (spec.empty()) return str(v);
    raise("TypeError", fmt::format("unsupported format string passed to {}.__format__", typeName(v)));
  }
  if (spec.empty()) return str(v);
  return formatWithSpec(*this, v, spec);
}

namespace {
struct Spec {
  char fill = ' ', align = 0, sign = '-', type = 0, grouping = 0;
  bool alt = false, zero = false;
  int width = -1, precision = -1;
};

// Reads the decimal digits at s[i] (advancing i) as a width or precision.
int64_t readDigits(Interpreter &in, const std::string &s, size_t &i) {
  int64_t v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    v = v * 10 + (s[i++] - '0');
    if (v > INT32_MAX) in.raise("ValueError", "Too many decimal digits in format string");
  }
  return v;
}

// A width or precision in range: CPython's limit is sys.maxsize; one past
// the memory budget is its MemoryError (the padding cannot be allocated).
int formatSize(Interpreter &in, int64_t v) {
  if (v > INT32_MAX || v < -int64_t(INT32_MAX)) in.raise("ValueError", "Too many decimal digits in format string");
  int64_t limit = memoryLimit();
  if (limit > 0 && (v > limit || -v > limit)) in.raise("MemoryError", "");
  return int(v);
}

// A replacement field name or [index] made only of digits is a number
// (CPython's rule: "{1a}" is the keyword "1a"); past 18 digits, CPython's
// ValueError.
std::optional<int64_t> decimalIndex(Interpreter &in, const std::string &s) {
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  if (s.size() > 18) in.raise("ValueError", "Too many decimal digits in format string");
  return std::stoll(s);
}

Spec parseSpec(Interpreter &in, const std::string &s) {
  Spec sp;
  size_t i = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
  if (s.size() >= 2 && isAlign(s[1])) { sp.fill = s[0]; sp.align = s[1]; i = 2; }
  else if (!s.empty() && isAlign(s[0])) { sp.align = s[0]; i = 1; }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == '#') { sp.alt = true; ++i; }
  if (i < s.size() && s[i] == '0') { sp.zero = true; ++i; }
  if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) sp.width = formatSize(in, readDigits(in, s, i));
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    sp.precision = 0;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) in.raise("ValueError", "Format specifier missing precision");
    sp.precision = formatSize(in, readDigits(in, s, i));
  }
  if (i < s.size()) sp.type = s[i++];
  if (i < s.size()) in.raise("ValueError", "Invalid format specifier");
  return sp;
}

std::string group(const std::string &digits, char sep, int every = 3) {
  std::string out;
  int n = int(digits.size());
  for (int i = 0; i < n; ++i) {
    out += digits[size_t(i)];
    if (sep && (n - i - 1) % every == 0 && i != n - 1) out += sep;
  }
  return out;
}

size_t displayWidth(const std::string &s) {
  size_t n = 0;
  for (unsigned char c : s) if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string pad(const std::string &body, const std::string &signPart, const Spec &sp, char dfltAlign) {
  char align = sp.align ? sp.align : (sp.zero ? '=' : dfltAlign);
  char fill = sp.align ? sp.fill : (sp.zero ? '0' : ' ');
  size_t len = displayWidth(body) + signPart.size();
  if (sp.width < 0 || size_t(sp.width) <= len) return signPart + body;
  size_t padn = size_t(sp.width) - len;
  std::string f(padn, fill);
  switch (align) {
  case '<': return signPart + body + f;
  case '^': return std::string(padn / 2, fill) + signPart + body + std::string(padn - padn / 2, fill);
  case '=': return signPart + f + body;
  default: return f + signPart + body;
  }
}

// %e-style exponent with at least 2 digits, like Python.
std::string fixExponent(std::string s) {
  size_t e = s.find_first_of("eE");
  if (e == std::string::npos) return s;
  std::string mant = s.substr(0, e + 1);
  char sign = s[e + 1];
  std::string digits = s.substr(e + 2);
  while (digits.size() > 2 && digits[0] == '0') digits.erase(0, 1);
  return mant + sign + digits;
}

std::string formatFloat(double x, const Spec &sp, char type) {
  int prec = sp.precision < 0 ? 6 : sp.precision;
  // '%' keeps its sign after inf and nan ('inf%'); '#' keeps the point of
  // a number with no digits after it ('1.').
  const char *percent = type == '%' ? "%" : "";
  if (std::isnan(x)) return std::string(type && std::isupper(static_cast<unsigned char>(type)) ? "NAN" : "nan") + percent;
  if (std::isinf(x)) return std::string(type && std::isupper(static_cast<unsigned char>(type)) ? "INF" : "inf") + percent;
  switch (type) {
  case 'f': case 'F': return sp.alt ? fmt::format("{:#.{}f}", x, prec) : fmt::format("{:.{}f}", x, prec);
  case 'e': return fixExponent(sp.alt ? fmt::format("{:#.{}e}", x, prec) : fmt::format("{:.{}e}", x, prec));
  case 'E': return fixExponent(sp.alt ? fmt::format("{:#.{}E}", x, prec) : fmt::format("{:.{}E}", x, prec));
  case '%': return (sp.alt ? fmt::format("{:#.{}f}", x * 100, prec) : fmt::format("{:.{}f}", x * 100, prec)) + "%";
  case 'g': case 'G': {
    int p = prec == 0 ? 1 : prec;
    std::string s = type == 'g' ? fmt::format("{:.{}g}", x, p) : fmt::format("{:.{}G}", x, p);
    if (sp.alt) s = type == 'g' ? fmt::format("{:#.{}g}", x, p) : fmt::format("{:#.{}G}", x, p);
    return fixExponent(s);
  }
  default: {  // no type: like str() but with precision as 'g' that keeps at least one digit after '.'
    if (sp.precision < 0) return pythonFloatRepr(x);
    std::string s = fixExponent(fmt::format("{:.{}g}", x, std::max(1, sp.precision)));
    if (s.find_first_of(".einn") == std::string::npos) s += ".0";
    return s;
  }
  }
}
}  // namespace

std::string formatWithSpec(Interpreter &in, const Value &v, const std::string &specText) {
  Spec sp = parseSpec(in, specText);
  if (auto *s = v.as<StrObject>()) {
    if (sp.type && sp.type != 's') in.raise("ValueError", fmt::format("Unknown format code '{}' for object of type 'str'", sp.type));
    std::string body = s->s;
    if (sp.precision >= 0) {
      std::string cut;
      int n = 0;
      for (size_t i = 0; i < body.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(body[i]);
        if ((c & 0xC0) != 0x80 && n++ == sp.precision) break;
        cut += body[i];
      }
      body = cut;
    }
    return pad(body, "", sp, '<');
  }
  bool isFloat = v.isFloat(), isInteger = isIntValue(v);
  char type = sp.type;
  if (isInteger && !type) type = 'd';
  if (isInteger && std::string("eEfFgG%").find(type) != std::string::npos) isFloat = true;
  if (isFloat) {
    double x = v.isFloat() ? v.asFloat() : in.toFloat(v);  // a big int: OverflowError past a double
    if (type == 'n') type = 'g';  // 'n' is 'g' with the locale's separators; tfs runs in the C locale
    if (type && std::string("eEfFgG%").find(type) == std::string::npos)
      in.raise("ValueError", fmt::format("Unknown format code '{}' for object of type 'float'", type));
    std::string body = formatFloat(std::fabs(x), sp, type);
    bool neg = std::signbit(x) && !std::isnan(x);
    std::string signPart = neg ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
    if (sp.grouping) {
      size_t dot = body.find_first_of(".e%");
      std::string ip = body.substr(0, dot), rest = dot == std::string::npos ? "" : body.substr(dot);
      body = group(ip, sp.grouping) + rest;
    }
    return pad(body, signPart, sp, '>');
  }
  if (isInteger) {
    std::string body, prefix;
    bool negative = false;
    switch (type) {
    case 'd': case 'n': body = intMagnitudeDigits(in, v, 10, negative); break;
    case 'x': body = intMagnitudeDigits(in, v, 16, negative); prefix = sp.alt ? "0x" : ""; break;
    case 'X':
      body = intMagnitudeDigits(in, v, 16, negative);
      for (char &c : body) c = char(std::toupper(static_cast<unsigned char>(c)));
      prefix = sp.alt ? "0X" : "";
      break;
    case 'o': body = intMagnitudeDigits(in, v, 8, negative); prefix = sp.alt ? "0o" : ""; break;
    case 'b': body = intMagnitudeDigits(in, v, 2, negative); prefix = sp.alt ? "0b" : ""; break;
    case 'c':
      if (v.as<BigIntObject>() || v.asInt() < 0 || v.asInt() > 0x10FFFF)
        in.raise("OverflowError", "%c arg not in range(0x110000)");
      frontend::appendUtf8(body, uint32_t(v.asInt()));
      break;
    case 's': in.raise("ValueError", "Unknown format code 's' for object of type 'int'");
    default: in.raise("ValueError", fmt::format("Unknown format code '{}' for object of type 'int'", type));
    }
    // '_' groups hex/octal/binary digits by four (PEP 515).
    if (sp.grouping) body = group(body, sp.grouping, type == 'x' || type == 'X' || type == 'o' || type == 'b' ? 4 : 3);
    std::string signPart = negative ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
    return pad(body, signPart + prefix, sp, '>');
  }
  if (v.isNone()) return pad("None", "", sp, '<');
  in.raise("TypeError", fmt::format("unsupported format string passed to {}.__format__", in.typeName(v)));
}

// Values %d/%x/%f refuse outright (CPython's conversions accept numbers and
// objects with __int__/__index__/__float__, never text or containers).
static bool notANumber(const Value &v) {
  return v.isNone() || v.as<StrObject>() || v.as<BytesObject>() || v.as<ListObject>() || v.as<TupleObject>() ||
         v.as<DictObject>();
}

std::string percentFormat(Interpreter &in, const std::string &f, const Value &args) {
  std::vector<Value> items;
  DictObject *mapping = args.as<DictObject>();
  if (auto *t = args.as<TupleObject>()) items = t->items;
  else items.push_back(args);
  size_t next = 0;
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') { out += f[i]; continue; }
    if (++i >= f.size()) in.raise("ValueError", "incomplete format");
    Value key;
    bool hasKey = false;
    if (f[i] == '(') {
      size_t close = f.find(')', i);
      if (close == std::string::npos) in.raise("ValueError", "incomplete format key");
      key = in.str(f.substr(i + 1, close - i - 1));
      hasKey = true;
      i = close + 1;
    }
    Spec sp;
    std::string flags;
    while (i < f.size() && std::string("-+ #0").find(f[i]) != std::string::npos) flags += f[i++];
    auto takeArg = [&]() -> Value {
      if (hasKey) {
        if (!mapping) in.raise("TypeError", "format requires a mapping");
        auto v = mapping->get(in, key);
        if (!v) in.raiseValue(newKeyError(in, key));
        return *v;
      }
      if (next >= items.size()) in.raise("TypeError", "not enough arguments for format string");
      return items[next++];
    };
    if (i < f.size() && f[i] == '*') {
      sp.width = formatSize(in, in.toInt(takeArg()));
      ++i;
      if (sp.width < 0) {  // "%*d" % (-5, x): left-justified in 5
        sp.width = -sp.width;
        flags += '-';
      }
    }
    if (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) sp.width = formatSize(in, readDigits(in, f, i));
    if (i < f.size() && f[i] == '.') {
      ++i;
      sp.precision = 0;
      if (i < f.size() && f[i] == '*') { sp.precision = std::max(0, formatSize(in, in.toInt(takeArg()))); ++i; }
      if (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) sp.precision = formatSize(in, readDigits(in, f, i));
    }
    if (i >= f.size()) in.raise("ValueError", "incomplete format");
    char c = f[i];
    if (c == '%') { out += '%'; continue; }
    Value v = takeArg();
    for (char fl : flags) {
      if (fl == '-') sp.align = '<';
      else if (fl == '+') sp.sign = '+';
      else if (fl == ' ' && sp.sign != '+') sp.sign = ' ';
      else if (fl == '#') sp.alt = true;
      else if (fl == '0') sp.zero = true;
    }
    if (sp.align == '<') sp.zero = false;
    std::string body, signPart;
    switch (c) {
    case 's': body = in.str(v); sp.zero = false; if (sp.precision >= 0) body = body.substr(0, size_t(sp.precision)); out += pad(body, "", sp, '>'); continue;
    case 'r': case 'a':
      body = c == 'a' ? in.str(in.call(in.builtin("ascii"), std::vector<Value>{v})) : in.repr(v);
      sp.zero = false;
      if (sp.precision >= 0) body = body.substr(0, size_t(sp.precision));
      out += pad(body, "", sp, '>');
      continue;
    case 'c': {
      if (auto *str = v.as<StrObject>()) {
        if (in.length(v) != 1) in.raise("TypeError", "%c requires int or char");
        body = str->s;
      } else {
        if (!isIntValue(v)) in.raise("TypeError", "%c requires int or char");
        if (v.as<BigIntObject>() || v.asInt() < 0 || v.asInt() > 0x10FFFF)
          in.raise("OverflowError", "%c arg not in range(0x110000)");
        frontend::appendUtf8(body, uint32_t(v.asInt()));
      }
      out += pad(body, "", sp, '>');
      continue;
    }
    case 'd': case 'i': case 'u': {
      Value num = v;
      if (!isIntValue(v)) {
        if (notANumber(v))
          in.raise("TypeError", fmt::format("%{} format: a real number is required, not {}", c, in.typeName(v)));
        num = intOf(in, v);  // int(): NaN and inf are errors
      }
      bool negative;
      body = intMagnitudeDigits(in, num, 10, negative);
      if (sp.precision > int(body.size())) body = std::string(size_t(sp.precision) - body.size(), '0') + body;
      signPart = negative ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
      out += pad(body, signPart, sp, '>');
      continue;
    }
    case 'x': case 'X': case 'o': {
      if (v.isFloat() || notANumber(v))
        in.raise("TypeError", fmt::format("%{} format: an integer is required, not {}", c, in.typeName(v)));
      bool negative;
      body = intMagnitudeDigits(in, isIntValue(v) ? v : Value::integer(in.toIndex(v)), c == 'o' ? 8 : 16, negative);
      if (c == 'X')
        for (char &ch : body) ch = char(std::toupper(static_cast<unsigned char>(ch)));
      std::string prefix = sp.alt ? (c == 'o' ? "0o" : c == 'x' ? "0x" : "0X") : "";
      out += pad(body, (negative ? "-" : "") + prefix, sp, '>');
      continue;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': {
      if (notANumber(v)) in.raise("TypeError", fmt::format("must be real number, not {}", in.typeName(v)));
      double x = in.toFloat(v);
      Spec fs = sp;
      if (fs.precision < 0) fs.precision = 6;
      body = formatFloat(std::fabs(x), fs, c);
      if ((c == 'g' || c == 'G') && !sp.alt) {
        // %g strips trailing zeros (Python does too).
      }
      signPart = std::signbit(x) && !std::isnan(x) ? "-" : sp.sign == '+' ? "+" : sp.sign == ' ' ? " " : "";
      out += pad(body, signPart, sp, '>');
      continue;
    }
    default:
      in.raise("ValueError", fmt::format("unsupported format character '{}' (0x{:x}) at index {}", c, int(c), i));
    }
  }
  if (!mapping && next < items.size())
    in.raise("TypeError", "not all arguments converted during string formatting");
  return out;
}

namespace {

// str.format's field numbering, shared with the fields nested in format
// specs ("{:{}}" numbers the width field 1), as CPython's MarkupIterator
// auto_number: automatic and manual numbering cannot be mixed.
struct FieldNumbering {
  size_t next = 0;
  bool automatic = false, manual = false;
};

// `mapping` (str.format_map) replaces kwargs: names are its items, read with
// its own __getitem__ (a dict subclass's __missing__ applies).
std::string formatFields(Interpreter &in, const std::string &f, Args args, const Kwargs &kwargs, FieldNumbering &numbering,
                         int recursionDepth, const Value *mapping = nullptr) {
  if (recursionDepth <= 0) in.raise("ValueError", "Max string recursion exceeded");
  std::string out;
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == '}') {
      if (i + 1 < f.size() && f[i + 1] == '}') { out += '}'; ++i; continue; }
      in.raise("ValueError", "Single '}' encountered in format string");
    }
    if (c != '{') { out += c; continue; }
    if (i + 1 < f.size() && f[i + 1] == '{') { out += '{'; ++i; continue; }
    size_t depth = 1, j = i + 1;
    for (; j < f.size() && depth; ++j) {
      if (f[j] == '{') ++depth;
      else if (f[j] == '}') --depth;
    }
    if (depth) in.raise("ValueError", "expected '}' before end of string");
    std::string field = f.substr(i + 1, j - i - 2);
    i = j - 1;
    std::string name = field, spec;
    char conv = 0;
    size_t colon = field.find(':');
    if (colon != std::string::npos) { name = field.substr(0, colon); spec = field.substr(colon + 1); }
    size_t bang = name.find('!');
    if (bang != std::string::npos) { conv = name[bang + 1]; name = name.substr(0, bang); }
    // The first part of the field name selects the argument; then .attr / [key].
    size_t end = name.find_first_of(".[");
    std::string head = name.substr(0, end);
    Value v;
    if (mapping && (head.empty() || decimalIndex(in, head))) {
      in.raise("ValueError", "Format string contains positional fields");
    } else if (mapping) {
      v = in.getItem(*mapping, in.str(head));
    } else if (head.empty()) {
      if (numbering.manual) in.raise("ValueError", "cannot switch from manual field specification to automatic field numbering");
      numbering.automatic = true;
      size_t k = numbering.next++;
      if (k >= args.size()) in.raise("IndexError", fmt::format("Replacement index {} out of range for positional args tuple", k));
      v = args[k];
    } else if (auto index = decimalIndex(in, head)) {
      if (numbering.automatic) in.raise("ValueError", "cannot switch from automatic field numbering to manual field specification");
      numbering.manual = true;
      size_t k = size_t(*index);
      if (k >= args.size()) in.raise("IndexError", fmt::format("Replacement index {} out of range for positional args tuple", k));
      v = args[k];
    } else {
      bool found = false;
      for (const auto &[key, val] : kwargs)
        if (key == head) { v = val; found = true; }
      if (!found) in.raiseValue(newKeyError(in, in.str(head)));
    }
    while (end != std::string::npos && end < name.size()) {
      if (name[end] == '.') {
        size_t nx = name.find_first_of(".[", end + 1);
        v = in.getAttr(v, name.substr(end + 1, nx - end - 1));
        end = nx;
      } else {
        size_t close = name.find(']', end);
        std::string key = name.substr(end + 1, close - end - 1);
        auto index = decimalIndex(in, key);
        Value k = index ? Value::integer(*index) : in.str(key);
        v = in.getItem(v, k);
        end = close + 1 < name.size() ? close + 1 : std::string::npos;
      }
    }
    if (conv == 'r') v = in.str(in.repr(v));
    else if (conv == 'a') v = in.call(in.builtin("ascii"), std::vector<Value>{v});  // repr, non-ASCII escaped
    else if (conv == 's') v = in.str(in.str(v));
    if (spec.find('{') != std::string::npos)
      spec = formatFields(in, spec, args, kwargs, numbering, recursionDepth - 1, mapping);
    out += in.format(v, spec);
  }
  return out;
}

}  // namespace

std::string strFormat(Interpreter &in, const std::string &f, Args args, const Kwargs &kwargs) {
  FieldNumbering numbering;
  return formatFields(in, f, args, kwargs, numbering, 2);
}

std::string strFormatMap(Interpreter &in, const std::string &f, const Value &mapping) {
  FieldNumbering numbering;
  return formatFields(in, f, {}, {}, numbering, 2, &mapping);
}

}  // namespace tfs::runtime
