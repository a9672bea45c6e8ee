// Native lowering of rank-0 ops: arithmetic, comparisons, logic, select,
// casts and math on f32/f64/i32/i64/bool registers, with the eager kernels'
// exact semantics (runtime/kernels/elementwise.cpp):
//  * integer floordiv / mod round toward -inf (Python), and a zero divisor
//    raises "Integer division by zero [Op:FloorDiv]" through a helper;
//  * float mod is fmod adjusted to the divisor's sign; maximum/minimum keep
//    a NaN first operand; abs/relu are compare-and-select like the kernel;
//  * integer arithmetic wraps (no nsw), like the kernels' T(x + y);
//  * float32 exp/log/sin/cos/tanh/pow/sigmoid call SLEEF's deterministic
//    scalar functions, bit-identical to the kernels' vector loops.
// Ops or type combinations not listed in canLowerNative run their kernel
// through the trampoline instead (e.g. float -> int casts, which saturate).
#include "codegen/lower.h"

#include "codegen/codegen.h"
#include "runtime/kernels/vector_math.h"

#include <llvm/IR/Intrinsics.h>

namespace tfs::codegen {

using ir::DType;
using ir::OpKind;
namespace vmath = runtime::vmath;

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

bool Emitter::canLowerNative(const ir::Node &node) const {
  if (!hasNativeLowering(node.kind()) || node.numResults() != 1 || !isNative(node.result()))
    return false;
  for (const ir::Value *v : node.operands())
    if (!isNativeType(v->type))
      return false;
  DType rt = node.result()->type.dtype;
  auto op = [&](unsigned i) { return node.operand(i)->type.dtype; };
  auto sameAsResult = [&] {
    for (const ir::Value *v : node.operands())
      if (v->type.dtype != rt)
        return false;
    return true;
  };
  switch (node.kind()) {
  case OpKind::Const:
    return node.constValue && node.constValue->dtype() == rt &&
           node.constValue->numElements() == 1;
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

void Emitter::emitNative(const ir::Node &node) {
  int32_t id = plan_.nodeId(&node);
  const ir::Value *result = node.result();
  DType rt = result->type.dtype;
  llvm::Type *type = nativeType(rt);
  std::vector<llvm::Value *> xs;
  for (const ir::Value *v : node.operands())
    xs.push_back(nativeValue(v, id));
  DType ot = node.numOperands() ? node.operand(0)->type.dtype : rt;
  bool fp = ir::isFloating(ot);
  bool isBool = ot == DType::Bool;
  auto zero = [&](llvm::Type *t) { return llvm::Constant::getNullValue(t); };
  auto intrinsic = [&](llvm::Intrinsic::ID iid, std::vector<llvm::Value *> args) {
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, iid, {type}), args);
  };
  // float32 transcendentals call SLEEF's scalar variant, as the kernels do
  // (runtime/kernels/vector_math.h, Note [Vector math]).
  bool f32 = rt == DType::Float32;
  auto sleef = [&](vmath::Fn fn, std::vector<llvm::Value *> args) -> llvm::Value * {
    std::vector<llvm::Type *> params(args.size(), type);
    auto callee = module_.getOrInsertFunction(vmath::symbols(fn).scalarName,
                                              llvm::FunctionType::get(type, params, false));
    llvm::Value *r = b_.CreateCall(callee, args);
    // Every NaN result is the one quiet NaN, as in the kernels.
    return b_.CreateSelect(b_.CreateFCmpUNO(r, r), llvm::ConstantFP::getNaN(type), r);
  };
  llvm::Value *out = nullptr;
  switch (node.kind()) {
  case OpKind::Const: {
    const ir::DenseElements &d = *node.constValue;
    if (rt == DType::Bool) out = b_.getInt1(d.intAt(0) != 0);
    else if (ir::isFloating(rt)) out = llvm::ConstantFP::get(type, d.doubleAt(0));
    else out = llvm::ConstantInt::get(type, uint64_t(d.intAt(0)), true);
    break;
  }
  case OpKind::Identity: out = xs[0]; break;
  case OpKind::Add: out = fp ? b_.CreateFAdd(xs[0], xs[1]) : b_.CreateAdd(xs[0], xs[1]); break;
  case OpKind::Sub: out = fp ? b_.CreateFSub(xs[0], xs[1]) : b_.CreateSub(xs[0], xs[1]); break;
  case OpKind::Mul: out = fp ? b_.CreateFMul(xs[0], xs[1]) : b_.CreateMul(xs[0], xs[1]); break;
  case OpKind::SquaredDifference: {
    llvm::Value *d = fp ? b_.CreateFSub(xs[0], xs[1]) : b_.CreateSub(xs[0], xs[1]);
    out = fp ? b_.CreateFMul(d, d) : b_.CreateMul(d, d);
    break;
  }
  case OpKind::Div:
  case OpKind::FloorDiv:
  case OpKind::FloorMod: {
    llvm::Value *x = xs[0], *y = xs[1];
    if (fp) {
      if (node.kind() == OpKind::Div) {
        out = b_.CreateFDiv(x, y);
      } else if (node.kind() == OpKind::FloorDiv) {
        out = intrinsic(llvm::Intrinsic::floor, {b_.CreateFDiv(x, y)});
      } else {
        // r = fmod(x, y); if (r != 0 && (r < 0) != (y < 0)) r += y;
        llvm::Value *r = b_.CreateFRem(x, y);
        llvm::Value *adjust = b_.CreateAnd(
            b_.CreateFCmpUNE(r, zero(type)),
            b_.CreateXor(b_.CreateFCmpOLT(r, zero(type)), b_.CreateFCmpOLT(y, zero(type))));
        out = b_.CreateSelect(adjust, b_.CreateFAdd(r, y), r);
      }
      break;
    }
    checkDivisor(y, id);
    // y == -1 is handled without sdiv/srem (INT_MIN / -1 traps on x86);
    // the wrapped quotient is -x and the remainder 0.
    llvm::Value *minusOne = b_.CreateICmpEQ(y, llvm::ConstantInt::get(type, -1, true));
    llvm::Value *safeY = b_.CreateSelect(minusOne, llvm::ConstantInt::get(type, 1), y);
    llvm::Value *q = b_.CreateSDiv(x, safeY);
    llvm::Value *r = b_.CreateSRem(x, safeY);
    q = b_.CreateSelect(minusOne, b_.CreateNeg(x), q);
    r = b_.CreateSelect(minusOne, zero(type), r);
    if (node.kind() == OpKind::Div) {
      out = q;
      break;
    }
    // Python rounding: if (r != 0 && (r < 0) != (y < 0)) { q -= 1; r += y; }
    llvm::Value *adjust = b_.CreateAnd(
        b_.CreateICmpNE(r, zero(type)),
        b_.CreateXor(b_.CreateICmpSLT(r, zero(type)), b_.CreateICmpSLT(y, zero(type))));
    if (node.kind() == OpKind::FloorDiv)
      out = b_.CreateSelect(adjust, b_.CreateSub(q, llvm::ConstantInt::get(type, 1)), q);
    else
      out = b_.CreateSelect(adjust, b_.CreateAdd(r, y), r);
    break;
  }
  case OpKind::Pow:
    out = rt == DType::Float32 ? sleef(vmath::Fn::Pow, xs) : intrinsic(llvm::Intrinsic::pow, {xs[0], xs[1]});
    break;
  case OpKind::Maximum:
  case OpKind::Minimum: {
    bool isMax = node.kind() == OpKind::Maximum;
    llvm::Value *keep;
    if (fp)
      keep = b_.CreateOr(isMax ? b_.CreateFCmpOGE(xs[0], xs[1]) : b_.CreateFCmpOLE(xs[0], xs[1]),
                         b_.CreateFCmpUNO(xs[0], xs[0]));
    else
      keep = isMax ? b_.CreateICmpSGE(xs[0], xs[1]) : b_.CreateICmpSLE(xs[0], xs[1]);
    out = b_.CreateSelect(keep, xs[0], xs[1]);
    break;
  }
  case OpKind::Equal: out = fp ? b_.CreateFCmpOEQ(xs[0], xs[1]) : b_.CreateICmpEQ(xs[0], xs[1]); break;
  case OpKind::NotEqual: out = fp ? b_.CreateFCmpUNE(xs[0], xs[1]) : b_.CreateICmpNE(xs[0], xs[1]); break;
  case OpKind::Less:
    out = fp ? b_.CreateFCmpOLT(xs[0], xs[1])
             : isBool ? b_.CreateICmpULT(xs[0], xs[1]) : b_.CreateICmpSLT(xs[0], xs[1]);
    break;
  case OpKind::LessEqual:
    out = fp ? b_.CreateFCmpOLE(xs[0], xs[1])
             : isBool ? b_.CreateICmpULE(xs[0], xs[1]) : b_.CreateICmpSLE(xs[0], xs[1]);
    break;
  case OpKind::Greater:
    out = fp ? b_.CreateFCmpOGT(xs[0], xs[1])
             : isBool ? b_.CreateICmpUGT(xs[0], xs[1]) : b_.CreateICmpSGT(xs[0], xs[1]);
    break;
  case OpKind::GreaterEqual:
    out = fp ? b_.CreateFCmpOGE(xs[0], xs[1])
             : isBool ? b_.CreateICmpUGE(xs[0], xs[1]) : b_.CreateICmpSGE(xs[0], xs[1]);
    break;
  case OpKind::LogicalAnd: out = b_.CreateAnd(xs[0], xs[1]); break;
  case OpKind::LogicalOr: out = b_.CreateOr(xs[0], xs[1]); break;
  case OpKind::LogicalNot: out = b_.CreateNot(xs[0]); break;
  case OpKind::Select: out = b_.CreateSelect(xs[0], xs[1], xs[2]); break;
  case OpKind::Neg: out = fp ? b_.CreateFNeg(xs[0]) : b_.CreateNeg(xs[0]); break;
  case OpKind::Abs: {
    llvm::Value *neg = fp ? b_.CreateFCmpOLT(xs[0], zero(type)) : b_.CreateICmpSLT(xs[0], zero(type));
    out = b_.CreateSelect(neg, fp ? b_.CreateFNeg(xs[0]) : b_.CreateNeg(xs[0]), xs[0]);
    break;
  }
  case OpKind::Relu: {
    llvm::Value *pos = fp ? b_.CreateFCmpOGT(xs[0], zero(type)) : b_.CreateICmpSGT(xs[0], zero(type));
    out = b_.CreateSelect(pos, xs[0], zero(type));
    break;
  }
  case OpKind::Sign: {
    // T((x > 0) - (x < 0))
    llvm::Value *pos = fp ? b_.CreateFCmpOGT(xs[0], zero(type)) : b_.CreateICmpSGT(xs[0], zero(type));
    llvm::Value *neg = fp ? b_.CreateFCmpOLT(xs[0], zero(type)) : b_.CreateICmpSLT(xs[0], zero(type));
    llvm::Value *s = b_.CreateSub(b_.CreateZExt(pos, b_.getInt32Ty()), b_.CreateZExt(neg, b_.getInt32Ty()));
    out = fp ? b_.CreateSIToFP(s, type) : b_.CreateSExtOrTrunc(s, type);
    break;
  }
  case OpKind::Square: out = fp ? b_.CreateFMul(xs[0], xs[0]) : b_.CreateMul(xs[0], xs[0]); break;
  case OpKind::Sqrt: out = intrinsic(llvm::Intrinsic::sqrt, {xs[0]}); break;
  case OpKind::Rsqrt:
    out = b_.CreateFDiv(llvm::ConstantFP::get(type, 1.0), intrinsic(llvm::Intrinsic::sqrt, {xs[0]}));
    break;
  case OpKind::Exp:
    out = f32 ? sleef(vmath::Fn::Exp, xs) : intrinsic(llvm::Intrinsic::exp, {xs[0]});
    break;
  case OpKind::Log:
    out = f32 ? sleef(vmath::Fn::Log, xs) : intrinsic(llvm::Intrinsic::log, {xs[0]});
    break;
  case OpKind::Sin:
    out = f32 ? sleef(vmath::Fn::Sin, xs) : intrinsic(llvm::Intrinsic::sin, {xs[0]});
    break;
  case OpKind::Cos:
    out = f32 ? sleef(vmath::Fn::Cos, xs) : intrinsic(llvm::Intrinsic::cos, {xs[0]});
    break;
  case OpKind::Tanh:
    out = f32 ? sleef(vmath::Fn::Tanh, xs)
              : b_.CreateCall(module_.getOrInsertFunction("tanh", type, type), {xs[0]});
    break;
  case OpKind::Erf: {
    auto callee = module_.getOrInsertFunction(rt == DType::Float32 ? "erff" : "erf", type, type);
    out = b_.CreateCall(callee, {xs[0]});
    break;
  }
  case OpKind::Sigmoid: {
    // T(1 / (1 + exp(-x)))
    llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
    llvm::Value *minusX = b_.CreateFNeg(xs[0]);
    llvm::Value *e = f32 ? sleef(vmath::Fn::Exp, {minusX}) : intrinsic(llvm::Intrinsic::exp, {minusX});
    out = b_.CreateFDiv(one, b_.CreateFAdd(one, e));
    break;
  }
  case OpKind::Cast: {
    llvm::Value *x = xs[0];
    if (ot == rt) out = x;
    else if (rt == DType::Bool)
      out = fp ? b_.CreateFCmpUNE(x, zero(x->getType())) : b_.CreateICmpNE(x, zero(x->getType()));
    else if (ir::isFloating(rt))
      out = fp ? b_.CreateFPCast(x, type) : isBool ? b_.CreateUIToFP(x, type) : b_.CreateSIToFP(x, type);
    else
      out = isBool ? b_.CreateZExt(x, type) : b_.CreateSExtOrTrunc(x, type);
    break;
  }
  case OpKind::ZerosLike: out = zero(type); break;
  case OpKind::OnesLike:
    out = rt == DType::Bool ? b_.getInt1(true)
          : ir::isFloating(rt) ? llvm::ConstantFP::get(type, 1.0)
                               : llvm::ConstantInt::get(type, 1);
    break;
  default:
    assert(false && "canLowerNative accepted an op emitNative does not know");
  }
  native_[result] = out;
}

}  // namespace tfs::codegen
