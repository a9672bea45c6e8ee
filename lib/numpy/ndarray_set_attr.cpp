// numpy's writable ndarray attributes: `a.flat = v` (v's elements, cast to
// a's dtype, written over a in C order and repeated when v is shorter, as
// numpy's array_flat_set does) and `a.shape = s` (reshape in place; numpy
// refuses a shape that would need a copy).
#include "lib/numpy/ndarray.h"
#include "lib/numpy/np_shape.h"
#include "lib/numpy/numpy_lib.h"
#include "runtime/tf/ndarray_set_attr.h"

#include <fmt/format.h>

namespace tfs::runtime::tf::numpy {

namespace {

void assignFlat(Interpreter &in, TensorObject &a, const Value &v) {
  Tensor src = asTensor(in, v);
  int64_t n = a.eager.numElements(), m = src.numElements();
  if (m == 0 || n == 0) return;  // numpy writes nothing
  if (src.dtype() != DType::String && a.eager.dtype() != DType::String) src = cast(src, a.eager.dtype());
  std::vector<int64_t> from(static_cast<size_t>(n)), positions(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    from[size_t(i)] = i % m;
    positions[size_t(i)] = i;
  }
  Tensor values = gather(src.reshaped({m}), a.eager.shape(), from);
  writeElements(in, a, positions, a.eager.shape(), values);
}

void assignShape(Interpreter &in, TensorObject &a, const Value &v) {
  // reshape's own checks and errors (size, one -1); its result is a view.
  Value reshaped = reshapeArray(in, Value(Ref<Object>(&a)), v, in.str("C"));
  Shape shape = ndarrayOf(reshaped)->eager.shape();
  if (a.view) {
    if (!isCContiguous(a))
      in.raise("AttributeError",
               "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.");
    a.view->strides = cStrides(shape);
  }
  a.eager = a.eager.reshaped(shape);
}

bool setNdarrayAttribute(Interpreter &in, TensorObject &a, const std::string &name, const Value &v) {
  bool scalarObject = a.eager.rank() == 0 && !a.zeroDimArray && !a.view;
  if (a.symbolic() || scalarObject) return false;
  if (name == "flat") {
    assignFlat(in, a, v);
    return true;
  }
  if (name == "shape") {
    assignShape(in, a, v);
    return true;
  }
  return false;
}

}  // namespace

void registerNdarraySetAttr() { setNdarraySetAttrHook(setNdarrayAttribute); }

}  // namespace tfs::runtime::tf::numpy
