// The object protocol: attribute access (instances, classes, descriptors,
// super, modules, builtin-type methods), operators with CPython's numeric
// semantics and reflected dunders, comparisons, truth, indexing and
// slicing and len (iteration: iteration.cpp; hashing and int/float conversions:
// conversions.cpp).
#include "runtime/tensor/allocator.h"
#include "runtime/interp/bytes_percent.h"
#include "runtime/interp/big_int.h"
#include "runtime/interp/builtins.h"
#include "runtime/interp/complex_object.h"
#include "runtime/interp/eval.h"
#include "runtime/interp/index_protocol.h"
#include "runtime/interp/pyformat.h"
#include "runtime/interp/number_order.h"
#include "runtime/interp/set_ops.h"

#include <cmath>
#include "runtime/interp/big_range.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// How many indices a clamped slice visits, in 128 bits (-step of INT64_MIN
// and stop - start do not always exist in 64).
__int128 sliceCount(__int128 a, __int128 b, __int128 s) {
  return s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / -s : 0);
}

const char *dunder(BinOp op, bool reflected) {
  static const char *fwd[] = {"__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
                              "__pow__", "__matmul__", "__lshift__", "__rshift__", "__and__", "__or__", "__xor__"};
  static const char *rev[] = {"__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
                              "__rpow__", "__rmatmul__", "__rlshift__", "__rrshift__", "__rand__", "__ror__", "__rxor__"};
  return (reflected ? rev : fwd)[int(op)];
}
const char *opSymbol(BinOp op) {
  static const char *s[] = {"+", "-", "*", "/", "//", "%", "** or pow()", "@", "<<", ">>", "&", "|", "^"};
  return s[int(op)];
}
// CPython names the augmented operator in its TypeError (`for -=:`, `for **=:`).
static const char *inPlaceSymbol(BinOp op) {
  static const char *s[] = {"+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "<<=", ">>=", "&=", "|=", "^="};
  return s[int(op)];
}
[[noreturn]] static void raiseUnsupportedOperands(Interpreter &in, BinOp op, const Value &a, const Value &b, bool inPlace) {
  in.raise("TypeError", fmt::format("unsupported operand type(s) for {}: '{}' and '{}'",
                                    inPlace ? inPlaceSymbol(op) : opSymbol(op), in.typeName(a), in.typeName(b)));
}

bool isNumber(const Value &v) { return v.isInt() || v.isFloat() || v.isBool(); }
double numAsDouble(const Value &v) { return v.isFloat() ? v.asFloat() : double(v.asInt()); }

int64_t normIndex(Interpreter &in, int64_t i, size_t n, const char *what) {
  if (i < 0) i += int64_t(n);
  if (i < 0 || i >= int64_t(n)) in.raise("IndexError", fmt::format("{} index out of range", what));
  return i;
}

// Python slice indices for a sequence of length n.
void sliceIndices(Interpreter &in, const SliceObject &s, int64_t n, int64_t &start, int64_t &stop, int64_t &step) {
  // CPython's _PyEval_SliceIndex wording for values that are no index.
  auto index = [&](const Value &v) {
    if (!v.isInt() && !v.isBool() && !hasIndexSlot(in, v))
      in.raise("TypeError", "slice indices must be integers or None or have an __index__ method");
    return in.toIndex(v);
  };
  step = s.step.isNone() ? 1 : index(s.step);
  if (step == 0) in.raise("ValueError", "slice step cannot be zero");
  auto clampIdx = [&](const Value &v, int64_t dflt) {
    if (v.isNone()) return dflt;
    int64_t i = index(v);
    if (i < 0) i += n;
    if (step > 0) return std::clamp<int64_t>(i, 0, n);
    return std::clamp<int64_t>(i, -1, n - 1);
  };
  start = clampIdx(s.lower, step > 0 ? 0 : n - 1);
  stop = clampIdx(s.upper, step > 0 ? n : -1);
}

// Calls f(i) for each index a clamped slice visits, by count: `i += step`
// past the last index overflows when the step is near INT64_MAX/MIN.
template <class F> void forSliceIndices(int64_t start, int64_t stop, int64_t step, F &&f) {
  __int128 n = sliceCount(start, stop, step);
  for (__int128 k = 0; k < n; ++k) f(int64_t(start + k * step));
}

std::vector<Value> sliceOf(Interpreter &in, const std::vector<Value> &items, const SliceObject &s) {
  int64_t start, stop, step;
  sliceIndices(in, s, int64_t(items.size()), start, stop, step);
  std::vector<Value> out;
  forSliceIndices(start, stop, step, [&](int64_t i) { out.push_back(items[size_t(i)]); });
  return out;
}

std::vector<std::string> codepoints(const std::string &s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    size_t n = 1;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xF0) n = 4; else if (c >= 0xE0) n = 3; else if (c >= 0xC0) n = 2;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

// Code points without building a vector of them: len() and s[i] on long
// strings (a JSON document, a CSV line) stay cheap.
int64_t codepointCount(const std::string &s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
bool isAscii(const std::string &s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

Value numericBinary(Interpreter &in, BinOp op, const Value &a, const Value &b, bool inPlace) {
  bool ints = !a.isFloat() && !b.isFloat();
  if (ints) {
    int64_t x = a.asInt(), y = b.asInt(), r = 0;
    switch (op) {
    // A result past 64 bits (or an operation whose 64-bit form would round)
    // is computed exactly by the big-int slow path.
    case BinOp::Add: if (__builtin_add_overflow(x, y, &r)) return intBinary(in, op, a, b); return Value::integer(r);
    case BinOp::Sub: if (__builtin_sub_overflow(x, y, &r)) return intBinary(in, op, a, b); return Value::integer(r);
    case BinOp::Mul: if (__builtin_mul_overflow(x, y, &r)) return intBinary(in, op, a, b); return Value::integer(r);
    case BinOp::Div: {
      if (y == 0) in.raise("ZeroDivisionError", "division by zero");
      // Both exact as doubles: one division rounds correctly; otherwise CPython's exact algorithm.
      constexpr int64_t exact = int64_t(1) << 53;
      if (x >= -exact && x <= exact && y >= -exact && y <= exact) return Value::real(double(x) / double(y));
      return Value::real(intTrueDivide(in, a, b));
    }
    case BinOp::FloorDiv: {
      if (y == 0) in.raise("ZeroDivisionError", "integer division or modulo by zero");
      if (y == -1 && x == INT64_MIN) return intBinary(in, op, a, b);
      int64_t q = x / y;
      if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
      return Value::integer(q);
    }
    case BinOp::Mod: {
      if (y == 0) in.raise("ZeroDivisionError", "integer modulo by zero");
      if (y == -1) return Value::integer(0);  // INT64_MIN % -1 is undefined in C++
      int64_t m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return Value::integer(m);
    }
    case BinOp::Pow: {
      // A negative exponent: float ** float, as CPython (0 ** -1 is its ZeroDivisionError).
      if (y < 0) return numericBinary(in, op, Value::real(double(x)), Value::real(double(y)), inPlace);
      int64_t result = 1, base = x;
      while (y) {
        if (y & 1 && __builtin_mul_overflow(result, base, &result)) return intBinary(in, op, a, b);
        y >>= 1;
        if (y && __builtin_mul_overflow(base, base, &base)) return intBinary(in, op, a, b);
      }
      return Value::integer(result);
    }
    case BinOp::LShift:
      if (y < 0) in.raise("ValueError", "negative shift count");
      if (y >= 63 || (x != 0 && (x << y) >> y != x)) return intBinary(in, op, a, b);
      return Value::integer(x << y);
    case BinOp::RShift:
      if (y < 0) in.raise("ValueError", "negative shift count");
      return Value::integer(y >= 64 ? (x < 0 ? -1 : 0) : x >> y);
    case BinOp::And: return a.isBool() && b.isBool() ? Value::boolean(x & y) : Value::integer(x & y);
    case BinOp::Or: return a.isBool() && b.isBool() ? Value::boolean(x | y) : Value::integer(x | y);
    case BinOp::Xor: return a.isBool() && b.isBool() ? Value::boolean(x ^ y) : Value::integer(x ^ y);
    case BinOp::MatMul: break;
    }
    raiseUnsupportedOperands(in, op, a, b, inPlace);
  }
  double x = numAsDouble(a), y = numAsDouble(b);
  switch (op) {
  case BinOp::Add: return Value::real(x + y);
  case BinOp::Sub: return Value::real(x - y);
  case BinOp::Mul: return Value::real(x * y);
  case BinOp::Div:
    if (y == 0) in.raise("ZeroDivisionError", "float division by zero");
    return Value::real(x / y);
  case BinOp::FloorDiv: {
    if (y == 0) in.raise("ZeroDivisionError", "float floor division by zero");
    // CPython's float_divmod: from the exact remainder, not floor(x / y),
    // whose rounded quotient can land on the next integer.
    double mod = std::fmod(x, y), div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1.0;
    if (div == 0) return Value::real(std::copysign(0.0, x / y));
    double whole = std::floor(div);
    return Value::real(div - whole > 0.5 ? whole + 1.0 : whole);
  }
  case BinOp::Mod: {
    if (y == 0) in.raise("ZeroDivisionError", "float modulo");
    double m = std::fmod(x, y);
    if (m != 0 && ((m < 0) != (y < 0))) m += y;
    else if (m == 0) m = std::copysign(0.0, y);  // CPython: a zero result takes the divisor's sign
    return Value::real(m);
  }
  case BinOp::Pow: {
    if (x == 0 && y < 0) in.raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    bool finite = std::isfinite(x) && std::isfinite(y);
    // CPython's float_pow: a negative base to a fractional power is the
    // complex power ((-8) ** (1/3) is (1.0000000000000002+1.7320508075688772j)),
    // and a finite power that overflows is an OverflowError, not inf.
    if (finite && x < 0 && y != std::floor(y))
      return in.binary(BinOp::Pow, complexValue(x, 0.0), complexValue(y, 0.0));
    double r = std::pow(x, y);
    if (finite && std::isinf(r)) in.raise("OverflowError", "(34, 'Numerical result out of range')");
    return Value::real(r);
  }
  default: break;
  }
  raiseUnsupportedOperands(in, op, a, b, inPlace);
}

std::optional<Value> sequenceBinary(Interpreter &in, BinOp op, const Value &a, const Value &b) {
  if (op == BinOp::Add) {
    if (auto *x = a.as<StrObject>(); x && b.as<StrObject>()) return in.str(x->s + b.as<StrObject>()->s);
    if (auto *x = a.as<BytesObject>(); x && b.as<BytesObject>()) {
      auto out = make<BytesObject>(x->s + b.as<BytesObject>()->s);
      out->isMutable = x->isMutable;  // bytearray + bytes is a bytearray
      return Value(out);
    }
    if (auto *x = a.as<ListObject>(); x && b.as<ListObject>()) {
      auto items = x->items;
      for (auto &v : b.as<ListObject>()->items) items.push_back(v);
      return in.list(std::move(items));
    }
    if (auto *x = a.as<TupleObject>(); x && b.as<TupleObject>()) {
      auto items = x->items;
      for (auto &v : b.as<TupleObject>()->items) items.push_back(v);
      return in.tuple(std::move(items));
    }
  }
  if (op == BinOp::Mul) {
    const Value &seq = (a.isInt() || a.isBool()) ? b : a;
    const Value &n = (a.isInt() || a.isBool()) ? a : b;
    if (a.as<BigIntObject>() || b.as<BigIntObject>()) {  // a repeat count past 64 bits
      const Value &other = a.as<BigIntObject>() ? b : a;
      if (other.as<StrObject>() || other.as<BytesObject>() || other.as<ListObject>() || other.as<TupleObject>())
        in.raise("OverflowError", "cannot fit 'int' into an index-sized integer");
    }
    if (!(n.isInt() || n.isBool())) return std::nullopt;
    int64_t k = std::max<int64_t>(0, n.asInt());
    // A repeat larger than the memory budget fails up front, as CPython's
    // MemoryError does, instead of paging for minutes before the OOM killer.
    auto checkSize = [&](size_t len, size_t elemBytes) {
      int64_t limit = memoryLimit();
      if (len && k && limit > 0 && (uint64_t(k) > uint64_t(limit) / len / elemBytes))
        in.raise("MemoryError", "");
    };
    if (auto *s = seq.as<StrObject>()) checkSize(s->s.size(), 1);
    if (auto *l = seq.as<ListObject>()) checkSize(l->items.size(), sizeof(Value));
    if (auto *t = seq.as<TupleObject>()) checkSize(t->items.size(), sizeof(Value));
    if (auto *s = seq.as<StrObject>()) {
      std::string out;
      for (int64_t i = 0; i < k; ++i) out += s->s;
      return in.str(out);
    }
    if (auto *s = seq.as<BytesObject>()) {
      checkSize(s->s.size(), 1);
      auto out = make<BytesObject>("");
      out->isMutable = s->isMutable;
      for (int64_t i = 0; i < k; ++i) out->s += s->s;
      return Value(out);
    }
    if (auto *l = seq.as<ListObject>()) {
      std::vector<Value> out;
      for (int64_t i = 0; i < k; ++i) out.insert(out.end(), l->items.begin(), l->items.end());
      return in.list(std::move(out));
    }
    if (auto *t = seq.as<TupleObject>()) {
      std::vector<Value> out;
      for (int64_t i = 0; i < k; ++i) out.insert(out.end(), t->items.begin(), t->items.end());
      return in.tuple(std::move(out));
    }
  }
  if (op == BinOp::Mod) {
    if (auto *s = a.as<StrObject>()) return in.str(percentFormat(in, s->s, b));
    if (auto *s = a.as<BytesObject>()) {
      auto out = make<BytesObject>(bytesPercentFormat(in, s->s, b));
      out->isMutable = s->isMutable;
      return Value(out);
    }
  }
  if (auto *x = a.as<DictObject>(); x && b.as<DictObject>() && op == BinOp::Or) {
    auto out = make<DictObject>();
    for (auto &[k, v] : x->items()) out->set(in, k, v);
    for (auto &[k, v] : b.as<DictObject>()->items()) out->set(in, k, v);
    return Value(out);
  }
  // frozenset | set is a frozenset, set | frozenset a set.
  return setBinary(in, op, a, b);
}

}  // namespace

namespace {
// Which of n items `del x[s]` removes.
std::vector<bool> sliceDeletionMask(Interpreter &in, const SliceObject &s, size_t n) {
  int64_t start, stop, step;
  sliceIndices(in, s, int64_t(n), start, stop, step);
  std::vector<bool> drop(n, false);
  forSliceIndices(start, stop, step, [&](int64_t i) { drop[size_t(i)] = true; });
  return drop;
}
}  // namespace

void deleteListSlice(Interpreter &in, ListObject &l, const SliceObject &s) {
  std::vector<bool> drop = sliceDeletionMask(in, s, l.items.size());
  std::vector<Value> kept;
  for (size_t i = 0; i < l.items.size(); ++i) if (!drop[i]) kept.push_back(l.items[i]);
  l.items = std::move(kept);
}

void deleteBytearrayItem(Interpreter &in, BytesObject &b, const Value &index) {
  if (auto *sl = index.as<SliceObject>()) {
    std::vector<bool> drop = sliceDeletionMask(in, *sl, b.s.size());
    std::string kept;
    for (size_t i = 0; i < b.s.size(); ++i) if (!drop[i]) kept.push_back(b.s[i]);
    b.s = std::move(kept);
    return;
  }
  int64_t i = in.toIndex(index);
  if (i < 0) i += int64_t(b.s.size());
  if (i < 0 || i >= int64_t(b.s.size())) in.raise("IndexError", "bytearray index out of range");
  b.s.erase(size_t(i), 1);
}

std::string Interpreter::typeName(const Value &v) {
  switch (v.tag()) {
  case Value::Tag::None: return "NoneType";
  case Value::Tag::Bool: return "bool";
  case Value::Tag::Int: return "int";
  case Value::Tag::Float: return "float";
  case Value::Tag::Obj: return v.obj()->typeName();
  }
  return "object";
}

Value Interpreter::binary(BinOp op, const Value &a, const Value &b, bool inPlace) {
  if (isNumber(a) && isNumber(b)) return numericBinary(*this, op, a, b, inPlace);
  auto isSequence = [](const Value &v) {
    return v.as<StrObject>() || v.as<ListObject>() || v.as<TupleObject>() || v.as<BytesObject>();
  };
  // A numpy scalar's multiply gives way to a sequence's repeat (numpy's
  // scalarmath returns NotImplemented there): "ab" * np.int64(2) is "abab"
  // and [0] * np.float64(2) CPython's TypeError, never an array.
  if (op == BinOp::Mul && (isSequence(a) || isSequence(b))) {
    const Value &n = isSequence(a) ? b : a;
    if (isNumpyScalar(*this, n)) {
      if (!hasIndexSlot(*this, n))
        raise("TypeError", fmt::format("can't multiply sequence by non-int of type '{}'", cTypeName(*this, n)));
      Value count = Value::integer(toIndex(n));
      return *sequenceBinary(*this, op, isSequence(a) ? a : count, isSequence(a) ? count : b);
    }
  }
  // User classes and native objects: a.__op__(b), then b.__rop__(a).
  auto tryUser = [&](const Value &self, const Value &other, bool reflected) -> std::optional<Value> {
    if (auto *inst = self.as<InstanceObject>()) {
      if (auto m = inst->klass->lookup(dunder(op, reflected))) {
        Value args[] = {other};
        Value r = call(Value(make<BoundMethod>(self, *m)), args);
        if (!r.is(builtin("NotImplemented"))) return r;
      }
      if (const Value *b = builtinPart(self)) {
        Value x = reflected ? other : *b, y = reflected ? *b : other;
        if (isNumber(x) && isNumber(y)) return numericBinary(*this, op, x, y, inPlace);
        return sequenceBinary(*this, op, unwrapBuiltin(x), unwrapBuiltin(y));
      }
      return std::nullopt;
    }
    if (Object *o = self.obj()) return o->binary(*this, op, other, reflected);
    return std::nullopt;
  };
  // CPython tries the right operand first when its class is a proper
  // subclass of the left's that overrides the reflected method.
  if (auto *ib = b.as<InstanceObject>()) {
    Ref<ClassObject> ta = typeOf(a);
    if (ib->klass.get() != ta.get() && ib->klass->isSubclassOf(ta.get()))
      if (auto rb = ib->klass->lookup(dunder(op, true))) {
        auto ra = ta->lookup(dunder(op, true));
        if (!ra || !ra->is(*rb))
          if (auto r = tryUser(b, a, true)) return *r;
      }
  }
  if (auto r = tryUser(a, b, false)) return *r;
  if (auto r = sequenceBinary(*this, op, a, b)) return *r;
  // CPython tries no reflected method between operands of one class.
  auto *ia = a.as<InstanceObject>(), *ib = b.as<InstanceObject>();
  bool sameClass = ia && ib && ia->klass == ib->klass && !builtinPart(a);
  if (!sameClass)
    if (auto r = tryUser(b, a, true)) return *r;
  if (op == BinOp::Mul && (isSequence(a) || isSequence(b))) {
    // CPython's sequence repeat takes any __index__ (a class defining it;
    // numpy arrays and tensors have declined above, as their multiply
    // decides in CPython).
    const Value &n = isSequence(a) ? b : a;
    if (n.as<InstanceObject>() && hasIndexSlot(*this, n)) {
      Value count = Value::integer(toIndex(n));
      return *sequenceBinary(*this, op, isSequence(a) ? a : count, isSequence(a) ? count : b);
    }
    // CPython's sequence-repeat wording
    raise("TypeError", fmt::format("can't multiply sequence by non-int of type '{}'", cTypeName(*this, n)));
  }
  if (op == BinOp::Or)
    if (auto u = typeUnion(*this, a, b)) return *u;
  // A sequence on the left: CPython falls back to its sq_concat, whose error
  // wins over the operand-types one.
  if (op == BinOp::Add && isSequence(a)) {
    if (a.as<BytesObject>()) raise("TypeError", fmt::format("can't concat {} to {}", typeName(b), typeName(a)));
    raise("TypeError", fmt::format("can only concatenate {} (not \"{}\") to {}", typeName(a), typeName(b), typeName(a)));
  }
  raiseUnsupportedOperands(*this, op, a, b, inPlace);
}

Value Interpreter::unary(UnaryOp op, const Value &a) {
  if (a.isInt() || a.isBool()) {
    if (op == UnaryOp::Neg) {
      if (a.asInt() == INT64_MIN) return intValue(-toMpz(a));
      return Value::integer(-a.asInt());
    }
    if (op == UnaryOp::Pos) return Value::integer(a.asInt());
    return Value::integer(~a.asInt());
  }
  if (a.isFloat()) {
    if (op == UnaryOp::Neg) return Value::real(-a.asFloat());
    if (op == UnaryOp::Pos) return a;
  }
  if (auto *inst = a.as<InstanceObject>()) {
    const char *name = op == UnaryOp::Neg ? "__neg__" : op == UnaryOp::Pos ? "__pos__" : "__invert__";
    if (auto m = inst->klass->lookup(name)) return call(Value(make<BoundMethod>(a, *m)), {});
    if (const Value *b = builtinPart(a)) return unary(op, *b);
  } else if (Object *o = a.obj()) {
    if (auto r = o->unary(*this, op)) return *r;
  }
  const char *sym = op == UnaryOp::Neg ? "-" : op == UnaryOp::Pos ? "+" : "~";
  raise("TypeError", fmt::format("bad operand type for unary {}: '{}'", sym, typeName(a)));
}

bool Interpreter::equals(const Value &a, const Value &b) { return truth(compare(CmpOp::Eq, a, b)); }

Value Interpreter::compare(CmpOp op, const Value &a, const Value &b) {
  if (isNumber(a) && isNumber(b)) {
    if (!a.isFloat() && !b.isFloat()) {
      int64_t x = a.asInt(), y = b.asInt();
      switch (op) {
      case CmpOp::Lt: return Value::boolean(x < y);
      case CmpOp::Le: return Value::boolean(x <= y);
      case CmpOp::Eq: return Value::boolean(x == y);
      case CmpOp::Ne: return Value::boolean(x != y);
      case CmpOp::Gt: return Value::boolean(x > y);
      case CmpOp::Ge: return Value::boolean(x >= y);
      }
    }
    if (a.isFloat() != b.isFloat()) {  // int vs float, unless the float is NaN
      double y = a.isFloat() ? a.asFloat() : b.asFloat();
      if (!std::isnan(y)) {
        int order = a.isFloat() ? -compareIntFloat(b.asInt(), y) : compareIntFloat(a.asInt(), y);
        return Value::boolean(orderSatisfies(op, order));
      }
    }
    double x = numAsDouble(a), y = numAsDouble(b);
    switch (op) {
    case CmpOp::Lt: return Value::boolean(x < y);
    case CmpOp::Le: return Value::boolean(x <= y);
    case CmpOp::Eq: return Value::boolean(x == y);
    case CmpOp::Ne: return Value::boolean(x != y);
    case CmpOp::Gt: return Value::boolean(x > y);
    case CmpOp::Ge: return Value::boolean(x >= y);
    }
  }
  static const char *names[] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};
  static const CmpOp swapped[] = {CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le};
  auto tryObj = [&](const Value &self, const Value &other, CmpOp o) -> std::optional<Value> {
    if (auto *inst = self.as<InstanceObject>()) {
      if (auto m = inst->klass->lookup(names[int(o)])) {
        Value args[] = {other};
        Value r = call(Value(make<BoundMethod>(self, *m)), args);
        if (!r.is(builtin("NotImplemented"))) return r;
      } else if (o == CmpOp::Ne) {
        // object.__ne__ inverts the class's __eq__.
        if (auto eq = inst->klass->lookup("__eq__"); eq && !eq->isNone()) {
          Value args[] = {other};
          Value r = call(Value(make<BoundMethod>(self, *eq)), args);
          if (!r.is(builtin("NotImplemented"))) return Value::boolean(!truth(r));
        }
      }
      if (const Value *b = builtinPart(self)) {
        // A dict or complex has no order: the TypeError names the subclass
        // (class D(dict): D() < D() is "... instances of 'D' and 'D'").
        bool ordering = o != CmpOp::Eq && o != CmpOp::Ne;
        if (ordering && (b->as<DictObject>() || b->as<ComplexObject>())) return std::nullopt;
        // The other operand's built-in value too, unless its class compares
        // itself: list's order then sees both lists in the written order.
        auto *io = other.as<InstanceObject>();
        const Value *ob = io ? builtinPart(other) : nullptr;
        if (ob) {
          auto own = io->klass->lookup(names[int(swapped[int(o)])]);
          if (!own || own->as<NativeFunction>()) return compare(o, *b, *ob);
        }
        return compare(o, *b, other);
      }
      return std::nullopt;
    }
    if (Object *obj = self.obj()) return obj->compare(*this, o, other);
    return std::nullopt;
  };
  // The right operand first when its class is a proper subclass of the left's.
  if (auto *ib = b.as<InstanceObject>()) {
    Ref<ClassObject> ta = typeOf(a);
    if (ib->klass.get() != ta.get() && ib->klass->isSubclassOf(ta.get()))
      if (auto r = tryObj(b, a, swapped[int(op)])) return *r;
  }
  if (auto r = tryObj(a, b, op)) return *r;
  if (auto r = tryObj(b, a, swapped[int(op)])) return *r;
  if (auto r = builtinCompare(*this, op, a, b)) return *r;
  // Bound methods are equal when they bind one function to one object.
  if (auto *ma = a.as<BoundMethod>(), *mb = b.as<BoundMethod>(); ma && mb && (op == CmpOp::Eq || op == CmpOp::Ne)) {
    bool same = ma->self.is(mb->self) && ma->func.is(mb->func);
    return Value::boolean(op == CmpOp::Eq ? same : !same);
  }
  if (op == CmpOp::Eq) return Value::boolean(a.is(b));
  if (op == CmpOp::Ne) return Value::boolean(!a.is(b));
  static const char *sym[] = {"<", "<=", "==", "!=", ">", ">="};
  raise("TypeError", fmt::format("'{}' not supported between instances of '{}' and '{}'", sym[int(op)], typeName(a), typeName(b)));
}

namespace {
// What a user __len__ returned, as CPython checks it: an index, not negative.
int64_t lengthResult(Interpreter &in, const Value &r) {
  if (auto *b = r.as<BigIntObject>(); b && b->v < 0) in.raise("ValueError", "__len__() should return >= 0");
  int64_t n = in.toIndex(r);
  if (n < 0) in.raise("ValueError", "__len__() should return >= 0");
  return n;
}
}  // namespace

bool Interpreter::truth(const Value &v) {
  switch (v.tag()) {
  case Value::Tag::None: return false;
  case Value::Tag::Bool: case Value::Tag::Int: return v.asInt() != 0;
  case Value::Tag::Float: return v.asFloat() != 0;
  case Value::Tag::Obj: break;
  }
  if (auto *s = v.as<StrObject>()) return !s->s.empty();
  if (auto *s = v.as<BytesObject>()) return !s->s.empty();
  if (auto *l = v.as<ListObject>()) return !l->items.empty();
  if (auto *t = v.as<TupleObject>()) return !t->items.empty();
  if (auto *d = v.as<DictObject>()) return d->liveCount != 0;
  if (auto *s = v.as<SetObject>()) return s->t.size() != 0;
  if (auto *r = v.as<RangeObject>()) return r->size() != 0;
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__bool__")) {
      Value r = call(Value(make<BoundMethod>(v, *m)), {});
      if (!r.isBool()) raise("TypeError", fmt::format("__bool__ should return bool, returned {}", typeName(r)));
      return r.asBool();
    }
    if (auto m = inst->klass->lookup("__len__")) return lengthResult(*this, call(Value(make<BoundMethod>(v, *m)), {})) != 0;
    if (const Value *b = builtinPart(v)) return truth(*b);
    return true;
  }
  if (v.as<ClassObject>())
    if (auto m = metaclassMethod(*this, v, "__len__")) return toInt(call(*m, {})) != 0;
  if (auto r = v.obj()->truth(*this)) return *r;
  return true;
}

