// Shape functions shared by np.<name> and the ndarray methods of the same
// name (np_shape.cpp, np_join.cpp).
#pragma once

#include "lib/numpy/ndarray.h"

namespace tfs::runtime::tf::numpy {

// An array argument with its placement in its root: the ndarray itself, or
// a new array made from an array-like.
struct ArrayRef {
  Ref<TensorObject> obj;
  Layout layout;
  const Shape &shape() const;
  // A view of obj's root (Note [ndarray views]).
  Value view(const Shape &shape, int64_t offset, const Shape &strides) const;
};
ArrayRef arrayRef(Interpreter &in, const Value &v);
// An axis argument that may be an int or a tuple of ints, normalized.
std::vector<int64_t> axesParam(Interpreter &in, const Value &v, int64_t ndim);

Value reshapeArray(Interpreter &in, const Value &a, const Value &newshape, const Value &order);
Value ravelArray(Interpreter &in, const Value &a, const Value &order);
Value transposeArray(Interpreter &in, const Value &a, const Value &axes);
Value squeezeArray(Interpreter &in, const Value &a, const Value &axis);

}  // namespace tfs::runtime::tf::numpy
