// Lowering of one ir::Function to an LLVM function `i32 @<name>(i8* %frame)`
// (the EntryFn of plan.h). Internal to codegen/.
//
// This lowering expects a verified function whose value numbering is the
// given Plan. It emits:
//  * native registers for rank-0 f32/f64/i32/i64/bool values (plan.h,
//    Note [Value representation]) and native instructions for the ops that
//    canLowerNative accepts (lower_scalar.cpp);
//  * cond as then/else/merge blocks with PHIs, while_loop as header/body/exit
//    blocks with PHIs for native loop-carried values and slot copies for the
//    others (lower_control.cpp);
//  * a call of tfs_cg_node for every other node (lower_function.cpp).
// Every helper status is checked; a failure branches to one block that
// returns 1 (the error is already stored in the frame).
#pragma once

#include "codegen/plan.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tfs::codegen {

struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

// Given a function and its plan.
// Result: a module defining `entryName` (not yet optimized).
LoweredModule lowerFunction(const ir::Function &fn, const Plan &plan,
                            const std::string &entryName);

class Emitter {
public:
  Emitter(const Plan &plan, llvm::Module &m, const std::string &entryName);
  void emitFunction();

  // --- lower_scalar.cpp ---
  // True when `node` has a native lowering for its operand/result types.
  bool canLowerNative(const ir::Node &node) const;
  // Emits it and defines its result.
  void emitNative(const ir::Node &node);

private:
  // --- lower_function.cpp ---
  void emitRegionNodes(const ir::Region &region);
  void emitNode(const ir::Node &node);
  void emitTrampoline(const ir::Node &node);
  // --- lower_control.cpp ---
  void emitCond(const ir::Node &node);
  void emitWhile(const ir::Node &node);
  // Marks loop-carried values that must live in slots (see plan.h).
  void planLoopCarried(const ir::Region &region);

  // --- representation of values ---
  bool isNative(const ir::Value *v) const;
  llvm::Type *nativeType(ir::DType t) const;
  // `v` as a native register of its dtype (unboxing a slot value).
  llvm::Value *nativeValue(const ir::Value *v, int32_t nodeId);
  // Writes `v` into slot `dst` (boxing a native value or copying a slot).
  void storeToSlot(const ir::Value *v, int32_t dst);
  // Boxes a native value into its own slot (consts are already there).
  void materializeSlot(const ir::Value *v);
  llvm::Value *unbox(int32_t slot, ir::DType dtype, int32_t nodeId);
  void box(int32_t slot, ir::DType dtype, llvm::Value *v);
  // Predicate of a cond / while_loop as i1.
  llvm::Value *truth(const ir::Value *v, int32_t nodeId);
  // Branches to the error exit when `status` != 0.
  void checkStatus(llvm::Value *status);
  // Emits a raise of "Integer division by zero" when `divisor` == 0.
  void checkDivisor(llvm::Value *divisor, int32_t nodeId);

  llvm::Constant *i32(int64_t v) { return b_.getInt32(int32_t(v)); }
  llvm::BasicBlock *newBlock(const char *name) {
    return llvm::BasicBlock::Create(ctx_, name, fn_);
  }
  llvm::FunctionCallee helper(const char *name, llvm::Type *ret,
                              std::vector<llvm::Type *> params);

  const Plan &plan_;
  llvm::Module &module_;
  llvm::LLVMContext &ctx_;
  llvm::IRBuilder<> b_;
  llvm::Function *fn_ = nullptr;
  llvm::Value *frame_ = nullptr;
  llvm::BasicBlock *errorBlock_ = nullptr;
  std::unordered_map<const ir::Value *, llvm::Value *> native_;
  std::unordered_set<const ir::Value *> forcedSlot_;
  // Native values unboxed from their own slot (parameters, captures,
  // trampolined results): the slot already holds them, boxing is not needed.
  std::unordered_set<const ir::Value *> slotHolds_;
  std::unordered_map<int, llvm::AllocaInst *> unboxTemp_;  // by dtype
};

}  // namespace tfs::codegen
