// Function-level lowering: the entry (unboxing native parameters and
// captures), node dispatch, the kernel trampoline, value representation
// (box / unbox / slot copies) and the error exit. See lower.h.
#include "codegen/lower.h"

#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <fmt/format.h>

namespace tfs::codegen {

using ir::DType;
using ir::OpKind;

Emitter::Emitter(const Plan &plan, const BufferPlan &buffers, llvm::Module &m,
                 const std::string &entryName)
    : plan_(plan), module_(m), ctx_(m.getContext()), b_(ctx_), buffers_(buffers) {
  auto *type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getInt8PtrTy()}, false);
  fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, entryName, m);
  frame_ = fn_->getArg(0);
  frame_->setName("frame");
}

llvm::FunctionCallee Emitter::helper(const char *name, llvm::Type *ret,
                                     std::vector<llvm::Type *> params) {
  params.insert(params.begin(), b_.getInt8PtrTy());
  return module_.getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
}

llvm::Type *Emitter::nativeType(DType t) const {
  auto &b = const_cast<llvm::IRBuilder<> &>(b_);
  switch (t) {
  case DType::Float32: return b.getFloatTy();
  case DType::Float64: return b.getDoubleTy();
  case DType::Int32: return b.getInt32Ty();
  case DType::Int64: return b.getInt64Ty();
  case DType::Bool: return b.getInt1Ty();
  default: break;
  }
  assert(false && "only bool/i32/i64/f32/f64 are native (plan.cpp isNativeType)");
  return nullptr;
}

namespace {
const char *helperSuffix(DType t) {
  switch (t) {
  case DType::Float32: return "f32";
  case DType::Float64: return "f64";
  case DType::Int32: return "i32";
  case DType::Int64: return "i64";
  default: return "bool";
  }
}
}  // namespace

bool Emitter::isNative(const ir::Value *v) const {
  return buffers_.reprOf(v) == Repr::Native;
}

void Emitter::checkStatus(llvm::Value *status) {
  llvm::BasicBlock *ok = newBlock("ok");
  llvm::Value *failed = b_.CreateICmpNE(status, i32(0));
  b_.CreateCondBr(failed, errorBlock_, ok);
  b_.SetInsertPoint(ok);
}

llvm::Value *Emitter::unbox(int32_t slot, DType dtype, int32_t nodeId) {
  llvm::Type *memType = dtype == DType::Bool ? b_.getInt8Ty() : nativeType(dtype);
  llvm::AllocaInst *&tmp = unboxTemp_[int(dtype)];
  if (!tmp) {
    llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    tmp = entry.CreateAlloca(memType, nullptr, "unboxed");
  }
  auto callee = helper(fmt::format("tfs_cg_unbox_{}", helperSuffix(dtype)).c_str(),
                       b_.getInt32Ty(),
                       {b_.getInt32Ty(), b_.getInt32Ty(), memType->getPointerTo()});
  checkStatus(b_.CreateCall(callee, {frame_, i32(slot), i32(nodeId), tmp}));
  llvm::Value *v = b_.CreateLoad(memType, tmp);
  return dtype == DType::Bool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
}

void Emitter::box(int32_t slot, DType dtype, llvm::Value *v) {
  llvm::Type *argType = dtype == DType::Bool ? b_.getInt8Ty() : nativeType(dtype);
  if (dtype == DType::Bool)
    v = b_.CreateZExt(v, argType);
  auto callee = helper(fmt::format("tfs_cg_box_{}", helperSuffix(dtype)).c_str(),
                       b_.getVoidTy(), {b_.getInt32Ty(), argType});
  b_.CreateCall(callee, {frame_, i32(slot), v});
}

llvm::Value *Emitter::nativeValue(const ir::Value *v, int32_t nodeId) {
  if (isNative(v)) {
    auto it = native_.find(v);
    if (it != native_.end())
      return it->second;
    // A constant read before its node (a fusion group emitted earlier).
    if (const ir::Node *d = v->definingNode(); d && d->kind() == OpKind::Const) {
      emitNative(*d);
      return native_.at(v);
    }
    return native_.at(v);
  }
  return unbox(plan_.slot(v), v->type.dtype, nodeId);
}

