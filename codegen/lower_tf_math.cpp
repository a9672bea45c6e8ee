// TF's float32 tanh and sigmoid as inline IR on float scalars or vectors
// (runtime/kernels/tf_float_math.h, Note [TF's float32 tanh and sigmoid]).
// The operations are those of tfmath::tanhOf / sigmoidPacketOf in the same
// order, each an IEEE operation rounded alone (plain fmul/fadd without
// fast-math flags: LLVM contracts none of them), so compiled code and the
// kernels compute the same bits.
#include "codegen/lower.h"

#include "runtime/kernels/tf_float_math.h"

#include <llvm/IR/Intrinsics.h>

namespace tfs::codegen {

namespace tfmath = runtime::vmath::tfmath;

llvm::Value *Emitter::canonicalNaN(llvm::Value *r) {
  return b_.CreateSelect(b_.CreateFCmpUNO(r, r), llvm::ConstantFP::getNaN(r->getType()), r);
}

llvm::Value *Emitter::tfTanh(llvm::Value *a) {
  llvm::Type *t = a->getType();
  auto k = [&](float c) { return llvm::ConstantFP::get(t, double(c)); };
  llvm::Value *c = k(tfmath::kTanhClamp), *minusC = k(-tfmath::kTanhClamp);
  // Eigen's pmin(a, c), then pmax(x, -c): a NaN stays.
  llvm::Value *x = b_.CreateSelect(b_.CreateFCmpOLT(c, a), c, a);
  x = b_.CreateSelect(b_.CreateFCmpOLT(x, minusC), minusC, x);
  llvm::Value *x2 = b_.CreateFMul(x, x);
  llvm::Value *p = b_.CreateFAdd(b_.CreateFMul(x2, k(tfmath::kTanhNum[6])), k(tfmath::kTanhNum[5]));
  for (int i = 4; i >= 0; --i)
    p = b_.CreateFAdd(b_.CreateFMul(x2, p), k(tfmath::kTanhNum[i]));
  p = b_.CreateFMul(x, p);
  llvm::Value *q = b_.CreateFAdd(b_.CreateFMul(x2, k(tfmath::kTanhDen[3])), k(tfmath::kTanhDen[2]));
  q = b_.CreateFAdd(b_.CreateFMul(x2, q), k(tfmath::kTanhDen[1]));
  q = b_.CreateFAdd(b_.CreateFMul(x2, q), k(tfmath::kTanhDen[0]));
  llvm::Value *absA = b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::fabs, {t}), {a});
  llvm::Value *tiny = b_.CreateFCmpOLT(absA, k(tfmath::kTanhTiny));
  return canonicalNaN(b_.CreateSelect(tiny, x, b_.CreateFDiv(p, q)));
}

llvm::Value *Emitter::tfSigmoidPacket(llvm::Value *a) {
  llvm::Type *t = a->getType();
  llvm::Type *it = t->isVectorTy()
                       ? static_cast<llvm::Type *>(llvm::FixedVectorType::get(
                             b_.getInt32Ty(), llvm::cast<llvm::FixedVectorType>(t)->getNumElements()))
                       : b_.getInt32Ty();
  auto k = [&](float c) { return llvm::ConstantFP::get(t, double(c)); };
  auto ki = [&](int32_t c) { return llvm::ConstantInt::get(it, uint64_t(int64_t(c)), true); };
  auto fmadd = [&](llvm::Value *m, llvm::Value *n, llvm::Value *c) {
    return b_.CreateFAdd(b_.CreateFMul(m, n), c);
  };
  llvm::Value *one = k(1.0f);
  llvm::Value *hi = k(tfmath::kExpHi);
  llvm::Value *x = b_.CreateSelect(b_.CreateFCmpOLT(hi, a), hi, a);
  llvm::Value *tt = fmadd(x, k(tfmath::kLog2e), k(0.5f));
  // floor(t), clamped as tfmath::sigmoidPacketOf does (fptosi of the
  // clamped value is never poison).
  tt = b_.CreateSelect(b_.CreateFCmpOGT(tt, k(-250.0f)), tt, k(-250.0f));
  tt = b_.CreateSelect(b_.CreateFCmpOLT(tt, k(250.0f)), tt, k(250.0f));
  llvm::Value *m = b_.CreateSIToFP(b_.CreateFPToSI(tt, it), t);
  m = b_.CreateSelect(b_.CreateFCmpOGT(m, tt), b_.CreateFSub(m, one), m);
  llvm::Value *r = fmadd(m, k(tfmath::kLn2Neg), x);
  r = fmadd(m, k(tfmath::kLn2Small), r);
  llvm::Value *r2 = b_.CreateFMul(r, r);
  llvm::Value *even = fmadd(r2, k(tfmath::kExpPoly[4]), k(tfmath::kExpPoly[2]));
  llvm::Value *odd = fmadd(r2, k(tfmath::kExpPoly[3]), k(tfmath::kExpPoly[1]));
  even = fmadd(r2, even, k(tfmath::kExpPoly[0]));
  llvm::Value *low = b_.CreateFAdd(r, one);
  llvm::Value *y = fmadd(r, odd, even);
  y = fmadd(r2, y, low);
  // y * 2^m1 * 2^(m - m1), m1 = m >> 1: two exact scalings, one rounding.
  llvm::Value *mi = b_.CreateFPToSI(m, it);
  llvm::Value *m1 = b_.CreateAShr(mi, ki(1));
  auto pow2 = [&](llvm::Value *e) { return b_.CreateBitCast(b_.CreateShl(b_.CreateAdd(e, ki(127)), ki(23)), t); };
  llvm::Value *e = b_.CreateFMul(b_.CreateFMul(y, pow2(m1)), pow2(b_.CreateSub(mi, m1)));
  e = b_.CreateSelect(b_.CreateFCmpOGT(a, e), a, e);
  e = b_.CreateSelect(b_.CreateFCmpOLT(a, k(tfmath::kExpLo)), k(0.0f), e);
  llvm::Value *s = b_.CreateFDiv(e, b_.CreateFAdd(one, e));
  return canonicalNaN(b_.CreateSelect(b_.CreateFCmpOEQ(e, k(INFINITY)), one, s));
}

