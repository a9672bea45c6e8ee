// numpy's ufunc keyword arguments beyond out= and dtype= (np_math.cpp's
// np.add, np.sqrt, ...): where= (only the masked elements are computed;
// the others keep out='s values, or are zeros as tfs's np.empty gives where
// numpy leaves memory uninitialized), casting= (the rule for the inputs'
// cast to dtype= and the result's cast to out=), order= and subok= (memory
// layout and subclass passing, which change no value of a plain ndarray).
#include "lib/numpy/ufunc_kwargs.h"

#include "runtime/interp/complex_object.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

bool castNo(DType from, DType to) { return from == to; }
bool castUnsafe(DType, DType) { return true; }
using Rule = CastingRule;

// The dtype an input takes part in the casting check with: an array's own;
// a Python scalar's smallest of its kind (numpy 1.24 judges Python scalars
// by value, so 1 casts to int8 and 0.5 to float32 under 'safe').
DType inputDType(Interpreter &in, const Value &v) {
  if (v.isBool()) return DType::Bool;
  if (v.isInt()) return v.asInt() < 0 ? DType::Int8 : DType::UInt8;
  if (v.isFloat()) return DType::Float16;
  if (v.as<ComplexObject>()) return DType::Complex64;
  return asTensor(in, v).dtype();
}

// numpy's element selection for where=: mask ? computed : kept.
Tensor selectWhere(const Tensor &mask, const Tensor &computed, const Tensor &kept) {
  Tensor r = computed.copy();
  visitElementType(r.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const bool *m = mask.data<bool>();
    const T *k = kept.data<T>();
    T *o = r.data<T>();
    for (int64_t i = 0; i < r.numElements(); ++i)
      if (!m[i]) o[i] = k[i];
  });
  return r;
}

}  // namespace

CastingRule castingRule(Interpreter &in, const Value &v) {
  static const CastingRule rules[] = {{"no", castNo}, {"equiv", castNo}, {"safe", canCastSafe},
                                      {"same_kind", canCastSameKind}, {"unsafe", castUnsafe}};
  if (auto *s = v.as<StrObject>())
    for (const CastingRule &r : rules)
      if (s->s == r.name) return r;
  in.raise("ValueError",
           fmt::format("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got {})", in.repr(v)));
}

void checkArrayCasting(Interpreter &in, const std::vector<Tensor> &arrays, std::optional<DType> dtype,
                       const Value &casting) {
  CastingRule rule = castingRule(in, casting);
  if (!dtype) return;
  for (const Tensor &t : arrays)
    if (!rule.castable(t.dtype(), *dtype))
      in.raise("TypeError", fmt::format("Cannot cast array data from dtype('{}') to dtype('{}') according to the "
                                        "rule '{}'", numpyDTypeName(t.dtype()), numpyDTypeName(*dtype), rule.name));
}

void checkUfuncInputs(Interpreter &in, const Bound &b, const char *ufunc, const std::vector<Value> &inputs,
                      std::optional<DType> dtype) {
  const Value &order = b["order"];
  if (!order.isNone()) {
    auto *s = order.as<StrObject>();
    if (!s || (s->s != "K" && s->s != "A" && s->s != "C" && s->s != "F"))
      in.raise("ValueError", fmt::format("order must be one of 'C', 'F', 'A', or 'K' (got {})", in.repr(order)));
  }
  Rule rule = castingRule(in, b["casting"]);
  if (!dtype) return;
  for (size_t i = 0; i < inputs.size(); ++i) {
    DType from = inputDType(in, inputs[i]);
    if (!rule.castable(from, *dtype)) {
      // numpy names an array's dtype; a Python scalar's is its default one.
      DType shown = ndarrayOf(inputs[i]) ? from : asTensor(in, inputs[i]).dtype();
      in.raiseValue(in.newException(castingErrorClass(in),
                                    fmt::format("Cannot cast ufunc '{}' input {} from dtype('{}') to dtype('{}') with "
                                                "casting rule '{}'", ufunc, i, numpyDTypeName(shown),
                                                numpyDTypeName(*dtype), rule.name)));
    }
  }
}

Value finishUfunc(Interpreter &in, const Bound &b, Tensor result, const char *ufunc, const char *fallbackCasting) {
  Rule rule = castingRule(in, b["casting"]);
  if (fallbackCasting && !b.given("casting")) {
    TensorObject *o = ndarrayOf(b["out"]);
    if (auto *t = b["out"].as<TupleObject>(); t && t->items.size() == 1) o = ndarrayOf(t->items[0]);
    if (o && !rule.castable(result.dtype(), o->eager.dtype())) rule = castingRule(in, in.str(fallbackCasting));
  }
  const Value &where = b["where"];
  bool everywhere = where.isBool() && where.asBool();
  if (!everywhere) {
    Tensor mask = cast(asTensor(in, where), DType::Bool);
    Shape shape = broadcastShapes(in, {mask.shape(), result.shape()});
    if (shape != result.shape()) result = broadcastTo(result, shape);
    mask = broadcastTo(mask, shape);
    Value target = b["out"];
    if (auto *t = target.as<TupleObject>(); t && t->items.size() == 1) target = t->items[0];
    TensorObject *o = ndarrayOf(target);
    Tensor kept = o ? cast(broadcastTo(o->eager, shape), result.dtype())
                    : broadcastTo(cast(Tensor::scalar(int64_t(0)), result.dtype()), shape);
    result = selectWhere(mask.copy(), result, kept.copy());
  }
  return storeOutCasting(in, b["out"], result, ufunc, rule.castable, rule.name);
}

}  // namespace tfs::runtime::tf::numpy
