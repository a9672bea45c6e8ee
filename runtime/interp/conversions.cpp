// Value conversions of the object protocol (protocol.cpp): hash(),
// __index__, int() and float() with CPython's rules and messages, and
// isinstance against a class.
#include "runtime/interp/unicode_digits.h"
#include "runtime/tensor/allocator.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/big_range.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/int_literal.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/index_protocol.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/py_hash.h"

#include <cctype>
#include <cmath>
#include <optional>
#include <string_view>
#include <fmt/format.h>

namespace tfs::runtime {

int64_t Interpreter::hash(const Value &v) {
  switch (v.tag()) {
  case Value::Tag::None: return 0x5f3759df;
  case Value::Tag::Bool: return v.asInt();
  case Value::Tag::Int: return pyHashInt(v.asInt());
  case Value::Tag::Float: return pyHashFloat(v.asFloat());
  case Value::Tag::Obj: break;
  }
  // str and bytes: CPython salts these per run, so any stable hash will do.
  if (auto *s = v.as<StrObject>()) {
    if (s->hashCache == -1) s->hashCache = pyHashFix(int64_t(std::hash<std::string>()(s->s)));
    return s->hashCache;
  }
  if (auto *s = v.as<BytesObject>(); s && s->isMutable) raise("TypeError", "unhashable type: 'bytearray'");
  if (auto *s = v.as<BytesObject>()) return pyHashFix(int64_t(std::hash<std::string>()(s->s) ^ 0x9e37));
  if (auto *t = v.as<TupleObject>()) {
    std::vector<int64_t> hashes;
    hashes.reserve(t->items.size());
    for (auto &x : t->items) hashes.push_back(hash(x));
    return pyHashTuple(hashes);
  }
  if (auto *s = v.as<SetObject>(); s && s->frozen) {
    // CPython's frozenset hash: element hashes shuffled and xor-ed (so
    // independent of order), then mixed with the size.
    auto shuffle = [](uint64_t h) { return ((h ^ 89869747ULL) ^ (h << 16)) * 3644798167ULL; };
    uint64_t h = 0;
    s->t.forEach([&](const Value &, int64_t kh) { h ^= shuffle(uint64_t(kh)); });
    h ^= (uint64_t(s->t.size()) + 1) * 1927868237ULL;
    h ^= (h >> 11) ^ (h >> 25);
    h = h * 69069U + 907133923ULL;
    return int64_t(h) == -1 ? 590923713 : int64_t(h);
  }
  if (v.as<ListObject>() || v.as<DictObject>() || v.as<SetObject>())
    raise("TypeError", fmt::format("unhashable type: '{}'", typeName(v)));
  if (v.as<RangeObject>()) return *rangeHash(*this, v);
  if (auto *inst = v.as<InstanceObject>()) {
    // A class defining __eq__ without __hash__ has __hash__ = None (unhashable).
    for (ClassObject *c : inst->klass->mro) {
      auto h = c->dict.find("__hash__");
      if (h != c->dict.end()) {
        if (h->second.isNone()) raise("TypeError", fmt::format("unhashable type: '{}'", typeName(v)));
        Value r = call(Value(make<BoundMethod>(v, h->second)), {});
        if (r.as<BigIntObject>()) return hash(r);  // CPython hashes a big result again
        if (!r.isInt() && !r.isBool()) raise("TypeError", "__hash__ method should return an integer");
        return pyHashFix(r.asInt());
      }
      auto eq = c->dict.find("__eq__");
      if (eq != c->dict.end() && !eq->second.as<NativeFunction>())
        raise("TypeError", fmt::format("unhashable type: '{}'", typeName(v)));
    }
    if (const Value *b = builtinPart(v)) return hash(*b);
  } else if (auto h = v.obj()->hash(*this)) {
    return *h;
  }
  return int64_t(reinterpret_cast<intptr_t>(v.obj()));
}

int64_t Interpreter::toIndex(const Value &v) {
  if (v.isInt() || v.isBool()) return v.asInt();
  if (v.as<BigIntObject>()) raise("OverflowError", "cannot fit 'int' into an index-sized integer");
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__index__")) {
      Value r = call(Value(make<BoundMethod>(v, *m)), {});
      if (!isIntValue(r)) raise("TypeError", fmt::format("__index__ returned non-int (type {})", typeName(r)));
      return toIndex(r);
    }
    if (const Value *b = builtinPart(v); b && (b->isInt() || b->isBool())) return b->asInt();
  } else if (Object *o = v.obj()) {
    // A native value's own __index__ (numpy integers, eager tensors) says
    // what it is as an index; int() of a numpy float truncates, but it is
    // no index (range(np.float64(2.0)) raises as in CPython).
    if (auto m = o->getAttr(*this, "__index__")) return toIndex(call(*m, {}));
    if (!isNumpyScalar(*this, v))
      if (auto i = o->toInt(*this)) return *i;
  }
  raise("TypeError", fmt::format("'{}' object cannot be interpreted as an integer", cTypeName(*this, v)));
}

