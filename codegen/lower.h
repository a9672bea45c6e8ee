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

#include "codegen/buffers.h"
#include "codegen/plan.h"
#include "runtime/kernels/vector_math.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tfs::codegen {

struct LoweredModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  // Nodes lowered to native instructions vs. calls of their kernel
  // (--emit=llvm/asm headers; structural nodes count as native).
  size_t nativeNodes = 0, kernelNodes = 0;
};

// Given a function, its plan and its buffer plan.
// Result: a module defining `entryName` (not yet optimized).
LoweredModule lowerFunction(const ir::Function &fn, const Plan &plan, const BufferPlan &buffers,
                            const std::string &entryName);

// True when the element ops (lower_elementwise.cpp) compute `node` for its
// operand and result dtypes, at any rank (lower_scalar.cpp).
bool elementOpSupported(const ir::Node &node);

class Emitter {
public:
  Emitter(const Plan &plan, const BufferPlan &buffers, llvm::Module &m, const std::string &entryName);
  void emitFunction();
  size_t nativeNodes() const { return nativeNodes_; }
  size_t kernelNodes() const { return kernelNodes_; }

  // --- lower_scalar.cpp ---
  // True when `node` has a native lowering for its operand/result types.
  bool canLowerNative(const ir::Node &node) const;
  // Emits it and defines its result.
  void emitNative(const ir::Node &node);

  // --- lower_elementwise.cpp ---
  // `element`, or a vector of `width` of them (width 1: the element type).
  llvm::Type *lanesOf(llvm::Type *element, unsigned width) const;
  // The value of an elementwise node on `xs` (its operands' elements: scalars
  // for width 1, else vectors of `width` lanes). `laneMask` (vectors only,
  // may be null) marks the lanes that hold elements: an integer division by
  // zero is raised for those only.
  llvm::Value *emitElementOp(const ir::Node &node, std::vector<llvm::Value *> xs, unsigned width,
                             llvm::Value *laneMask);
  // f applied lane by lane (width 1: once) to `args`, giving `resultType`.
  llvm::Value *perLane(unsigned width, llvm::Type *resultType,
                       const std::function<llvm::Value *(std::vector<llvm::Value *>)> &f,
                       const std::vector<llvm::Value *> &args);
  // A SLEEF function of float32 scalars or vectors (vector_math.h).
  llvm::Value *sleefCall(runtime::vmath::Fn fn, const std::vector<llvm::Value *> &args, unsigned width);

  // --- lower_tf_math.cpp: TF's float32 tanh and sigmoid (Note [TF's float32
  // tanh and sigmoid]), inline on float scalars or vectors ---
  llvm::Value *tfTanh(llvm::Value *x);
  // Sigmoid of a native scalar (width 1: a one-element tensor, Eigen's
  // scalar path) or of a fused loop's vector, whose lanes in the tensor's
  // last n % 8 elements take the scalar path.
  llvm::Value *tfSigmoid(llvm::Value *x, unsigned width);

private:
  // --- lower_function.cpp ---
  void emitRegionNodes(const ir::Region &region);
  void emitNode(const ir::Node &node);
  void emitTrampoline(const ir::Node &node);
  // Slots of `update`'s variable's earlier reads that nothing reads any more
  // (Note [Dead reads of an updated variable] in lower_function.cpp).
  std::vector<int32_t> deadReadsOf(const ir::Node &update) const;
  // --- lower_control.cpp ---
  void emitCond(const ir::Node &node);
  void emitWhile(const ir::Node &node);
  // Copies the body's yielded buffers into the loop's blocks.
  void yieldBuffers(const ir::Node &loop, int32_t nodeId);

  // --- lower_tensor.cpp: buffers (buffers.h) ---
  // The arena of this call (entry block).
  void emitArena();
  // Pointers of the parameters, captures and constants native code reads.
  void bindEntryBuffers();
  // The memory type of an element (bool: i8).
  llvm::Type *memType(ir::DType t) const;
  // `v`'s elements (first element, as i8*), defined at its definition.
  llvm::Value *bytePtr(const ir::Value *v);
  // Typed pointer to `v`'s first element.
  llvm::Value *elementPtr(const ir::Value *v);
  const BufferStorage &storageOf(const ir::Value *v) const { return buffers_.storage.at(v); }
  // At the definition of a buffer a native node computes: its pointer in
  // the arena, or a new tensor in its slot.
  void defineNativeBuffer(const ir::Value *v, int32_t nodeId);
  // After a kernel (or at entry) put a tensor in `v`'s slot: its pointer,
  // when native code reads it.
  void fetchSlotData(const ir::Value *v, int32_t nodeId);
  void emitView(const ir::Node &node);
  void emitScalarLoad(const ir::Node &node);
  void emitMatMul(const ir::Node &node);
  // Copies `src`'s elements into the contiguous block at `dst` (i8*).
  void copyElements(const ir::Value *src, llvm::Value *dst, int32_t nodeId);
  // Copies buffer `v` into a new tensor in slot `dst`.
  void boxBuffer(const ir::Value *v, int32_t dst, int32_t nodeId);
  // A private global holding `values` (dims, strides), as i64*.
  llvm::Value *int64Array(const std::vector<int64_t> &values);

