// The kernels' GEMM (runtime/kernels/gemm.h): every element of a small
// product is the exact fused multiply-add chain over k in order from 0,
// whatever the transposes, the column blocking (64-byte blocks, narrower
// ones, single columns) or the host's vector unit; larger products (oneDNN
// for float32, OpenBLAS for float64) agree on integer-valued data, and
// oneDNN's float32 product is within float32 rounding of the float64 one
// for every transpose, leading dimension and beta.
#include "runtime/kernels/gemm.h"

#include <cmath>
#include <doctest/doctest.h>
#include <vector>

namespace {

template <class T>
std::vector<T> reference(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const std::vector<T> &a,
                         int64_t lda, const std::vector<T> &b, int64_t ldb) {
  std::vector<T> c(size_t(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      T acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc = std::fma(ta ? a[size_t(p * lda + i)] : a[size_t(i * lda + p)],
                       tb ? b[size_t(j * ldb + p)] : b[size_t(p * ldb + j)], acc);
      c[size_t(i * n + j)] = acc;
    }
  return c;
}

// Values whose products and sums round (not integers): the chain's order shows.
template <class T> std::vector<T> values(size_t count, int seed) {
  std::vector<T> v(count);
  for (size_t i = 0; i < count; ++i)
    v[i] = T(double((i * 7919 + size_t(seed) * 104729) % 1009) / 1009.0 - 0.5) * T(1.37);
  return v;
}

template <class T> void checkSmall() {
  for (int64_t m : {1, 3, 10})
    for (int64_t n : {1, 3, 4, 7, 8, 12, 16, 17, 24, 31, 40, 45})
      for (int64_t k : {1, 5, 10, 33})
        for (bool ta : {false, true})
          for (bool tb : {false, true}) {
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(ta);
            CAPTURE(tb);
            int64_t lda = (ta ? m : k) + 2, ldb = (tb ? k : n) + 1;  // padded rows
            std::vector<T> a = values<T>(size_t((ta ? k : m) * lda), 1);
            std::vector<T> b = values<T>(size_t((tb ? n : k) * ldb), 2);
            std::vector<T> c(size_t(m * n), T(99));
            tfs::runtime::kernels::gemm(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, c.data(), n);
            CHECK(c == reference(ta, tb, m, n, k, a, lda, b, ldb));
          }
}

}  // namespace

TEST_CASE("small GEMM: in-order FMA chains for every shape and transpose") {
  checkSmall<float>();
  checkSmall<double>();
}

TEST_CASE("large GEMM (oneDNN or OpenBLAS) on integer-valued data") {
  int64_t m = 40, n = 50, k = 30;  // m * n * k > kSmallGemm
  REQUIRE(m * n * k > tfs::runtime::kernels::kSmallGemm);
  std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n));
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 5) - 2);
  tfs::runtime::kernels::gemm(false, false, m, n, k, a.data(), k, b.data(), n, c.data(), n);
  std::vector<float> a2(a.begin(), a.end()), b2(b.begin(), b.end());
  CHECK(c == reference(false, false, m, n, k, a2, k, b2, n));
  std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end()), cd(size_t(m * n));
  tfs::runtime::kernels::gemm(false, false, m, n, k, ad.data(), k, bd.data(), n, cd.data(), n);
  CHECK(cd == reference(false, false, m, n, k, ad, k, bd, n));
}

TEST_CASE("oneDNN float32 GEMM: within float32 rounding of float64 for every edge, transpose and beta") {
  for (int64_t m : {1, 7, 17, 64})
    for (int64_t n : {1, 15, 33, 300})
      for (int64_t k : {1, 9, 257, 600})
        for (bool ta : {false, true})
          for (bool tb : {false, true})
            for (float beta : {0.0f, 1.0f, 0.5f}) {
              CAPTURE(m);
              CAPTURE(n);
              CAPTURE(k);
              CAPTURE(ta);
              CAPTURE(tb);
              CAPTURE(beta);
              int64_t lda = (ta ? m : k) + 3, ldb = (tb ? k : n) + 1, ldc = n + 2;  // padded rows
              std::vector<float> a = values<float>(size_t((ta ? k : m) * lda), 3);
              std::vector<float> b = values<float>(size_t((tb ? n : k) * ldb), 4);
              std::vector<float> c = values<float>(size_t(m * ldc), 5);
              std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
              std::vector<double> want = reference(ta, tb, m, n, k, ad, lda, bd, ldb);
              std::vector<float> c0 = c;
              tfs::runtime::kernels::sgemmRowMajor(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, beta, c.data(),
                                                   ldc);
              // Each element: |error| <= k * eps * sum |a_ip * b_pj| (a dot product's rounding bound),
              // taken here with the sum of magnitudes bounded by k * max|a| * max|b| (0.685^2).
              double bound = double(k + 2) * 1.2e-7 * (double(k) * 0.47 + 1.0);
              for (int64_t i = 0; i < m; ++i)
                for (int64_t j = 0; j < n; ++j) {
                  double expect = want[size_t(i * n + j)] + double(beta) * double(c0[size_t(i * ldc + j)]);
                  CHECK(std::abs(double(c[size_t(i * ldc + j)]) - expect) <= bound);
                }
              for (int64_t i = 0; i < m; ++i)  // the padding past n is left alone
                for (int64_t j = n; j < ldc; ++j) CHECK(c[size_t(i * ldc + j)] == c0[size_t(i * ldc + j)]);
            }
}
