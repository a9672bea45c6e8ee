// Convolution kernels (NHWC input, HWIO filter, TF's SAME/VALID padding,
// strides and dilations): conv2d and its two backprops by im2col + GEMM,
// and depthwise_conv2d_native with its backprops by direct loops.
//
// Note [im2col in row chunks]
// conv2d is a matrix product once each output pixel's receptive field is
// laid out as a row: col[P, K] with P output pixels and K = kh * kw * C,
// then y[P, OC] = col * W[K, OC] (the HWIO filter is already that matrix).
// A whole image's col matrix can be large (a 3x3 conv on 200x200x100 is
// 141 MB), so it is built for a band of output rows at a time, bounded by
// kColBudget elements. The backprops use the same bands: dcol = dy * W^T
// scattered back (col2im), and dW += col^T * dy. A 1x1 stride-1 unpadded
// conv needs no col at all: the input is already [N*H*W, C].
#include "runtime/kernels/blas.h"
#include "runtime/kernels/conv_geometry.h"
#include "runtime/kernels/kernel_util.h"

#include <vector>

namespace tfs::runtime::kernels {

namespace {

constexpr int64_t kColBudget = int64_t(1) << 21;

WindowGeometry convGeometry(const std::vector<int64_t> &x, const std::vector<int64_t> &f,
                            const std::vector<int64_t> &y, const ir::Attrs &attrs) {
  return windowGeometry(x, f[0], f[1], y, attrs);
}

bool isPointwise(const WindowGeometry &g) {
  return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.padTop == 0 && g.padLeft == 0 &&
         g.oh == g.h && g.ow == g.w;
}

// Output rows [r0, r1) of image b, one col row per output pixel.
struct Band {
  int64_t b, r0, r1;
  int64_t pixels(const WindowGeometry &g) const { return (r1 - r0) * g.ow; }
};

template <class F> void forEachBand(const WindowGeometry &g, F f) {
  int64_t k = g.kh * g.kw * g.c;
  int64_t rows = std::max<int64_t>(1, kColBudget / std::max<int64_t>(1, g.ow * k));
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t r0 = 0; r0 < g.oh; r0 += rows) f(Band{b, r0, std::min(g.oh, r0 + rows)});
}

// Visits (col row, tap, input pixel or -1 for padding) of a band.
template <class F> void forEachBandTap(const WindowGeometry &g, const Band &band, F f) {
  for (int64_t i = band.r0; i < band.r1; ++i)
    for (int64_t j = 0; j < g.ow; ++j) {
      int64_t row = (i - band.r0) * g.ow + j;
      for (int64_t di = 0; di < g.kh; ++di) {
        int64_t y = i * g.sh + di * g.dh - g.padTop;
        for (int64_t dj = 0; dj < g.kw; ++dj) {
          int64_t x = j * g.sw + dj * g.dw - g.padLeft;
          bool inside = y >= 0 && y < g.h && x >= 0 && x < g.w;
          f(row, di * g.kw + dj, inside ? (band.b * g.h + y) * g.w + x : int64_t(-1));
        }
      }
    }
}

template <class T> void im2col(const WindowGeometry &g, const Band &band, const T *x, T *col) {
  int64_t k = g.kh * g.kw * g.c;
  forEachBandTap(g, band, [&](int64_t row, int64_t tap, int64_t pixel) {
    T *dst = col + row * k + tap * g.c;
    if (pixel < 0) std::fill(dst, dst + g.c, T(0));
    else std::copy(x + pixel * g.c, x + (pixel + 1) * g.c, dst);
  });
}

template <class T> void col2imAdd(const WindowGeometry &g, const Band &band, const T *col, T *dx) {
  int64_t k = g.kh * g.kw * g.c;
  forEachBandTap(g, band, [&](int64_t row, int64_t tap, int64_t pixel) {
    if (pixel < 0) return;
    const T *src = col + row * k + tap * g.c;
    T *dst = dx + pixel * g.c;
    for (int64_t c = 0; c < g.c; ++c) dst[c] += src[c];
  });
}

int64_t bandOffset(const WindowGeometry &g, const Band &band) { return (band.b * g.oh + band.r0) * g.ow; }

// y = conv2d(x, f)
template <class T>
void conv2dForward(const WindowGeometry &g, int64_t oc, const T *x, const T *f, T *y) {
  int64_t k = g.kh * g.kw * g.c;
  if (isPointwise(g)) {
    gemmRowMajor<T>(false, false, g.n * g.h * g.w, oc, g.c, x, g.c, f, oc, T(0), y, oc);
    return;
  }
  std::vector<T> col;
  forEachBand(g, [&](const Band &band) {
    col.resize(size_t(band.pixels(g) * k));
    im2col(g, band, x, col.data());
    gemmRowMajor<T>(false, false, band.pixels(g), oc, k, col.data(), k, f, oc, T(0),
                    y + bandOffset(g, band) * oc, oc);
  });
}

// dx = conv2d_backprop_input(f, dy)
template <class T>
void conv2dInputGrad(const WindowGeometry &g, int64_t oc, const T *f, const T *dy, T *dx) {
  int64_t k = g.kh * g.kw * g.c;
  if (isPointwise(g)) {
    gemmRowMajor<T>(false, true, g.n * g.h * g.w, g.c, oc, dy, oc, f, oc, T(0), dx, g.c);
    return;
  }
  std::fill(dx, dx + g.n * g.h * g.w * g.c, T(0));
  std::vector<T> col;
  forEachBand(g, [&](const Band &band) {
    col.resize(size_t(band.pixels(g) * k));
    gemmRowMajor<T>(false, true, band.pixels(g), k, oc, dy + bandOffset(g, band) * oc, oc, f, oc,
                    T(0), col.data(), k);
    col2imAdd(g, band, col.data(), dx);
  });
}

// df = conv2d_backprop_filter(x, dy)
template <class T>
void conv2dFilterGrad(const WindowGeometry &g, int64_t oc, const T *x, const T *dy, T *df) {
  int64_t k = g.kh * g.kw * g.c;
  if (isPointwise(g)) {
    gemmRowMajor<T>(true, false, g.c, oc, g.n * g.h * g.w, x, g.c, dy, oc, T(0), df, oc);
    return;
  }
  std::fill(df, df + k * oc, T(0));
  std::vector<T> col;
  forEachBand(g, [&](const Band &band) {
    col.resize(size_t(band.pixels(g) * k));
    im2col(g, band, x, col.data());
    gemmRowMajor<T>(true, false, k, oc, band.pixels(g), col.data(), k,
                    dy + bandOffset(g, band) * oc, oc, T(1), df, oc);
  });
}

std::vector<Tensor> conv2d(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Conv2D, in, attrs);
  WindowGeometry g = convGeometry(in[0].shape(), in[1].shape(), out[0].shape(), attrs);
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    conv2dForward<T>(g, in[1].shape()[3], in[0].data<T>(), in[1].data<T>(), out[0].data<T>());
  });
  return out;
}