int64_t Interpreter::length(const Value &v) {
  if (auto *s = v.as<StrObject>()) return codepointCount(s->s);
  if (auto *s = v.as<BytesObject>()) return int64_t(s->s.size());
  if (auto *l = v.as<ListObject>()) return int64_t(l->items.size());
  if (auto *t = v.as<TupleObject>()) return int64_t(t->items.size());
  if (auto *d = v.as<DictObject>()) return int64_t(d->liveCount);
  if (auto *s = v.as<SetObject>()) return int64_t(s->t.size());
  if (auto *r = v.as<RangeObject>()) return r->size();
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__len__")) return lengthResult(*this, call(Value(make<BoundMethod>(v, *m)), {}));
    if (const Value *b = builtinPart(v)) return length(*b);
  } else if (auto m = metaclassMethod(*this, v, "__len__")) {
    return toInt(call(*m, {}));
  } else if (Object *o = v.obj()) {
    if (auto n = o->length(*this)) return *n;
  }
  raise("TypeError", fmt::format("object of type '{}' has no len()", typeName(v)));
}


Value Interpreter::getItem(const Value &obj, const Value &key) {
  auto seqIndex = [&](const std::vector<Value> &items, const char *what) -> Value {
    if (auto *s = key.as<SliceObject>()) {
      auto out = sliceOf(*this, items, *s);
      return std::string(what) == "list" ? list(std::move(out)) : tuple(std::move(out));
    }
    if (key.as<BigIntObject>()) raise("IndexError", "cannot fit 'int' into an index-sized integer");
    // An instance with __index__, of a subclass of int (an IntEnum member),
    // a numpy integer; not a numpy float.
    if (!key.isInt() && !key.isBool() && !hasIndexSlot(*this, key))
      raise("TypeError", fmt::format("{} indices must be integers or slices, not {}", what, cTypeName(*this, key)));
    return items[size_t(normIndex(*this, toIndex(key), items.size(), what))];
  };
  if (auto *l = obj.as<ListObject>()) return seqIndex(l->items, "list");
  if (auto *t = obj.as<TupleObject>()) return seqIndex(t->items, "tuple");
  if (auto *d = obj.as<DictObject>()) {
    if (auto v = d->get(*this, key)) return *v;
    raiseValue(newKeyError(*this, key));
  }
  if (auto *s = obj.as<StrObject>()) {
    if ((key.isInt() || key.isBool()) && isAscii(s->s))
      return str(std::string(1, s->s[size_t(normIndex(*this, key.asInt(), s->s.size(), "string"))]));
    if (auto *sl = key.as<SliceObject>(); sl && isAscii(s->s)) {
      int64_t start, stop, step;
      sliceIndices(*this, *sl, int64_t(s->s.size()), start, stop, step);
      if (step == 1) return str(start < stop ? s->s.substr(size_t(start), size_t(stop - start)) : std::string());
      std::string out;
      forSliceIndices(start, stop, step, [&](int64_t i) { out += s->s[size_t(i)]; });
      return str(out);
    }
    auto cps = codepoints(s->s);
    if (auto *sl = key.as<SliceObject>()) {
      int64_t start, stop, step;
      sliceIndices(*this, *sl, int64_t(cps.size()), start, stop, step);
      std::string out;
      forSliceIndices(start, stop, step, [&](int64_t i) { out += cps[size_t(i)]; });
      return str(out);
    }
    if (!key.isInt() && !key.isBool() && !hasIndexSlot(*this, key))
      raise("TypeError", fmt::format("string indices must be integers, not '{}'", cTypeName(*this, key)));
    return str(cps[size_t(normIndex(*this, toIndex(key), cps.size(), "string"))]);
  }
  if (auto *s = obj.as<BytesObject>()) {
    if (auto *sl = key.as<SliceObject>()) {
      int64_t start, stop, step;
      sliceIndices(*this, *sl, int64_t(s->s.size()), start, stop, step);
      std::string out;
      forSliceIndices(start, stop, step, [&](int64_t i) { out += s->s[size_t(i)]; });
      auto slice = make<BytesObject>(out);
      slice->isMutable = s->isMutable;
      return Value(slice);
    }
    if (!key.isInt() && !key.isBool() && !hasIndexSlot(*this, key))
      raise("TypeError", fmt::format("{} indices must be integers or slices, not {}", s->isMutable ? "bytearray" : "byte",
                                     cTypeName(*this, key)));
    return Value::integer(static_cast<unsigned char>(s->s[size_t(normIndex(*this, toIndex(key), s->s.size(), "index"))]));
  }
  if (auto *r = obj.as<RangeObject>()) {
    if (auto *sl = key.as<SliceObject>()) return sliceOfRange(*this, obj, *sl);
    int64_t i = normIndex(*this, toIndex(key), size_t(r->size()), "range object");
    return Value::integer(int64_t(r->start + __int128(i) * r->step));  // an element: fits, i * step may not
  }
  if (auto *inst = obj.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__getitem__")) {
      Value args[] = {key};
      return call(Value(make<BoundMethod>(obj, *m)), args);
    }
    if (const Value *b = builtinPart(obj)) {
      if (auto *d = b->as<DictObject>(); d && !d->get(*this, key))
        if (auto miss = inst->klass->lookup("__missing__")) {
          Value args[] = {key};
          return call(Value(make<BoundMethod>(obj, *miss)), args);
        }
      return getItem(*b, key);
    }
  } else if (auto *cls = obj.as<ClassObject>()) {
    Value args[] = {key};
    if (auto m = metaclassMethod(*this, obj, "__getitem__")) return call(*m, args);
    if (auto m = cls->lookup("__class_getitem__")) {
      Value f = *m;
      if (auto *cm = f.as<ClassMethodObject>()) f = cm->func;
      if (f.as<NativeFunction>()) return call(f, args);
      return call(Value(make<BoundMethod>(obj, f)), args);
    }
    if (auto alias = builtinGenericAlias(*this, obj, key)) return *alias;
    raise("TypeError", fmt::format("type '{}' is not subscriptable", cls->name));
  } else if (Object *o = obj.obj()) {
    if (auto v = o->getItem(*this, key)) return *v;
  }
  raise("TypeError", fmt::format("'{}' object is not subscriptable", typeName(obj)));
}

