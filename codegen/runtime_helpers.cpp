// C-ABI helpers called from compiled code: the kernel trampoline (any
// non-native node, run exactly as the graph interpreter runs it), boxing and
// unboxing of native scalars, slot copies, predicate truth and the integer
// division-by-zero error. Errors are stored in the Frame and reported by a
// non-zero status; the caller (codegen.cpp) rethrows them in C++.
#include "codegen/runtime_helpers.h"

#include "codegen/codegen.h"
#include "codegen/plan.h"
#include "runtime/graph/profile.h"
#include "runtime/graph/variable_update.h"
#include "runtime/kernels/kernels.h"

#include <fmt/format.h>

namespace tfs::codegen {
namespace {

using ir::OpKind;
using runtime::GraphRunError;
using runtime::Tensor;

const ir::Capture &variableOf(const ir::Function &fn, const ir::Node &node) {
  std::string name = ir::attrVar(node);
  int i = fn.findCapture(name);
  if (i < 0)
    throw ir::OpError{"InternalError", fmt::format("{} names unknown variable '{}'",
                                                   node.name(), name)};
  return fn.captures()[i];
}

void bindResults(Frame &f, const NodeInfo &info, std::vector<Tensor> values) {
  if (values.size() < info.resultSlots.size())
    throw ir::OpError{"InternalError",
                      fmt::format("{} produced {} values for {} results",
                                  info.node->name(), values.size(),
                                  info.resultSlots.size())};
  for (size_t i = 0; i < info.resultSlots.size(); ++i)
    f.slots[info.resultSlots[i]] = std::move(values[i]);
}

// `taken`: a bit per operand whose slot the node takes over (its value dies
// there, the code never reads the slot again): moved, so the kernel may hold
// the only reference and update it in place (tensor_array_write).
std::vector<Tensor> operandValues(Frame &f, const NodeInfo &info, uint32_t taken = 0) {
  std::vector<Tensor> xs;
  xs.reserve(info.operandSlots.size());
  for (size_t i = 0; i < info.operandSlots.size(); ++i) {
    Tensor &slot = f.slots[info.operandSlots[i]];
    if (i < 32 && (taken >> i & 1u))
      xs.push_back(std::move(slot));
    else
      xs.push_back(slot);
  }
  return xs;
}

// One node, with the graph interpreter's semantics (interpreter.cpp).
void executeNode(Frame &f, const NodeInfo &info, uint32_t taken) {
  const ir::Node &node = *info.node;
  const ir::Function &fn = *f.plan->fn;
  runtime::RunContext &ctx = *f.ctx;
  switch (node.kind()) {
  case OpKind::Const:
    f.slots[info.resultSlots[0]] = ctx.constTensor(node.constValue);
    return;
  case OpKind::Call: {
    const ir::Module *m = fn.module();
    const ir::Function *callee = m ? m->lookup(node.callee) : nullptr;
    if (!callee)
      throw ir::OpError{"InternalError",
                        fmt::format("call of unknown function @{}", node.callee)};
    auto args = operandValues(f, info);
    bindResults(f, info, runCompiled(*callee, args, ctx));
    return;
  }
  case OpKind::ReadVariable:
    f.slots[info.resultSlots[0]] = ctx.readVariable(fn, variableOf(fn, node));
    return;
  case OpKind::AssignVariable:
  case OpKind::AssignAddVariable:
  case OpKind::AssignSubVariable: {
    const ir::Capture &var = variableOf(fn, node);
    Tensor value = f.slots[info.operandSlots[0]];
    if (node.kind() != OpKind::AssignVariable)
      value = runtime::updatedVariable(ctx, fn, var, node.kind(), value);
    ctx.assignVariable(fn, var, value);
    if (!info.resultSlots.empty())
      f.slots[info.resultSlots[0]] = value;
    return;
  }
  case OpKind::Print:
    ctx.print(node, operandValues(f, info));
    return;
  case OpKind::WriteSummary:
    ctx.writeSummary(node, operandValues(f, info));
    return;
  case OpKind::Placeholder:
    f.slots[info.resultSlots[0]] = ctx.feedPlaceholder(node);
    return;
  case OpKind::RandomNormal:
  case OpKind::RandomUniform:
  case OpKind::RandomTruncatedNormal:
  case OpKind::RandomShuffle:
  case OpKind::Multinomial:
  case OpKind::RandomGamma:
  case OpKind::RandomPoisson:
    bindResults(f, info, ctx.runRandom(node, operandValues(f, info)));
    return;
  case OpKind::Cond:
  case OpKind::WhileLoop:
  case OpKind::Yield:
  case OpKind::Return:
    throw ir::OpError{"InternalError",
                      fmt::format("{} reached the kernel trampoline", node.name())};
  default: {
    auto xs = operandValues(f, info, taken);
    if ((taken & 1u) && runtime::mayReuseFirstOperand(node.kind())) {
      ir::Attrs attrs = node.attrs;
      attrs[runtime::kReuseFirstOperand] = true;
      bindResults(f, info, runtime::runKernel(node.kind(), xs, attrs));
      return;
    }
    bindResults(f, info, runtime::runKernel(node.kind(), xs, node.attrs));
    return;
  }
  }
}

// Runs `body`, turning any exception into the frame's pending error.
template <class F> int32_t guarded(Frame &f, const ir::Node *node, F &&body) {
  try {
    body();
    return 0;
  } catch (const ir::OpError &e) {
    f.error = GraphRunError{e.errorClass, e.message, node ? node->loc : ir::Location{}, {}};
  } catch (GraphRunError &e) {
    if (node && node->kind() == OpKind::Call)
      e.callSites.push_back(node->loc);
    else if (node && !e.loc.known())
      e.loc = node->loc;
    f.error = std::move(e);
  } catch (...) {
    f.foreign = std::current_exception();
  }
  return 1;
}

const ir::Node *nodeOrNull(Frame &f, int32_t id) {
  return id >= 0 ? f.plan->nodes[id].node : nullptr;
}

template <class T> T scalarOf(const Tensor &t);
template <> float scalarOf(const Tensor &t) { return t.data<float>()[0]; }
template <> double scalarOf(const Tensor &t) { return t.data<double>()[0]; }
template <> int32_t scalarOf(const Tensor &t) { return t.data<int32_t>()[0]; }
template <> int64_t scalarOf(const Tensor &t) { return t.data<int64_t>()[0]; }
template <> uint8_t scalarOf(const Tensor &t) { return t.data<bool>()[0] ? 1 : 0; }

template <class T> ir::DType dtypeOf() {
  if constexpr (std::is_same_v<T, float>) return ir::DType::Float32;
  else if constexpr (std::is_same_v<T, double>) return ir::DType::Float64;
  else if constexpr (std::is_same_v<T, int32_t>) return ir::DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>) return ir::DType::Int64;
  else return ir::DType::Bool;
}

template <class T> int32_t unbox(Frame *f, int32_t slot, int32_t nodeId, T *out) {
  return guarded(*f, nodeOrNull(*f, nodeId), [&] {
    const Tensor &t = f->slots[slot];
    if (!t.valid() || t.dtype() != dtypeOf<T>() || t.numElements() != 1)
      throw ir::OpError{"InvalidArgumentError",
                        fmt::format("expected a {} scalar, got {}",
                                    ir::dtypeName(dtypeOf<T>()),
                                    t.valid() ? t.type().str() : "no value")};
    *out = scalarOf<T>(t);
  });
}

}  // namespace
}  // namespace tfs::codegen

