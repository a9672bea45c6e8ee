// Iteration: iter()/next() for the built-in sequences, ranges, strings,
// user classes (__iter__/__next__, the __getitem__ protocol) and native
// objects; toList; range membership and reversal by arithmetic.
#include "runtime/interp/builtins.h"

#include <fmt/format.h>

namespace tfs::runtime {

namespace {

struct ListIterator : Object {
  Value seq;
  size_t i = 0;
  const char *typeName() const override { return "list_iterator"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    const std::vector<Value> *items = nullptr;
    if (auto *l = seq.as<ListObject>()) items = &l->items;
    else if (auto *t = seq.as<TupleObject>()) items = &t->items;
    if (!items || i >= items->size()) return std::nullopt;
    return (*items)[i++];
  }
};

// Counts the elements left (CPython's range_iterator does too): no value
// past the last one is ever computed, so ranges ending near INT64_MAX/MIN
// and reversed ranges need no stop that fits in 64 bits.
struct RangeIterator : Object {
  int64_t cur, left, step;
  RangeIterator(int64_t first, int64_t count, int64_t by) : cur(first), left(count), step(by) {}
  const char *typeName() const override { return "range_iterator"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &) override {
    if (left <= 0) return std::nullopt;
    int64_t v = cur;
    if (--left > 0) cur += step;
    return Value::integer(v);
  }
};


struct StrIterator : Object {
  std::string s;
  size_t i = 0;
  bool bytes = false;
  const char *typeName() const override { return "str_iterator"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    if (i >= s.size()) return std::nullopt;
    if (bytes) return Value::integer(static_cast<unsigned char>(s[i++]));
    size_t n = 1;
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0xF0) n = 4; else if (c >= 0xE0) n = 3; else if (c >= 0xC0) n = 2;
    std::string ch = s.substr(i, n);
    i += n;
    return in.str(ch);
  }
};

// A user iterator: calls __next__, StopIteration ends it.
struct UserIterator : Object {
  Value obj;
  const char *typeName() const override { return "iterator"; }
  std::optional<Value> iter(Interpreter &) override { return Value(Ref<Object>(this)); }
  std::optional<Value> next(Interpreter &in) override {
    try {
      return in.call(in.getAttr(obj, "__next__"), {});
    } catch (PyException &e) {
      if (in.isInstance(e.exc, in.exceptionClass("StopIteration").get())) return std::nullopt;
      throw;
    }
  }
};

}  // namespace

// `x in range(...)` by arithmetic, as CPython does for ints (no iteration).
bool rangeContains(const RangeObject &r, int64_t x) {
  bool inside = r.step > 0 ? (x >= r.start && x < r.stop) : (x <= r.start && x > r.stop);
  return inside && (__int128(x) - r.start) % r.step == 0;
}

Value reversedRange(Interpreter &in, const RangeObject &r) {
  int64_t n = r.size();
  if (n > 1 && r.step == INT64_MIN) in.raiseIntTooLarge();
  int64_t last = n == 0 ? r.start : int64_t(r.start + __int128(n - 1) * r.step);
  return make<RangeIterator>(last, n, r.step == INT64_MIN ? 1 : -r.step);
}

Value Interpreter::iter(const Value &v) {
  if (v.as<ListObject>() || v.as<TupleObject>()) {
    auto it = make<ListIterator>();
    it->seq = v;
    return it;
  }
  if (auto *r = v.as<RangeObject>()) return make<RangeIterator>(r->start, r->size(), r->step);
  if (auto *s = v.as<StrObject>()) {
    auto it = make<StrIterator>();
    it->s = s->s;
    return it;
  }
  if (auto *s = v.as<BytesObject>()) {
    auto it = make<StrIterator>();
    it->s = s->s;
    it->bytes = true;
    return it;
  }
  if (auto *d = v.as<DictObject>()) {
    std::vector<Value> keys;
    for (auto &[k, val] : d->items()) keys.push_back(k);
    return iter(list(std::move(keys)));
  }
  if (auto *s = v.as<SetObject>()) return iter(list(s->t.keys()));
  if (auto *inst = v.as<InstanceObject>()) {
    if (auto m = inst->klass->lookup("__iter__")) {
      // `__iter__ = None` declares the class not iterable.
      if (m->isNone()) raise("TypeError", fmt::format("'{}' object is not iterable", typeName(v)));
      Value it = call(Value(make<BoundMethod>(v, *m)), {});
      auto *itInst = it.as<InstanceObject>();
      if ((itInst && !itInst->klass->lookup("__next__") && !builtinPart(it)) || !it.isObj() || it.as<StrObject>() ||
          it.as<ListObject>() || it.as<TupleObject>() || it.as<DictObject>() || it.as<SetObject>())
        raise("TypeError", fmt::format("iter() returned non-iterator of type '{}'", typeName(it)));
      if (it.as<InstanceObject>()) {
        auto ui = make<UserIterator>();
        ui->obj = it;
        return ui;
      }
      return it;
    }
    if (const Value *b = builtinPart(v)) return iter(*b);
    if (inst->klass->lookup("__getitem__")) {
      std::vector<Value> items;
      for (int64_t i = 0;; ++i) {
        try {
          items.push_back(getItem(v, Value::integer(i)));
        } catch (PyException &e) {
          if (isInstance(e.exc, exceptionClass("IndexError").get())) break;
          throw;
        }
      }
      return iter(list(std::move(items)));
    }
  } else if (auto m = metaclassMethod(*this, v, "__iter__")) {
    return iter(call(*m, {}));
  } else if (Object *o = v.obj()) {
    if (auto it = o->iter(*this)) return *it;
  }
  raise("TypeError", fmt::format("'{}' object is not iterable", typeName(v)));
}

std::optional<Value> Interpreter::next(const Value &it) {
  if (auto *inst = it.as<InstanceObject>()) {
    // A user iterator passed to next(): its __next__, StopIteration ends it.
    auto m = inst->klass->lookup("__next__");
    if (!m) raise("TypeError", fmt::format("'{}' object is not an iterator", typeName(it)));
    try {
      return call(Value(make<BoundMethod>(it, *m)), {});
    } catch (PyException &e) {
      if (isInstance(e.exc, exceptionClass("StopIteration").get())) return std::nullopt;
      throw;
    }
  }
  // Each element a native iterator yields is a step: list(range(10**12)) or
  // sum(...) over a huge generator honours --max-steps and Ctrl-C.
  step();
  if (Object *o = it.obj()) return o->next(*this);
  raise("TypeError", fmt::format("'{}' object is not an iterator", typeName(it)));
}

std::vector<Value> Interpreter::toList(const Value &v) {
  if (auto *l = v.as<ListObject>()) return l->items;
  if (auto *t = v.as<TupleObject>()) return t->items;
  std::vector<Value> out;
  Value it = iter(v);
  while (auto x = next(it)) out.push_back(*x);
  return out;
}

}  // namespace tfs::runtime
