// Kernels of the indexing, scan and sorting ops: cumsum / cumprod (in TF's
// order, so float sums round as TF's do), reverse, top_k (stable: ties keep
// the lower index first), where_indices, unsorted_segment_sum,
// unique (TF's UniqueWithCounts), strided_slice_grad and pad (CONSTANT, REFLECT, SYMMETRIC).
#include "ir/slicing.h"
#include "runtime/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace tfs::runtime::kernels {

namespace {

// A tensor viewed as [outer, n, inner] around `axis`.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};
AxisView viewAround(const std::vector<int64_t> &shape, int64_t axis) {
  AxisView v;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    if (d < axis) v.outer *= shape[size_t(d)];
    else if (d == axis) v.n = shape[size_t(d)];
    else v.inner *= shape[size_t(d)];
  }
  return v;
}

template <OpKind K> std::vector<Tensor> scan(std::span<const Tensor> in, const ir::Attrs &attrs) {
  Tensor o = allocateOutputs(K, in, attrs)[0];  // validates dtype and axis
  const Tensor &x = in[0];
  int64_t axis = ir::attrInt(attrs, "axis", 0);
  if (axis < 0) axis += int64_t(x.rank());
  bool exclusive = ir::attrBool(attrs, "exclusive", false), reverse = ir::attrBool(attrs, "reverse", false);
  AxisView v = viewAround(x.shape(), axis);
  dispatchNumeric(x.dtype(), [&]<class T>() {
    const T *p = x.data<T>();
    T *q = o.data<T>();
    for (int64_t a = 0; a < v.outer; ++a)
      for (int64_t b = 0; b < v.inner; ++b) {
        T acc = K == OpKind::Cumsum ? T(0) : T(1);
        for (int64_t s = 0; s < v.n; ++s) {
          int64_t i = reverse ? v.n - 1 - s : s;
          int64_t at = (a * v.n + i) * v.inner + b;
          if (exclusive) q[at] = acc;
          acc = K == OpKind::Cumsum ? T(acc + p[at]) : T(acc * p[at]);
          if (!exclusive) q[at] = acc;
        }
      }
  });
  return {o};
}

std::vector<Tensor> reverse(std::span<const Tensor> in, const ir::Attrs &attrs) {
  Tensor o = allocateOutputs(OpKind::Reverse, in, attrs)[0];  // validates the axes
  const Tensor &x = in[0];
  size_t r = x.rank();
  std::vector<bool> flip(r, false);
  if (const auto *axes = ir::attrInts(attrs, "axis"))
    for (int64_t a : *axes) flip[size_t(a < 0 ? a + int64_t(r) : a)] = true;
  const auto &shape = x.shape();
  std::vector<int64_t> strides = contiguousStrides(shape), idx(r, 0);
  // Walk the output in order; the source offset moves backwards on flipped dims.
  int64_t off = 0;
  for (size_t d = 0; d < r; ++d)
    if (flip[d] && shape[d] > 0) off += (shape[d] - 1) * strides[d];
  for (int64_t i = 0; i < o.numElements(); ++i) {
    copyElement(x, off, o, i);
    for (size_t d = r; d-- > 0;) {
      ++idx[d];
      off += flip[d] ? -strides[d] : strides[d];
      if (idx[d] < shape[d]) break;
      off -= (flip[d] ? -strides[d] : strides[d]) * shape[d];
      idx[d] = 0;
    }
  }
  return {o};
}

// Larger first; NaN counts as the largest value (TF sorts NaN first in
// top_k); equal values keep the lower index first (stable sort).
template <class T> bool before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
  }
  return a > b;
}

