// The execution plan of one ir::Function for compiled code: every SSA value
// gets a tensor slot, every node an id, both numbered by a deterministic
// walk (so two functions with the same IR text get the same numbering and
// can share one piece of machine code). Compiled code refers to values and
// nodes only by these numbers; the runtime helpers (runtime_helpers.cpp) find
// the ir::Node (attrs, location, callee) and the slots through the Plan.
//
// Note [Value representation]
// A value whose type is a rank-0 f32/f64/i32/i64/bool lives in an LLVM
// register ("native"); every other value lives in its Frame slot as a
// runtime::Tensor. A native value is boxed into its own slot only when a
// trampolined node reads it, and a trampolined node's native result is
// unboxed from its slot right after the node ran. Loop-carried values whose
// types disagree between the loop and its regions stay in slots.
#pragma once

#include "ir/graph.h"
#include "runtime/graph/interpreter.h"
#include "runtime/tensor/tensor.h"

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tfs::codegen {

// True for the types that compiled code keeps in registers.
bool isNativeType(const ir::TensorType &type);

struct NodeInfo {
  const ir::Node *node = nullptr;
  std::vector<int32_t> operandSlots;
  std::vector<int32_t> resultSlots;
};

struct Plan {
  const ir::Function *fn = nullptr;
  std::unordered_map<const ir::Value *, int32_t> slotOf;
  std::unordered_map<const ir::Node *, int32_t> idOf;
  std::vector<NodeInfo> nodes;  // by node id
  int32_t numSlots = 0;
  std::vector<int32_t> paramSlots;
  // Tensor captures: (slot, index into fn->captures()).
  std::vector<std::pair<int32_t, size_t>> tensorCaptures;
  // const nodes: (slot, node); their slots are filled before the code runs.
  std::vector<std::pair<int32_t, const ir::Node *>> constSlots;
  std::vector<int32_t> returnSlots;

  int32_t slot(const ir::Value *v) const { return slotOf.at(v); }
  int32_t nodeId(const ir::Node *n) const { return idOf.at(n); }
};

// Given a function whose body ends in `return`.
// Result: its plan (numbering in parameter, capture, then pre-order node
// order, region block arguments before the region's nodes).
Plan buildPlan(const ir::Function &fn);

// One activation of a compiled function: its slots and its pending error.
struct Frame {
  const Plan *plan = nullptr;
  runtime::RunContext *ctx = nullptr;
  // Inline for small functions: a call allocates no frame.
  llvm::SmallVector<runtime::Tensor, 16> slots;
  std::optional<runtime::GraphRunError> error;
  std::exception_ptr foreign;  // any other C++ exception of a helper
  // The arena when it is too large for the stack (tfs_cg_arena).
  void *heapArena = nullptr;
  size_t heapArenaBytes = 0;

  Frame() = default;
  Frame(const Frame &) = delete;
  Frame &operator=(const Frame &) = delete;
  ~Frame();
};

// The signature of compiled code: returns 0, or 1 after a helper stored the
// error in the frame (no C++ exception ever crosses JIT frames).
using EntryFn = int32_t (*)(Frame *);

// A function ready to run (codegen.h): its plan, machine code and the
// tensors of its const nodes, built once.
struct CompiledFunction {
  const ir::Function *fn = nullptr;
  uint64_t fingerprint = 0;  // of fn when looked up by address (codegen.cpp)
  Plan plan;
  EntryFn entry = nullptr;
  std::vector<std::pair<int32_t, runtime::Tensor>> consts;  // (slot, value)
};

}  // namespace tfs::codegen
