// Fused loop nests (buffers.h): a fusion group of elementwise nodes becomes
// one loop nest over its shape. Operands are streams (a buffer's elements
// with its strides broadcast to the nest, or a native scalar splatted);
// dimensions that every stream walks contiguously are collapsed into one;
// the innermost dimension is vectorized (host vector width, the width of
// SLEEF's vector variants for float32) with a masked last vector, and the
// element ops are those of native scalars (lower_elementwise.cpp) on
// vectors, so fused results equal the kernels' bit for bit.
#include "codegen/lower.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/ADT/Triple.h>
#include <llvm/Support/Host.h>

#include <algorithm>

namespace tfs::codegen {

using ir::DType;

unsigned Emitter::nestWidth(const std::vector<DType> &dtypes) const {
  // Vector bytes: SLEEF's float32 width on this host (a 512-bit vector on
  // AVX-512), at least 16 bytes.
  unsigned bytes = std::max(16u, unsigned(runtime::vmath::vectorWidth()) * 4u);
  size_t widest = 1;
  for (DType t : dtypes)
    widest = std::max(widest, ir::dtypeSize(t));
  return std::max(2u, unsigned(bytes / widest));
}

namespace {

// Outputs of at least this many bytes get streaming stores (Note [Streaming
// stores]): the L2 size of the machine it was measured on.
constexpr int64_t kNontemporalBytes = int64_t(2) << 20;

// Drops size-1 dims and merges neighbours every stream walks contiguously.
void collapse(std::vector<int64_t> &dims, std::vector<std::vector<int64_t> *> strides) {
  std::vector<int64_t> d;
  std::vector<std::vector<int64_t>> s(strides.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1)
      continue;
    bool merge = !d.empty();
    for (size_t k = 0; merge && k < strides.size(); ++k)
      merge = s[k].back() == (*strides[k])[i] * dims[i];
    if (merge) {
      d.back() *= dims[i];
      for (size_t k = 0; k < strides.size(); ++k)
        s[k].back() = (*strides[k])[i];
      continue;
    }
    d.push_back(dims[i]);
    for (size_t k = 0; k < strides.size(); ++k)
      s[k].push_back((*strides[k])[i]);
  }
  if (d.empty()) {  // a single element
    d.push_back(1);
    for (auto &x : s)
      x.push_back(0);
  }
  dims = d;
  for (size_t k = 0; k < strides.size(); ++k)
    *strides[k] = s[k];
}

}  // namespace

