// Native lowering of rank-0 ops: arithmetic, comparisons, logic, select,
// casts and math on f32/f64/i32/i64/bool registers, with the eager kernels'
// exact semantics (the element ops of lower_elementwise.cpp, one lane).
// Ops or type combinations not listed in canLowerNative run their kernel
// through the trampoline instead (e.g. float -> int casts, which saturate).
#include "codegen/lower.h"

#include "codegen/buffers.h"
#include "codegen/codegen.h"

#include <llvm/IR/Intrinsics.h>

namespace tfs::codegen {

using ir::DType;
using ir::OpKind;

namespace {

bool isNumeric(DType t) { return ir::isFloating(t) || ir::isInteger(t); }

}  // namespace

bool hasNativeLowering(OpKind kind) {
  switch (kind) {
  case OpKind::Const: case OpKind::Identity: case OpKind::Add: case OpKind::Sub:
  case OpKind::Mul: case OpKind::Div: case OpKind::FloorDiv: case OpKind::FloorMod:
  case OpKind::Pow: case OpKind::Maximum: case OpKind::Minimum:
  case OpKind::SquaredDifference: case OpKind::Equal: case OpKind::NotEqual:
  case OpKind::Less: case OpKind::LessEqual: case OpKind::Greater:
  case OpKind::GreaterEqual: case OpKind::LogicalAnd: case OpKind::LogicalOr:
  case OpKind::LogicalNot: case OpKind::Select: case OpKind::Neg: case OpKind::Abs:
  case OpKind::Sign: case OpKind::Square: case OpKind::Sqrt: case OpKind::Rsqrt:
  case OpKind::Exp: case OpKind::Log: case OpKind::Sin: case OpKind::Cos:
  case OpKind::Tanh: case OpKind::Sigmoid: case OpKind::Erf: case OpKind::Relu: case OpKind::Cast:
  case OpKind::ZerosLike: case OpKind::OnesLike: case OpKind::Cond:
  case OpKind::WhileLoop: case OpKind::Yield: case OpKind::Return:
    return true;
  default:
    return false;
  }
}

bool elementOpSupported(const ir::Node &node) {
  if (!hasNativeLowering(node.kind()) || node.numResults() != 1 || node.kind() == OpKind::Const)
    return false;
  DType rt = node.result()->type.dtype;
  auto op = [&](unsigned i) { return node.operand(i)->type.dtype; };
  for (const ir::Value *v : node.operands())
    if (!isBufferDType(v->type.dtype))
      return false;
  if (!isBufferDType(rt))
    return false;
  auto sameAsResult = [&] {
    for (const ir::Value *v : node.operands())
      if (v->type.dtype != rt)
        return false;
    return true;
  };
  switch (node.kind()) {
  case OpKind::Identity: return sameAsResult();
  case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::FloorDiv:
  case OpKind::FloorMod: case OpKind::Maximum: case OpKind::Minimum:
  case OpKind::SquaredDifference: case OpKind::Div:
  case OpKind::Neg: case OpKind::Abs: case OpKind::Square: case OpKind::Relu:
  case OpKind::Sign:
    return isNumeric(rt) && sameAsResult();
  case OpKind::Pow: case OpKind::Sqrt: case OpKind::Rsqrt: case OpKind::Exp:
  case OpKind::Log: case OpKind::Sin: case OpKind::Cos: case OpKind::Tanh:
  case OpKind::Sigmoid: case OpKind::Erf:
    return ir::isFloating(rt) && sameAsResult();
  case OpKind::Equal: case OpKind::NotEqual: case OpKind::Less: case OpKind::LessEqual:
  case OpKind::Greater: case OpKind::GreaterEqual:
    return rt == DType::Bool && op(0) == op(1);
  case OpKind::LogicalAnd: case OpKind::LogicalOr: case OpKind::LogicalNot:
    return rt == DType::Bool && sameAsResult();
  case OpKind::Select:
    return op(0) == DType::Bool && op(1) == rt && op(2) == rt;
  case OpKind::Cast:
    // float -> int saturates in the kernel: left to the trampoline.
    return !(ir::isFloating(op(0)) && ir::isInteger(rt));
  case OpKind::ZerosLike: case OpKind::OnesLike:
    return sameAsResult();
  default:
    return false;
  }
}

bool Emitter::canLowerNative(const ir::Node &node) const {
  if (node.numResults() != 1 || !isNative(node.result()))
    return false;
  for (const ir::Value *v : node.operands())
    if (!isNativeType(v->type))
      return false;
  if (node.kind() == OpKind::Const) {
    DType rt = node.result()->type.dtype;
    return node.constValue && node.constValue->dtype() == rt &&
           node.constValue->numElements() == 1;
  }
  return elementOpSupported(node);
}

void Emitter::emitNative(const ir::Node &node) {
  int32_t id = plan_.nodeId(&node);
  const ir::Value *result = node.result();
  DType rt = result->type.dtype;
  if (node.kind() == OpKind::Const) {
    const ir::DenseElements &d = *node.constValue;
    llvm::Type *type = nativeType(rt);
    if (rt == DType::Bool) native_[result] = b_.getInt1(d.intAt(0) != 0);
    else if (ir::isFloating(rt)) native_[result] = llvm::ConstantFP::get(type, d.doubleAt(0));
    else native_[result] = llvm::ConstantInt::get(type, uint64_t(d.intAt(0)), true);
    return;
  }
  std::vector<llvm::Value *> xs;
  for (const ir::Value *v : node.operands())
    xs.push_back(nativeValue(v, id));
  native_[result] = emitElementOp(node, std::move(xs), 1, nullptr);
}

}  // namespace tfs::codegen
