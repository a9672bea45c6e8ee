// The gradient of while_loop (see graph_gradients.h).
//
// Note [While-loop gradient]
// Forward loop L carries x_0..x_{n-1}; its body may use outer values F.
// 1. L is augmented once (marked with attr `_grad_saved` = n): an iteration
//    counter and, per carried value, a stack [?, dims...] onto which the
//    body pushes the value it entered the iteration with (a
//    tensor_array_write at the counter, in place). The results of L
//    thus gain count N and the stacks S_k.
// 2. The backward loop carries (j = N-1, g_k for float x_k, a_f for float F):
//      cond: j >= 0
//      body: x_k = S_k[j]; recompute the forward body from x_k (only nodes
//            the yields need); backprop its yields (seeded with g_k) to the
//            x_k and F; yield j-1, the new g_k, a_f + dF.
// 3. Its results are the gradients of the inits (g_k) and of F (a_f).
//
// A carried value whose leading dim changes between iterations (a tensor
// grown with tf.concat under a shape invariant, a dynamic TensorArray's
// buffer) cannot be one row of a stack. Its entries are saved ragged: the
// values concatenated along axis 0 onto S_k [?, dims[1:]...] and their
// leading dims onto R_k [?]; S_k[j] is then the rows
// [sum(R_k[:j]), sum(R_k[:j + 1])) of S_k. The R_k follow the S_k among the
// results, in the order of attr `_grad_ragged`.
//
// A carried array buffer that the body changes by one tensor_array_write
// (the yield is tensor_array_write(x_k, ready, index, value)) is not saved
// at all: see Note [Undoing array writes] (runtime/kernels/tensor_array.cpp).
// The forward loop pushes, per iteration, the row the write replaces onto
// S_k, and x_k's shape and the index onto U_u / I_u (after the R rows, in
// the order of attr `_grad_undo`). The backward loop carries B_u, starting
// from the loop's final buffer, and gets x_k = undo(B_u) each iteration;
// the write itself is not recomputed (it would copy the buffer): its
// gradient is taken directly (the value gets row `index` of g_k, the buffer
// g_k with that row zeroed, in place).
#include "runtime/autodiff/graph_grad_detail.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_set>