void Emitter::storeToSlot(const ir::Value *v, int32_t dst, bool move) {
  if (isNative(v)) {
    box(dst, v->type.dtype, native_.at(v));
    return;
  }
  if (buffers_.reprOf(v) == Repr::Buffer && storageOf(v).kind != BufferStorage::Kind::Slot) {
    boxBuffer(v, dst, -1);
    return;
  }
  int32_t src = plan_.slot(v);
  if (src == dst)
    return;
  auto callee = helper(move ? "tfs_cg_move" : "tfs_cg_copy", b_.getVoidTy(), {b_.getInt32Ty(), b_.getInt32Ty()});
  b_.CreateCall(callee, {frame_, i32(dst), i32(src)});
}

namespace {

bool definedIn(const ir::Value *v, const ir::Region &region) {
  if (v->kind() == ir::Value::Kind::BlockArg)
    return v->ownerRegion() == &region;
  return v->definingNode() && v->definingNode()->parentRegion() == &region;
}

bool usesValue(const ir::Node &node, const ir::Value *v) {
  for (const ir::Value *u : node.operands())
    if (u == v)
      return true;
  for (const auto &r : node.regions())
    for (const auto &n : r->nodes())
      if (usesValue(*n, v))
        return true;
  return false;
}

// A block argument of a while loop's cond region: its slot is read after
// the region (moved into the body's argument or the loop's result).
bool outlivesRegion(const ir::Value *v) {
  if (v->kind() != ir::Value::Kind::BlockArg)
    return false;
  const ir::Node *owner = v->ownerRegion()->parentNode();
  return owner && owner->kind() == OpKind::WhileLoop && &owner->region(0) == v->ownerRegion();
}

// `v` (an operand of `node`, once) is defined in node's region and nothing
// reads it after `node`: the node may take it over.
bool diesAt(const ir::Node &node, const ir::Value *v) {
  const ir::Region *region = node.parentRegion();
  if (!region || !definedIn(v, *region) || outlivesRegion(v) ||
      std::count(node.operands().begin(), node.operands().end(), v) != 1)
    return false;
  bool after = false;
  for (const auto &n : region->nodes()) {
    if (after && usesValue(*n, v))
      return false;
    after = after || n.get() == &node;
  }
  return after;
}

}  // namespace

bool Emitter::yieldMoves(const ir::Value *v, const ir::Node &yield) const {
  const ir::Node *def = v->definingNode();
  if (def && def->kind() == OpKind::Const)
    return false;  // its slot is filled once, before the code runs
  return buffers_.reprOf(v) == Repr::Slot && yield.parentRegion() && definedIn(v, *yield.parentRegion()) &&
         std::count(yield.operands().begin(), yield.operands().end(), v) == 1;
}

void Emitter::materializeSlot(const ir::Value *v) {
  if (buffers_.reprOf(v) == Repr::Buffer) {
    if (storageOf(v).kind != BufferStorage::Kind::Slot)
      boxBuffer(v, plan_.slot(v), -1);
    return;
  }
  if (!isNative(v) || slotHolds_.count(v))
    return;
  const ir::Node *def = v->definingNode();
  if (def && def->kind() == OpKind::Const)
    return;  // const slots are filled before the code runs
  storeToSlot(v, plan_.slot(v));
}

llvm::Value *Emitter::truth(const ir::Value *v, int32_t nodeId) {
  if (isNative(v)) {
    llvm::Value *x = native_.at(v);
    switch (v->type.dtype) {
    case DType::Bool: return x;
    case DType::Float32:
    case DType::Float64:
      return b_.CreateFCmpUNE(x, llvm::ConstantFP::get(x->getType(), 0.0));
    default: return b_.CreateICmpNE(x, llvm::ConstantInt::get(x->getType(), 0));
    }
  }
  materializeSlot(v);
  auto callee = helper("tfs_cg_truth", b_.getInt32Ty(), {b_.getInt32Ty(), b_.getInt32Ty()});
  llvm::Value *t = b_.CreateCall(callee, {frame_, i32(plan_.slot(v)), i32(nodeId)});
  checkStatus(b_.CreateZExt(b_.CreateICmpSLT(t, i32(0)), b_.getInt32Ty()));
  return b_.CreateICmpEQ(t, i32(1));
}