int64_t Interpreter::toInt(const Value &v) {
  if (v.isInt() || v.isBool()) return v.asInt();
  if (v.isFloat()) {
    double d = v.asFloat();
    if (std::isnan(d)) raise("ValueError", "cannot convert float NaN to integer");
    if (std::isinf(d)) raise("OverflowError", "cannot convert float infinity to integer");
    if (std::fabs(d) >= 9.2233720368547758e18) raiseIntTooLarge();
    return int64_t(d);
  }
  if (auto *s = v.as<StrObject>()) {
    IntLiteral lit = parseIntLiteral(asciiNumberText(s->s), 10);
    if (lit.status == IntLiteral::Status::Overflow) raiseIntTooLarge();
    if (lit.status == IntLiteral::Status::Invalid)
      raise("ValueError", fmt::format("invalid literal for int() with base 10: {}", repr(v)));
    return lit.value;
  }
  if (auto *inst = v.as<InstanceObject>()) {
    for (const char *name : {"__int__", "__index__"})
      if (auto m = inst->klass->lookup(name)) {
        Value r = call(Value(make<BoundMethod>(v, *m)), {});
        if (!isIntValue(r)) raise("TypeError", fmt::format("{} returned non-int (type {})", name, typeName(r)));
        return toInt(r);
      }
    if (const Value *b = builtinPart(v)) return toInt(*b);
  } else if (Object *o = v.obj()) {
    if (auto i = o->toInt(*this)) return *i;
  }
  raise("TypeError", fmt::format("int() argument must be a string, a bytes-like object or a real number, not '{}'", typeName(v)));
}

namespace {
// Python's float(text): surrounding whitespace, a sign, decimal digits with
// single underscores between digits, an optional fraction and exponent, or
// inf / infinity / nan in any case. strtod alone would also take hex floats
// ("0x1p3") that CPython refuses.
std::optional<double> parseFloatLiteral(std::string_view t) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!t.empty() && space(t.front())) t.remove_prefix(1);
  while (!t.empty() && space(t.back())) t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  std::string body(t);
  size_t i = body[0] == '+' || body[0] == '-' ? 1 : 0;
  std::string word;
  for (size_t k = i; k < body.size(); ++k) word += char(std::tolower(static_cast<unsigned char>(body[k])));
  bool negative = body[0] == '-';
  if (word == "inf" || word == "infinity") return negative ? -INFINITY : INFINITY;
  if (word == "nan") return NAN;
  // Digits with underscores only between two digits; returns how many digits.
  std::string plain(body.substr(0, i));
  auto digits = [&](size_t &k) {
    size_t n = 0;
    while (k < body.size()) {
      if (std::isdigit(static_cast<unsigned char>(body[k]))) {
        plain += body[k++];
        ++n;
      } else if (body[k] == '_' && n && k + 1 < body.size() &&
                 std::isdigit(static_cast<unsigned char>(body[k + 1]))) {
        ++k;
      } else {
        break;
      }
    }
    return n;
  };
  size_t k = i, whole = digits(k), frac = 0;
  if (k < body.size() && body[k] == '.') {
    plain += body[k++];
    frac = digits(k);
  }
  if (whole + frac == 0) return std::nullopt;
  if (k < body.size() && (body[k] == 'e' || body[k] == 'E')) {
    plain += body[k++];
    if (k < body.size() && (body[k] == '+' || body[k] == '-')) plain += body[k++];
    if (!digits(k)) return std::nullopt;
  }
  if (k != body.size()) return std::nullopt;
  return std::strtod(plain.c_str(), nullptr);
}
}  // namespace

double Interpreter::toFloat(const Value &v) {
  if (v.isFloat()) return v.asFloat();
  if (v.isInt() || v.isBool()) return double(v.asInt());
  const std::string *text = nullptr;
  if (auto *s = v.as<StrObject>()) text = &s->s;
  else if (auto *b = v.as<BytesObject>()) text = &b->s;
  if (text) {
    std::optional<double> d = parseFloatLiteral(v.as<StrObject>() ? asciiNumberText(*text) : *text);
    if (!d) raise("ValueError", fmt::format("could not convert string to float: {}", repr(v)));
    return *d;
  }
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__float__")) {
      Value r = call(Value(make<BoundMethod>(v, *m)), {});
      if (!r.isFloat() && !(r.as<InstanceObject>() && builtinPart(r) && builtinPart(r)->isFloat()))
        raise("TypeError", fmt::format("{}.__float__ returned non-float (type {})", inst->klass->name, typeName(r)));
      return toFloat(r);
    }
    if (const Value *b = builtinPart(v)) return toFloat(*b);
    if (inst->klass->lookup("__index__")) return double(toIndex(v));
  } else if (Object *o = v.obj()) {
    if (auto d = o->toFloat(*this)) return *d;
  }
  raise("TypeError", fmt::format("float() argument must be a string or a real number, not '{}'", typeName(v)));
}

bool Interpreter::isInstance(const Value &v, const ClassObject *cls) {
  Ref<ClassObject> t = typeOf(v);
  return t && t->isSubclassOf(cls);
}

}  // namespace tfs::runtime