// conv2d_backprop_input(filter, dy): attr input_sizes.
std::vector<Tensor> conv2dBackpropInput(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Conv2DBackpropInput, in, attrs);
  WindowGeometry g = convGeometry(out[0].shape(), in[0].shape(), in[1].shape(), attrs);
  dispatchFloat(in[1].dtype(), [&]<class T>() {
    conv2dInputGrad<T>(g, in[0].shape()[3], in[0].data<T>(), in[1].data<T>(), out[0].data<T>());
  });
  return out;
}

// conv2d_backprop_filter(input, dy): attr filter_sizes.
std::vector<Tensor> conv2dBackpropFilter(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::Conv2DBackpropFilter, in, attrs);
  WindowGeometry g = convGeometry(in[0].shape(), out[0].shape(), in[1].shape(), attrs);
  dispatchFloat(in[1].dtype(), [&]<class T>() {
    conv2dFilterGrad<T>(g, out[0].shape()[3], in[0].data<T>(), in[1].data<T>(), out[0].data<T>());
  });
  return out;
}

// depthwise_conv2d_native(x [N,H,W,C], f [kh,kw,C,M]) -> [N,OH,OW,C*M]:
// y[.., c*M + m] = sum over taps of x[.., c] * f[tap, c, m].
std::vector<Tensor> depthwiseConv2d(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::DepthwiseConv2D, in, attrs);
  WindowGeometry g = convGeometry(in[0].shape(), in[1].shape(), out[0].shape(), attrs);
  int64_t mult = in[1].shape()[3], oc = g.c * mult;
  dispatchFloat(in[0].dtype(), [&]<class T>() {
    const T *x = in[0].data<T>(), *f = in[1].data<T>();
    T *y = out[0].data<T>();
    std::fill(y, y + out[0].numElements(), T(0));
    forEachWindowTap(g, [&](int64_t ip, int64_t op, int64_t tap) {
      const T *xs = x + ip * g.c, *fs = f + tap * oc;
      T *ys = y + op * oc;
      for (int64_t c = 0; c < oc; ++c) ys[c] += xs[c / mult] * fs[c];
    });
  });
  return out;
}

