// The geometry of a 2-D NHWC window op (conv2d, depthwise conv, pooling):
// sizes, strides, dilations and TF's SAME/VALID padding, read from the
// op's attrs, and a visitor over the (output position, window tap) pairs
// that read an in-bounds input. Private to runtime/kernels/.
#pragma once

#include "ir/attrs.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace tfs::runtime::kernels {

struct WindowGeometry {
  int64_t n, h, w, c;     // input
  int64_t kh, kw;         // window
  int64_t oh, ow;         // output spatial size
  int64_t sh, sw;         // strides
  int64_t dh, dw;         // dilations
  int64_t padTop, padLeft;
};

// A 4-element NHWC attr (strides, dilations, ksize) as given, or its
// 2-element [h, w] form, or `dflt` when absent.
inline std::vector<int64_t> nhwcAttr(const ir::Attrs &attrs, const char *key, int64_t dflt) {
  const auto *s = ir::attrInts(attrs, key);
  if (!s) return {1, dflt, dflt, 1};
  if (s->size() == 2) return {1, (*s)[0], (*s)[1], 1};
  if (s->size() == 1) return {1, (*s)[0], (*s)[0], 1};
  return *s;
}

// TF's padding rule: SAME pads (out - 1) * stride + window - in in total,
// the smaller half before.
inline WindowGeometry windowGeometry(const std::vector<int64_t> &input, int64_t kh, int64_t kw,
                                     const std::vector<int64_t> &output, const ir::Attrs &attrs) {
  auto st = nhwcAttr(attrs, "strides", 1);
  auto dl = nhwcAttr(attrs, "dilations", 1);
  WindowGeometry g{input[0], input[1], input[2], input[3], kh, kw, output[1], output[2],
                   st[1], st[2], dl[1], dl[2], 0, 0};
  if (ir::attrString(attrs, "padding", "VALID") == "SAME") {
    int64_t effH = (kh - 1) * g.dh + 1, effW = (kw - 1) * g.dw + 1;
    g.padTop = std::max<int64_t>((g.oh - 1) * g.sh + effH - g.h, 0) / 2;
    g.padLeft = std::max<int64_t>((g.ow - 1) * g.sw + effW - g.w, 0) / 2;
  }
  return g;
}

// Calls f(inPixel, outPixel, tap) for every output pixel and window tap
// that reads an in-bounds input pixel; pixels are flat (b, y, x) indices
// (multiply by the channel count for an element offset), tap = di * kw + dj.
template <class F> void forEachWindowTap(const WindowGeometry &g, F f) {
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t i = 0; i < g.oh; ++i)
      for (int64_t j = 0; j < g.ow; ++j) {
        int64_t outPixel = (b * g.oh + i) * g.ow + j;
        for (int64_t di = 0; di < g.kh; ++di) {
          int64_t y = i * g.sh + di * g.dh - g.padTop;
          if (y < 0 || y >= g.h) continue;
          for (int64_t dj = 0; dj < g.kw; ++dj) {
            int64_t x = j * g.sw + dj * g.dw - g.padLeft;
            if (x < 0 || x >= g.w) continue;
            f((b * g.h + y) * g.w + x, outPixel, di * g.kw + dj);
          }
        }
      }
}

}  // namespace tfs::runtime::kernels
