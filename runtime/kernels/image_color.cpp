// Kernels of TF's image colour ops, computed as TF's CPU kernels compute
// them (same formulas, same float32 operation order, so printed values
// match): AdjustContrastv2 (per-channel mean over height and width),
// AdjustSaturation and AdjustHue (per pixel, through TF's own HSV helpers),
// RGBToHSV and HSVToRGB (the colorspace kernels, float32 or float64).
// float16 inputs arrive as float32 (runKernel widens half types).
#include "runtime/kernels/kernel_util.h"

#include <algorithm>
#include <cmath>

namespace tfs::runtime::kernels {

namespace {

using Kernels = std::span<const Tensor>;

// Images [..., height, width, channels]: each leading index is one image.
std::vector<Tensor> adjustContrast(Kernels in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AdjustContrastv2, in, attrs);
  const auto &s = in[0].shape();
  size_t r = s.size();
  int64_t h = s[r - 3], w = s[r - 2], c = s[r - 1];
  int64_t images = h * w * c == 0 ? 0 : in[0].numElements() / (h * w * c);
  const float *x = in[0].data<float>();
  float *y = out[0].data<float>();
  float factor = in[1].data<float>()[0];
  float count = float(h * w);
  std::vector<float> mean(size_t(std::max<int64_t>(c, 0)));
  for (int64_t b = 0; b < images; ++b) {
    const float *p = x + b * h * w * c;
    float *q = y + b * h * w * c;
    std::fill(mean.begin(), mean.end(), 0.0f);
    for (int64_t i = 0; i < h * w; ++i)
      for (int64_t k = 0; k < c; ++k) mean[size_t(k)] += p[i * c + k];
    for (float &m : mean) m /= count;
    for (int64_t i = 0; i < h * w; ++i)
      for (int64_t k = 0; k < c; ++k) {
        float m = mean[size_t(k)];
        q[i * c + k] = m + (p[i * c + k] - m) * factor;
      }
  }
  return out;
}

// TF's rgb_to_hsv / hsv_to_rgb helpers of its AdjustSaturation kernel.
void rgbToHsvPixel(float r, float g, float b, float &h, float &s, float &v) {
  float vv = std::max(r, std::max(g, b));
  float range = vv - std::min(r, std::min(g, b));
  s = vv > 0 ? range / vv : 0;
  float norm = 1.0f / (6.0f * range);
  float hh;
  if (r == vv) hh = norm * (g - b);
  else if (g == vv) hh = float(norm * (b - r) + 2.0 / 6.0);
  else hh = float(norm * (r - g) + 4.0 / 6.0);
  if (range <= 0.0) hh = 0;
  if (hh < 0.0) hh = hh + 1;
  v = vv;
  h = hh;
}

void hsvToRgbPixel(float h, float s, float v, float *rgb) {
  float c = s * v, m = v - c, dh = h * 6;
  int category = int(dh);
  float fmodu = dh;
  while (fmodu <= 0) fmodu += 2.0f;
  while (fmodu >= 2.0f) fmodu -= 2.0f;
  float x = c * (1 - std::abs(fmodu - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (category) {
  case 0: rr = c, gg = x; break;
  case 1: rr = x, gg = c; break;
  case 2: gg = c, bb = x; break;
  case 3: gg = x, bb = c; break;
  case 4: rr = x, bb = c; break;
  case 5: rr = c, bb = x; break;
  default: break;
  }
  rgb[0] = rr + m, rgb[1] = gg + m, rgb[2] = bb + m;
}

std::vector<Tensor> adjustSaturation(Kernels in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AdjustSaturation, in, attrs);
  const float *p = in[0].data<float>();
  float *q = out[0].data<float>();
  float scale = in[1].data<float>()[0];
  for (int64_t i = 0; i + 2 < in[0].numElements(); i += 3) {
    float h, s, v;
    rgbToHsvPixel(p[i], p[i + 1], p[i + 2], h, s, v);
    s = std::min(1.0f, std::max(0.0f, s * scale));
    hsvToRgbPixel(h, s, v, q + i);
  }
  return out;
}

// TF's AdjustHue: hue in [0, 6) with the value range kept.
void rgbToHueRange(float r, float g, float b, float &h, float &vmin, float &vmax) {
  float vmid;
  int category;
  if (r < g) {
    if (b < r) vmax = g, vmid = r, vmin = b, category = 1;
    else if (b > g) vmax = b, vmid = g, vmin = r, category = 3;
    else vmax = g, vmid = b, vmin = r, category = 2;
  } else {
    if (b < g) vmax = r, vmid = g, vmin = b, category = 0;
    else if (b > r) vmax = b, vmid = r, vmin = g, category = 4;
    else vmax = r, vmid = b, vmin = g, category = 5;
  }
  if (vmax == vmin) {
    h = 0;
    return;
  }
  float ratio = (vmid - vmin) / (vmax - vmin);
  h = float(category) + ((category & 1) == 0 ? ratio : 1 - ratio);
}

void hueRangeToRgb(float h, float vmin, float vmax, float *rgb) {
  int category = int(h);
  float ratio = h - float(category);
  if ((category & 1) != 0) ratio = 1 - ratio;
  float vmid = vmin + ratio * (vmax - vmin);
  float r, g, b;
  switch (category) {
  case 0: r = vmax, g = vmid, b = vmin; break;
  case 1: r = vmid, g = vmax, b = vmin; break;
  case 2: r = vmin, g = vmax, b = vmid; break;
  case 3: r = vmin, g = vmid, b = vmax; break;
  case 4: r = vmid, g = vmin, b = vmax; break;
  default: r = vmax, g = vmin, b = vmid; break;
  }
  rgb[0] = r, rgb[1] = g, rgb[2] = b;
}

std::vector<Tensor> adjustHue(Kernels in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::AdjustHue, in, attrs);
  const float *p = in[0].data<float>();
  float *q = out[0].data<float>();
  float delta = in[1].data<float>()[0];
  for (int64_t i = 0; i + 2 < in[0].numElements(); i += 3) {
    float h, vmin, vmax;
    rgbToHueRange(p[i], p[i + 1], p[i + 2], h, vmin, vmax);
    h += delta * 6;
    // A bounded loop: a non-finite hue would never come back into [0, 6).
    if (!std::isfinite(h)) h = 0;
    while (h < 0) h += 6;
    while (h >= 6) h -= 6;
    hueRangeToRgb(h, vmin, vmax, q + i);
  }
  return out;
}

// TF's colorspace kernels (Eigen expressions over [pixels, 3]).
template <class T> void rgbToHsv(const T *p, T *q, int64_t pixels) {
  for (int64_t i = 0; i < pixels; ++i, p += 3, q += 3) {
    T r = p[0], g = p[1], b = p[2];
    T v = std::max(r, std::max(g, b));
    T range = v - std::min(r, std::min(g, b));
    T s = v > T(0) ? range / v : T(0);
    T norm = (T(1) / range) * (T(1) / T(6));
    T h = r == v ? norm * (g - b) : g == v ? norm * (b - r) + T(2) / T(6) : norm * (r - g) + T(4) / T(6);
    if (!(range > T(0))) h = 0;
    if (h < T(0)) h = h + T(1);
    q[0] = h, q[1] = s, q[2] = v;
  }
}

template <class T> void hsvToRgb(const T *p, T *q, int64_t pixels) {
  auto clamp01 = [](T x) { return std::min(std::max(x, T(0)), T(1)); };
  for (int64_t i = 0; i < pixels; ++i, p += 3, q += 3) {
    T h = p[0], s = p[1], v = p[2];
    T dh = h * T(6);
    T dr = clamp01(std::abs(dh - T(3)) - T(1));
    T dg = clamp01(-std::abs(dh - T(2)) + T(2));
    T db = clamp01(-std::abs(dh - T(4)) + T(2));
    T ones = -s + T(1);
    q[0] = (ones + s * dr) * v;
    q[1] = (ones + s * dg) * v;
    q[2] = (ones + s * db) * v;
  }
}

template <OpKind K> std::vector<Tensor> colorspace(Kernels in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(K, in, attrs);
  int64_t pixels = in[0].numElements() / 3;
  auto run = [&]<class T>() {
    if constexpr (K == OpKind::RgbToHsv) rgbToHsv<T>(in[0].data<T>(), out[0].data<T>(), pixels);
    else hsvToRgb<T>(in[0].data<T>(), out[0].data<T>(), pixels);
  };
  if (in[0].dtype() == DType::Float64) run.template operator()<double>();
  else run.template operator()<float>();
  return out;
}

// TF's gradient of RGBToHSV (its _RGBToHSVGrad): value follows the largest
// channel, saturation and hue their piecewise partials, with TF's ties
// (red wins over green over blue for the largest, the reverse for the
// smallest) and 1/0 read as 0. Each product is formed in TF's order.
float reciprocal0(float x) { return x == 0 ? 0.0f : 1.0f / x; }

void rgbToHsvGradPixel(const float *dy, const float *rgb, const float *hsv, float *dx) {
  float r = rgb[0], g = rgb[1], b = rgb[2], s = hsv[1], v = hsv[2];
  float rBig = r >= b && r >= g, gBig = g > r && g >= b, bBig = b > r && b > g;
  float rSmall = r < b && r < g, gSmall = g <= r && g < b, bSmall = b <= r && b <= g;
  float rPos = r > 0, gPos = g > 0, bPos = b > 0;
  float ss = reciprocal0(s * s), vv = reciprocal0(v * v);
  float dsdr = rPos * (rBig * (gSmall * g + bSmall * b) * reciprocal0(r * r) +
                       rSmall * -1 * reciprocal0(gBig * g + bBig * b));
  float dsdg = gPos * (gBig * (rSmall * r + bSmall * b) * reciprocal0(g * g) +
                       gSmall * -1 * reciprocal0(rBig * r + bBig * b));
  float dsdb = bPos * (bBig * (gSmall * g + rSmall * r) * reciprocal0(b * b) +
                       bSmall * -1 * reciprocal0(gBig * g + rBig * r));
  auto sq = [](float x) { return x * x; };
  float dhdr = 60 * (rPos * rBig * -1 * (g - b) * ss * vv) + 60 * (gPos * gBig * rSmall * (b - g) * reciprocal0(sq(r - g))) +
               60 * (gPos * gBig * bSmall * -1 * reciprocal0(g - b)) +
               60 * (bPos * bBig * rSmall * (b - g) * reciprocal0(sq(b - r))) +
               60 * (bPos * bBig * gSmall * reciprocal0(b - g));
  float dhdg = 60 * (gPos * gBig * -1 * (b - r) * ss * vv) + 60 * (rPos * rBig * gSmall * (r - b) * reciprocal0(sq(r - g))) +
               60 * (rPos * rBig * bSmall * reciprocal0(r - b)) +
               60 * (bPos * bBig * gSmall * (r - b) * reciprocal0(sq(b - g))) +
               60 * (bPos * bBig * rSmall * -1 * reciprocal0(b - r));
  float dhdb = 60 * (bPos * bBig * -1 * (r - g) * ss * vv) + 60 * (rPos * rBig * bSmall * (g - r) * reciprocal0(sq(r - b))) +
               60 * (rPos * rBig * gSmall * -1 * reciprocal0(r - g)) +
               60 * (gPos * gBig * bSmall * (g - r) * reciprocal0(sq(g - b))) +
               60 * (gPos * gBig * rSmall * reciprocal0(g - r));
  dhdr /= 360, dhdg /= 360, dhdb /= 360;
  dx[0] = dy[2] * rBig + dy[1] * dsdr + dy[0] * dhdr;
  dx[1] = dy[2] * gBig + dy[1] * dsdg + dy[0] * dhdg;
  dx[2] = dy[2] * bBig + dy[1] * dsdb + dy[0] * dhdb;
}

std::vector<Tensor> rgbToHsvGrad(Kernels in, const ir::Attrs &attrs) {
  std::vector<Tensor> out = allocateOutputs(OpKind::RgbToHsvGrad, in, attrs);
  if (in[0].dtype() != DType::Float32)
    fail(OpKind::RgbToHsvGrad, "the gradient of RGBToHSV is computed in float32, as TF's is", "UnimplementedError");
  const float *dy = in[0].data<float>(), *rgb = in[1].data<float>(), *hsv = in[2].data<float>();
  float *dx = out[0].data<float>();
  for (int64_t i = 0; i + 2 < in[1].numElements(); i += 3) rgbToHsvGradPixel(dy + i, rgb + i, hsv + i, dx + i);
  return out;
}

}  // namespace

void registerImageColor(KernelTable &t) {
  t[size_t(OpKind::AdjustContrastv2)] = adjustContrast;
  t[size_t(OpKind::AdjustSaturation)] = adjustSaturation;
  t[size_t(OpKind::AdjustHue)] = adjustHue;
  t[size_t(OpKind::RgbToHsv)] = colorspace<OpKind::RgbToHsv>;
  t[size_t(OpKind::HsvToRgb)] = colorspace<OpKind::HsvToRgb>;
  t[size_t(OpKind::RgbToHsvGrad)] = rgbToHsvGrad;
}

}  // namespace tfs::runtime::kernels
