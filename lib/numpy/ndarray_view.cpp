// numpy views and writes through them.
//
// Note [ndarray views]: numpy's basic indexing, reshape, transpose and
// friends return views that share memory with their base, so
// `row = a[0]; row[1] = 9` changes `a`, and `a[0] += 1` changes every view
// of that row. tfs tensors are immutable and contiguous, so a view here is
// a TensorObject that records its root array and its strided placement in
// the root's elements (TensorObject::View), and holds a copy of those
// elements in `eager`. Every write goes to the root's buffer (copied first
// when another value shares it) and then refreshes the copy of each live
// view of that root, so whoever reads `eager` -- printing, kernels, tf ops --
// sees what numpy would. Writes are rare and small next to reads, which stay
// as fast as for any tensor.
#include "lib/numpy/ndarray.h"
#include "lib/numpy/strided_gather.h"
#include "runtime/tensor/format.h"
#include "runtime/tf/tensor_ids.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

Layout layoutOf(TensorObject &a) {
  if (a.view) return {a.view->base.get(), a.view->offset, a.view->strides};
  return {&a, 0, cStrides(a.eager.shape())};
}

Value makeView(TensorObject &a, const Shape &shape, int64_t offset, const Shape &strides) {
  TensorObject *root = a.view ? a.view->base.get() : &a;
  auto v = make<TensorObject>();
  noteNdarrayId();
  v->numpy = true;
  v->zeroDimArray = true;
  v->eager = stridedGather(root->eager, shape, offset, strides);
  v->view = std::make_unique<TensorObject::View>();
  v->view->base = Ref<TensorObject>(root);
  v->view->offset = offset;
  v->view->strides = strides;
  v->view->writeable = !a.view || a.view->writeable;
  root->views.push_back(v.get());
  return Value(v);
}

bool isCContiguous(TensorObject &a) {
  if (!a.view) return true;
  const Shape &shape = a.eager.shape();
  int64_t expected = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 1) continue;
    if (a.view->strides[d] != expected) return false;
    expected *= shape[d];
  }
  return true;
}

namespace {
// values shaped for a target of `shape`: broadcast, leading unit axes dropped.
Tensor fitValues(Interpreter &in, const Tensor &values, const Shape &shape) {
  Tensor v = values;
  Shape vs = v.shape();
  while (vs.size() > shape.size() && vs.front() == 1) vs.erase(vs.begin());
  bool ok = vs.size() <= shape.size();
  for (size_t i = 0; ok && i < vs.size(); ++i) {
    int64_t d = vs[vs.size() - 1 - i], t = shape[shape.size() - 1 - i];
    ok = d == t || d == 1;
  }
  if (!ok)
    in.raise("ValueError", fmt::format("could not broadcast input array from shape {} into shape {}",
                                       shapeText(values.shape()), shapeText(shape)));
  if (vs != v.shape()) v = v.reshaped(vs);
  return broadcastTo(v, shape);
}

// A's elements at `positions` as positions of its root's buffer.
std::vector<int64_t> rootPositions(TensorObject &a, const std::vector<int64_t> &positions) {
  if (!a.view) return positions;
  const Shape &shape = a.eager.shape();
  Shape cs = cStrides(shape);
  std::vector<int64_t> out(positions.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    int64_t p = positions[k], r = a.view->offset;
    for (size_t d = 0; d < shape.size(); ++d) {
      r += (p / cs[d]) * a.view->strides[d];
      p %= cs[d];
    }
    out[k] = r;
  }
  return out;
}
}  // namespace

void writeElements(Interpreter &in, TensorObject &a, const std::vector<int64_t> &positions, const Shape &targetShape,
                   const Tensor &values) {
  if (a.view && !a.view->writeable) in.raise("ValueError", "assignment destination is read-only");
  if (!a.view && a.eager.rank() == 0 && !a.zeroDimArray)
    in.raise("TypeError", fmt::format("'numpy.{}' object does not support item assignment",
                                      numpyDTypeName(a.eager.dtype())));
  DType d = a.eager.dtype();
  if ((values.dtype() == DType::String) != (d == DType::String)) {
    if (values.dtype() == DType::String)
      in.raise("ValueError", fmt::format("could not convert string to {}: {}",
                                         ir::isFloating(d) ? "float" : "int",
                                         bytesRepr(values.data<std::string>()[0]).substr(1)));
    in.raise("TypeError", "tfs: assigning numbers into a string array is not supported by tfs");
  }
  Tensor v = fitValues(in, cast(values, d), targetShape);
  TensorObject *root = a.view ? a.view->base.get() : &a;
  std::vector<int64_t> at = rootPositions(a, positions);
  if (!root->eager.uniquelyOwned()) root->eager = root->eager.copy();
  visitElementType(d, [&](auto tag) {
    using T = decltype(tag);
    T *dst = root->eager.template data<T>();
    const T *src = v.template data<T>();
    for (size_t k = 0; k < at.size(); ++k) dst[at[k]] = src[k];
  });
  for (TensorObject *view : root->views) {
    const Shape &shape = view->eager.shape();
    view->eager = stridedGather(root->eager, shape, view->view->offset, view->view->strides);
  }
}