using tfs::codegen::Frame;
using tfs::runtime::Tensor;

extern "C" {

int32_t tfs_cg_node_taking(Frame *f, int32_t nodeId, int32_t taken) {
  const auto &info = f->plan->nodes[nodeId];
  tfs::runtime::Profiler *profiler = f->ctx->profiler;
  if (profiler && profiler->timingOps() && info.node->kind() != tfs::ir::OpKind::Call) {
    int64_t start = tfs::runtime::Profiler::nowNs();
    int32_t status = tfs::codegen::guarded(*f, info.node,
                                           [&] { tfs::codegen::executeNode(*f, info, uint32_t(taken)); });
    profiler->recordNode(*f->plan->fn, *info.node, start, tfs::runtime::Profiler::nowNs() - start);
    return status;
  }
  return tfs::codegen::guarded(*f, info.node,
                               [&] { tfs::codegen::executeNode(*f, info, uint32_t(taken)); });
}

int32_t tfs_cg_node(Frame *f, int32_t nodeId) { return tfs_cg_node_taking(f, nodeId, 0); }

void tfs_cg_box_f32(Frame *f, int32_t slot, float v) { f->slots[slot] = Tensor::scalar(v); }
void tfs_cg_box_f64(Frame *f, int32_t slot, double v) { f->slots[slot] = Tensor::scalar(v); }
void tfs_cg_box_i32(Frame *f, int32_t slot, int32_t v) { f->slots[slot] = Tensor::scalar(v); }
void tfs_cg_box_i64(Frame *f, int32_t slot, int64_t v) { f->slots[slot] = Tensor::scalar(v); }
void tfs_cg_box_bool(Frame *f, int32_t slot, uint8_t v) {
  f->slots[slot] = Tensor::scalar(v != 0);
}

int32_t tfs_cg_unbox_f32(Frame *f, int32_t s, int32_t n, float *o) { return tfs::codegen::unbox(f, s, n, o); }
int32_t tfs_cg_unbox_f64(Frame *f, int32_t s, int32_t n, double *o) { return tfs::codegen::unbox(f, s, n, o); }
int32_t tfs_cg_unbox_i32(Frame *f, int32_t s, int32_t n, int32_t *o) { return tfs::codegen::unbox(f, s, n, o); }
int32_t tfs_cg_unbox_i64(Frame *f, int32_t s, int32_t n, int64_t *o) { return tfs::codegen::unbox(f, s, n, o); }
int32_t tfs_cg_unbox_bool(Frame *f, int32_t s, int32_t n, uint8_t *o) { return tfs::codegen::unbox(f, s, n, o); }

void tfs_cg_copy(Frame *f, int32_t dst, int32_t src) { f->slots[dst] = f->slots[src]; }
// A value nothing reads any more lets go of its tensor.
void tfs_cg_release(Frame *f, int32_t slot) { f->slots[slot] = Tensor(); }
// For a value that dies where it is stored (a loop's carried value, a
// branch's yield): the destination becomes its only holder.
void tfs_cg_move(Frame *f, int32_t dst, int32_t src) {
  if (dst != src) f->slots[dst] = std::move(f->slots[src]);
}

// 0 / 1: the predicate's truth (like the interpreter's); -1: error stored.
int32_t tfs_cg_truth(Frame *f, int32_t slot, int32_t nodeId) {
  int32_t result = -1;
  int32_t status = tfs::codegen::guarded(*f, tfs::codegen::nodeOrNull(*f, nodeId), [&] {
    const Tensor &t = f->slots[slot];
    if (t.numElements() != 1)
      throw tfs::ir::OpError{"InvalidArgumentError",
                             fmt::format("The predicate must be a scalar, got shape with {} "
                                         "elements",
                                         t.numElements())};
    result = t.dtype() == tfs::ir::DType::Bool ? t.data<bool>()[0] : t.elementAsDouble(0) != 0;
  });
  return status == 0 ? result : -1;
}

// The kernels' "Integer division by zero" error for a native division.
int32_t tfs_cg_div_by_zero(Frame *f, int32_t nodeId) {
  const tfs::ir::Node *node = f->plan->nodes[nodeId].node;
  f->error = tfs::runtime::GraphRunError{
      "InvalidArgumentError",
      fmt::format("Integer division by zero [Op:{}]", tfs::ir::tfOpType(node->kind())),
      node->loc,
      {}};
  return 1;
}

}  // extern "C"

