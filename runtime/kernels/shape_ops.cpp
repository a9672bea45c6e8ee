// Kernels that move elements without arithmetic: transpose, reshape,
// expand_dims, squeeze, concat, stack, gather, strided_slice, broadcast_to,
// tile, shape, size, unbroadcast (sums back), one_hot, fill, range, linspace.
#include "ir/slicing.h"
#include "runtime/kernels/kernel_util.h"
#include "runtime/kernels/reduce_runs.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace tfs::runtime::kernels {

namespace {

std::vector<Tensor> reshapeLike(std::span<const Tensor> in, const ir::Attrs &attrs, OpKind k) {
  std::vector<Tensor> out = allocateOutputs(k, in, attrs);
  for (int64_t i = 0; i < in[0].numElements(); ++i) copyElement(in[0], i, out[0], i);
  return out;
}
std::vector<Tensor> reshape(std::span<const Tensor> in, const ir::Attrs &a) { return reshapeLike(in, a, OpKind::Reshape); }
std::vector<Tensor> expandDims(std::span<const Tensor> in, const ir::Attrs &a) { return reshapeLike(in, a, OpKind::ExpandDims); }
std::vector<Tensor> squeeze(std::span<const Tensor> in, const ir::Attrs &a) { return reshapeLike(in, a, OpKind::Squeeze); }

std::vector<Tensor> transpose(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Transpose, in, attrs);
  const Tensor &x = in[0];
  size_t r = x.rank();
  std::vector<int64_t> perm;
  if (const auto *p = ir::attrInts(attrs, "perm")) perm = *p;
  else for (size_t i = 0; i < r; ++i) perm.push_back(int64_t(r - 1 - i));
  std::vector<int64_t> xs = contiguousStrides(x.shape()), strides(r);
  for (size_t i = 0; i < r; ++i) strides[i] = xs[size_t(perm[i])];
  // Walk the output in order, reading the input through permuted strides.
  const auto &os = out[0].shape();
  std::vector<int64_t> idx(r, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < out[0].numElements(); ++i) {
    copyElement(x, off, out[0], i);
    for (size_t d = r; d-- > 0;) {
      ++idx[d];
      off += strides[d];
      if (idx[d] < os[d]) break;
      off -= strides[d] * os[d];
      idx[d] = 0;
    }
  }
  return out;
}

// concat along axis 0 onto a first operand handed over as its only
// reference (a tensor grown in a loop, a while-loop gradient's saved
// stack): the rows are appended in place, its storage growing
// geometrically, so growing a tensor row by row is amortized O(row).
bool appendRowsInPlace(std::span<const Tensor> in, const ir::Attrs &attrs, std::vector<Tensor> &out) {
  const Tensor &base = in[0];
  if (in.size() < 2 || !ir::attrBool(attrs, kReuseFirstOperand, false) || !base.uniquelyOwned() ||
      base.dtype() == ir::DType::String || base.rank() == 0)
    return false;
  int64_t axis = ir::attrInt(attrs, "axis", 0);
  if (axis != 0 && axis != -int64_t(base.rank())) return false;
  int64_t rows = base.shape()[0];
  for (const Tensor &t : in.subspan(1)) {
    if (t.dtype() != base.dtype() || t.rank() != base.rank() ||
        !std::equal(t.shape().begin() + 1, t.shape().end(), base.shape().begin() + 1))
      return false;  // the general path reports it
    rows += t.shape()[0];
  }
  Tensor o = base;
  size_t offset = base.byteSize();
  if (!o.growLeadingDim(rows)) return false;
  for (const Tensor &t : in.subspan(1)) {
    if (t.byteSize()) std::memcpy(static_cast<char *>(o.rawData()) + offset, t.rawData(), t.byteSize());
    offset += t.byteSize();
  }
  out.push_back(std::move(o));
  return true;
}