void assignAll(Interpreter &in, TensorObject &a, const Tensor &values) {
  const Shape &shape = a.eager.shape();
  std::vector<int64_t> all(size_t(a.eager.numElements()));
  for (size_t i = 0; i < all.size(); ++i) all[i] = int64_t(i);
  writeElements(in, a, all, shape, values);
}

Ref<ClassObject> castingErrorClass(Interpreter &in) {
  // numpy's _UFuncOutputCastingError displays as its base, UFuncTypeError;
  // kept under a key no script can name, so it is no builtin.
  if (auto it = in.builtins()->vars.find(" UFuncTypeError"); it != in.builtins()->vars.end())
    if (auto *c = it->second.as<ClassObject>()) return Ref<ClassObject>(c);
  Ref<ClassObject> c = in.newExceptionClass(" UFuncTypeError", "TypeError");
  c->name = "UFuncTypeError";
  c->module = "numpy.core._exceptions";
  return c;
}

Value storeOut(Interpreter &in, const Value &out, const Tensor &result, const char *ufunc, bool scalarResult) {
  return storeOutCasting(in, out, result, ufunc, canCastSameKind, "same_kind", scalarResult);
}

Value storeOutCasting(Interpreter &in, const Value &out, const Tensor &result, const char *ufunc,
                      bool (*castable)(DType, DType), const char *rule, bool scalarResult) {
  if (out.isNone()) return scalarResult ? scalarOrArray(result) : newArray(result);
  Value target = out;
  if (auto *t = out.as<TupleObject>(); t && t->items.size() == 1) target = t->items[0];
  TensorObject *o = ndarrayOf(target);
  if (!o) in.raise("TypeError", "return arrays must be of ArrayType");
  if (o->eager.shape() != result.shape())
    in.raise("ValueError", fmt::format("non-broadcastable output operand with shape {} doesn't match the broadcast "
                                       "shape {}", shapeText(o->eager.shape()), shapeText(result.shape())));
  if (!castable(result.dtype(), o->eager.dtype()))
    in.raiseValue(in.newException(castingErrorClass(in),
                                  fmt::format("Cannot cast ufunc '{}' output from dtype('{}') to dtype('{}') with "
                                              "casting rule '{}'", ufunc, numpyDTypeName(result.dtype()),
                                              numpyDTypeName(o->eager.dtype()), rule)));
  // A whole root array of numbers (a += b, np.add(a, b, out=a)): the result
  // becomes its buffer, in place of copying it element by element through
  // assignAll's positions. Another holder of the old buffer keeps it, as
  // writeElements's copy-on-write gives; live views are refreshed.
  bool scalarObject = o->eager.rank() == 0 && !o->zeroDimArray;
  if (!o->view && !o->text.kind && !scalarObject && result.dtype() != DType::String &&
      o->eager.dtype() != DType::String) {
    o->eager = result.dtype() == o->eager.dtype() ? result : cast(result, o->eager.dtype());
    for (TensorObject *view : o->views)
      view->eager = stridedGather(o->eager, view->eager.shape(), view->view->offset, view->view->strides);
    return target;
  }
  assignAll(in, *o, result);
  return target;
}

// a.flat: the elements in C order as a 1-D view, so `a.flat[::2] = v`
// writes to `a` as numpy's flatiter does. An array whose elements are not
// one strided run (a transposed view, say) reads through a copy that
// refuses writes: numpy would write them, tfs says it cannot.
Value flatView(Interpreter &in, TensorObject &a) {
  Layout l = layoutOf(a);
  const auto &shape = a.eager.shape();
  Shape c = cStrides(shape);
  bool contiguous = true;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 1 && l.strides[i] != c[i]) contiguous = false;
  int64_t n = a.eager.numElements();
  if (contiguous) return makeView(a, Shape{n}, l.offset, Shape{1});
  Value copy = newArray(a.eager.reshaped({n}));
  Value view = makeView(*copy.as<TensorObject>(), Shape{n}, 0, Shape{1});
  view.as<TensorObject>()->view->writeable = false;
  (void)in;
  return view;
}

}  // namespace tfs::runtime::tf::numpy