namespace tfs::codegen {

const std::vector<HelperSymbol> &helperSymbols() {
#define TFS_HELPER(name) HelperSymbol{#name, reinterpret_cast<void *>(&name)}
  static const std::vector<HelperSymbol> table = [] {
    std::vector<HelperSymbol> t = {
      TFS_HELPER(tfs_cg_node),       TFS_HELPER(tfs_cg_node_taking),
      TFS_HELPER(tfs_cg_move),       TFS_HELPER(tfs_cg_box_f32),
      TFS_HELPER(tfs_cg_box_f64),    TFS_HELPER(tfs_cg_box_i32),
      TFS_HELPER(tfs_cg_box_i64),    TFS_HELPER(tfs_cg_box_bool),
      TFS_HELPER(tfs_cg_unbox_f32),  TFS_HELPER(tfs_cg_unbox_f64),
      TFS_HELPER(tfs_cg_unbox_i32),  TFS_HELPER(tfs_cg_unbox_i64),
      TFS_HELPER(tfs_cg_unbox_bool), TFS_HELPER(tfs_cg_copy),
      TFS_HELPER(tfs_cg_truth),      TFS_HELPER(tfs_cg_div_by_zero),
      TFS_HELPER(tfs_cg_release),
  };
    const auto &buffers = bufferHelperSymbols();
    t.insert(t.end(), buffers.begin(), buffers.end());
    return t;
  }();
#undef TFS_HELPER
  return table;
}

}  // namespace tfs::codegen
