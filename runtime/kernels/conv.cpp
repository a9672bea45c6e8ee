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
// kColBudget elements (or for several whole images, when small images fit:
// one GEMM for a batch of 28x28 images rather than one per image). The
// backprops use the same bands: dcol = dy * W^T
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

// Output rows [r0, r1) of images [b, b + images) (several images only with
// all their rows), one col row per output pixel.
struct Band {
  int64_t b, r0, r1, images = 1;
  int64_t pixels(const WindowGeometry &g) const { return images * (r1 - r0) * g.ow; }
};

// Bands of at most kColBudget col elements: whole images together when
// one fits (one GEMM for a batch of small images, not one per image),
// else bands of an image's rows.
template <class F> void forEachBand(const WindowGeometry &g, F f) {
  int64_t k = g.kh * g.kw * g.c;
  int64_t rows = std::max<int64_t>(1, kColBudget / std::max<int64_t>(1, g.ow * k));
  if (rows >= g.oh) {
    int64_t images = std::max<int64_t>(1, kColBudget / std::max<int64_t>(1, g.oh * g.ow * k));
    for (int64_t b = 0; b < g.n; b += images) f(Band{b, 0, g.oh, std::min(images, g.n - b)});
    return;
  }
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t r0 = 0; r0 < g.oh; r0 += rows) f(Band{b, r0, std::min(g.oh, r0 + rows)});
}

// Visits a band's col rows in (row, tap) order, a window row (kw taps) at
// a time: contiguous(at, pixel) when the row's taps read consecutive
// in-bounds input pixels (one run of kw * C elements at col offset `at` and
// from input pixel `pixel` on), else tapByTap(at, pixel) for each tap
// (pixel -1: padding).
template <class F, class G>
void forEachBandSegment(const WindowGeometry &g, const Band &band, F contiguous, G tapByTap) {
  int64_t k = g.kh * g.kw * g.c;
  int64_t row = 0;
  for (int64_t image = band.b; image < band.b + band.images; ++image)
    for (int64_t i = band.r0; i < band.r1; ++i)
      for (int64_t j = 0; j < g.ow; ++j, ++row) {
        int64_t x0 = j * g.sw - g.padLeft, x1 = x0 + (g.kw - 1) * g.dw;
        for (int64_t di = 0; di < g.kh; ++di) {
          int64_t y = i * g.sh + di * g.dh - g.padTop;
          int64_t at = row * k + di * g.kw * g.c;
          bool rowInside = y >= 0 && y < g.h;
          if (rowInside && (g.dw == 1 || g.kw == 1) && x0 >= 0 && x1 < g.w) {
            contiguous(at, (image * g.h + y) * g.w + x0);
            continue;
          }
          for (int64_t dj = 0; dj < g.kw; ++dj) {
            int64_t x = x0 + dj * g.dw;
            bool inside = rowInside && x >= 0 && x < g.w;
            tapByTap(at + dj * g.c, inside ? (image * g.h + y) * g.w + x : int64_t(-1));
          }
        }
      }
}

// Short runs (a 3x3 window on one channel: 3 elements) are copied by a
// loop inlined into im2col, not a call per window row (of copyRun, or of
// memmove: GCC would make the loop one, hence the attribute on both).
#define TFS_NO_MEMMOVE_LOOPS __attribute__((optimize("no-tree-loop-distribute-patterns")))

template <class T>
TFS_NO_MEMMOVE_LOOPS inline __attribute__((always_inline)) void copyRun(const T *from, int64_t n, T *to) {
  if (n > 16) {
    std::copy(from, from + n, to);
    return;
  }
  for (int64_t e = 0; e < n; ++e) to[e] = from[e];
}

// Every window inside the input (no padding taken) and each window row one
// contiguous run: im2col is then plain nested loops (no call per run).
bool windowsInside(const WindowGeometry &g) {
  return g.padTop == 0 && g.padLeft == 0 && (g.dw == 1 || g.kw == 1) &&
         (g.oh - 1) * g.sh + (g.kh - 1) * g.dh < g.h && (g.ow - 1) * g.sw + (g.kw - 1) * g.dw < g.w;
}

template <class T> TFS_NO_MEMMOVE_LOOPS void im2col(const WindowGeometry &g, const Band &band, const T *x, T *col) {
  int64_t run = g.kw * g.c;
  if (windowsInside(g)) {
    T *out = col;
    for (int64_t image = band.b; image < band.b + band.images; ++image)
      for (int64_t i = band.r0; i < band.r1; ++i)
        for (int64_t j = 0; j < g.ow; ++j)
          for (int64_t di = 0; di < g.kh; ++di, out += run)
            copyRun(x + ((image * g.h + i * g.sh + di * g.dh) * g.w + j * g.sw) * g.c, run, out);
    return;
  }
  forEachBandSegment(
      g, band, [&](int64_t at, int64_t pixel) { copyRun(x + pixel * g.c, run, col + at); },
      [&](int64_t at, int64_t pixel) {
        if (pixel < 0) std::fill(col + at, col + at + g.c, T(0));
        else std::copy(x + pixel * g.c, x + (pixel + 1) * g.c, col + at);
      });
}

// dx += the col rows' taps at their input pixels, in (row, tap) order.
template <class T> void col2imAdd(const WindowGeometry &g, const Band &band, const T *col, T *dx) {
  int64_t run = g.kw * g.c;
  forEachBandSegment(
      g, band,
      [&](int64_t at, int64_t pixel) {
        const T *src = col + at;
        T *dst = dx + pixel * g.c;
        for (int64_t e = 0; e < run; ++e) dst[e] += src[e];
      },
      [&](int64_t at, int64_t pixel) {
        if (pixel < 0) return;
        const T *src = col + at;
        T *dst = dx + pixel * g.c;
        for (int64_t c = 0; c < g.c; ++c) dst[c] += src[c];
      });
}

// The col matrix of a band, kept between calls: a fresh one of this size
// (up to kColBudget elements, 8 MiB of float32) would be mapped from the
// system and page-faulted on every call.
template <class T> T *colScratch(size_t elements) {
  thread_local std::vector<T> col;
  if (col.size() < elements) col.resize(elements);
  return col.data();
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
  forEachBand(g, [&](const Band &band) {
    T *col = colScratch<T>(size_t(band.pixels(g) * k));
    im2col(g, band, x, col);
    gemmRowMajor<T>(false, false, band.pixels(g), oc, k, col, k, f, oc, T(0),
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
  forEachBand(g, [&](const Band &band) {
    T *col = colScratch<T>(size_t(band.pixels(g) * k));
    gemmRowMajor<T>(false, true, band.pixels(g), k, oc, dy + bandOffset(g, band) * oc, oc, f, oc,
                    T(0), col, k);
    col2imAdd(g, band, col, dx);
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
  forEachBand(g, [&](const Band &band) {
    T *col = colScratch<T>(size_t(band.pixels(g) * k));
    im2col(g, band, x, col);
    gemmRowMajor<T>(true, false, k, oc, band.pixels(g), col, k,
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
