// np.shares_memory / np.may_share_memory over tfs's views: two ndarrays
// share memory when they are views of the same root array and their
// elements' positions in it intersect (shares_memory, exact) or their
// position ranges overlap (may_share_memory, numpy's bounds check). Anything
// that is not an ndarray (a list, a scalar) owns no memory another array
// could share. max_work beyond the default is refused by name.
#include "lib/numpy/numpy_lib.h"

#include <algorithm>

namespace tfs::runtime::tf::numpy {

namespace {

struct Extent {
  TensorObject *root = nullptr;
  std::vector<int64_t> positions;  // sorted
};

std::optional<Extent> extentOf(const Value &v) {
  TensorObject *a = ndarrayOf(v);
  if (!a || a->eager.numElements() == 0) return std::nullopt;
  Layout l = layoutOf(*a);
  Extent e{l.root, stridedPositions(a->eager.shape(), l.offset, l.strides)};
  std::sort(e.positions.begin(), e.positions.end());
  return e;
}

Value overlap(const Bound &b, bool exact) {
  std::optional<Extent> x = extentOf(b["a"]), y = extentOf(b["b"]);
  if (!x || !y || x->root != y->root) return Value::boolean(false);
  if (!exact)
    return Value::boolean(x->positions.front() <= y->positions.back() && y->positions.front() <= x->positions.back());
  std::vector<int64_t> common;
  std::set_intersection(x->positions.begin(), x->positions.end(), y->positions.begin(), y->positions.end(),
                        std::back_inserter(common));
  return Value::boolean(!common.empty());
}

}  // namespace

void addMemoryOverlapFunctions(Defs &defs) {
  defs.push_back({"shares_memory(a, b, max_work=!None)", [](Interpreter &, const Bound &b) { return overlap(b, true); }});
  defs.push_back(
      {"may_share_memory(a, b, max_work=!None)", [](Interpreter &, const Bound &b) { return overlap(b, false); }});
}

}  // namespace tfs::runtime::tf::numpy