std::vector<Tensor> topK(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> outs = allocateOutputs(OpKind::TopK, in, attrs);  // validates rank and k
  const Tensor &x = in[0];
  int64_t k = ir::attrInt(attrs, "k", 0);
  int64_t n = x.shape().back();
  Tensor values = outs[0], indices = outs[1];
  int64_t rows = n == 0 ? 0 : x.numElements() / n;
  std::vector<int32_t> order(static_cast<size_t>(n));
  dispatchNumeric(x.dtype(), [&]<class T>() {
    const T *p = x.data<T>();
    T *qv = values.data<T>();
    int32_t *qi = indices.data<int32_t>();
    for (int64_t row = 0; row < rows; ++row) {
      const T *xs = p + row * n;
      std::iota(order.begin(), order.end(), 0);
      auto cmp = [&](int32_t a, int32_t b) { return before(xs[a], xs[b]); };
      if (k < n) std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
          return cmp(a, b) || (!cmp(b, a) && a < b);
        });
      else std::stable_sort(order.begin(), order.end(), cmp);
      for (int64_t j = 0; j < k; ++j) {
        qi[row * k + j] = order[size_t(j)];
        qv[row * k + j] = xs[order[size_t(j)]];
      }
    }
  });
  return {values, indices};
}

std::vector<Tensor> whereIndices(std::span<const Tensor> in, const ir::Attrs &) {
  const Tensor &c = in[0];
  int64_t r = int64_t(c.rank()), n = c.numElements();
  std::vector<int64_t> hits;
  if (c.dtype() == DType::String) {
    for (int64_t i = 0; i < n; ++i)
      if (!c.data<std::string>()[i].empty()) hits.push_back(i);
  } else {
    dispatchNumeric(c.dtype(), [&]<class T>() {
      const T *p = c.data<T>();
      for (int64_t i = 0; i < n; ++i)
        if (p[i] != T(0)) hits.push_back(i);
    });
  }
  Tensor o = Tensor::empty(DType::Int64, {int64_t(hits.size()), r});
  std::vector<int64_t> strides = contiguousStrides(c.shape());
  int64_t *q = o.data<int64_t>();
  for (size_t h = 0; h < hits.size(); ++h) {
    int64_t rem = hits[h];
    for (int64_t d = 0; d < r; ++d) {
      q[int64_t(h) * r + d] = rem / strides[size_t(d)];
      rem %= strides[size_t(d)];
    }
  }
  return {o};
}

// TF's UniqueWithCounts: a hash map from value to its slot in y, so equal
// values share a slot (0.0 and -0.0 too) and NaN, equal to nothing, gets
// a slot of its own each time, as in TF's kernel.
template <class T> struct UniqueHash {
  size_t operator()(const T &v) const {
    if constexpr (ir::isComplexType<T>) return std::hash<double>{}(v.real()) * 31 + std::hash<double>{}(v.imag());
    else return std::hash<T>{}(v);
  }
};
template <class T, class Index>
void uniqueInto(const T *x, int64_t n, std::vector<T> &y, Index *idx, std::vector<Index> &count) {
  std::unordered_map<T, Index, UniqueHash<T>> slot;
  for (int64_t i = 0; i < n; ++i) {
    auto [it, fresh] = slot.emplace(x[i], Index(y.size()));
    if (fresh) {
      y.push_back(x[i]);
      count.push_back(0);
    }
    idx[i] = it->second;
    ++count[size_t(it->second)];
  }
}

std::vector<Tensor> unique(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0];
  if (x.rank() != 1) fail(OpKind::Unique, "unique expects a 1D vector.");
  DType out = ir::attrDType(attrs, "out_idx").value_or(DType::Int32);
  int64_t n = x.numElements();
  Tensor idx = Tensor::empty(out, {n});
  Tensor y, count;
  auto run = [&]<class T, class Index>() {
    std::vector<T> ys;
    std::vector<Index> counts;
    uniqueInto<T, Index>(x.data<T>(), n, ys, idx.data<Index>(), counts);
    y = Tensor::empty(x.dtype(), {int64_t(ys.size())});
    std::copy(ys.begin(), ys.end(), y.data<T>());
    count = Tensor::empty(out, {int64_t(counts.size())});
    std::copy(counts.begin(), counts.end(), count.data<Index>());
  };
  auto byIndex = [&]<class T>() {
    if (out == DType::Int64) run.template operator()<T, int64_t>();
    else run.template operator()<T, int32_t>();
  };
  if (x.dtype() == DType::String) byIndex.template operator()<std::string>();
  else dispatchWithComplex(x.dtype(), byIndex);
  return {y, idx, count};
}