std::vector<Tensor> concat(std::span<const Tensor> in, const ir::Attrs &attrs) {
  if (std::vector<Tensor> grown; appendRowsInPlace(in, attrs, grown)) return grown;
  std::vector<Tensor> out = allocateOutputs(OpKind::Concat, in, attrs);
  Tensor &o = out[0];
  int64_t r = int64_t(o.rank()), axis = ir::attrInt(attrs, "axis", 0);
  if (axis < 0) axis += r;
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= o.shape()[size_t(d)];
  int64_t rowOut = o.numElements() / std::max<int64_t>(outer, 1);
  int64_t pos = 0;
  for (const Tensor &t : in) {
    int64_t row = t.numElements() / std::max<int64_t>(outer, 1);
    for (int64_t a = 0; a < outer; ++a)
      for (int64_t j = 0; j < row; ++j) copyElement(t, a * row + j, o, a * rowOut + pos + j);
    pos += row;
  }
  return out;
}

std::vector<Tensor> stack(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Stack, in, attrs);
  Tensor &o = out[0];
  int64_t axis = ir::attrInt(attrs, "axis", 0);
  if (axis < 0) axis += int64_t(o.rank());
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= o.shape()[size_t(d)];
  int64_t row = in[0].numElements() / std::max<int64_t>(outer, 1);
  int64_t n = int64_t(in.size());
  for (int64_t k = 0; k < n; ++k)
    for (int64_t a = 0; a < outer; ++a) copyElements(in[size_t(k)], a * row, o, (a * n + k) * row, row);
  return out;
}

std::vector<Tensor> gather(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Gather, in, attrs);
  const Tensor &p = in[0], &idx = in[1];
  int64_t r = int64_t(p.rank()), axis = ir::attrInt(attrs, "axis", 0);
  if (axis < 0) axis += r;
  int64_t outer = 1, inner = 1, len = p.shape()[size_t(axis)];
  for (int64_t d = 0; d < axis; ++d) outer *= p.shape()[size_t(d)];
  for (int64_t d = axis + 1; d < r; ++d) inner *= p.shape()[size_t(d)];
  int64_t ni = idx.numElements();
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t j = 0; j < ni; ++j) {
      int64_t v = idx.elementAsInt(j);
      if (v < 0 || v >= len) {
        // TF names the bad index by its position in the indices' shape:
        // "indices = 5" for a scalar, "indices[1,0] = 5" for a matrix.
        std::string where;
        for (int64_t d = int64_t(idx.rank()) - 1, rest = j; d >= 0; --d) {
          int64_t dim = idx.shape()[size_t(d)];
          where = std::to_string(rest % dim) + (where.empty() ? "" : ",") + where;
          rest /= dim;
        }
        fail(OpKind::Gather, fmt::format("indices{} = {} is not in [0, {})", where.empty() ? "" : "[" + where + "]",
                                         v, len));
      }
      copyElements(p, (a * len + v) * inner, out[0], (a * ni + j) * inner, inner);
    }
  return out;
}

std::vector<Tensor> stridedSlice(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &x = in[0];
  ir::SlicePlan plan = ir::planStridedSlice(x.shape(), attrs);
  Tensor o = Tensor::empty(x.dtype(), plan.resultShape);
  size_t r = x.rank();
  std::vector<int64_t> xs = contiguousStrides(x.shape());
  std::vector<int64_t> idx(r, 0);
  int64_t n = o.numElements();
  if (n == 0) return {o};
  // Dims [k, r) are read as contiguous runs of `run` elements: a step-1
  // last dim, with the dims before it while the ones after are whole.
  size_t k = r;
  int64_t run = 1;
  while (k > 0 && plan.dims[k - 1].step == 1) {
    --k;
    run *= plan.dims[k].size;
    if (plan.dims[k].start != 0 || plan.dims[k].size != x.shape()[k]) break;
  }
  int64_t off = 0;
  for (size_t d = 0; d < r; ++d) off += plan.dims[d].start * xs[d];
  for (int64_t i = 0; i < n; i += run) {
    copyElements(x, off, o, i, run);
    for (size_t d = k; d-- > 0;) {
      ++idx[d];
      off += plan.dims[d].step * xs[d];
      if (idx[d] < plan.dims[d].size) break;
      off -= plan.dims[d].step * xs[d] * plan.dims[d].size;
      idx[d] = 0;
    }
  }
  return {o};
}

