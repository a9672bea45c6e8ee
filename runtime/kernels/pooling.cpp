// 2-D pooling kernels on NHWC tensors (attrs ksize, strides: 4 ints or
// [h, w]; padding SAME/VALID as TF): max_pool, avg_pool and their
// gradients. Padding never takes part: a max ignores it and an average
// divides by the number of in-bounds taps, as TF's CPU kernels do.
// max_pool_grad routes each output's gradient to the first maximal input of
// its window in row-major scan order; max_pool_grad_grad reads the
// gradient at that same input, so the two are each other's transpose.
#include "runtime/kernels/conv_geometry.h"
#include "runtime/kernels/kernel_util.h"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace tfs::runtime::kernels {

namespace {

WindowGeometry poolGeometry(const std::vector<int64_t> &x, const std::vector<int64_t> &y,
                            const ir::Attrs &attrs) {
  auto k = nhwcAttr(attrs, "ksize", 1);
  return windowGeometry(x, k[1], k[2], y, attrs);
}

// Calls f(outPixel, taps, count) for every output pixel with the flat
// (b, y, x) indices of its window's in-bounds input pixels in row-major scan
// order (one scratch array, no allocation per pixel).
template <class F> void forEachWindow(const WindowGeometry &g, F f) {
  std::vector<int64_t> taps(size_t(std::max<int64_t>(g.kh * g.kw, 1)));
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t i = 0; i < g.oh; ++i)
      for (int64_t j = 0; j < g.ow; ++j) {
        int64_t count = 0;
        for (int64_t di = 0; di < g.kh; ++di) {
          int64_t y = i * g.sh + di * g.dh - g.padTop;
          if (y < 0 || y >= g.h) continue;
          for (int64_t dj = 0; dj < g.kw; ++dj) {
            int64_t x = j * g.sw + dj * g.dw - g.padLeft;
            if (x >= 0 && x < g.w) taps[size_t(count++)] = (b * g.h + y) * g.w + x;
          }
        }
        f((b * g.oh + i) * g.ow + j, taps.data(), count);
      }
}

// The max of one window, channel by channel (`c` channels; `taps`: its
// in-bounds input pixels in scan order, at least one): its first tap,
// replaced by a later tap only where that is greater, so the first maximum
// in scan order wins (and a NaN only when it comes first). `bs` receives the
// c values, `as` (may be null) the flat element index each was read from.
// The loops are branch-free selects (vectorized): `tap` holds the winning
// tap's number per channel, turned into element indices at the end.
// pixelMax's selection with `bs` holding the first tap's values: `tp`
// receives, per channel, the number of the winning tap.
// (Restrict pointers and target clones: GCC then makes the channel loop
// vector selects; without them it was a compare and branch per element.)
template <class T>
inline __attribute__((always_inline)) void winningTapsBody(int64_t c, const T *__restrict x, const int64_t *taps,
                                                           int64_t count, T *__restrict bs,
                                                           int32_t *__restrict tp) {
  for (int64_t k = 0; k < c; ++k) tp[k] = 0;
  for (int64_t t = 1; t < count; ++t) {
    const T *__restrict xs = x + taps[t] * c;
    for (int64_t k = 0; k < c; ++k) {
      bool greater = xs[k] > bs[k];
      bs[k] = greater ? xs[k] : bs[k];
      tp[k] = greater ? int32_t(t) : tp[k];
    }
  }
}

// One window's gradient when no other window shares its inputs: tap t
// gets 0 + dy where it won (as the zero fill plus += gave), else 0.
template <class T>
inline __attribute__((always_inline)) void writeWindowGradBody(int64_t c, const int64_t *taps, int64_t count,
                                                               const int32_t *__restrict winner,
                                                               const T *__restrict ds, T *__restrict dx) {
  for (int64_t t = 0; t < count; ++t) {
    T *__restrict d = dx + taps[t] * c;
    for (int64_t k = 0; k < c; ++k) d[k] = winner[k] == int32_t(t) ? T(T(0) + ds[k]) : T(0);
  }
}