llvm::Value *Emitter::tfSigmoid(llvm::Value *x, unsigned width) {
  llvm::Type *f32 = b_.getFloatTy();
  auto callee = module_.getOrInsertFunction(runtime::vmath::kSigmoidScalarSymbol,
                                            llvm::FunctionType::get(f32, {f32}, false));
  // A pure function (its expf's errno is never read): calls whose lanes
  // are not stored can go.
  if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->setWillReturn();
  }
  auto scalarPath = [&](std::vector<llvm::Value *> lanes) -> llvm::Value * {
    return b_.CreateCall(callee, lanes);
  };
  if (width == 1)  // a one-element tensor: Eigen evaluates it as a scalar
    return scalarPath({x});
  llvm::Value *packet = tfSigmoidPacket(x);
  int64_t rest = nestElements_ % tfmath::kPacketFloats;
  if (rest == 0 || !nestFlatIndex_)
    return packet;
  // Lanes at or past the tensor's last n % 8 elements take the scalar path;
  // only vectors that reach them branch there.
  int64_t tailStart = nestElements_ - rest;
  llvm::Value *flat = nestFlatIndex_;
  if (auto *known = llvm::dyn_cast<llvm::ConstantInt>(flat)) {
    // A vector at a known place (a nest's last partial vector): calls for
    // exactly the tail's elements it holds.
    int64_t first = known->getSExtValue();
    llvm::Value *out = packet;
    for (unsigned l = 0; l < width; ++l)
      if (first + l >= tailStart && first + l < nestElements_)
        out = b_.CreateInsertElement(out, scalarPath({b_.CreateExtractElement(x, l)}), l);
    return out;
  }
  // Elsewhere the vector may or may not reach the tail: a branch, and a
  // loop over the lanes that hold tail elements (at most 7 calls).
  llvm::BasicBlock *from = b_.GetInsertBlock();
  llvm::BasicBlock *tail = newBlock("sigmoid.tail"), *join = newBlock("sigmoid.join");
  llvm::Value *w = b_.getInt64(width), *start = b_.getInt64(uint64_t(tailStart)),
              *count = b_.getInt64(uint64_t(nestElements_));
  b_.CreateCondBr(b_.CreateICmpSGT(b_.CreateAdd(flat, w), start), tail, join);
  b_.SetInsertPoint(tail);
  // Lanes [lo, hi): lo = max(tailStart - flat, 0), hi = min(n - flat, width);
  // lo < hi whenever the branch is taken.
  llvm::Value *lo = b_.CreateSub(start, flat);
  lo = b_.CreateSelect(b_.CreateICmpSGT(lo, b_.getInt64(0)), lo, b_.getInt64(0));
  llvm::Value *hi = b_.CreateSub(count, flat);
  hi = b_.CreateSelect(b_.CreateICmpSLT(hi, w), hi, w);
  llvm::BasicBlock *lane = newBlock("sigmoid.lane");
  b_.CreateBr(lane);
  b_.SetInsertPoint(lane);
  llvm::PHINode *l = b_.CreatePHI(b_.getInt64Ty(), 2);
  llvm::PHINode *v = b_.CreatePHI(x->getType(), 2);
  l->addIncoming(lo, tail);
  v->addIncoming(packet, tail);
  llvm::Value *next = b_.CreateInsertElement(v, scalarPath({b_.CreateExtractElement(x, l)}), l);
  llvm::Value *l1 = b_.CreateAdd(l, b_.getInt64(1));
  l->addIncoming(l1, lane);
  v->addIncoming(next, lane);
  b_.CreateCondBr(b_.CreateICmpSLT(l1, hi), lane, join);
  b_.SetInsertPoint(join);
  llvm::PHINode *phi = b_.CreatePHI(x->getType(), 2);
  phi->addIncoming(packet, from);
  phi->addIncoming(next, lane);
  return phi;
}

}  // namespace tfs::codegen