void Emitter::checkDivisor(llvm::Value *divisor, int32_t nodeId, llvm::Value *laneMask) {
  llvm::BasicBlock *raise = newBlock("div_by_zero");
  llvm::BasicBlock *ok = newBlock("div_ok");
  llvm::Value *isZero = b_.CreateICmpEQ(divisor, llvm::Constant::getNullValue(divisor->getType()));
  if (isZero->getType()->isVectorTy()) {
    if (laneMask)
      isZero = b_.CreateAnd(isZero, laneMask);
    isZero = b_.CreateOrReduce(isZero);
  }
  b_.CreateCondBr(isZero, raise, ok, llvm::MDBuilder(ctx_).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(raise);
  auto callee = helper("tfs_cg_div_by_zero", b_.getInt32Ty(), {b_.getInt32Ty()});
  b_.CreateCall(callee, {frame_, i32(nodeId)});
  b_.CreateBr(errorBlock_);
  b_.SetInsertPoint(ok);
}

// Note [Dead reads of an updated variable]
// A read_variable's result keeps the variable's buffer alive in its slot
// until the function returns, even where native code (a fused loop) read
// it for the last time long before; assign_add/assign_sub would then
// always find the buffer shared and copy it (Note [Variable updates in
// place] in runtime/graph/variable_update.cpp). Before such an update the
// slots of the same variable's earlier reads in the same region that
// nothing reads any more are emptied, as the graph interpreter drops
// values after their last use. Not a read that a view still points into.
std::vector<int32_t> Emitter::deadReadsOf(const ir::Node &update) const {
  std::vector<int32_t> slots;
  const ir::Region *region = update.parentRegion();
  if (!region)
    return slots;
  std::string var = ir::attrVar(update);
  for (const auto &n : region->nodes()) {
    if (n.get() == &update)
      break;
    if (n->kind() != OpKind::ReadVariable || ir::attrVar(*n) != var)
      continue;
    const ir::Value *v = n->result();
    Repr repr = buffers_.reprOf(v);
    if (repr == Repr::Native || (repr == Repr::Buffer && storageOf(v).kind != BufferStorage::Kind::Slot))
      continue;
    bool live = false, after = false;
    for (const auto &m : region->nodes()) {
      after = after || m.get() == &update;
      if (after && usesValue(*m, v))
        live = true;
    }
    for (const auto &[w, st] : buffers_.storage)
      if (st.kind == BufferStorage::Kind::View && st.base == v)
        live = true;
    if (!live)
      slots.push_back(plan_.slot(v));
  }
  return slots;
}

void Emitter::emitTrampoline(const ir::Node &node) {
  ++kernelNodes_;
  int32_t id = plan_.nodeId(&node);
  for (const ir::Value *v : node.operands())
    materializeSlot(v);
  if (node.kind() == OpKind::AssignAddVariable || node.kind() == OpKind::AssignSubVariable) {
    for (int32_t slot : deadReadsOf(node)) {
      auto callee = helper("tfs_cg_release", b_.getVoidTy(), {b_.getInt32Ty()});
      b_.CreateCall(callee, {frame_, i32(slot)});
    }
  }
  // The node takes over each operand slot whose value dies there (moved into
  // the kernel's operands): no dead slot keeps a second reference to a
  // buffer, so a tensor_array_write or concat whose first operand is taken
  // can write it in place. Only runtime Tensors in slots (no native code
  // reads their storage); constants' slots are filled once, before the code
  // runs.
  uint32_t taken = 0;
  for (size_t i = 0; i < node.numOperands() && i < 32; ++i) {
    const ir::Value *v = node.operand(unsigned(i));
    const ir::Node *def = v->definingNode();
    bool isConst = def && def->kind() == OpKind::Const;
    if (!isConst && buffers_.reprOf(v) == Repr::Slot && diesAt(node, v))
      taken |= 1u << i;
  }
  if (taken) {
    auto callee = helper("tfs_cg_node_taking", b_.getInt32Ty(), {b_.getInt32Ty(), b_.getInt32Ty()});
    checkStatus(b_.CreateCall(callee, {frame_, i32(id), i32(int32_t(taken))}));
  } else {
    auto callee = helper("tfs_cg_node", b_.getInt32Ty(), {b_.getInt32Ty()});
    checkStatus(b_.CreateCall(callee, {frame_, i32(id)}));
  }
  for (const ir::Value *r : node.results()) {
    if (isNative(r)) {
      native_[r] = unbox(plan_.slot(r), r->type.dtype, id);
      slotHolds_.insert(r);
    } else if (buffers_.reprOf(r) == Repr::Buffer) {
      fetchSlotData(r, id);
    }
  }
}

void Emitter::emitNode(const ir::Node &node) {
  switch (node.kind()) {
  case OpKind::Cond: ++nativeNodes_; emitCond(node); return;
  case OpKind::WhileLoop: ++nativeNodes_; emitWhile(node); return;
  case OpKind::Const:
    ++nativeNodes_;
    if (!isNative(node.result()))
      return;  // its slot is filled (and its pointer read) before the code runs
    --nativeNodes_;
    break;
  default: break;
  }
  if (auto it = buffers_.native.find(&node); it != buffers_.native.end()) {
    switch (it->second) {
    case NativeKind::Fused: {
      ++nativeNodes_;
      const FusionGroup &g = buffers_.groups[buffers_.groupOf.at(&node)];
      if (g.members.front() == &node)
        emitGroup(g);
      return;  // the other members are computed with the first
    }
    case NativeKind::View: ++nativeNodes_; emitView(node); return;
    case NativeKind::ScalarLoad: ++nativeNodes_; emitScalarLoad(node); return;
    case NativeKind::MatMul: ++nativeNodes_; emitMatMul(node); return;
    case NativeKind::Reduce: break;  // not yet: the kernel
    case NativeKind::Unused: ++nativeNodes_; return;
    }
  }
  if (canLowerNative(node)) {
    ++nativeNodes_;
    emitNative(node);
  } else
    emitTrampoline(node);
}

void Emitter::emitRegionNodes(const ir::Region &region) {
  for (const auto &n : region.nodes())
    if (!n->isTerminator())
      emitNode(*n);
}

void Emitter::emitFunction() {
  llvm::BasicBlock *entry = newBlock("entry");
  errorBlock_ = newBlock("error");
  b_.SetInsertPoint(errorBlock_);
  b_.CreateRet(i32(1));
  b_.SetInsertPoint(entry);

  const ir::Function &fn = *plan_.fn;
  emitArena();
  for (const ir::Value *p : fn.params())
    if (isNative(p)) {
      native_[p] = unbox(plan_.slot(p), p->type.dtype, -1);
      slotHolds_.insert(p);
    }
  for (const auto &[slot, index] : plan_.tensorCaptures) {
    const ir::Value *v = fn.captures()[index].value;
    if (isNative(v)) {
      native_[v] = unbox(slot, v->type.dtype, -1);
      slotHolds_.insert(v);
    }
  }
  bindEntryBuffers();
  emitRegionNodes(fn.body());
  if (const ir::Node *ret = fn.body().terminator())
    for (const ir::Value *v : ret->operands())
      materializeSlot(v);
  b_.CreateRet(i32(0));
}

LoweredModule lowerFunction(const ir::Function &fn, const Plan &plan, const BufferPlan &buffers,
                            const std::string &entryName) {
  LoweredModule out;
  out.context = std::make_unique<llvm::LLVMContext>();
  out.module = std::make_unique<llvm::Module>("tfs." + fn.name(), *out.context);
  Emitter emitter(plan, buffers, *out.module, entryName);
  emitter.emitFunction();
  out.nativeNodes = emitter.nativeNodes();
  out.kernelNodes = emitter.kernelNodes();
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*out.module, &os))
    throw runtime::GraphRunError{"InternalError",
                                 fmt::format("codegen produced invalid LLVM IR for {}: {}",
                                             fn.name(), os.str()),
                                 {},
                                 {}};
  return out;
}

}  // namespace tfs::codegen