void Interpreter::setItem(const Value &obj, const Value &key, const Value &v) {
  if (auto *l = obj.as<ListObject>()) {
    if (auto *s = key.as<SliceObject>()) {
      int64_t start, stop, step;
      sliceIndices(*this, *s, int64_t(l->items.size()), start, stop, step);
      auto repl = toList(v);
      if (step != 1) {
        std::vector<size_t> at;
        forSliceIndices(start, stop, step, [&](int64_t i) { at.push_back(size_t(i)); });
        if (at.size() != repl.size())
          raise("ValueError", fmt::format("attempt to assign sequence of size {} to extended slice of size {}",
                                          repl.size(), at.size()));
        for (size_t i = 0; i < at.size(); ++i) l->items[at[i]] = repl[i];
        return;
      }
      if (stop < start) stop = start;
      l->items.erase(l->items.begin() + long(start), l->items.begin() + long(stop));
      l->items.insert(l->items.begin() + long(start), repl.begin(), repl.end());
      return;
    }
    if (!key.isInt() && !key.isBool() && !hasIndexSlot(*this, key))
      raise("TypeError", fmt::format("list indices must be integers or slices, not {}", cTypeName(*this, key)));
    l->items[size_t(normIndex(*this, toIndex(key), l->items.size(), "list assignment"))] = v;
    return;
  }
  if (auto *d = obj.as<DictObject>()) {
    d->set(*this, key, v);
    return;
  }
  if (auto *b = obj.as<BytesObject>(); b && b->isMutable) {
    setBytearrayItem(*this, *b, key, v);
    return;
  }
  if (auto *inst = obj.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__setitem__")) {
      Value args[] = {key, v};
      call(Value(make<BoundMethod>(obj, *m)), args);
      return;
    }
    if (const Value *b = builtinPart(obj)) return setItem(*b, key, v);
  } else if (Object *o = obj.obj()) {
    if (o->setItem(*this, key, v)) return;
  }
  // An eager tensor's type is a C type in TF, named with its module.
  std::string type = typeName(obj);
  if (type == "EagerTensor") type = "tensorflow.python.framework.ops.EagerTensor";
  raise("TypeError", fmt::format("'{}' object does not support item assignment", type));
}