// depthwise_conv2d_native_backprop_input(filter, dy): attr input_sizes.
std::vector<Tensor> depthwiseConv2dBackpropInput(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::DepthwiseConv2DBackpropInput, in, attrs);
  WindowGeometry g = convGeometry(out[0].shape(), in[0].shape(), in[1].shape(), attrs);
  int64_t mult = in[0].shape()[3], oc = g.c * mult;
  dispatchFloat(in[1].dtype(), [&]<class T>() {
    const T *f = in[0].data<T>(), *dy = in[1].data<T>();
    T *dx = out[0].data<T>();
    std::fill(dx, dx + out[0].numElements(), T(0));
    forEachWindowTap(g, [&](int64_t ip, int64_t op, int64_t tap) {
      const T *ds = dy + op * oc, *fs = f + tap * oc;
      T *xs = dx + ip * g.c;
      for (int64_t c = 0; c < oc; ++c) xs[c / mult] += ds[c] * fs[c];
    });
  });
  return out;
}

// depthwise_conv2d_native_backprop_filter(input, dy): attr filter_sizes.
std::vector<Tensor> depthwiseConv2dBackpropFilter(std::span<const Tensor> in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::DepthwiseConv2DBackpropFilter, in, attrs);
  WindowGeometry g = convGeometry(in[0].shape(), out[0].shape(), in[1].shape(), attrs);
  int64_t mult = out[0].shape()[3], oc = g.c * mult;
  dispatchFloat(in[1].dtype(), [&]<class T>() {
    const T *x = in[0].data<T>(), *dy = in[1].data<T>();
    T *df = out[0].data<T>();
    std::fill(df, df + out[0].numElements(), T(0));
    forEachWindowTap(g, [&](int64_t ip, int64_t op, int64_t tap) {
      const T *xs = x + ip * g.c, *ds = dy + op * oc;
      T *fs = df + tap * oc;
      for (int64_t c = 0; c < oc; ++c) fs[c] += xs[c / mult] * ds[c];
    });
  });
  return out;
}

}  // namespace

void registerConv(KernelTable &t) {
  t[size_t(OpKind::Conv2D)] = conv2d;
  t[size_t(OpKind::Conv2DBackpropInput)] = conv2dBackpropInput;
  t[size_t(OpKind::Conv2DBackpropFilter)] = conv2dBackpropFilter;
  t[size_t(OpKind::DepthwiseConv2D)] = depthwiseConv2d;
  t[size_t(OpKind::DepthwiseConv2DBackpropInput)] = depthwiseConv2dBackpropInput;
  t[size_t(OpKind::DepthwiseConv2DBackpropFilter)] = depthwiseConv2dBackpropFilter;
}

}  // namespace tfs::runtime::kernels
