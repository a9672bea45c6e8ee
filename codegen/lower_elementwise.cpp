// Element ops (see lower.h): the semantics of the eager kernels
// (runtime/kernels/elementwise.cpp) on one element (width 1: native scalars)
// or on vectors of `width` lanes (fused loops, lower_fused.cpp):
//  * integer floordiv / mod round toward -inf (Python), and a zero divisor
//    raises "Integer division by zero [Op:FloorDiv]" through a helper (for
//    vectors: any active lane);
//  * float mod is fmod adjusted to the divisor's sign; maximum/minimum keep
//    a NaN first operand; abs/relu are compare-and-select like the kernel;
//  * integer arithmetic wraps (no nsw), like the kernels' T(x + y);
//  * float32 exp/log/sin/cos/pow call SLEEF's deterministic functions
//    (scalar or vector variant), bit-identical to the kernels'
//    (runtime/kernels/vector_math.h); float32 tanh and sigmoid are TF's,
//    inline (lower_tf_math.cpp); other transcendentals (float64, erf) call
//    libm per element, as the kernels do.
#include "codegen/lower.h"

#include "runtime/kernels/vector_math.h"

#include <llvm/IR/Intrinsics.h>

namespace tfs::codegen {

using ir::DType;
using ir::OpKind;
namespace vmath = runtime::vmath;

llvm::Type *Emitter::lanesOf(llvm::Type *element, unsigned width) const {
  return width == 1 ? element : llvm::FixedVectorType::get(element, width);
}

llvm::Value *Emitter::perLane(unsigned width, llvm::Type *resultType,
                              const std::function<llvm::Value *(std::vector<llvm::Value *>)> &f,
                              const std::vector<llvm::Value *> &args) {
  if (width == 1)
    return f(args);
  llvm::Value *out = llvm::UndefValue::get(resultType);
  for (unsigned lane = 0; lane < width; ++lane) {
    std::vector<llvm::Value *> lanes;
    for (llvm::Value *a : args)
      lanes.push_back(b_.CreateExtractElement(a, lane));
    out = b_.CreateInsertElement(out, f(lanes), lane);
  }
  return out;
}

llvm::Value *Emitter::sleefCall(runtime::vmath::Fn fn, const std::vector<llvm::Value *> &args,
                                unsigned width) {
  const vmath::Symbols &sym = vmath::symbols(fn);
  llvm::Type *f32 = b_.getFloatTy();
  auto call = [&](const char *name, unsigned lanes, const std::vector<llvm::Value *> &xs) {
    llvm::Type *t = lanesOf(f32, lanes);
    std::vector<llvm::Type *> params(xs.size(), t);
    auto callee = module_.getOrInsertFunction(name, llvm::FunctionType::get(t, params, false));
    return static_cast<llvm::Value *>(b_.CreateCall(callee, xs));
  };
  llvm::Value *r;
  if (width == 1)
    r = call(sym.scalarName, 1, args);
  else if (int(width) == sym.width)
    r = call(sym.vectorName, width, args);
  else  // another width: the scalar variant per lane (the same results)
    r = perLane(width, lanesOf(f32, width),
                [&](std::vector<llvm::Value *> lanes) { return call(sym.scalarName, 1, lanes); }, args);
  // Every NaN result is the one quiet NaN, as in the kernels.
  llvm::Type *t = r->getType();
  return b_.CreateSelect(b_.CreateFCmpUNO(r, r), llvm::ConstantFP::getNaN(t), r);
}

llvm::Value *Emitter::emitElementOp(const ir::Node &node, std::vector<llvm::Value *> xs,
                                     unsigned width, llvm::Value *laneMask) {
  int32_t id = plan_.nodeId(&node);
  DType rt = node.result()->type.dtype;
  llvm::Type *type = lanesOf(nativeType(rt), width);
  llvm::Type *i32s = lanesOf(b_.getInt32Ty(), width);
  DType ot = node.numOperands() ? node.operand(0)->type.dtype : rt;
  bool fp = ir::isFloating(ot);
  bool isBool = ot == DType::Bool;
  auto zero = [&](llvm::Type *t) { return llvm::Constant::getNullValue(t); };
  auto intrinsic = [&](llvm::Intrinsic::ID iid, std::vector<llvm::Value *> args) {
    return b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, iid, {type}), args);
  };
  // A libm function (float64 transcendentals, erf), called per lane.
  auto libmCall = [&](const char *name, std::vector<llvm::Value *> args) {
    llvm::Type *scalarType = nativeType(rt);
    std::vector<llvm::Type *> params(args.size(), scalarType);
    auto callee = module_.getOrInsertFunction(name, llvm::FunctionType::get(scalarType, params, false));
    return perLane(width, type, [&](std::vector<llvm::Value *> lanes) {
      return b_.CreateCall(callee, lanes);
    }, args);
  };
  bool f32 = rt == DType::Float32;
  auto sleef = [&](vmath::Fn fn, std::vector<llvm::Value *> args) { return sleefCall(fn, args, width); };
  llvm::Value *out = nullptr;
  switch (node.kind()) {
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
    checkDivisor(y, id, laneMask);
    // Lanes past the last element (zero padding) divide by one: an integer
    // division by zero traps.
    if (laneMask)
      y = b_.CreateSelect(laneMask, y, llvm::ConstantInt::get(type, 1));
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
    // Unordered-or-greater: NaN stays NaN, as in the kernel and TF.
    llvm::Value *pos = fp ? b_.CreateFCmpUGT(xs[0], zero(type)) : b_.CreateICmpSGT(xs[0], zero(type));
    out = b_.CreateSelect(pos, xs[0], zero(type));
    break;
  }
  case OpKind::Sign: {
    // T((x > 0) - (x < 0)); NaN stays NaN (TF 2's kernel, np.sign)
    llvm::Value *pos = fp ? b_.CreateFCmpOGT(xs[0], zero(type)) : b_.CreateICmpSGT(xs[0], zero(type));
    llvm::Value *neg = fp ? b_.CreateFCmpOLT(xs[0], zero(type)) : b_.CreateICmpSLT(xs[0], zero(type));
    llvm::Value *s = b_.CreateSub(b_.CreateZExt(pos, i32s), b_.CreateZExt(neg, i32s));
    out = fp ? b_.CreateSelect(b_.CreateFCmpUNO(xs[0], xs[0]), xs[0], b_.CreateSIToFP(s, type))
             : b_.CreateSExtOrTrunc(s, type);
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
    out = f32 ? tfTanh(xs[0]) : libmCall("tanh", {xs[0]});
    break;
  case OpKind::Erf:  // libm's, per lane, as the kernel's std::erf
    out = libmCall(f32 ? "erff" : "erf", {xs[0]});
    break;
  case OpKind::Sigmoid: {
    if (f32) {
      out = tfSigmoid(xs[0], width);
      break;
    }
    // T(1 / (1 + exp(-x)))
    llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
    llvm::Value *minusX = b_.CreateFNeg(xs[0]);
    out = b_.CreateFDiv(one, b_.CreateFAdd(one, intrinsic(llvm::Intrinsic::exp, {minusX})));
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
    out = rt == DType::Bool ? llvm::ConstantInt::getTrue(type)
          : ir::isFloating(rt) ? llvm::ConstantFP::get(type, 1.0)
                               : llvm::ConstantInt::get(type, 1);
    break;
  default:
    assert(false && "emitElementOp called on an op it does not know");
  }
  return out;
}

}  // namespace tfs::codegen
