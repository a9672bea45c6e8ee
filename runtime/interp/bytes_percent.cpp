// `bytes % args` (PEP 461, CPython 3.11's bytes formatting). The numeric
// conversions are str's (pyformat.cpp's percentFormat, given one
// conversion spec at a time); %s/%b take bytes-like values or __bytes__,
// %r/%a give ascii(value), %c a byte.
#include "runtime/interp/bytes_percent.h"

#include "runtime/interp/builtins.h"
#include "runtime/interp/pyformat.h"

#include <cctype>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// The bytes of a %s/%b argument: bytes, bytearray, or an object with __bytes__.
std::string bytesOfArgument(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  if (auto *inst = v.as<InstanceObject>())
    if (inst->klass->lookup("__bytes__")) {
      Value r = in.call(in.builtin("bytes"), std::vector<Value>{v});
      if (auto *rb = r.as<BytesObject>()) return rb->s;
    }
  in.raise("TypeError", fmt::format("%b requires a bytes-like object, or an object that implements __bytes__, not '{}'",
                                    in.typeName(v)));
}

std::string padded(std::string body, int64_t width, bool left) {
  if (width <= int64_t(body.size())) return body;
  std::string fill(size_t(width) - body.size(), ' ');
  return left ? body + fill : fill + body;
}

}  // namespace

std::string bytesPercentFormat(Interpreter &in, const std::string &f, const Value &args) {
  std::vector<Value> items;
  // CPython's test: any object with __getitem__ that is not a tuple, bytes or str.
  bool isMapping = args.as<DictObject>() || (!args.as<TupleObject>() && !args.as<BytesObject>() &&
                                             !args.as<StrObject>() && in.getAttrOpt(args, "__getitem__"));
  if (auto *t = args.as<TupleObject>()) items = t->items;
  else items.push_back(args);
  size_t next = 0;
  std::string out;
  auto takeArg = [&](const Value *key) -> Value {
    if (key) {
      if (!isMapping) in.raise("TypeError", "format requires a mapping");
      return in.getItem(args, *key);
    }
    if (next >= items.size()) in.raise("TypeError", "not enough arguments for format string");
    return items[next++];
  };
  auto readNumber = [&](size_t &i) {
    int64_t n = 0;
    while (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) n = n * 10 + (f[i++] - '0');
    return n;
  };
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    if (++i >= f.size()) in.raise("ValueError", "incomplete format");
    std::optional<Value> key;
    if (f[i] == '(') {
      size_t close = f.find(')', i);
      if (close == std::string::npos) in.raise("ValueError", "incomplete format key");
      key = Value(make<BytesObject>(f.substr(i + 1, close - i - 1)));
      i = close + 1;
    }
    std::string flags;
    while (i < f.size() && std::string("-+ #0").find(f[i]) != std::string::npos) flags += f[i++];
    int64_t width = -1, precision = -1;
    if (i < f.size() && f[i] == '*') {
      width = in.toInt(takeArg(nullptr));
      if (width < 0) {
        width = -width;
        flags += '-';
      }
      ++i;
    } else if (i < f.size() && std::isdigit(static_cast<unsigned char>(f[i]))) {
      width = readNumber(i);
    }
    if (i < f.size() && f[i] == '.') {
      ++i;
      if (i < f.size() && f[i] == '*') {
        precision = std::max<int64_t>(0, in.toInt(takeArg(nullptr)));
        ++i;
      } else {
        precision = readNumber(i);
      }
    }
    if (i >= f.size()) in.raise("ValueError", "incomplete format");
    char c = f[i];
    if (c == '%') {
      out += '%';
      continue;
    }
    Value v = takeArg(key ? &*key : nullptr);
    bool left = flags.find('-') != std::string::npos;
    switch (c) {
    case 's':
    case 'b': {
      std::string body = bytesOfArgument(in, v);
      if (precision >= 0 && int64_t(body.size()) > precision) body.resize(size_t(precision));
      out += padded(std::move(body), width, left);
      continue;
    }
    case 'r':
    case 'a': {
      Value text = in.call(in.builtin("ascii"), std::vector<Value>{v});
      std::string body = in.str(text);
      if (precision >= 0 && int64_t(body.size()) > precision) body.resize(size_t(precision));
      out += padded(std::move(body), width, left);
      continue;
    }
    case 'c': {
      std::string body;
      if (auto *b = v.as<BytesObject>(); b && b->s.size() == 1) {
        body = b->s;
      } else if (v.isInt() || v.isBool()) {
        int64_t n = v.asInt();
        if (n < 0 || n > 255) in.raise("OverflowError", "%c arg not in range(256)");
        body = std::string(1, char(n));
      } else {
        in.raise("TypeError", "%c requires an integer in range(256) or a single byte");
      }
      out += padded(std::move(body), width, left);
      continue;
    }
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
      // bytes' own messages for values no number conversion takes.
      bool text = v.isNone() || v.as<StrObject>() || v.as<BytesObject>() || v.as<ListObject>() ||
                  v.as<TupleObject>() || v.as<DictObject>();
      if (text && (c == 'd' || c == 'i' || c == 'u'))
        in.raise("TypeError", fmt::format("%d format: a real number is required, not {}", in.typeName(v)));
      if (text && std::string_view("eEfFgG").find(c) != std::string_view::npos)
        in.raise("TypeError", fmt::format("float argument required, not {}", in.typeName(v)));
      // str's conversion of this one value; its text is ASCII.
      std::string spec = "%" + flags;
      if (width >= 0) spec += std::to_string(width);
      if (precision >= 0) spec += "." + std::to_string(precision);
      spec += c;
      out += percentFormat(in, spec, in.tuple({v}));
      continue;
    }
    default:
      in.raise("ValueError", fmt::format("unsupported format character '{}' (0x{:x}) at index {}", c, int(c), i));
    }
  }
  if (!isMapping && next < items.size()) in.raise("TypeError", "not all arguments converted during bytes formatting");
  return out;
}

}  // namespace tfs::runtime