  // --- lower_fused.cpp ---
  void emitGroup(const FusionGroup &group);
  // One operand stream of a loop nest: a buffer (pointer + element strides
  // over the nest's dims) or a native scalar broadcast to every element.
  struct Stream {
    ir::DType dtype;
    llvm::Value *ptr = nullptr;      // typed element pointer; null: scalar
    llvm::Value *scalar = nullptr;   // native value when ptr is null
    std::vector<int64_t> strides;    // per nest dim (0: broadcast)
  };
  // Emits loops over `dims` (collapsing what the streams allow, the inner
  // dim vectorized with a masked last vector); `body` gets the inputs'
  // elements (vectors of `width` lanes, width 1 never: at least 2) and the
  // lane mask, and returns the outputs' elements.
  using NestBody = std::function<std::vector<llvm::Value *>(const std::vector<llvm::Value *> &inputs,
                                                            unsigned width, llvm::Value *laneMask)>;
  void emitLoopNest(std::vector<int64_t> dims, std::vector<Stream> inputs, std::vector<Stream> outputs,
                    const NestBody &body);
  // Lanes of the vectors a nest over these dtypes uses.
  unsigned nestWidth(const std::vector<ir::DType> &dtypes) const;

  // --- representation of values ---
  bool isNative(const ir::Value *v) const;
  llvm::Type *nativeType(ir::DType t) const;
  // `v` as a native register of its dtype (unboxing a slot value).
  llvm::Value *nativeValue(const ir::Value *v, int32_t nodeId);
  // Writes `v` into slot `dst` (boxing a native value or copying a slot;
  // `move`: moving it, for a value the code never reads again).
  void storeToSlot(const ir::Value *v, int32_t dst, bool move = false);
  // A slot value defined in `region` that `yield` passes on once: it dies
  // there, so the yield may move it.
  bool yieldMoves(const ir::Value *v, const ir::Node &yield) const;
  // Boxes a native value into its own slot (consts are already there).
  void materializeSlot(const ir::Value *v);
  llvm::Value *unbox(int32_t slot, ir::DType dtype, int32_t nodeId);
  void box(int32_t slot, ir::DType dtype, llvm::Value *v);
  // Predicate of a cond / while_loop as i1.
  llvm::Value *truth(const ir::Value *v, int32_t nodeId);
  // Branches to the error exit when `status` != 0.
  void checkStatus(llvm::Value *status);
  // Emits a raise of "Integer division by zero" when `divisor` == 0 (for
  // vectors: in any lane `laneMask` marks, every lane when it is null).
  void checkDivisor(llvm::Value *divisor, int32_t nodeId, llvm::Value *laneMask = nullptr);

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
  const BufferPlan &buffers_;
  llvm::Value *arena_ = nullptr;  // i8*
  std::unordered_map<const ir::Value *, llvm::Value *> native_;
  std::unordered_map<const ir::Value *, llvm::Value *> ptr_;  // buffers: i8* to the first element
  // Native values unboxed from their own slot (parameters, captures,
  // trampolined results): the slot already holds them, boxing is not needed.
  std::unordered_set<const ir::Value *> slotHolds_;
  std::unordered_map<int, llvm::AllocaInst *> unboxTemp_;  // by dtype
  size_t nativeNodes_ = 0, kernelNodes_ = 0;
  // Inside a fused loop's body: the row-major index (i64) of the current
  // vector's lane 0, and the element count of the nest (0: outside one).
  llvm::Value *nestFlatIndex_ = nullptr;
  int64_t nestElements_ = 0;
  llvm::Value *tfSigmoidPacket(llvm::Value *x);
  // Every NaN lane the one quiet NaN (as the kernels).
  llvm::Value *canonicalNaN(llvm::Value *r);
};

}  // namespace tfs::codegen
