// The op table API (see ir/ops.def for the table itself).
//
// Each op has one OpDef: its name, arity, traits and its type rule. Other
// layers attach their implementation to the same OpDef at start-up via
// typed registries indexed by OpKind (runtime::kernelFor, the gradient
// registry, codegen's lowering table), so "does op X have a kernel / gradient
// / lowering" is one lookup and tests/unit walks the table for gaps.
#pragma once

#include "ir/attrs.h"
#include "ir/types.h"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::ir {

enum class OpKind : uint16_t {
#define TFS_OP(Kind, name, minOps, maxOps, traits) Kind,
#include "ir/ops.def"
#undef TFS_OP
  NumOps
};

namespace OpTrait {
enum : uint32_t {
  None = 0,
  Pure = 1u << 0,          // no side effects: CSE/DCE/const-fold may touch it
  SideEffect = 1u << 1,    // keeps program order (automatic control deps)
  Elementwise = 1u << 2,   // output[i] depends on input[i] only
  Commutative = 1u << 3,
  Broadcasting = 1u << 4,  // operands broadcast numpy-style
  Reduction = 1u << 5,     // attrs: axis (ints, absent = all), keepdims
  Terminator = 1u << 6,    // ends a region
  Region = 1u << 7,        // owns nested regions
};
}

// An error in an op's use (bad dtype mix, incompatible shapes, bad attribute).
// `errorClass` is TF's error class: InvalidArgumentError, ...
struct OpError {
  std::string errorClass;
  std::string message;
};

// Result type rule: given operand types and attrs, the result types, or an
// OpError (thrown). Unknown dims propagate as kUnknownDim.
using TypeRule = std::vector<TensorType> (*)(std::span<const TensorType> operands,
                                             const Attrs &attrs);

struct OpDef {
  OpKind kind;
  const char *name;
  int minOperands, maxOperands;  // maxOperands -1: variadic
  uint32_t traits;
  TypeRule inferTypes = nullptr;
  // Gradient is identically zero/undefined (comparisons, argmax, casts to
  // int...): the autodiff layer needs no rule for it.
  bool notDifferentiable = false;
  // Shape arguments (ops.def TFS_SHAPE_ARGS, ir/shape_args.h): operands
  // past the first `dataOperands` supply these attributes at run time.
  // dataOperands -1: the op has none.
  int dataOperands = -1;
  std::vector<const char *> shapeArgs;

  bool hasShapeArgs() const { return dataOperands >= 0; }

  bool has(uint32_t trait) const { return (traits & trait) != 0; }
};

const OpDef &opDef(OpKind kind);
OpDef &mutableOpDef(OpKind kind);  // for registration at start-up only
const OpDef *lookupOp(std::string_view name);
inline const char *opName(OpKind k) { return opDef(k).name; }
// TF's op type, as in "[Op:AddV2]" and graph node names ("AddV2",
// "RealDiv", "MatMul", "Sum", ...).
const char *tfOpType(OpKind kind);

}  // namespace tfs::ir