namespace tfs::runtime::graphgrad {
namespace {

using ir::DType;
using ir::OpKind;
using ir::Value;
constexpr const char *kSavedAttr = "_grad_saved";
constexpr const char *kRaggedAttr = "_grad_ragged";
constexpr const char *kUndoAttr = "_grad_undo";

// The tensor_array_write that yields carried value k straight from its
// block arg, or null.
ir::Node *undoableWrite(const ir::Region &body, size_t k) {
  Value *y = body.terminator()->operand(k);
  ir::Node *w = y->definingNode();
  if (!w || w->kind() != OpKind::TensorArrayWrite || w->parentRegion() != &body ||
      w->operand(0) != body.arg(unsigned(k)))
    return nullptr;
  if (!body.arg(unsigned(k))->type.shape.ranked || !w->operand(3)->type.shape.ranked) return nullptr;
  return w;
}

// An empty stack [0, dims...] of `t`'s rank (unknown dims 0: the first
// push, not ready, replaces it).
Value *emptyStackOf(ir::Builder &b, const ir::TensorType &t, frontend::SourceSpan span) {
  std::vector<int64_t> dims{0};
  for (int64_t d : t.shape.dims) dims.push_back(d < 0 ? 0 : d);
  return b.constant(ir::DenseElements(t.dtype, ir::Shape(dims), {}), span);
}

bool savedRagged(const ir::TensorType &t) { return t.shape.ranked && t.shape.rank() >= 1 && t.shape.dims[0] < 0; }

void augmentForwardLoop(ir::Node &loop, size_t n, frontend::SourceSpan span) {
  ir::Region &parent = *loop.parentRegion();
  ir::Builder pre(parent, parent.positionOf(&loop));
  ir::Region &body = loop.region(1);
  std::vector<Value *> operands(loop.operands().begin(), loop.operands().end());
  std::vector<ir::TensorType> stackTypes;
  Value *emptyIdx = pre.constant(ir::DenseElements(DType::Int32, ir::Shape({0}), {}), span);
  operands.push_back(pre.scalarInt(DType::Int32, 0, span));
  std::vector<int64_t> ragged, undo;
  for (size_t k = 0; k < n; ++k) {
    ir::TensorType t = body.arg(k)->type;
    if (!t.shape.ranked)
      throwGradError("gradient of while_loop needs loop variables of known rank");
    if (ir::Node *w = undoableWrite(body, k)) {
      // S_k: the replaced rows, [?, *value dims].
      undo.push_back(int64_t(k));
      ir::TensorType row = w->operand(3)->type;
      row.shape.dims.insert(row.shape.dims.begin(), ir::kUnknownDim);
      stackTypes.push_back(row);
      operands.push_back(emptyStackOf(pre, w->operand(3)->type, span));
      continue;
    }
    if (savedRagged(t)) {
      ragged.push_back(int64_t(k));
      stackTypes.push_back(t);
      operands.push_back(pre.create(OpKind::Gather, {loop.operand(k), emptyIdx}, {{"axis", int64_t(0)}}, span));
      continue;
    }
    ir::TensorType st = t;
    st.shape.dims.insert(st.shape.dims.begin(), ir::kUnknownDim);
    stackTypes.push_back(st);
    Value *e = pre.create(OpKind::ExpandDims, {loop.operand(k)}, {{"axis", int64_t(0)}}, span);
    operands.push_back(pre.create(OpKind::Gather, {e, emptyIdx}, {{"axis", int64_t(0)}}, span));
  }
  ir::TensorType rowsType{DType::Int32, ir::Shape(std::vector<int64_t>{ir::kUnknownDim})};
  for (size_t r = 0; r < ragged.size(); ++r) {
    stackTypes.push_back(rowsType);
    operands.push_back(emptyIdx);
  }
  for (int64_t k : undo) {  // U_u [?, rank] and I_u [?]
    int64_t rank = int64_t(body.arg(unsigned(k))->type.shape.rank());
    stackTypes.push_back({DType::Int32, ir::Shape(std::vector<int64_t>{ir::kUnknownDim, rank})});
    operands.push_back(pre.constant(ir::DenseElements(DType::Int32, ir::Shape({0, rank}), {}), span));
    stackTypes.push_back(rowsType);
    operands.push_back(emptyIdx);
  }
  loop.setOperands(operands);
  ir::TensorType counterType{DType::Int32, ir::Shape(std::vector<int64_t>{})};
  for (unsigned r = 0; r < 2; ++r) {
    loop.region(r).addArg(counterType, "iteration");
    for (size_t k = 0; k < stackTypes.size(); ++k)
      loop.region(r).addArg(stackTypes[k], k < n ? "saved" : "saved_rows");
  }
  ir::Node *yield = body.terminator();
  ir::Builder bb(body, body.positionOf(yield));
  std::vector<Value *> next(yield->operands().begin(), yield->operands().end());
  Value *counter = body.arg(n);
  Value *one = bb.scalarInt(DType::Int32, 1, span);
  next.push_back(bb.create(OpKind::Add, {counter, one}, {}, span));
  // A push is a tensor_array_write at the iteration count (the stack dies
  // there, so it grows in place: amortized O(entry), where a concat would
  // copy the whole stack every iteration).
  Value *ready = bb.scalar(DType::Bool, 1, span);
  auto push = [&](ir::Builder &at, Value *stack, Value *entry, Value *isReady) {
    return at.create(OpKind::TensorArrayWrite, {stack, isReady, counter, entry}, {{"dynamic_size", true}}, span);
  };
  std::vector<Value *> undoShapes, undoIndices;
  for (size_t k = 0; k < n; ++k) {
    Value *stack = body.arg(n + 1 + k);
    if (std::find(undo.begin(), undo.end(), int64_t(k)) != undo.end()) {
      // Read before the write (which then updates x_k in place).
      ir::Node *w = undoableWrite(body, k);
      ir::Builder wb(body, body.positionOf(w));
      Value *index = w->operand(2);
      if (index->type.dtype != DType::Int32)
        index = wb.create(OpKind::Cast, {index}, {{"dtype", DType::Int32}}, span);
      Value *row = wb.create(OpKind::TensorArrayRowOrZeros, {body.arg(k), w->operand(1), index, w->operand(3)}, {},
                             span);
      Value *notFirst = wb.create(OpKind::Greater, {counter, wb.scalarInt(DType::Int32, 0, span)}, {}, span);
      next.push_back(push(wb, stack, row, notFirst));
      undoShapes.push_back(wb.create(OpKind::ShapeOf, {body.arg(k)}, {}, span));
      undoIndices.push_back(index);
      continue;
    }
    bool isRagged = std::find(ragged.begin(), ragged.end(), int64_t(k)) != ragged.end();
    if (isRagged)
      next.push_back(bb.create(OpKind::Concat, {stack, body.arg(k)}, {{"axis", int64_t(0)}}, span));
    else
      next.push_back(push(bb, stack, body.arg(k), ready));
  }
  for (size_t r = 0; r < ragged.size(); ++r) {
    Value *shape = bb.create(OpKind::ShapeOf, {body.arg(unsigned(ragged[r]))}, {}, span);
    Value *rows = bb.create(OpKind::StridedSlice, {shape},
                            {{"begin", std::vector<int64_t>{0}}, {"end", std::vector<int64_t>{1}},
                             {"strides", std::vector<int64_t>{1}}}, span);
    Value *saved = body.arg(unsigned(2 * n + 1 + r));
    next.push_back(bb.create(OpKind::Concat, {saved, rows}, {{"axis", int64_t(0)}}, span));
  }
  for (size_t u = 0; u < undo.size(); ++u) {
    size_t slot = 2 * n + 1 + ragged.size() + 2 * u;
    next.push_back(push(bb, body.arg(unsigned(slot)), undoShapes[u], ready));
    next.push_back(push(bb, body.arg(unsigned(slot + 1)), undoIndices[u], ready));
  }
  yield->setOperands(next);
  loop.addResult(counterType);
  for (const auto &t : stackTypes)
    loop.addResult(t);
  loop.attrs[kSavedAttr] = static_cast<int64_t>(n);
  loop.attrs[kRaggedAttr] = ragged;
  loop.attrs[kUndoAttr] = undo;
}

// Nodes of `region` (top level) that `roots` depend on.
NodeSet neededNodes(const ir::Region &region,
                                                 std::span<Value *const> roots) {
  std::unordered_map<const Value *, const ir::Node *> producer;
  for (const auto &n : region.nodes())
    for (Value *r : n->results())
      producer[r] = n.get();
  NodeSet needed;
  std::vector<const Value *> work(roots.begin(), roots.end());
  while (!work.empty()) {
    const Value *v = work.back();
    work.pop_back();
    auto it = producer.find(v);
    if (it == producer.end() || !needed.insert(it->second).second)
      continue;
    const ir::Node *n = it->second;
    for (Value *u : n->operands())
      work.push_back(u);
    if (n->numRegions() > 0)
      for (Value *u : freeValuesOf(*n))
        work.push_back(u);
  }
  return needed;
}

}  // namespace

std::vector<OptHandle> whileLoopGradient(GraphEmitter &em, const GradOpInfo &op,
                                         std::span<const OptHandle> og) {
  // The forward node is mutated on purpose (step 1 of the note).
  auto &loop = const_cast<ir::Node &>(*op.node);
  frontend::SourceSpan span = em.span();
  size_t n;
  if (auto it = loop.attrs.find(kSavedAttr); it != loop.attrs.end()) {
    n = static_cast<size_t>(std::get<int64_t>(it->second));
    const auto *r = ir::attrInts(loop.attrs, kRaggedAttr);
    const auto *u = ir::attrInts(loop.attrs, kUndoAttr);
    if (loop.numOperands() != 2 * n + 1 + (r ? r->size() : 0) + 2 * (u ? u->size() : 0))
      throwGradError("gradient of while_loop: the loop was rewritten after its "
                     "values were saved for an earlier gradient");
  } else {
    n = loop.numOperands();
    augmentForwardLoop(loop, n, span);
  }
  const auto *raggedKs = ir::attrInts(loop.attrs, kRaggedAttr);
  const auto *undoKs = ir::attrInts(loop.attrs, kUndoAttr);
  size_t numRagged = raggedKs ? raggedKs->size() : 0;
  std::vector<size_t> undo;
  if (undoKs)
    for (int64_t k : *undoKs) undo.push_back(size_t(k));
  auto undoPos = [&](size_t k) {
    return size_t(std::find(undo.begin(), undo.end(), k) - undo.begin());
  };
  std::vector<Value *> free;
  for (size_t i = n; i < op.inputs.size(); ++i)
    free.push_back(em.valueOf(op.inputs[i]));

  std::vector<size_t> floatCarried, floatFree;
  for (size_t k = 0; k < n; ++k)
    if (ir::isFloating(loop.result(k)->type.dtype))
      floatCarried.push_back(k);

  // Only the float yields carry gradients: recompute what they need (of an
  // undone write, its operands: its gradient is taken directly).
  // A gradient of the loop's gradient (a second derivative) reaches the
  // saved stacks S_k too: the backward loop read them. S_k[j] is x_k as it
  // entered iteration j, so dS_k[j] joins g_k at step j. Without this the
  // path through the saved values was dropped: a silent wrong answer.
  std::vector<Value *> stackGrads(n, nullptr);
  for (size_t k = 0; k < n; ++k) {
    size_t r = n + 1 + k;
    if (r >= og.size() || !og[r])
      continue;
    bool isRagged = raggedKs && std::find(raggedKs->begin(), raggedKs->end(), int64_t(k)) != raggedKs->end();
    if (undoPos(k) < undo.size() || isRagged)
      throwGradError("gradient of a while_loop's gradient through a loop variable that grows or is written in "
                     "place (a TensorArray or a concat under a shape invariant) is not supported by tfs");
    stackGrads[k] = em.valueOf(*og[r]);
  }
  const ir::Region &fwdBody = loop.region(1);
  auto fwdYields = fwdBody.terminator()->operands();
  std::vector<Value *> fwdRoots;
  for (size_t k : floatCarried) {
    if (undoPos(k) < undo.size()) {
      const ir::Node *w = fwdYields[k]->definingNode();
      for (unsigned i = 1; i < 4; ++i)
        fwdRoots.push_back(w->operand(i));
      continue;
    }
    fwdRoots.push_back(fwdYields[k]);
  }
  auto needed = neededNodes(fwdBody, fwdRoots);
  for (size_t f = 0; f < free.size(); ++f)
    if (ir::isFloating(free[f]->type.dtype))
      floatFree.push_back(f);

  ir::Builder &b = em.builder();
  Value *count = loop.result(n);
  std::vector<Value *> inits{
      b.create(OpKind::Sub, {count, b.scalarInt(DType::Int32, 1, span)}, {}, span)};
  std::vector<ir::TensorType> types{count->type};
  for (size_t k : floatCarried) {
    Value *g = k < og.size() && og[k] ? em.valueOf(*og[k]) : nullptr;
    inits.push_back(g ? g : b.create(OpKind::ZerosLike, {loop.result(k)}, {}, span));
    types.push_back(loop.region(1).arg(k)->type);
  }
  for (size_t f : floatFree) {
    inits.push_back(b.create(OpKind::ZerosLike, {free[f]}, {}, span));
    types.push_back(free[f]->type);
  }
  size_t firstBuffer = inits.size();  // B_u: the arrays, undone write by write
  for (size_t k : undo) {
    inits.push_back(loop.result(k));
    types.push_back(loop.region(1).arg(k)->type);
  }

  auto condFn = [&](ir::Builder &cb, std::span<Value *const> args) {
    return cb.create(OpKind::GreaterEqual, {args[0], cb.scalarInt(DType::Int32, 0, span)},
                     {}, span);
  };
  auto bodyFn = [&](ir::Builder &bb, std::span<Value *const> args) {
    Value *j = args[0];
    ValueMap m;
    std::vector<Value *> xs(n);
    auto saved = [&](size_t result) {
      return bb.create(OpKind::Gather, {loop.result(unsigned(result)), j}, {{"axis", int64_t(0)}}, span);
    };
    for (size_t k = 0; k < n; ++k) {
      if (size_t u = undoPos(k); u < undo.size()) {
        size_t slot = 2 * n + 1 + numRagged + 2 * u;
        xs[k] = bb.create(OpKind::TensorArrayUndoWrite,
                          {args[firstBuffer + u], saved(slot), saved(slot + 1), saved(n + 1 + k)}, {}, span);
        xs[k]->type = fwdBody.arg(k)->type;
        m[fwdBody.arg(k)] = xs[k];
        continue;
      }
      size_t raggedPos = 0;
      while (raggedKs && raggedPos < raggedKs->size() && (*raggedKs)[raggedPos] != int64_t(k)) ++raggedPos;
      if (raggedKs && raggedPos < raggedKs->size()) {
        // Rows [sum(R[:j]), sum(R[:j+1])) of the ragged stack.
        Value *rowsSaved = loop.result(2 * n + 1 + raggedPos);
        Value *starts = bb.create(OpKind::Cumsum, {rowsSaved}, {{"axis", int64_t(0)}, {"exclusive", true}}, span);
        Value *start = bb.create(OpKind::Gather, {starts, j}, {{"axis", int64_t(0)}}, span);
        Value *count = bb.create(OpKind::Gather, {rowsSaved, j}, {{"axis", int64_t(0)}}, span);
        Value *end = bb.create(OpKind::Add, {start, count}, {}, span);
        Value *idx = bb.create(OpKind::Range, {start, end, bb.scalarInt(DType::Int32, 1, span)}, {}, span);
        xs[k] = bb.create(OpKind::Gather, {loop.result(n + 1 + k), idx}, {{"axis", int64_t(0)}}, span);
        xs[k]->type = fwdBody.arg(k)->type;
        m[fwdBody.arg(k)] = xs[k];
        continue;
      }
      xs[k] = saved(n + 1 + k);
      xs[k]->type = fwdBody.arg(k)->type;  // S_k[j] has the carried type
      m[fwdBody.arg(k)] = xs[k];
    }
    // Recompute the needed forward nodes (regions included) in order.
    std::vector<ir::Node *> cloned;
    auto ys = cloneRegionInto(bb, fwdBody, m, &cloned, &needed);
    auto records = recordsOf(cloned);
    std::vector<Value *> targets, seeds, sources;
    std::vector<Value *> writeGrads(floatCarried.size(), nullptr);
    for (size_t i = 0; i < floatCarried.size(); ++i) {
      size_t k = floatCarried[i];
      if (undoPos(k) < undo.size()) {
        // The undone write's gradient: row `index` of g_k for its value
        // (taken first: the buffer's gradient then zeroes that row of g_k
        // in place).
        const ir::Node *w = fwdYields[k]->definingNode();
        Value *index = mapped(m, w->operand(2));
        targets.push_back(mapped(m, w->operand(3)));
        seeds.push_back(bb.create(OpKind::Gather, {args[1 + i], index}, {{"axis", int64_t(0)}}, span));
        writeGrads[i] = bb.create(OpKind::TensorArrayWriteGrad, {args[1 + i], xs[k], mapped(m, w->operand(1)), index},
                                  {}, span);
        continue;
      }
      targets.push_back(ys[k]);
      seeds.push_back(args[1 + i]);
    }
    for (size_t k : floatCarried)
      sources.push_back(xs[k]);
    for (size_t f : floatFree)
      sources.push_back(free[f]);
    GraphEmitter inner(bb, span);
    auto grads = backpropValues(inner, records, targets, seeds, sources);
    std::vector<Value *> next{
        bb.create(OpKind::Sub, {j, bb.scalarInt(DType::Int32, 1, span)}, {}, span)};
    for (size_t i = 0; i < floatCarried.size(); ++i) {
      Value *g = grads[i];
      if (writeGrads[i])
        g = g ? bb.create(OpKind::Add, {writeGrads[i], g}, {}, span) : writeGrads[i];
      if (Value *dS = stackGrads[floatCarried[i]]) {
        Value *row = bb.create(OpKind::Gather, {dS, j}, {{"axis", int64_t(0)}}, span);
        row->type = xs[floatCarried[i]]->type;
        g = g ? bb.create(OpKind::Add, {g, row}, {}, span) : row;
      }
      next.push_back(g ? g : bb.create(OpKind::ZerosLike, {xs[floatCarried[i]]}, {}, span));
    }
    for (size_t i = 0; i < floatFree.size(); ++i) {
      Value *acc = args[1 + floatCarried.size() + i];
      Value *g = grads[floatCarried.size() + i];
      next.push_back(g ? bb.create(OpKind::Add, {acc, g}, {}, span) : acc);
    }
    for (size_t u = 0; u < undo.size(); ++u)
      next.push_back(xs[undo[u]]);
    return next;
  };
  auto results = b.whileLoop(inits, condFn, bodyFn, span, types);

  std::vector<OptHandle> out(op.inputs.size());
  for (size_t i = 0; i < floatCarried.size(); ++i)
    out[floatCarried[i]] = em.adoptValue(results[1 + i]);
  for (size_t i = 0; i < floatFree.size(); ++i)
    out[n + floatFree[i]] = em.adoptValue(results[1 + floatCarried.size() + i]);
  return out;
}

}  // namespace tfs::runtime::graphgrad