std::vector<Tensor> broadcastTo(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::BroadcastTo, in, attrs);
  forEachBroadcast<1>(out[0].shape(), {&in[0].shape()},
                      [&](int64_t i, const std::array<int64_t, 1> &o) { copyElement(in[0], o[0], out[0], i); });
  return out;
}

std::vector<Tensor> tile(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Tile, in, attrs);
  const Tensor &x = in[0];
  const auto &os = out[0].shape();
  std::vector<int64_t> xs = contiguousStrides(x.shape());
  size_t r = os.size();
  for (int64_t i = 0; i < out[0].numElements(); ++i) {
    int64_t rem = i, off = 0;
    for (size_t d = r; d-- > 0;) {
      int64_t v = rem % os[d];
      rem /= os[d];
      off += (v % x.shape()[d]) * xs[d];
    }
    copyElement(x, off, out[0], i);
  }
  return out;
}

std::vector<Tensor> shapeOf(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::ShapeOf, in, attrs);
  for (size_t i = 0; i < in[0].rank(); ++i) {
    if (out[0].dtype() == DType::Int64) out[0].data<int64_t>()[i] = in[0].shape()[i];
    else out[0].data<int32_t>()[i] = int32_t(in[0].shape()[i]);
  }
  return out;
}

std::vector<Tensor> sizeOf(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::SizeOf, in, attrs);
  if (out[0].dtype() == DType::Int64) out[0].data<int64_t>()[0] = in[0].numElements();
  else out[0].data<int32_t>()[0] = int32_t(in[0].numElements());
  return out;
}

// unbroadcast(g, like): sums g over the dims broadcast to reach its shape.
std::vector<Tensor> unbroadcast(std::span<const Tensor> in, const ir::Attrs &attrs) {
  const Tensor &g = in[0], &like = in[1];
  // Nothing broadcast (a gradient of an op whose operands had the same
  // shape): the gradient itself, not a copy summed element by element.
  if (g.shape() == like.shape()) return {g};
  Tensor o = Tensor::empty(g.dtype(), like.shape());
  // Dims of g that `like` (right-aligned) has as 1 are summed over.
  size_t r = g.rank(), lr = like.rank();
  if (lr > r) fail(OpKind::Unbroadcast, "unbroadcast to a shape of higher rank");
  std::vector<bool> summed(r);
  for (size_t d = 0; d < r; ++d)
    summed[d] = d < r - lr || like.shape()[d - (r - lr)] == 1;
  Blocks blocks = mergeDims(g.shape(), summed);
  int64_t run = blocks.size.back();
  bool runSummed = blocks.reduced.back();
  // Complex too: the gradient of a broadcast complex product sums here.
  dispatchWithComplex(g.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    std::fill(q, q + o.numElements(), T(0));
    const T *p = g.data<T>();
    if (g.numElements() == 0) return;
    // Each output element adds its inputs in input order, in T.
    forEachRun(blocks, [&](int64_t first, int64_t slot) {
      const T *x = p + first;
      if (runSummed) {
        T acc = q[slot];
        for (int64_t i = 0; i < run; ++i) acc = T(acc + x[i]);
        q[slot] = acc;
      } else {
        T *y = q + slot;
        for (int64_t i = 0; i < run; ++i) y[i] = T(y[i] + x[i]);
      }
    });
  });
  return {o};
}

std::vector<Tensor> oneHot(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::OneHot, in, attrs);
  int64_t depth = ir::attrInt(attrs, "depth", 0);
  double on = ir::attrFloat(attrs, "on_value", 1.0), off = ir::attrFloat(attrs, "off_value", 0.0);
  Tensor &o = out[0];
  dispatchNumeric(o.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    for (int64_t i = 0; i < in[0].numElements(); ++i) {
      int64_t v = in[0].elementAsInt(i);
      for (int64_t k = 0; k < depth; ++k) q[i * depth + k] = T(k == v ? on : off);
    }
  });
  return out;
}