#define TFS_POOL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
TFS_POOL_CLONES void winningTaps(int64_t c, const float *x, const int64_t *taps, int64_t count, float *bs,
                                 int32_t *tp) {
  winningTapsBody(c, x, taps, count, bs, tp);
}
TFS_POOL_CLONES void winningTaps(int64_t c, const double *x, const int64_t *taps, int64_t count, double *bs,
                                 int32_t *tp) {
  winningTapsBody(c, x, taps, count, bs, tp);
}
TFS_POOL_CLONES void writeWindowGrad(int64_t c, const int64_t *taps, int64_t count, const int32_t *winner,
                                     const float *ds, float *dx) {
  writeWindowGradBody(c, taps, count, winner, ds, dx);
}
TFS_POOL_CLONES void writeWindowGrad(int64_t c, const int64_t *taps, int64_t count, const int32_t *winner,
                                     const double *ds, double *dx) {
  writeWindowGradBody(c, taps, count, winner, ds, dx);
}
#undef TFS_POOL_CLONES

template <class T>
void pixelMax(int64_t c, const T *x, const int64_t *taps, int64_t count, T *bs, int64_t *as) {
  const T *x0 = x + taps[0] * c;
  std::copy(x0, x0 + c, bs);
  if (!as) {
    for (int64_t t = 1; t < count; ++t) {
      const T *xs = x + taps[t] * c;
      for (int64_t k = 0; k < c; ++k) bs[k] = xs[k] > bs[k] ? xs[k] : bs[k];
    }
    return;
  }
  thread_local std::vector<int32_t> tapOf;
  tapOf.resize(size_t(c));
  int32_t *tp = tapOf.data();
  winningTaps(c, x, taps, count, bs, tp);
  for (int64_t k = 0; k < c; ++k) as[k] = taps[tp[k]] * c + k;
}

// pixelMax of every window into `best` (the pool's output layout) and `arg`
// (may be null); a window without in-bounds taps gets -inf and index -1.
template <class T> void windowMax(const WindowGeometry &g, const T *x, T *best, int64_t *arg) {
  forEachWindow(g, [&](int64_t op, const int64_t *taps, int64_t count) {
    T *bs = best + op * g.c;
    int64_t *as = arg ? arg + op * g.c : nullptr;
    if (count > 0) return pixelMax(g.c, x, taps, count, bs, as);
    std::fill(bs, bs + g.c, -std::numeric_limits<T>::infinity());
    if (as) std::fill(as, as + g.c, int64_t(-1));
  });
}

// For every output element, the flat index of the input element it pools
// (the first maximum of its window).
template <class T> std::vector<int64_t> maxArgs(const WindowGeometry &g, const T *x) {
  int64_t outPixels = g.n * g.oh * g.ow;
  std::vector<int64_t> arg(size_t(outPixels * g.c), -1);
  std::vector<T> best(size_t(outPixels * g.c));
  windowMax(g, x, best.data(), arg.data());
  return arg;
}

std::vector<Tensor> maxPool(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MaxPool, in, attrs);
  WindowGeometry g = poolGeometry(in[0].shape(), out[0].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() { windowMax<T>(g, in[0].data<T>(), out[0].data<T>(), nullptr); });
  return out;
}

// No input pixel in two windows (strides at least the window, no dilation).
bool disjointWindows(const WindowGeometry &g) {
  return g.sh >= g.kh && g.sw >= g.kw && g.dh == 1 && g.dw == 1;
}

