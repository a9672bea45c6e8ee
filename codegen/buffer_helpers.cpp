// C-ABI helpers for buffers in compiled code (buffers.h, Note [Tensor
// values in compiled code]): the data pointer of a slot's tensor, tensors
// native code allocates in a slot, copies of arena / view buffers into
// slots for kernels, the heap arena, and matmul. Errors are stored in the
// Frame (status 1 or a null pointer), never thrown into compiled code.
#include "codegen/runtime_helpers.h"

#include "codegen/plan.h"
#include "runtime/kernels/gemm.h"
#include "runtime/tensor/allocator.h"

#include <fmt/format.h>

namespace tfs::codegen {

Frame::~Frame() {
  if (heapArena)
    runtime::releaseBuffer(heapArena, heapArenaBytes);
}

namespace {

using runtime::Tensor;

void fail(Frame &f, int32_t nodeId, std::string cls, std::string message) {
  const ir::Node *node = nodeId >= 0 ? f.plan->nodes[nodeId].node : nullptr;
  f.error = runtime::GraphRunError{std::move(cls), std::move(message),
                                   node ? node->loc : ir::Location{}, {}};
}

// Runs `body`; an exception becomes the frame's error. Result: true if ok.
template <class F> bool guardedCall(Frame &f, int32_t nodeId, F &&body) {
  try {
    body();
    return true;
  } catch (const ir::OpError &e) {
    fail(f, nodeId, e.errorClass, e.message);
  } catch (...) {
    f.foreign = std::current_exception();
  }
  return false;
}

size_t elementSize(int32_t dtype) { return ir::dtypeSize(ir::DType(dtype)); }

}  // namespace

}  // namespace tfs::codegen

using tfs::codegen::Frame;
using tfs::runtime::Tensor;

extern "C" {

// The elements of the tensor in `slot`, which must hold `count` of them
// (its static type); null after storing an error.
void *tfs_cg_data(Frame *f, int32_t slot, int64_t count, int32_t nodeId) {
  const Tensor &t = f->slots[slot];
  if (!t.valid() || t.numElements() != count || t.dtype() == tfs::ir::DType::String) {
    tfs::codegen::fail(*f, nodeId, "InternalError",
                       fmt::format("compiled code expected a tensor of {} elements, got {}", count,
                                   t.valid() ? t.type().str() : "no value"));
    return nullptr;
  }
  return t.rawData();
}

// A new tensor of `dtype` and shape `dims` in `slot`; its elements (null
// after storing an error, e.g. past the memory limit).
void *tfs_cg_alloc(Frame *f, int32_t slot, int32_t dtype, int32_t rank, const int64_t *dims,
                   int32_t nodeId) {
  void *data = nullptr;
  tfs::codegen::guardedCall(*f, nodeId, [&] {
    f->slots[slot] = Tensor::empty(tfs::ir::DType(dtype), std::vector<int64_t>(dims, dims + rank));
    data = f->slots[slot].rawData();
  });
  return data;
}

// A contiguous copy in `slot` of the `rank`-dimensional buffer at `data`
// with element `strides` (0 ok, 1 error stored).
int32_t tfs_cg_box_buffer(Frame *f, int32_t slot, int32_t dtype, int32_t rank, const int64_t *dims,
                          const int64_t *strides, const char *data, int32_t nodeId) {
  bool ok = tfs::codegen::guardedCall(*f, nodeId, [&] {
    Tensor t = Tensor::empty(tfs::ir::DType(dtype), std::vector<int64_t>(dims, dims + rank));
    size_t size = tfs::codegen::elementSize(dtype);
    char *out = static_cast<char *>(t.rawData());
    int64_t n = t.numElements();
    // Row-major strides: one copy (the common case: an arena buffer handed
    // to a kernel or returned).
    bool rowMajor = true;
    for (int64_t d = rank - 1, expect = 1; d >= 0; --d) {
      if (dims[d] != 1 && strides[d] != expect) rowMajor = false;
      expect *= dims[d];
    }
    if (rowMajor) {
      if (n > 0) std::memcpy(out, data, size_t(n) * size);
      f->slots[slot] = std::move(t);
      return;
    }
    std::vector<int64_t> index(size_t(rank), 0);
    int64_t offset = 0;
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(out + i * int64_t(size), data + offset * int64_t(size), size);
      for (int32_t d = rank; d-- > 0;) {
        offset += strides[d];
        if (++index[size_t(d)] < dims[d])
          break;
        offset -= strides[d] * dims[d];
        index[size_t(d)] = 0;
      }
    }
    f->slots[slot] = std::move(t);
  });
  return ok ? 0 : 1;
}

// An index out of range in a native view (x[i] or gather with a scalar
// index): the error of the node's kernel (status 1).
int32_t tfs_cg_index_error(Frame *f, int32_t nodeId, int64_t index, int64_t bound) {
  const tfs::ir::Node *node = f->plan->nodes[nodeId].node;
  if (node->kind() == tfs::ir::OpKind::Gather)
    tfs::codegen::fail(*f, nodeId, "InvalidArgumentError",
                       fmt::format("indices = {} is not in [0, {}) [Op:GatherV2]", index, bound));
  else
    tfs::codegen::fail(*f, nodeId, "InvalidArgumentError",
                       fmt::format("slice index {} of dimension 0 out of bounds.", index));
  return 1;
}

// The arena of a call too large for the stack (released with the frame).
void *tfs_cg_arena(Frame *f, int64_t bytes) {
  void *data = nullptr;
  tfs::codegen::guardedCall(*f, -1, [&] {
    data = tfs::runtime::allocateBuffer(size_t(bytes));
    f->heapArena = data;
    f->heapArenaBytes = size_t(bytes);
  });
  return data;
}

// c = op(a) @ op(b) through the kernels' GEMM (runtime/kernels/gemm.h), so
// results equal the eager matmul's bit for bit.
void tfs_cg_matmul_f32(int32_t ta, int32_t tb, int64_t m, int64_t n, int64_t k, const float *a,
                       int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc) {
  tfs::runtime::kernels::gemm(ta != 0, tb != 0, m, n, k, a, lda, b, ldb, c, ldc);
}
void tfs_cg_matmul_f64(int32_t ta, int32_t tb, int64_t m, int64_t n, int64_t k, const double *a,
                       int64_t lda, const double *b, int64_t ldb, double *c, int64_t ldc) {
  tfs::runtime::kernels::gemm(ta != 0, tb != 0, m, n, k, a, lda, b, ldb, c, ldc);
}

}  // extern "C"

namespace tfs::codegen {

const std::vector<HelperSymbol> &bufferHelperSymbols() {
#define TFS_HELPER(name) HelperSymbol{#name, reinterpret_cast<void *>(&name)}
  static const std::vector<HelperSymbol> table = {
      TFS_HELPER(tfs_cg_data),       TFS_HELPER(tfs_cg_alloc),      TFS_HELPER(tfs_cg_box_buffer),
      TFS_HELPER(tfs_cg_arena),      TFS_HELPER(tfs_cg_matmul_f32), TFS_HELPER(tfs_cg_matmul_f64),
      TFS_HELPER(tfs_cg_index_error),
  };
#undef TFS_HELPER
  return table;
}

}  // namespace tfs::codegen
