// range() past 64 bits (big_range.h), and the parts of range that are the
// same at every size: construction, slicing (CPython's compute_slice with
// _PySlice_GetLongIndices, exact for any slice bounds), equality.
#include "runtime/interp/big_range.h"

#include "runtime/interp/builtins.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

// The elements of a range: start + i * step for 0 <= i < length.
struct RangeParts {
  mpz_class start, stop, step, length;
};

mpz_class lengthOf(const mpz_class &start, const mpz_class &stop, const mpz_class &step) {
  mpz_class n;
  if (step > 0) n = stop > start ? mpz_class((stop - start + step - 1) / step) : mpz_class(0);
  else n = start > stop ? mpz_class((start - stop - step - 1) / -step) : mpz_class(0);
  return n;
}

struct BigRangeIterator final : Object {
  mpz_class next_, step, left;
  const char *typeName() const override { return "longrange_iterator"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &) override {
    if (left <= 0) return std::nullopt;
    Value v = intValue(next_);
    next_ += step;
    left -= 1;
    return v;
  }
};

Value iteratorOver(const mpz_class &first, const mpz_class &step, const mpz_class &count) {
  auto it = make<BigRangeIterator>();
  it->next_ = first;
  it->step = step;
  it->left = count;
  return Value(it);
}

mpz_class exact(int64_t v) { return mpz_class(static_cast<long>(v)); }

// An int argument of range() or of a slice, as an exact integer.
mpz_class indexValue(Interpreter &in, const Value &v) {
  if (isIntValue(v)) return toMpz(v);
  return exact(in.toIndex(v));
}

struct BigRangeObject final : Object {
  RangeParts r;
  Ref<ClassObject> rangeClass;
  const char *typeName() const override { return "range"; }
  ClassObject *cls() const override { return rangeClass.get(); }

  mpz_class item(const mpz_class &i) const { return r.start + i * r.step; }
  bool holds(const mpz_class &x) const {
    bool inside = r.step > 0 ? (x >= r.start && x < r.stop) : (x <= r.start && x > r.stop);
    return inside && mpz_class(x - r.start) % r.step == 0;
  }

  std::optional<int64_t> length(Interpreter &in) override {
    if (!r.length.fits_slong_p()) in.raise("OverflowError", "Python int too large to convert to C ssize_t");
    return int64_t(r.length.get_si());
  }
  std::optional<bool> truth(Interpreter &) override { return r.length != 0; }
  std::optional<Value> iter(Interpreter &) override { return iteratorOver(r.start, r.step, r.length); }
  std::optional<Value> getItem(Interpreter &in, const Value &key) override {
    if (auto *s = key.as<SliceObject>()) return sliceOfRange(in, Value(Ref<Object>(this)), *s);
    if (!isIntValue(key) && !key.as<InstanceObject>())
      in.raise("TypeError", fmt::format("range indices must be integers or slices, not {}", in.typeName(key)));
    mpz_class i = indexValue(in, key);
    if (i < 0) i += r.length;
    if (i < 0 || i >= r.length) in.raise("IndexError", "range object index out of range");
    return intValue(item(i));
  }
  // An int is answered by arithmetic; anything else (3.0) compares element
  // by element, as CPython's does (the caller iterates).
  std::optional<bool> contains(Interpreter &, const Value &x) override {
    if (!isIntValue(x)) return std::nullopt;
    return holds(toMpz(x));
  }
  std::optional<std::string> repr(Interpreter &) override {
    if (r.step == 1) return fmt::format("range({}, {})", r.start.get_str(), r.stop.get_str());
    return fmt::format("range({}, {}, {})", r.start.get_str(), r.stop.get_str(), r.step.get_str());
  }
  std::optional<Value> compare(Interpreter &, CmpOp op, const Value &other) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return std::nullopt;
    auto eq = rangesEqual(Value(Ref<Object>(this)), other);
    if (!eq) return std::nullopt;
    return Value::boolean(op == CmpOp::Eq ? *eq : !*eq);
  }
  std::optional<int64_t> hash(Interpreter &in) override { return rangeHash(in, Value(Ref<Object>(this))); }
  std::optional<Value> getAttr(Interpreter &in, const std::string &name) override {
    if (name == "start") return intValue(r.start);
    if (name == "stop") return intValue(r.stop);
    if (name == "step") return intValue(r.step);
    if (name != "index" && name != "count") return std::nullopt;
    Ref<BigRangeObject> self(this);
    return in.native(name, [self, name](Interpreter &in, Args a, const Kwargs &kw) -> Value {
      if (a.size() != 1 || !kw.empty())
        in.raise("TypeError", fmt::format("range.{}() takes exactly one argument ({} given)", name, a.size()));
      if (!isIntValue(a[0]))
        in.raise("NotImplementedError",
                 fmt::format("range.{}() of a {} in a range past 64 bits is not supported by tfs", name, in.typeName(a[0])));
      mpz_class x = toMpz(a[0]);
      bool found = self->holds(x);
      if (name == "count") return Value::integer(found ? 1 : 0);
      if (!found) in.raise("ValueError", fmt::format("{} is not in range", in.repr(a[0])));
      return intValue(mpz_class((x - self->r.start) / self->r.step));
    });
  }
};