// maxPoolGrad when no two windows share an input: each input element
// receives at most one gradient, so it is written once, in place of the
// zero fill and the scatter of += (0 + dy, as the sum gave: -0 becomes
// +0), the taps of a window in order as whole channel vectors. Inputs in
// no window (the rows and columns VALID leaves out) are zeroed first.
template <class T> void maxPoolGradDisjoint(const WindowGeometry &g, const T *x, const T *dy, T *dx) {
  bool covered = g.padTop == 0 && g.padLeft == 0 && g.oh * g.sh == g.h && g.ow * g.sw == g.w &&
                 g.sh == g.kh && g.sw == g.kw;
  if (!covered) std::fill(dx, dx + g.n * g.h * g.w * g.c, T(0));
  std::vector<T> best(size_t(g.c));
  std::vector<int32_t> winner(size_t(g.c));
  forEachWindow(g, [&](int64_t op, const int64_t *taps, int64_t count) {
    if (count == 0) return;
    const T *x0 = x + taps[0] * g.c;
    std::copy(x0, x0 + g.c, best.data());
    winningTaps(g.c, x, taps, count, best.data(), winner.data());
    writeWindowGrad(g.c, taps, count, winner.data(), dy + op * g.c, dx);
  });
}

// max_pool_grad(orig_input, grad) -> gradient w.r.t. orig_input: each
// output's gradient added at its window's first maximum, in output order.
std::vector<Tensor> maxPoolGrad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MaxPoolGrad, in, attrs);
  WindowGeometry g = poolGeometry(in[0].shape(), in[1].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *x = in[0].data<T>(), *dy = in[1].data<T>();
    T *dx = out[0].data<T>();
    if (disjointWindows(g)) return maxPoolGradDisjoint(g, x, dy, dx);
    std::fill(dx, dx + out[0].numElements(), T(0));
    // One output pixel's maxima at a time (no arrays the size of the output).
    std::vector<T> best(size_t(g.c));
    std::vector<int64_t> arg(size_t(g.c));
    forEachWindow(g, [&](int64_t op, const int64_t *taps, int64_t count) {
      if (count == 0) return;
      pixelMax(g.c, x, taps, count, best.data(), arg.data());
      const T *ds = dy + op * g.c;
      for (int64_t c = 0; c < g.c; ++c) dx[arg[size_t(c)]] += ds[c];
    });
  });
  return out;
}

// max_pool_grad_grad(orig_input, grad_of_input) -> shaped like the pool's
// output: the gradient read at each window's maximum.
std::vector<Tensor> maxPoolGradGrad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MaxPoolGradGrad, in, attrs);
  WindowGeometry g = poolGeometry(in[0].shape(), out[0].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *gx = in[1].data<T>();
    T *y = out[0].data<T>();
    std::vector<int64_t> arg = maxArgs(g, in[0].data<T>());
    for (size_t i = 0; i < arg.size(); ++i) y[i] = gx[arg[i]];
  });
  return out;
}

// max_pool_with_argmax(input) -> (output, argmax): argmax is TF's flat
// index ((b * H + y) * W + x) * C + c of each maximum, less b * H * W * C
// unless attr include_batch_in_index.
std::vector<Tensor> maxPoolWithArgmax(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MaxPoolWithArgmax, in, attrs);
  WindowGeometry g = poolGeometry(in[0].shape(), out[0].shape(), attrs);
  bool withBatch = ir::attrBool(attrs, "include_batch_in_index", false);
  int64_t perImage = g.h * g.w * g.c, perOutImage = g.oh * g.ow * g.c;
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *x = in[0].data<T>();
    T *y = out[0].data<T>();
    std::vector<int64_t> arg = maxArgs(g, x);
    for (size_t i = 0; i < arg.size(); ++i) {
      y[i] = x[arg[i]];
      if (!withBatch) arg[i] -= (int64_t(i) / std::max<int64_t>(perOutImage, 1)) * perImage;
    }
    if (out[1].dtype() == ir::DType::Int32)
      std::transform(arg.begin(), arg.end(), out[1].data<int32_t>(), [](int64_t v) { return int32_t(v); });
    else
      std::copy(arg.begin(), arg.end(), out[1].data<int64_t>());
  });
  return out;
}

