// `struct`: CPython's packing of values into bytes by a format string
// ("<IIII", "@hi", "5s"): byte order, size and alignment prefixes (@ native
// with alignment, = < > ! standard sizes without), the codes x c b B ? h H
// i I l L q Q n N e f d s p P, repeat counts, pack / unpack / calcsize /
// unpack_from / pack_into / iter_unpack, struct.error with CPython's
// messages, at every int size (a 'Q' up to 2**64 - 1 packs and unpacks).
#include "lib/python/module_error.h"
#include "lib/python/python_modules.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>

namespace tfs::runtime {

namespace {

struct Item {
  char code;
  int64_t count;  // repeat count; for 's' / 'p' the byte length
  size_t size;
  size_t offset;
};

struct Layout {
  std::vector<Item> items;
  size_t size = 0;
  bool little = true;
  bool native = true;
  size_t values = 0;  // how many Python values pack takes
};

size_t sizeOf(char code, bool native) {
  switch (code) {
  case 'x': case 'c': case 'b': case 'B': case '?': case 's': case 'p': return 1;
  case 'h': case 'H': case 'e': return 2;
  case 'i': case 'I': case 'f': return 4;
  case 'l': case 'L': return native ? 8 : 4;
  case 'q': case 'Q': case 'd': case 'n': case 'N': case 'P': return 8;
  default: return 0;
  }
}

[[noreturn]] void fail(Interpreter &in, const Ref<ClassObject> &error, const std::string &message) {
  in.raiseValue(in.newException(error, message));
}

Layout parse(Interpreter &in, const Ref<ClassObject> &error, const std::string &fmt) {
  Layout l;
  size_t i = 0;
  if (!fmt.empty() && std::strchr("@=<>!", fmt[0])) {
    char c = fmt[0];
    l.native = c == '@';
    l.little = c == '<' || c == '@' || c == '=';
    i = 1;
  }
  while (i < fmt.size()) {
    char c = fmt[i];
    if (std::isspace(uint8_t(c))) {
      ++i;
      continue;
    }
    int64_t count = 1;
    bool counted = false;
    if (std::isdigit(uint8_t(c))) {
      count = 0;
      while (i < fmt.size() && std::isdigit(uint8_t(fmt[i]))) {
        count = count * 10 + (fmt[i++] - '0');
        if (count > (int64_t(1) << 40)) fail(in, error, "total struct size too long");
      }
      counted = true;
      if (i >= fmt.size()) fail(in, error, "repeat count given without format specifier");
      c = fmt[i];
    }
    ++i;
    if (!l.native && (c == 'n' || c == 'N' || c == 'P')) fail(in, error, "bad char in struct format");
    size_t size = sizeOf(c, l.native);
    if (!size) fail(in, error, "bad char in struct format");
    if (l.native && size > 1 && c != 's' && c != 'p') l.size = (l.size + size - 1) / size * size;
    if (c == 's' || c == 'p') {
      l.items.push_back({c, counted ? count : 1, 1, l.size});
      l.size += size_t(counted ? count : 1);
      l.values += 1;
    } else if (c == 'x') {
      l.size += size_t(count);
    } else {
      for (int64_t k = 0; k < count; ++k) {
        l.items.push_back({c, 1, size, l.size});
        l.size += size;
      }
      l.values += size_t(count);
    }
  }
  return l;
}

uint16_t toHalf(double v) {
  // IEEE binary16 with round-half-even, as CPython's PyFloat_Pack2
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isnan(v)) return sign | 0x7e00;
  if (std::isinf(a)) return sign | 0x7c00;
  int e;
  double f = std::frexp(a, &e);  // a = f * 2^e, 0.5 <= f < 1
  if (a == 0) return sign;
  int exp = e - 1;  // a = (2f) * 2^exp
  if (exp < -14) {  // subnormal: units of 2^-24
    double units = std::nearbyint(a * 16777216.0);
    return sign | uint16_t(units);
  }
  double mant = std::nearbyint((2 * f - 1) * 1024.0);
  if (mant == 1024) {
    mant = 0;
    ++exp;
  }
  if (exp > 15) return 0xffff;  // the caller raises OverflowError
  return sign | uint16_t((exp + 15) << 10) | uint16_t(mant);
}

double fromHalf(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(mant + 1024, exp - 25);
  return (h & 0x8000) ? -v : v;
}

void putInt(std::string &out, size_t offset, size_t size, uint64_t v, bool little) {
  for (size_t k = 0; k < size; ++k) {
    uint8_t byte = uint8_t(v >> (8 * k));
    out[offset + (little ? k : size - 1 - k)] = char(byte);
  }
}

uint64_t getInt(const std::string &data, size_t offset, size_t size, bool little) {
  uint64_t v = 0;
  for (size_t k = 0; k < size; ++k) v |= uint64_t(uint8_t(data[offset + (little ? k : size - 1 - k)])) << (8 * k);
  return v;
}

// An integer code's argument: its value when in [-2**63, 2**64), which
// holds every code's range; `huge` past it.
struct IntArgument {
  __int128 v = 0;
  bool huge = false;
};

IntArgument intArgument(Interpreter &in, const Ref<ClassObject> &error, const Value &v) {
  const Value *n = &v;
  if (auto *inst = v.as<InstanceObject>(); inst && isIntValue(inst->builtinValue)) n = &inst->builtinValue;
  if (n->isInt() || n->isBool()) return {n->asInt(), false};
  if (auto *b = n->as<BigIntObject>()) {
    if (b->v >= 0 && mpz_fits_ulong_p(b->v.get_mpz_t())) return {__int128(mpz_get_ui(b->v.get_mpz_t())), false};
    return {0, true};
  }
  fail(in, error, "required argument is not an integer");
}

// `bigEndian`: the standard big-endian layouts ('>', '!'), whose packers
// CPython words differently for h, H, q and Q.
void checkRange(Interpreter &in, const Ref<ClassObject> &error, char code, size_t size, IntArgument a, bool bigEndian) {
  constexpr __int128 int64Min = INT64_MIN, int64Max = INT64_MAX;
  bool isSigned = std::islower(uint8_t(code));
  const char *outOfRange = bigEndian && size == 8 ? "int too large to convert" : "argument out of range";
  if (code == 'P') {  // a pointer: any C long or unsigned long
    if (a.huge || a.v < int64Min) fail(in, error, "int too large to convert");
    return;
  }
  if (a.huge || a.v < int64Min) fail(in, error, outOfRange);
  if (a.v > int64Max) {  // fits only C's unsigned long
    if (!isSigned && size == 8) return;
    if (!isSigned && (code == 'I' || code == 'L' || (bigEndian && code == 'H')))
      fail(in, error, fmt::format("'{}' format requires 0 <= number <= {}", code, (int64_t(1) << (8 * size)) - 1));
    fail(in, error, outOfRange);
  }
  int64_t v = int64_t(a.v);
  if (!isSigned && v < 0) {
    if (code == 'B' || (code == 'H' && !bigEndian))
      fail(in, error, fmt::format("{} format requires 0 <= number <= {}", code == 'B' ? "ubyte" : "ushort", code == 'B' ? 255 : 65535));
    fail(in, error, outOfRange);
  }
  if (size >= 8) return;
  int64_t lo = isSigned ? -(int64_t(1) << (8 * size - 1)) : 0;
  int64_t hi = isSigned ? (int64_t(1) << (8 * size - 1)) - 1 : (int64_t(1) << (8 * size)) - 1;
  if (v >= lo && v <= hi) return;
  if (code == 'b') fail(in, error, "byte format requires -128 <= number <= 127");
  if (code == 'B') fail(in, error, "ubyte format requires 0 <= number <= 255");
  if (code == 'h' && !bigEndian) fail(in, error, "short format requires -32768 <= number <= 32767");
  if (code == 'H' && !bigEndian) fail(in, error, "ushort format requires 0 <= number <= 65535");
  fail(in, error, fmt::format("'{}' format requires {} <= number <= {}", code, lo, hi));
}

std::string pack(Interpreter &in, const Ref<ClassObject> &error, const Layout &l, std::span<const Value> values) {
  if (values.size() != l.values)
    fail(in, error, fmt::format("pack expected {} items for packing (got {})", l.values, values.size()));
  std::string out(l.size, '\0');
  for (size_t k = 0; k < l.items.size(); ++k) {
    const Item &it = l.items[k];
    const Value &v = values[k];
    switch (it.code) {
    case 'c': {
      auto *b = v.as<BytesObject>();
      if (!b || b->s.size() != 1) fail(in, error, "char format requires a bytes object of length 1");
      out[it.offset] = b->s[0];
      break;
    }
    case 's':
    case 'p': {
      auto *b = v.as<BytesObject>();
      if (!b) fail(in, error, fmt::format("argument for '{}' must be a bytes object", it.code));
      size_t room = size_t(it.count), start = it.offset;
      if (it.code == 'p') {
        if (room == 0) break;
        size_t n = std::min<size_t>(std::min(b->s.size(), room - 1), 255);
        out[start] = char(n);
        std::memcpy(out.data() + start + 1, b->s.data(), n);
      } else {
        std::memcpy(out.data() + start, b->s.data(), std::min(b->s.size(), room));
      }
      break;
    }
    case '?': out[it.offset] = char(in.truth(v) ? 1 : 0); break;
    case 'e':
    case 'f':
    case 'd': {
      if (!v.isFloat() && !isIntValue(v)) {
        if (!v.as<InstanceObject>()) fail(in, error, "required argument is not a float");
      }
      // An int too large for the format: CPython's struct.error (one no
      // double holds: "not a float"; one past the format's range: "int too
      // large to convert").
      bool isInt = isIntValue(v);
      double d;
      if (v.as<BigIntObject>()) {
        try {
          d = in.toFloat(v);
        } catch (PyException &) {  // OverflowError: past the largest double
          fail(in, error, "required argument is not a float");
        }
      } else {
        d = in.toFloat(v);
      }
      if (it.code == 'd') {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        putInt(out, it.offset, 8, bits, l.little);
      } else if (it.code == 'f') {
        float f = float(d);
        if (std::isinf(f) && !std::isinf(d)) {
          if (isInt) fail(in, error, "int too large to convert");
          in.raise("OverflowError", "float too large to pack with f format");
        }
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        putInt(out, it.offset, 4, bits, l.little);
      } else {
        uint16_t h = toHalf(d);
        if (h == 0xffff) {
          if (isInt) fail(in, error, "int too large to convert");
          in.raise("OverflowError", "float too large to pack with e format");
        }
        putInt(out, it.offset, 2, h, l.little);
      }
      break;
    }
    default: {
      IntArgument n = intArgument(in, error, v);
      checkRange(in, error, it.code, it.size, n, !l.little && !l.native);
      putInt(out, it.offset, it.size, uint64_t(n.v), l.little);
    }
    }
  }
  return out;
}

Value unpack(Interpreter &in, const Layout &l, const std::string &data, size_t base) {
  std::vector<Value> out;
  for (const Item &it : l.items) {
    size_t at = base + it.offset;
    switch (it.code) {
    case 'c': out.push_back(Value(make<BytesObject>(std::string(1, data[at])))); break;
    case 's': out.push_back(Value(make<BytesObject>(data.substr(at, size_t(it.count))))); break;
    case 'p': {
      size_t n = it.count ? std::min<size_t>(uint8_t(data[at]), size_t(it.count) - 1) : 0;
      out.push_back(Value(make<BytesObject>(it.count ? data.substr(at + 1, n) : std::string())));
      break;
    }
    case '?': out.push_back(Value::boolean(data[at] != 0)); break;
    case 'd': {
      uint64_t bits = getInt(data, at, 8, l.little);
      double d;
      std::memcpy(&d, &bits, 8);
      out.push_back(Value::real(d));
      break;
    }
    case 'f': {
      uint32_t bits = uint32_t(getInt(data, at, 4, l.little));
      float f;
      std::memcpy(&f, &bits, 4);
      out.push_back(Value::real(double(f)));
      break;
    }
    case 'e': out.push_back(Value::real(fromHalf(uint16_t(getInt(data, at, 2, l.little))))); break;
    default: {
      uint64_t raw = getInt(data, at, it.size, l.little);
      bool isSigned = std::islower(uint8_t(it.code));
      if (isSigned) {
        int shift = int(64 - 8 * it.size);
        out.push_back(Value::integer(shift ? int64_t(raw << shift) >> shift : int64_t(raw)));
      } else {
        out.push_back(intValue(mpz_class(static_cast<unsigned long>(raw))));
      }
    }
    }
  }
  return in.tuple(std::move(out));
}

const std::string &bufferOf(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  in.raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", in.typeName(v)));
}

std::string formatOf(Interpreter &in, const Value &v) {
  if (auto *b = v.as<BytesObject>()) return b->s;
  if (v.as<StrObject>()) return in.str(v);
  in.raise("TypeError", fmt::format("Struct() argument 1 must be a str or bytes object, not {}", in.typeName(v)));
}

Value makeStructModule(Interpreter &in) {
  auto m = make<ModuleObject>("struct");
  auto &vars = m->scope->vars;
  Ref<ClassObject> error = moduleExceptionClass(in, "error", "struct");
  vars["error"] = Value(error);
  vars["calcsize"] = nativeWithSignature(in, "calcsize(format, /)", [error](Interpreter &in, const Bound &b) {
    return Value::integer(int64_t(parse(in, error, formatOf(in, b["format"])).size));
  });
  vars["pack"] = nativeWithSignature(in, "pack(format, /, *values)", [error](Interpreter &in, const Bound &b) {
    Layout l = parse(in, error, formatOf(in, b["format"]));
    return Value(make<BytesObject>(pack(in, error, l, b.varArgs())));
  });
  vars["unpack"] = nativeWithSignature(in, "unpack(format, buffer, /)", [error](Interpreter &in, const Bound &b) {
    Layout l = parse(in, error, formatOf(in, b["format"]));
    const std::string &data = bufferOf(in, b["buffer"]);
    if (data.size() != l.size) fail(in, error, fmt::format("unpack requires a buffer of {} bytes", l.size));
    return unpack(in, l, data, 0);
  });
  vars["unpack_from"] = nativeWithSignature(in, "unpack_from(format, /, buffer, offset=0)", [error](Interpreter &in, const Bound &b) {
    Layout l = parse(in, error, formatOf(in, b["format"]));
    const std::string &data = bufferOf(in, b["buffer"]);
    int64_t offset = in.toIndex(b["offset"]);
    if (offset < 0) {
      if (offset + int64_t(data.size()) < 0) fail(in, error, fmt::format("offset {} out of range for {}-byte buffer", offset, data.size()));
      offset += int64_t(data.size());
    }
    if (data.size() < size_t(offset) + l.size)
      fail(in, error, fmt::format("unpack_from requires a buffer of at least {} bytes for unpacking {} bytes at offset {} "
                                  "(actual buffer size is {})",
                                  size_t(offset) + l.size, l.size, offset, data.size()));
    return unpack(in, l, data, size_t(offset));
  });
  vars["iter_unpack"] = nativeWithSignature(in, "iter_unpack(format, buffer, /)", [error](Interpreter &in, const Bound &b) {
    Layout l = parse(in, error, formatOf(in, b["format"]));
    const std::string &data = bufferOf(in, b["buffer"]);
    if (l.size == 0) fail(in, error, "cannot iteratively unpack with a struct of length 0");
    if (data.size() % l.size)
      fail(in, error, fmt::format("iterative unpacking requires a buffer of a multiple of {} bytes", l.size));
    std::vector<Value> out;
    for (size_t at = 0; at < data.size(); at += l.size) out.push_back(unpack(in, l, data, at));
    return in.call(in.builtin("iter"), std::vector<Value>{in.list(std::move(out))});
  });
  vars["pack_into"] = nativeWithSignature(in, "pack_into(format, buffer, offset, /, *values)", [error](Interpreter &in, const Bound &b) -> Value {
    Layout l = parse(in, error, formatOf(in, b["format"]));
    auto *buf = b["buffer"].as<BytesObject>();
    if (!buf || !buf->isMutable) in.raise("TypeError", "argument must be read-write bytes-like object, not " + in.typeName(b["buffer"]));
    int64_t offset = in.toIndex(b["offset"]);
    if (offset < 0) offset += int64_t(buf->s.size());
    std::string packed = pack(in, error, l, b.varArgs());
    if (offset < 0 || buf->s.size() < size_t(offset) + packed.size())
      fail(in, error, fmt::format("pack_into requires a buffer of at least {} bytes for packing {} bytes at offset {} "
                                  "(actual buffer size is {})",
                                  size_t(std::max<int64_t>(offset, 0)) + packed.size(), packed.size(), offset, buf->s.size()));
    std::memcpy(buf->s.data() + offset, packed.data(), packed.size());
    return Value();
  });
  vars["Struct"] = in.getAttr(in.importModule("_struct_class"), "Struct");  // _struct_class.tfs
  return Value(m);
}

}  // namespace

void registerStructModule() { Interpreter::registerNativeModule("struct", makeStructModule); }

}  // namespace tfs::runtime