std::optional<RangeParts> partsOf(const Value &v) {
  if (auto *b = v.as<BigRangeObject>()) return b->r;
  if (auto *s = v.as<RangeObject>()) {
    RangeParts p;
    p.start = exact(s->start);
    p.stop = exact(s->stop);
    p.step = exact(s->step);
    p.length = lengthOf(p.start, p.stop, p.step);
    return p;
  }
  return std::nullopt;
}

// A slice bound clamped into [lower, upper] (_PySlice_GetLongIndices).
mpz_class sliceBound(Interpreter &in, const Value &v, const mpz_class &dflt, const mpz_class &length,
                     const mpz_class &lower, const mpz_class &upper) {
  if (v.isNone()) return dflt;
  if (!isIntValue(v) && !v.as<InstanceObject>())
    in.raise("TypeError", "slice indices must be integers or None or have an __index__ method");
  mpz_class i = indexValue(in, v);
  if (i < 0) {
    i += length;
    if (i < lower) i = lower;
  } else if (i > upper) {
    i = upper;
  }
  return i;
}

}  // namespace

Value makeRange(Interpreter &in, const mpz_class &start, const mpz_class &stop, const mpz_class &step) {
  mpz_class length = lengthOf(start, stop, step);
  if (start.fits_slong_p() && stop.fits_slong_p() && step.fits_slong_p() && length.fits_slong_p())
    return make<RangeObject>(start.get_si(), stop.get_si(), step.get_si());
  auto r = make<BigRangeObject>();
  r->r = {start, stop, step, length};
  r->rangeClass = Ref<ClassObject>(in.builtin("range").as<ClassObject>());
  return Value(r);
}

Value rangeFromArgs(Interpreter &in, Args a) {
  if (a.empty()) in.raise("TypeError", "range expected at least 1 argument, got 0");
  if (a.size() > 3) in.raise("TypeError", fmt::format("range expected at most 3 arguments, got {}", a.size()));
  mpz_class start = 0, stop, step = 1;
  if (a.size() == 1) {
    stop = indexValue(in, a[0]);
  } else {
    start = indexValue(in, a[0]);
    stop = indexValue(in, a[1]);
    if (a.size() == 3) step = indexValue(in, a[2]);
  }
  if (step == 0) in.raise("ValueError", "range() arg 3 must not be zero");
  return makeRange(in, start, stop, step);
}

Value sliceOfRange(Interpreter &in, const Value &range, const SliceObject &s) {
  RangeParts r = *partsOf(range);
  mpz_class step = 1;
  if (!s.step.isNone()) {
    if (!isIntValue(s.step) && !s.step.as<InstanceObject>())
      in.raise("TypeError", "slice indices must be integers or None or have an __index__ method");
    step = indexValue(in, s.step);
    if (step == 0) in.raise("ValueError", "slice step cannot be zero");
  }
  mpz_class lower = step < 0 ? mpz_class(-1) : mpz_class(0);
  mpz_class upper = step < 0 ? mpz_class(r.length - 1) : r.length;
  mpz_class start = sliceBound(in, s.lower, step < 0 ? upper : lower, r.length, lower, upper);
  mpz_class stop = sliceBound(in, s.upper, step < 0 ? lower : upper, r.length, lower, upper);
  return makeRange(in, r.start + start * r.step, r.start + stop * r.step, r.step * step);
}

// CPython's range_hash: hash((len, start, step)), None for the parts that
// do not decide the sequence.
std::optional<int64_t> rangeHash(Interpreter &in, const Value &range) {
  auto r = partsOf(range);
  if (!r) return std::nullopt;
  Value first = r->length == 0 ? Value() : intValue(r->start);
  Value by = r->length <= 1 ? Value() : intValue(r->step);
  return in.hash(in.tuple({intValue(r->length), first, by}));
}

std::optional<Value> reversedBigRange(Interpreter &, const Value &range) {
  auto *b = range.as<BigRangeObject>();
  if (!b) return std::nullopt;
  const RangeParts &r = b->r;
  return iteratorOver(r.start + (r.length - 1) * r.step, -r.step, r.length);
}

std::optional<bool> rangesEqual(const Value &a, const Value &b) {
  if (a.is(b) && (a.as<RangeObject>() || a.as<BigRangeObject>())) return true;
  auto x = partsOf(a), y = partsOf(b);
  if (!x || !y) return std::nullopt;
  if (x->length != y->length) return false;
  if (x->length == 0) return true;
  if (x->start != y->start) return false;
  return x->length == 1 || x->step == y->step;
}

}  // namespace tfs::runtime