std::vector<Tensor> fill(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Fill, in, attrs);
  Tensor &o = out[0];
  if (o.dtype() == DType::String) {
    for (int64_t i = 0; i < o.numElements(); ++i) copyElement(in[0], 0, o, i);
    return out;
  }
  // Complex too: tf.fill / tf.ones(dtype=tf.complex64) / tf.constant(1+2j, shape=...).
  dispatchWithComplex(o.dtype(), [&]<class T>() {
    T v = in[0].data<T>()[0];
    std::fill(o.data<T>(), o.data<T>() + o.numElements(), v);
  });
  return out;
}

std::vector<Tensor> range(std::span<const Tensor> in, const ir::Attrs &) {
  double start = in[0].elementAsDouble(0), limit = in[1].elementAsDouble(0), delta = in[2].elementAsDouble(0);
  if (delta == 0) fail(OpKind::Range, "Requires delta != 0: 0");
  if ((delta > 0 && start > limit) || (delta < 0 && start < limit))
    fail(OpKind::Range, fmt::format("Requires start <= limit when delta > 0: {}/{}", start, limit));
  // The element count in 128 bits / as a double first: a count past int64
  // is TF's InvalidArgumentError (the allocation limit catches the rest).
  double count;
  if (ir::isInteger(in[0].dtype())) {
    __int128 span = __int128(int64_t(limit)) - int64_t(start), step = int64_t(delta);
    if (span < 0) span = -span;
    if (step < 0) step = -step;
    count = double((span + step - 1) / step);
  } else {
    count = std::ceil(std::abs((limit - start) / delta));
  }
  if (!(count < 9.2233720368547758e18))
    fail(OpKind::Range, "Requires ((limit - start) / delta) <= 9223372036854775807");
  int64_t n = int64_t(count);
  Tensor o = Tensor::empty(in[0].dtype(), {n});
  dispatchNumeric(o.dtype(), [&]<class T>() {
    T *q = o.data<T>();
    T s = in[0].data<T>()[0], d = in[2].data<T>()[0];
    for (int64_t i = 0; i < n; ++i) q[i] = T(s + T(i) * d);
  });
  return {o};
}

std::vector<Tensor> linspace(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Linspace, in, attrs);
  int64_t n = out[0].numElements();
  double a = in[0].elementAsDouble(0), b = in[1].elementAsDouble(0);
  dispatchNumeric(out[0].dtype(), [&]<class T>() {
    T *q = out[0].data<T>();
    if constexpr (std::is_floating_point_v<T>) {
      // TF's arithmetic, in T: start + i * ((stop - start) / (num - 1)),
      // the last value stop itself (so float32 results match TF's bits).
      T start = T(a), stop = T(b);
      T step = n > 1 ? T((stop - start) / T(n - 1)) : T(0);
      for (int64_t i = 0; i < n; ++i) q[i] = T(start + step * T(i));
      if (n > 1) q[n - 1] = stop;
    } else {
      for (int64_t i = 0; i < n; ++i) q[i] = n == 1 ? T(a) : T(a + (b - a) * double(i) / double(n - 1));
    }
  });
  return out;
}

}  // namespace

void registerShapeOps(KernelTable &t) {
  t[size_t(OpKind::Reshape)] = reshape;
  t[size_t(OpKind::ExpandDims)] = expandDims;
  t[size_t(OpKind::Squeeze)] = squeeze;
  t[size_t(OpKind::Transpose)] = transpose;
  t[size_t(OpKind::Concat)] = concat;
  t[size_t(OpKind::Stack)] = stack;
  t[size_t(OpKind::Gather)] = gather;
  t[size_t(OpKind::StridedSlice)] = stridedSlice;
  t[size_t(OpKind::BroadcastTo)] = broadcastTo;
  t[size_t(OpKind::Tile)] = tile;
  t[size_t(OpKind::ShapeOf)] = shapeOf;
  t[size_t(OpKind::SizeOf)] = sizeOf;
  t[size_t(OpKind::Unbroadcast)] = unbroadcast;
  t[size_t(OpKind::OneHot)] = oneHot;
  t[size_t(OpKind::Fill)] = fill;
  t[size_t(OpKind::Range)] = range;
  t[size_t(OpKind::Linspace)] = linspace;
}

}  // namespace tfs::runtime::kernels
