// Structured control flow to basic blocks (STYLE.md rule 5: only codegen
// creates blocks and PHIs).
//
//   cond:       entry --pred--> then | else --> merge; native results are
//               PHIs in merge, slot results are written by each branch.
//   while_loop: preheader -> header (PHIs of native carried values; the cond
//               region) --pred--> body (the body region; yields feed the
//               PHIs) -> header; header --!pred--> exit.
//               A carried value in slot mode lives in the cond region's
//               block-argument slot: the body copies it into its own
//               argument slot on entry and yields back into it, and the exit
//               copies it into the result slot. Body yields never read a
//               cond argument (not visible there), so the writes cannot
//               clobber a value still needed.
#include "codegen/lower.h"

#include <algorithm>

namespace tfs::codegen {

using ir::OpKind;

void Emitter::emitCond(const ir::Node &node) {
  int32_t id = plan_.nodeId(&node);
  llvm::Value *pred = truth(node.operand(0), id);
  llvm::BasicBlock *branches[2] = {newBlock("then"), newBlock("else")};
  llvm::BasicBlock *merge = newBlock("endif");
  b_.CreateCondBr(pred, branches[0], branches[1]);

  size_t numResults = node.numResults();
  std::vector<llvm::Value *> incoming[2];
  llvm::BasicBlock *ends[2];
  for (int k = 0; k < 2; ++k) {
    b_.SetInsertPoint(branches[k]);
    const ir::Region &region = node.region(k);
    emitRegionNodes(region);
    const ir::Node *yield = region.terminator();
    for (size_t i = 0; i < numResults; ++i) {
      const ir::Value *r = node.result(i);
      const ir::Value *y = yield->operand(i);
      if (isNative(r))
        incoming[k].push_back(nativeValue(y, id));
      else if (buffers_.reprOf(r) == Repr::Buffer)
        copyElements(y, bytePtr(r), id);  // the result's arena block
      else
        storeToSlot(y, plan_.slot(r), yieldMoves(y, *yield));
    }
    ends[k] = b_.GetInsertBlock();
    b_.CreateBr(merge);
  }
  b_.SetInsertPoint(merge);
  size_t next = 0;
  for (size_t i = 0; i < numResults; ++i) {
    const ir::Value *r = node.result(i);
    if (!isNative(r))
      continue;
    llvm::PHINode *phi = b_.CreatePHI(nativeType(r->type.dtype), 2);
    phi->addIncoming(incoming[0][next], ends[0]);
    phi->addIncoming(incoming[1][next], ends[1]);
    ++next;
    native_[r] = phi;
  }
}

void Emitter::emitWhile(const ir::Node &node) {
  int32_t id = plan_.nodeId(&node);
  const ir::Region &condRegion = node.region(0), &bodyRegion = node.region(1);
  size_t n = node.numOperands();
  // The cond region's argument slot is not read between the body's entry
  // and its yield, nor after the exit: both move (a carried buffer keeps a
  // single holder, so tensor_array_write can update it in place).
  auto moveSlot = [&](int32_t dst, int32_t src) {
    auto callee = helper("tfs_cg_move", b_.getVoidTy(), {b_.getInt32Ty(), b_.getInt32Ty()});
    b_.CreateCall(callee, {frame_, i32(dst), i32(src)});
  };

  auto isBuffer = [&](size_t i) { return buffers_.reprOf(node.result(i)) == Repr::Buffer; };
  std::vector<llvm::Value *> init(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    if (isNative(node.result(i)))
      init[i] = nativeValue(node.operand(i), id);
    else if (isBuffer(i))
      copyElements(node.operand(i), bytePtr(node.result(i)), id);  // the loop's block
    else
      storeToSlot(node.operand(i), plan_.slot(condRegion.arg(i)));
  }
  llvm::BasicBlock *preheader = b_.GetInsertBlock();
  llvm::BasicBlock *header = newBlock("loop.header");
  llvm::BasicBlock *body = newBlock("loop.body");
  llvm::BasicBlock *exit = newBlock("loop.exit");
  b_.CreateBr(header);

  b_.SetInsertPoint(header);
  std::vector<llvm::PHINode *> phis(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    if (!init[i])
      continue;
    phis[i] = b_.CreatePHI(init[i]->getType(), 2, "carried");
    phis[i]->addIncoming(init[i], preheader);
    native_[condRegion.arg(i)] = phis[i];
    native_[bodyRegion.arg(i)] = phis[i];
  }
  emitRegionNodes(condRegion);
  llvm::Value *pred = truth(condRegion.terminator()->operand(0), id);
  b_.CreateCondBr(pred, body, exit);

  b_.SetInsertPoint(body);
  for (size_t i = 0; i < n; ++i)
    if (!phis[i] && !isBuffer(i))
      moveSlot(plan_.slot(bodyRegion.arg(i)), plan_.slot(condRegion.arg(i)));
  emitRegionNodes(bodyRegion);
  const ir::Node *yield = bodyRegion.terminator();
  std::vector<llvm::Value *> next(n, nullptr);
  yieldBuffers(node, id);
  for (size_t i = 0; i < n; ++i) {
    if (phis[i])
      next[i] = nativeValue(yield->operand(i), id);
    else if (!isBuffer(i))
      storeToSlot(yield->operand(i), plan_.slot(condRegion.arg(i)), yieldMoves(yield->operand(i), *yield));
  }
  llvm::BasicBlock *latch = b_.GetInsertBlock();
  for (size_t i = 0; i < n; ++i)
    if (phis[i])
      phis[i]->addIncoming(next[i], latch);
  b_.CreateBr(header);

  b_.SetInsertPoint(exit);
  for (size_t i = 0; i < n; ++i) {
    if (phis[i])
      native_[node.result(i)] = phis[i];
    else if (!isBuffer(i))
      moveSlot(plan_.slot(node.result(i)), plan_.slot(condRegion.arg(i)));
  }
}

void Emitter::yieldBuffers(const ir::Node &loop, int32_t nodeId) {
  const ir::Region &cond = loop.region(0), &body = loop.region(1);
  const ir::Node *yield = body.terminator();
  // A yielded buffer stored in one of this loop's blocks (another carried
  // value, or a view of one) goes through a temporary: the copies into the
  // blocks must not overwrite what a later copy reads.
  auto inLoopBlock = [&](const ir::Value *v) {
    while (true) {
      if (v->kind() == ir::Value::Kind::BlockArg && (v->ownerRegion() == &cond || v->ownerRegion() == &body))
        return true;
      const BufferStorage &s = storageOf(v);
      if (s.kind != BufferStorage::Kind::View)
        return false;
      v = s.base;
    }
  };
  std::vector<std::pair<size_t, llvm::Value *>> staged;
  for (size_t i = 0; i < loop.numResults(); ++i) {
    const ir::Value *y = yield->operand(i);
    if (buffers_.reprOf(loop.result(i)) != Repr::Buffer || y == body.arg(i) || !inLoopBlock(y))
      continue;
    llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    const ir::TensorType &t = y->type;
    auto *temp = entry.CreateAlloca(b_.getInt8Ty(),
                                    b_.getInt64(uint64_t(t.shape.numElements()) * ir::dtypeSize(t.dtype)), "staged");
    temp->setAlignment(llvm::Align(64));
    copyElements(y, temp, nodeId);
    staged.emplace_back(i, temp);
  }
  for (size_t i = 0; i < loop.numResults(); ++i) {
    const ir::Value *y = yield->operand(i);
    bool isStaged = std::any_of(staged.begin(), staged.end(), [&](const auto &p) { return p.first == i; });
    if (buffers_.reprOf(loop.result(i)) == Repr::Buffer && y != body.arg(i) && !isStaged)
      copyElements(y, bytePtr(loop.result(i)), nodeId);
  }
  for (const auto &[i, temp] : staged) {
    const ir::TensorType &t = loop.result(unsigned(i))->type;
    b_.CreateMemCpy(bytePtr(loop.result(unsigned(i))), llvm::MaybeAlign(1), temp, llvm::MaybeAlign(1),
                    uint64_t(t.shape.numElements()) * ir::dtypeSize(t.dtype));
  }
}

}  // namespace tfs::codegen
