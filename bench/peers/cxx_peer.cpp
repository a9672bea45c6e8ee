// The hand-written C++ peer of bench/workloads (g++ -O3 -march=native
// -ffast-math -fopenmp-simd: vectorized loops, glibc's libmvec for the
// vector tanh/exp): what a programmer would write by hand for each
// workload, on the same data. Prints "RESULT <workload> <seconds>" (median)
// and "CHECK <workload> <value>" lines like the tfs workloads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <time.h>
#include <vector>

#include <cblas.h>
#include <immintrin.h>
#include <sleef.h>
#include <sys/mman.h>

namespace {

int reps = 7;

// Seconds on the wall clock, or the process's CPU time with BENCH_CLOCK=cpu
// (run.sh: on a machine shared with other jobs).
double now() {
  static const bool cpu = [] {
    const char *c = std::getenv("BENCH_CLOCK");
    return c && std::string(c) == "cpu";
  }();
  if (cpu) {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double medianTime(const std::function<void()> &f) {
  f();
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    f();
    times.push_back(now() - t0);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::vector<float> data(int64_t n, int64_t k) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = float(double((i * k) % 1009) / 1009.0 - 0.5);
  return v;
}

float sigmoidf(float x) { return 1.0f / (1.0f + std::exp(-x)); }

void lstm() {
  const int T = 1000, B = 10, N = 10, U = 10;
  std::vector<float> xs = data(T * B * N, 7), wx = data(N * 4 * U, 13), wh = data(U * 4 * U, 17),
                     b = data(4 * U, 19);
  for (auto &w : wx) w *= 0.5f;
  for (auto &w : wh) w *= 0.5f;
  for (auto &w : b) w *= 0.1f;
  std::vector<float> h(B * U), c(B * U), z(B * 4 * U);
  auto run = [&] {
    std::fill(h.begin(), h.end(), 0.0f);
    std::fill(c.begin(), c.end(), 0.0f);
    for (int t = 0; t < T; ++t) {
      const float *x = &xs[size_t(t) * B * N];
      for (int i = 0; i < B; ++i) {
        float *zr = &z[size_t(i) * 4 * U];
        for (int j = 0; j < 4 * U; ++j) zr[j] = b[j];
        for (int k = 0; k < N; ++k) {
          float xv = x[i * N + k];
          for (int j = 0; j < 4 * U; ++j) zr[j] += xv * wx[k * 4 * U + j];
        }
        for (int k = 0; k < U; ++k) {
          float hv = h[i * U + k];
          for (int j = 0; j < 4 * U; ++j) zr[j] += hv * wh[k * 4 * U + j];
        }
      }
      for (int i = 0; i < B; ++i) {
        const float *zr = &z[size_t(i) * 4 * U];
#pragma omp simd
        for (int j = 0; j < U; ++j) {
          float ig = sigmoidf(zr[j]), fg = sigmoidf(zr[U + j]), gg = std::tanh(zr[2 * U + j]),
                og = sigmoidf(zr[3 * U + j]);
          float cn = fg * c[i * U + j] + ig * gg;
          c[i * U + j] = cn;
          h[i * U + j] = og * std::tanh(cn);
        }
      }
    }
  };
  double t = medianTime(run);
  double sh = 0, sc = 0;
  for (int i = 0; i < B * U; ++i) sh += h[i], sc += c[i];
  std::printf("CHECK lstm %.9g %.9g\nRESULT lstm %.9g\n", sh, sc, t);
}

void tensorOps() {
  const int64_t n = 10000000;
  std::vector<float> a = data(n, 7), b = data(n, 13), c = data(n, 17), out(n);
  double t = medianTime([&] {
    const float *pa = a.data(), *pb = b.data(), *pc = c.data();
    float *po = out.data();
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) po[i] = std::max(pa[i] * pb[i] + pc[i], 0.0f) * 0.5f - std::tanh(pa[i]);
  });
  double s = 0;
  for (float v : out) s += v;
  std::printf("CHECK chain %.9g\nRESULT chain %.9g\n", s, t);
  // The chain's two floors on this machine. tanh alone through SLEEF's
  // deterministic u35 vector tanh (what tfs called until it computed TF's
  // own rational tanh, runtime/kernels/tf_float_math.h) ...
  t = medianTime([&] {
    const float *pa = a.data();
    float *po = out.data();
    // n is a multiple of 16: no partial vector.
#if defined(__AVX512F__)
    for (int64_t i = 0; i < n; i += 16) _mm512_storeu_ps(po + i, Sleef_finz_tanhf16_u35avx512f(_mm512_loadu_ps(pa + i)));
#elif defined(__AVX2__) && defined(__FMA__)
    for (int64_t i = 0; i < n; i += 8) _mm256_storeu_ps(po + i, Sleef_finz_tanhf8_u35avx2(_mm256_loadu_ps(pa + i)));
#else
    for (int64_t i = 0; i < n; ++i) po[i] = Sleef_tanhf_u35(pa[i]);
#endif
  });
  s = 0;
  for (float v : out) s += v;
  std::printf("CHECK tanh %.9g\nRESULT tanh %.9g\n", s, t);
  // ... and its memory traffic: a*b+c (3 reads, 1 write) written with
  // streaming stores (no read of the output's lines), on 2 MiB-aligned
  // buffers in huge pages as tfs's allocator gives them: the machine's best
  // for this access pattern, a STREAM triad.
  auto hugeCopy = [&](const std::vector<float> &v) {
    size_t bytes = (v.size() * sizeof(float) + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
    auto *p = static_cast<float *>(std::aligned_alloc(2u << 20, bytes));
    madvise(p, bytes, MADV_HUGEPAGE);
    std::copy(v.begin(), v.end(), p);
    return p;
  };
  float *ha = hugeCopy(a), *hb = hugeCopy(b), *hc = hugeCopy(c), *ho = hugeCopy(out);
  t = medianTime([&] {
    // n is a multiple of 16.
#if defined(__AVX512F__)
    for (int64_t i = 0; i < n; i += 16)
      _mm512_stream_ps(ho + i, _mm512_fmadd_ps(_mm512_load_ps(ha + i), _mm512_load_ps(hb + i), _mm512_load_ps(hc + i)));
    _mm_sfence();
#else
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) ho[i] = ha[i] * hb[i] + hc[i];
#endif
  });
  s = 0;
  for (int64_t i = 0; i < n; ++i) s += ho[i];
  for (float *p : {ha, hb, hc, ho}) std::free(p);
  std::printf("CHECK stream %.9g\nRESULT stream %.9g\n", s, t);
  float sum = 0;
  t = medianTime([&] {
    float acc = 0;
    const float *pa = a.data();
#pragma omp simd reduction(+ : acc)
    for (int64_t i = 0; i < n; ++i) acc += pa[i];
    sum = acc;
  });
  std::printf("CHECK reduce_sum %.9g\nRESULT reduce_sum %.9g\n", sum, t);
  const int m = 1024;
  std::vector<float> m1 = data(int64_t(m) * m, 7), m2 = data(int64_t(m) * m, 11), m3(size_t(m) * m);
  t = medianTime([&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, m1.data(), m, m2.data(), m,
                0.0f, m3.data(), m);
  });
  s = 0;
  for (float v : m3) s += v;
  std::printf("CHECK matmul %.9g\nRESULT matmul %.9g\n", s, t);
}

void loops() {
  const int64_t n = 1000000;
  std::vector<int64_t> xs(n);
  for (int64_t i = 0; i < n; ++i) xs[i] = i * 7 % 1009;
  int64_t s = 0;
  double t = medianTime([&] {
    int64_t acc = 0;
    for (int64_t i = 0; i < n; ++i)
      if (xs[i] % 2 == 0) acc += xs[i];
    s = acc;
  });
  std::printf("CHECK sum_even %lld\nRESULT sum_even %.9g\n", (long long)s, t);
  const int64_t iters = 10000000;
  volatile int64_t limit = iters;  // not a compile-time constant, as in tfs
  float x = 0;
  t = medianTime([&] {
    float acc = 0;
    for (int64_t i = 0; i < limit; ++i) acc = acc + 1.0f;
    x = acc;
  });
  std::printf("CHECK range_loop %.9g\nRESULT range_loop %.9g\n", x, t / iters);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1) reps = std::atoi(argv[1]);
  lstm();
  tensorOps();
  loops();
  return 0;
}