// max_pool_grad_with_argmax(input, grad, argmax) -> input shaped: each
// grad added at its argmax (an index outside the input is TF's error).
std::vector<Tensor> maxPoolGradWithArgmax(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::MaxPoolGradWithArgmax, in, attrs);
  bool withBatch = ir::attrBool(attrs, "include_batch_in_index", false);
  const auto &xs = in[0].shape();
  int64_t perImage = xs.size() == 4 ? xs[1] * xs[2] * xs[3] : 0;
  int64_t total = in[0].numElements(), count = in[1].numElements();
  int64_t perOutImage = in[1].shape().size() == 4 ? in[1].shape()[1] * in[1].shape()[2] * in[1].shape()[3] : 1;
  if (in[2].numElements() != count) fail(OpKind::MaxPoolGradWithArgmax, "Expected grad shape to be the argmax shape");
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *dy = in[1].data<T>();
    T *dx = out[0].data<T>();
    std::fill(dx, dx + total, T(0));
    for (int64_t i = 0; i < count; ++i) {
      int64_t a = in[2].dtype() == ir::DType::Int32 ? int64_t(in[2].data<int32_t>()[i]) : in[2].data<int64_t>()[i];
      if (!withBatch) a += (i / std::max<int64_t>(perOutImage, 1)) * perImage;
      if (a < 0 || a >= total)
        fail(OpKind::MaxPoolGradWithArgmax, fmt::format("Invalid max pooling gradient index: {}", a));
      dx[a] += dy[i];
    }
  });
  return out;
}

// In-bounds taps of every output pixel (the average's divisor).
std::vector<int64_t> tapCounts(const WindowGeometry &g) {
  std::vector<int64_t> count(size_t(g.n * g.oh * g.ow), 0);
  forEachWindowTap(g, [&](int64_t, int64_t op, int64_t) { ++count[size_t(op)]; });
  return count;
}

std::vector<Tensor> avgPool(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AvgPool, in, attrs);
  WindowGeometry g = poolGeometry(in[0].shape(), out[0].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *x = in[0].data<T>();
    T *y = out[0].data<T>();
    std::fill(y, y + out[0].numElements(), T(0));
    forEachWindowTap(g, [&](int64_t ip, int64_t op, int64_t) {
      for (int64_t c = 0; c < g.c; ++c) y[op * g.c + c] += x[ip * g.c + c];
    });
    std::vector<int64_t> count = tapCounts(g);
    for (size_t p = 0; p < count.size(); ++p)
      for (int64_t c = 0; c < g.c; ++c) y[int64_t(p) * g.c + c] /= T(std::max<int64_t>(count[p], 1));
  });
  return out;
}

// avg_pool_grad(grad): attr orig_input_shape.
std::vector<Tensor> avgPoolGrad(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AvgPoolGrad, in, attrs);
  WindowGeometry g = poolGeometry(out[0].shape(), in[0].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *dy = in[0].data<T>();
    T *dx = out[0].data<T>();
    std::fill(dx, dx + out[0].numElements(), T(0));
    std::vector<int64_t> count = tapCounts(g);
    forEachWindowTap(g, [&](int64_t ip, int64_t op, int64_t) {
      T scale = T(1) / T(std::max<int64_t>(count[size_t(op)], 1));
      for (int64_t c = 0; c < g.c; ++c) dx[ip * g.c + c] += dy[op * g.c + c] * scale;
    });
  });
  return out;
}

}  // namespace

void registerPooling(KernelTable &t) {
  t[size_t(OpKind::MaxPool)] = maxPool;
  t[size_t(OpKind::MaxPoolGrad)] = maxPoolGrad;
  t[size_t(OpKind::MaxPoolGradGrad)] = maxPoolGradGrad;
  t[size_t(OpKind::AvgPool)] = avgPool;
  t[size_t(OpKind::MaxPoolWithArgmax)] = maxPoolWithArgmax;
  t[size_t(OpKind::MaxPoolGradWithArgmax)] = maxPoolGradWithArgmax;
  t[size_t(OpKind::AvgPoolGrad)] = avgPoolGrad;
}

}  // namespace tfs::runtime::kernels