bool Interpreter::contains(const Value &c, const Value &item) {
  if (auto *s = c.as<StrObject>()) {
    auto *sub = item.as<StrObject>();
    if (!sub) raise("TypeError", fmt::format("'in <string>' requires string as left operand, not {}", typeName(item)));
    return s->s.find(sub->s) != std::string::npos;
  }
  if (auto *s = c.as<BytesObject>()) {
    if (item.isInt() || item.isBool()) {
      if (item.asInt() < 0 || item.asInt() > 255) raise("ValueError", "byte must be in range(0, 256)");
      return s->s.find(char(item.asInt())) != std::string::npos;
    }
    auto *sub = item.as<BytesObject>();
    if (!sub) raise("TypeError", fmt::format("a bytes-like object is required, not '{}'", typeName(item)));
    return s->s.find(sub->s) != std::string::npos;
  }
  if (auto *d = c.as<DictObject>()) return d->get(*this, item).has_value();
  if (auto *s = c.as<SetObject>()) return setContains(*this, *s, item);
  if (auto *r = c.as<RangeObject>(); r && (item.isInt() || item.isBool())) return rangeContains(*r, item.asInt());
  if (auto *inst = c.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__contains__")) {
      Value args[] = {item};
      return truth(call(Value(make<BoundMethod>(c, *m)), args));
    }
    if (const Value *b = builtinPart(c)) return contains(*b, item);
    auto itm = inst->klass->lookup("__iter__");
    if ((!itm || itm->isNone()) && !inst->klass->lookup("__getitem__"))
      raise("TypeError", fmt::format("argument of type '{}' is not iterable", typeName(c)));
  } else if (auto m = metaclassMethod(*this, c, "__contains__")) {
    Value args[] = {item};
    return truth(call(*m, args));
  } else if (c.obj() && !c.as<ListObject>() && !c.as<TupleObject>() && !c.as<RangeObject>()) {
    if (auto r = c.obj()->contains(*this, item)) return *r;
  }
  Value it = iter(c);
  while (auto x = next(it))
    if (x->is(item) || equals(*x, item)) return true;
  return false;
}

void sliceBounds(Interpreter &in, const SliceObject &s, int64_t n, int64_t &start, int64_t &stop, int64_t &step) {
  sliceIndices(in, s, n, start, stop, step);
}

}  // namespace tfs::runtime