// tf.math.segment_*: TF's Segment* kernels' checks of sorted ids (the
// output has ids[-1] + 1 rows, which the caller passed as num_segments).
void checkSortedIds(OpKind k, const Tensor &ids, int64_t num) {
  int64_t n = ids.numElements();
  if (n > 0 && ids.elementAsInt(n - 1) + 1 < 0) fail(k, "segment ids must be >= 0");
  for (int64_t j = 0; j < n; ++j) {
    int64_t s = ids.elementAsInt(j);
    if (j > 0 && s < ids.elementAsInt(j - 1)) fail(k, "segment ids are not increasing");
    if (s < 0 || s >= num)
      fail(k, fmt::format("Segment id {} out of range [0, {}), possibly because 'segment_ids' input is not sorted.",
                          s, num));
  }
}

// The value of an empty segment: TF's unsorted kernels start max from the
// dtype's lowest value and min from its highest; its sorted kernels give 0.
template <OpKind K, class T> T segmentInitial(bool sorted) {
  if constexpr (K == OpKind::UnsortedSegmentProd) return T(1);
  else if constexpr (K == OpKind::UnsortedSegmentMax && !ir::isComplexType<T>)
    return sorted ? T(0) : std::numeric_limits<T>::lowest();
  else if constexpr (K == OpKind::UnsortedSegmentMin && !ir::isComplexType<T>)
    return sorted ? T(0) : std::numeric_limits<T>::max();
  else return T(0);
}

template <OpKind K, class T> T segmentCombine(T acc, T x) {
  if constexpr (K == OpKind::UnsortedSegmentSum) return T(acc + x);
  else if constexpr (K == OpKind::UnsortedSegmentProd) return T(acc * x);
  else if constexpr (ir::isComplexType<T>) return acc;  // (the type rule refuses complex max/min)
  else if constexpr (K == OpKind::UnsortedSegmentMax) return x > acc || x != x ? x : acc;  // NaN wins
  else return x < acc || x != x ? x : acc;
}

// unsorted_segment_{sum,max,min,prod}: row j of data combined into row
// ids[j] (negative ids dropped); with attr `sorted`, tf.math.segment_*.
template <OpKind K> std::vector<Tensor> unsortedSegment(std::span<const Tensor> in, const ir::Attrs &attrs) {
  Tensor o = allocateOutputs(K, in, attrs)[0];  // validates dtypes and shapes
  const Tensor &data = in[0], &ids = in[1];
  int64_t num = ir::attrInt(attrs, "num_segments", 0);
  bool sorted = ir::attrBool(attrs, "sorted", false);
  const auto &ds = data.shape();
  for (size_t i = 0; i < ids.rank(); ++i)
    if (ds[i] != ids.shape()[i])
      fail(K, sorted ? "segment_ids should be the same size as dimension 0 of input."
                     : "data.shape does not start with segment_ids.shape");
  if (sorted) checkSortedIds(K, ids, num);
  int64_t inner = 1;
  for (size_t i = ids.rank(); i < ds.size(); ++i) inner *= ds[i];
  dispatchWithComplex(data.dtype(), [&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      T *q = o.data<T>();
      std::vector<bool> seen(size_t(num), false);
      std::fill(q, q + o.numElements(), segmentInitial<K, T>(false));
      const T *p = data.data<T>();
      for (int64_t j = 0; j < ids.numElements(); ++j) {
        int64_t s = ids.elementAsInt(j);
        if (s < 0) continue;
        if (s >= num) fail(K, fmt::format("segment_ids[{}] = {} is out of range [0, {})", j, s, num));
        seen[size_t(s)] = true;
        for (int64_t b = 0; b < inner; ++b) q[s * inner + b] = segmentCombine<K, T>(q[s * inner + b], p[j * inner + b]);
      }
      if (sorted)
        for (int64_t s = 0; s < num; ++s)
          if (!seen[size_t(s)]) std::fill(q + s * inner, q + (s + 1) * inner, segmentInitial<K, T>(true));
    }
  });
  return {o};
}

