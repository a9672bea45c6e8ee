// Walking a reduction one contiguous run at a time (private to
// runtime/kernels/): the reduction kernels and unbroadcast (a gradient's sum
// over broadcast dims) merge the input's dims into alternating blocks of
// reduced and kept dims and visit the last block, a contiguous run of the
// input, as one unit -- no per-element index arithmetic.
#pragma once

#include <cstdint>
#include <vector>

namespace tfs::runtime::kernels {

// [2, 3, 4] reducing axes 1 and 2 is [2 kept, 12 reduced]; size-1 dims are
// dropped; no dims at all is one reduced block of 1.
struct Blocks {
  std::vector<int64_t> size;
  std::vector<bool> reduced;
};

inline Blocks mergeDims(const std::vector<int64_t> &shape, const std::vector<bool> &reduce) {
  Blocks b;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!b.size.empty() && b.reduced.back() == reduce[d]) {
      b.size.back() *= shape[d];
    } else {
      b.size.push_back(shape[d]);
      b.reduced.push_back(reduce[d]);
    }
  }
  if (b.size.empty()) {
    b.size.push_back(1);
    b.reduced.push_back(true);
  }
  return b;
}

// Calls f(first, slot) for each run in input order: `first` is the run's
// first input element, `slot` the output element its first element reduces
// into (a reduced run reduces into that one slot, a kept run into `run`
// consecutive slots). Elements of one slot are visited in input order.
template <class F> void forEachRun(const Blocks &blocks, F &&f) {
  size_t nb = blocks.size.size();  // >= 1 (mergeDims)
  if (nb == 0) return;
  int64_t run = blocks.size.back();
  // Output strides of the kept blocks (0 for reduced ones).
  std::vector<int64_t> ostride(nb, 0);
  int64_t s = 1;
  for (size_t b = nb; b-- > 0;)
    if (!blocks.reduced[b]) {
      ostride[b] = s;
      s *= blocks.size[b];
    }
  int64_t runs = 1;
  for (size_t b = 0; b + 1 < nb; ++b) runs *= blocks.size[b];
  std::vector<int64_t> idx(nb, 0);
  int64_t slot = 0;
  for (int64_t r = 0; r < runs; ++r) {
    f(r * run, slot);
    // Next run: odometer over the blocks before the last.
    for (size_t b = nb - 1; b-- > 0;) {
      slot += ostride[b];
      if (++idx[b] < blocks.size[b]) break;
      slot -= ostride[b] * blocks.size[b];
      idx[b] = 0;
    }
  }
}

}  // namespace tfs::runtime::kernels