void Emitter::emitLoopNest(std::vector<int64_t> dims, std::vector<Stream> inputs, std::vector<Stream> outputs,
                           const NestBody &body) {
  for (int64_t d : dims)
    if (d == 0)
      return;
  // The row-major index of each element rides along as a last, never
  // stored, output stream: lane 0's index goes to nestFlatIndex_ for the
  // element ops that depend on an element's position (TF's sigmoid, Note
  // [TF's float32 tanh and sigmoid]). It never prevents a collapse.
  size_t stored = outputs.size();
  outputs.push_back(Stream{DType::Int64, nullptr, nullptr, rowMajorStrides(dims)});
  std::vector<std::vector<int64_t> *> all;
  for (Stream &s : inputs)
    if (s.ptr)
      all.push_back(&s.strides);
  for (Stream &s : outputs)
    all.push_back(&s.strides);
  collapse(dims, all);
  for (Stream &s : inputs)
    if (!s.ptr)
      s.strides.assign(dims.size(), 0);
  std::vector<DType> dtypes;
  for (const Stream &s : inputs)
    dtypes.push_back(s.dtype);
  for (size_t k = 0; k < stored; ++k)
    dtypes.push_back(outputs[k].dtype);
  unsigned width = nestWidth(dtypes);
  size_t depth = dims.size();
  int64_t inner = dims.back();
  // Note [Streaming stores]: a nest that writes at least
  // kNontemporalBytes stores its full vectors with non-temporal hints
  // (vmovntps: no read-for-ownership of the output's cache lines, and the
  // output does not evict the inputs). Measured (bench: a*b+c over float32,
  // 3 reads + 1 write; AMD EPYC, 2 MiB L2, 32 MiB L3): 10M elements 6.3 ->
  // 5.0 ms, 4M 2.0 -> 1.3 ms; followed by a reduce_sum of the output, 1 MiB
  // of output is slower with them (0.074 -> 0.078 ms: the consumer then
  // reads DRAM instead of L2), 2 MiB equal or faster, 4 MiB 0.33 -> 0.30.
  // Only a one-dimensional nest whose outputs are contiguous and of full
  // 64-byte vectors qualifies: buffers that large come from the allocator
  // (tfs_cg_alloc, or a heap arena whose blocks are 64-byte aligned), so
  // every full vector store is aligned, as vmovntps requires.
  bool nontemporal = false;
  if (depth == 1) {
    int64_t bytes = 0;
    bool fullLines = true;
    for (size_t k = 0; k < stored; ++k) {
      const Stream &s = outputs[k];
      bytes += inner * int64_t(ir::dtypeSize(s.dtype));
      fullLines = fullLines && s.strides.back() == 1 && width * ir::dtypeSize(s.dtype) == 64;
    }
    nontemporal = fullLines && stored > 0 && bytes >= kNontemporalBytes;
  }
  auto vecType = [&](DType t) { return lanesOf(nativeType(t), width); };
  auto memVecType = [&](DType t) { return lanesOf(memType(t), width); };
  // Native scalars splatted once, before the loops.
  std::vector<llvm::Value *> splats(inputs.size(), nullptr);
  for (size_t k = 0; k < inputs.size(); ++k)
    if (!inputs[k].ptr)
      splats[k] = b_.CreateVectorSplat(width, inputs[k].scalar);

  auto elementAt = [&](const Stream &s, llvm::Value *offset) {
    return b_.CreateInBoundsGEP(memType(s.dtype), s.ptr, offset);
  };
  auto fromMemory = [&](DType t, llvm::Value *v) {
    return t == DType::Bool ? b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType())) : v;
  };
  auto toMemory = [&](DType t, llvm::Value *v) {
    return t == DType::Bool ? b_.CreateZExt(v, memVecType(t)) : v;
  };
  // Lane mask of a last partial vector holding `count` elements.
  auto maskOf = [&](int64_t count) {
    std::vector<llvm::Constant *> lanes;
    for (unsigned l = 0; l < width; ++l)
      lanes.push_back(b_.getInt1(int64_t(l) < count));
    return llvm::ConstantVector::get(lanes);
  };

  // One vector of the inner dim at element offsets `offsets` (one per
  // stream), `count` lanes valid (width: all).
  auto vectorStep = [&](const std::vector<llvm::Value *> &inOffsets, const std::vector<llvm::Value *> &outOffsets,
                        int64_t count) {
    llvm::Value *mask = count < int64_t(width) ? maskOf(count) : nullptr;
    std::vector<llvm::Value *> xs;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const Stream &s = inputs[k];
      if (!s.ptr) {
        xs.push_back(splats[k]);
        continue;
      }
      int64_t stride = s.strides.back();
      llvm::Type *mt = memVecType(s.dtype);
      llvm::Value *v;
      if (stride == 0) {
        v = b_.CreateVectorSplat(width, b_.CreateLoad(memType(s.dtype), elementAt(s, inOffsets[k])));
      } else if (stride == 1) {
        llvm::Value *p = b_.CreateBitCast(elementAt(s, inOffsets[k]), mt->getPointerTo());
        llvm::Align align(ir::dtypeSize(s.dtype));
        v = mask ? static_cast<llvm::Value *>(
                       b_.CreateMaskedLoad(mt, p, align, mask, llvm::Constant::getNullValue(mt)))
                 : b_.CreateAlignedLoad(mt, p, align);
      } else {
        v = llvm::Constant::getNullValue(mt);
        for (int64_t l = 0; l < count; ++l) {
          llvm::Value *off = b_.CreateAdd(inOffsets[k], b_.getInt64(uint64_t(l * stride)));
          v = b_.CreateInsertElement(v, b_.CreateLoad(memType(s.dtype), elementAt(s, off)), uint64_t(l));
        }
      }
      xs.push_back(fromMemory(s.dtype, v));
    }
    nestFlatIndex_ = outOffsets[stored];
    std::vector<llvm::Value *> ys = body(xs, width, mask);
    nestFlatIndex_ = nullptr;
    for (size_t k = 0; k < stored; ++k) {
      const Stream &s = outputs[k];
      llvm::Type *mt = memVecType(s.dtype);
      llvm::Value *v = toMemory(s.dtype, ys[k]);
      llvm::Value *p = b_.CreateBitCast(elementAt(s, outOffsets[k]), mt->getPointerTo());
      llvm::Align align(ir::dtypeSize(s.dtype));
      if (mask)
        b_.CreateMaskedStore(v, p, align, mask);
      else if (nontemporal) {
        llvm::StoreInst *st = b_.CreateAlignedStore(v, p, llvm::Align(64));
        st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                        llvm::MDNode::get(b_.getContext(), llvm::ConstantAsMetadata::get(b_.getInt32(1))));
      } else
        b_.CreateAlignedStore(v, p, align);
    }
  };

  // A counted loop (count >= 1) whose body gets the induction variable.
  auto loop = [&](int64_t count, const std::function<void(llvm::Value *)> &f) {
    if (count == 1) {
      f(b_.getInt64(0));
      return;
    }
    llvm::BasicBlock *pre = b_.GetInsertBlock();
    llvm::BasicBlock *head = newBlock("nest.body"), *exit = newBlock("nest.exit");
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::PHINode *i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(b_.getInt64(0), pre);
    f(i);
    llvm::Value *next = b_.CreateAdd(i, b_.getInt64(1));
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpSLT(next, b_.getInt64(uint64_t(count))), head, exit);
    b_.SetInsertPoint(exit);
  };

  // Levels 0..depth-2 are scalar loops; the last walks vectors.
  std::function<void(size_t, std::vector<llvm::Value *>, std::vector<llvm::Value *>)> level =
      [&](size_t d, std::vector<llvm::Value *> inOff, std::vector<llvm::Value *> outOff) {
        if (d + 1 < depth) {
          loop(dims[d], [&](llvm::Value *i) {
            std::vector<llvm::Value *> in2 = inOff, out2 = outOff;
            for (size_t k = 0; k < inputs.size(); ++k)
              if (inputs[k].ptr)
                in2[k] = b_.CreateAdd(in2[k], b_.CreateMul(i, b_.getInt64(uint64_t(inputs[k].strides[d]))));
            for (size_t k = 0; k < outputs.size(); ++k)
              out2[k] = b_.CreateAdd(out2[k], b_.CreateMul(i, b_.getInt64(uint64_t(outputs[k].strides[d]))));
            level(d + 1, in2, out2);
          });
          return;
        }
        int64_t full = inner / int64_t(width), rest = inner % int64_t(width);
        auto step = [&](llvm::Value *j, int64_t count) {
          std::vector<llvm::Value *> in2 = inOff, out2 = outOff;
          for (size_t k = 0; k < inputs.size(); ++k)
            if (inputs[k].ptr)
              in2[k] = b_.CreateAdd(in2[k], b_.CreateMul(j, b_.getInt64(uint64_t(inputs[k].strides[d]))));
          for (size_t k = 0; k < outputs.size(); ++k)
            out2[k] = b_.CreateAdd(out2[k], b_.CreateMul(j, b_.getInt64(uint64_t(outputs[k].strides[d]))));
          vectorStep(in2, out2, count);
        };
        if (full > 0)
          loop(full, [&](llvm::Value *v) { step(b_.CreateMul(v, b_.getInt64(width)), int64_t(width)); });
        if (rest > 0)
          step(b_.getInt64(uint64_t(full * int64_t(width))), rest);
      };
  std::vector<llvm::Value *> zeroIn(inputs.size(), b_.getInt64(0)), zeroOut(outputs.size(), b_.getInt64(0));
  level(0, zeroIn, zeroOut);
  // Streaming stores are weakly ordered: the fence makes them visible before
  // the buffer is handed to another thread.
  if (nontemporal && llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    b_.CreateCall(llvm::Intrinsic::getDeclaration(&module_, llvm::Intrinsic::x86_sse_sfence));
  (void)vecType;
}