std::vector<Tensor> stridedSliceGrad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  Tensor o = allocateOutputs(OpKind::StridedSliceGrad, in, attrs)[0];
  const Tensor &dy = in[0];
  const auto *shape = ir::attrInts(attrs, "shape");
  if (!shape) fail(OpKind::StridedSliceGrad, "strided_slice_grad needs a shape");
  ir::SlicePlan plan = ir::planStridedSlice(*shape, attrs);
  int64_t count = 1;
  for (const auto &d : plan.dims) count *= d.size;
  if (count != dy.numElements())
    fail(OpKind::StridedSliceGrad, fmt::format("dy has {} elements, the slice {}", dy.numElements(), count));
  if (dy.dtype() != DType::String)  // strings start empty; complex zeros too
    dispatchWithComplex(dy.dtype(), [&]<class T>() {
      T *q = o.data<T>();
      std::fill(q, q + o.numElements(), T(0));
    });
  if (count == 0) return {o};
  size_t r = shape->size();
  std::vector<int64_t> xs = contiguousStrides(*shape), idx(r, 0);
  int64_t off = 0;
  for (size_t d = 0; d < r; ++d) off += plan.dims[d].start * xs[d];
  for (int64_t i = 0; i < count; ++i) {
    copyElement(dy, i, o, off);
    for (size_t d = r; d-- > 0;) {
      ++idx[d];
      off += plan.dims[d].step * xs[d];
      if (idx[d] < plan.dims[d].size) break;
      off -= plan.dims[d].step * xs[d] * plan.dims[d].size;
      idx[d] = 0;
    }
  }
  return {o};
}

// Source index along one dim of size n for padded position j (j - before).
int64_t padSource(int64_t j, int64_t n, const std::string &mode) {
  if (j >= 0 && j < n) return j;
  if (mode == "CONSTANT") return -1;
  bool reflect = mode == "REFLECT";
  // Mirror until inside (paddings are bounded by n, so one fold suffices).
  if (j < 0) return reflect ? -j : -j - 1;
  return reflect ? 2 * (n - 1) - j : 2 * n - 1 - j;
}

std::vector<Tensor> pad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Pad, in, attrs);
  const Tensor &x = in[0];
  Tensor &o = out[0];
  const auto &p = *ir::attrInts(attrs, "paddings");
  std::string mode = ir::attrString(attrs, "mode", "CONSTANT");
  size_t r = x.rank();
  const auto &os = o.shape();
  std::vector<int64_t> xs = contiguousStrides(x.shape());
  for (int64_t i = 0; i < o.numElements(); ++i) {
    int64_t rem = i, off = 0;
    bool inside = true;
    for (size_t d = r; d-- > 0;) {
      int64_t j = rem % os[d] - p[2 * d];
      rem /= os[d];
      int64_t s = padSource(j, x.shape()[d], mode);
      if (s < 0) { inside = false; break; }
      off += s * xs[d];
    }
    if (inside) copyElement(x, off, o, i);
    else copyElement(in[1], 0, o, i);
  }
  return out;
}

}  // namespace

void registerIndexOps(KernelTable &t) {
  t[size_t(OpKind::Cumsum)] = scan<OpKind::Cumsum>;
  t[size_t(OpKind::Cumprod)] = scan<OpKind::Cumprod>;
  t[size_t(OpKind::Reverse)] = reverse;
  t[size_t(OpKind::TopK)] = topK;
  t[size_t(OpKind::WhereIndices)] = whereIndices;
  t[size_t(OpKind::Unique)] = unique;
  t[size_t(OpKind::UnsortedSegmentSum)] = unsortedSegment<OpKind::UnsortedSegmentSum>;
  t[size_t(OpKind::UnsortedSegmentMax)] = unsortedSegment<OpKind::UnsortedSegmentMax>;
  t[size_t(OpKind::UnsortedSegmentMin)] = unsortedSegment<OpKind::UnsortedSegmentMin>;
  t[size_t(OpKind::UnsortedSegmentProd)] = unsortedSegment<OpKind::UnsortedSegmentProd>;
  t[size_t(OpKind::StridedSliceGrad)] = stridedSliceGrad;
  t[size_t(OpKind::Pad)] = pad;
}

}  // namespace tfs::runtime::kernels