void Emitter::emitGroup(const FusionGroup &g) {
  int32_t firstId = plan_.nodeId(g.members.front());
  std::unordered_set<const ir::Node *> members(g.members.begin(), g.members.end());
  // External operands, each once.
  std::vector<const ir::Value *> external;
  for (const ir::Node *m : g.members)
    for (const ir::Value *v : m->operands()) {
      const ir::Node *d = v->definingNode();
      if ((d && members.count(d)) || std::find(external.begin(), external.end(), v) != external.end())
        continue;
      external.push_back(v);
    }
  size_t rank = g.shape.size();
  std::vector<Stream> inputs;
  for (const ir::Value *v : external) {
    Stream s;
    s.dtype = v->type.dtype;
    if (isNative(v)) {
      s.scalar = nativeValue(v, firstId);
    } else {
      s.ptr = elementPtr(v);
      // Broadcast: v's dims align with the nest's trailing dims.
      const std::vector<int64_t> &vd = v->type.shape.dims;
      const std::vector<int64_t> &vs = storageOf(v).strides;
      s.strides.assign(rank, 0);
      size_t offset = rank - vd.size();
      for (size_t i = 0; i < vd.size(); ++i)
        s.strides[offset + i] = vd[i] == 1 ? 0 : vs[i];
    }
    inputs.push_back(std::move(s));
  }
  std::vector<Stream> outputs;
  for (const ir::Value *v : g.outputs) {
    defineNativeBuffer(v, plan_.nodeId(v->definingNode()));
    outputs.push_back(Stream{v->type.dtype, elementPtr(v), nullptr, storageOf(v).strides});
  }
  int64_t elements = 1;
  for (int64_t d : g.shape)
    elements *= d;
  emitLoopNest(g.shape, inputs, outputs,
               [&](const std::vector<llvm::Value *> &xs, unsigned width, llvm::Value *mask) {
                 nestElements_ = elements;
                 std::unordered_map<const ir::Value *, llvm::Value *> lanes;
                 for (size_t k = 0; k < external.size(); ++k)
                   lanes[external[k]] = xs[k];
                 for (const ir::Node *m : g.members) {
                   std::vector<llvm::Value *> args;
                   for (const ir::Value *v : m->operands())
                     args.push_back(lanes.at(v));
                   lanes[m->result()] = emitElementOp(*m, args, width, mask);
                 }
                 nestElements_ = 0;
                 std::vector<llvm::Value *> ys;
                 for (const ir::Value *v : g.outputs)
                   ys.push_back(lanes.at(v));
                 return ys;
               });
}

}  // namespace tfs::codegen
