// Shape arguments (ir/shape_args.h): static values fold into attributes,
// run-time ones stay operands with what is known of them, and binding
// turns operand values back into the attributes kernels read.
#include "ir/builder.h"
#include "ir/shape_args.h"
#include "ir/text.h"
#include "ir/verifier.h"

#include <doctest/doctest.h>

using namespace tfs::ir;

namespace {
TensorType f32(std::vector<int64_t> dims) { return TensorType{DType::Float32, Shape(std::move(dims))}; }
TensorType i32(std::vector<int64_t> dims) { return TensorType{DType::Int32, Shape(std::move(dims))}; }

// shape(x)[axis] as a scalar.
Value *dimOf(Builder &b, Value *x, int64_t axis) {
  Value *s = b.create(OpKind::ShapeOf, {x});
  return b.create(OpKind::StridedSlice, {s},
                  {{"begin", std::vector<int64_t>{axis}}, {"end", std::vector<int64_t>{axis + 1}},
                   {"strides", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}});
}
}  // namespace

TEST_CASE("shape args: the op table declares them") {
  const OpDef &r = opDef(OpKind::Reshape);
  REQUIRE(r.hasShapeArgs());
  CHECK(r.dataOperands == 1);
  CHECK(r.shapeArgs.size() == 1);
  CHECK(std::string(r.shapeArgs[0]) == "shape");
  CHECK(opDef(OpKind::StridedSlice).shapeArgs.size() == 3);
  CHECK_FALSE(opDef(OpKind::Add).hasShapeArgs());
  // Every op with shape args admits one operand per argument.
  for (size_t k = 0; k < size_t(OpKind::NumOps); ++k) {
    const OpDef &d = opDef(OpKind(k));
    if (!d.hasShapeArgs()) continue;
    CHECK(d.maxOperands == d.dataOperands + int(d.shapeArgs.size()));
  }
}

TEST_CASE("shape args: a statically known shape folds into the attribute") {
  Module m;
  Function *f = m.addFunction("f");
  Value *x = f->addParam(f32({2, 6}), "x");
  Value *y = f->addParam(f32({3, 4}), "y");
  Builder b(f->body());
  // reshape(x, tf.shape(y)): y's shape is static, so the shape is too.
  Value *s = b.create(OpKind::ShapeOf, {y});
  Value *r = b.create(OpKind::Reshape, {x, s});
  CHECK(r->definingNode()->numOperands() == 1);
  CHECK(*attrInts(r->definingNode()->attrs, "shape") == std::vector<int64_t>{3, 4});
  CHECK(r->type == f32({3, 4}));
  // [shape(y)[0] * 2, -1]: arithmetic on known scalars is known.
  Value *two = b.scalarInt(DType::Int32, 2);
  Value *d0 = b.create(OpKind::Mul, {dimOf(b, y, 0), two});
  Value *minus1 = b.scalarInt(DType::Int32, -1);
  Value *packed = b.create(OpKind::Stack, {d0, minus1}, {{"axis", int64_t(0)}});
  Value *r2 = b.create(OpKind::Reshape, {x, packed});
  CHECK(r2->definingNode()->numOperands() == 1);
  CHECK(r2->type == f32({6, 2}));
  std::vector<Value *> outs{r, r2};
  b.ret(outs);
  CHECK_FALSE(verifyModule(m));
}

TEST_CASE("shape args: a run-time shape stays an operand with its known part") {
  Module m;
  Function *f = m.addFunction("f");
  Value *x = f->addParam(f32({kUnknownDim, 4}), "x");
  Builder b(f->body());
  Value *s = b.create(OpKind::ShapeOf, {x});
  // fill(shape(x)): [?, 4].
  Value *zero = b.scalar(DType::Float32, 0.0);
  Value *z = b.create(OpKind::Fill, {zero, s});
  CHECK(z->definingNode()->numOperands() == 2);
  CHECK(z->type == f32({kUnknownDim, 4}));
  CHECK(knownShape(s) == Shape({kUnknownDim, 4}));
  CHECK_FALSE(knownInts(s));
  // reshape(x, [shape(x)[0], 2, 2]): one unknown on each side, equal known
  // counts: the unknown dim carries over.
  Value *two = b.scalarInt(DType::Int32, 2);
  Value *packed = b.create(OpKind::Stack, {dimOf(b, x, 0), two, two}, {{"axis", int64_t(0)}});
  Value *r = b.create(OpKind::Reshape, {x, packed});
  CHECK(r->type == f32({kUnknownDim, 2, 2}));
  // reshape(x, [shape(x)[0], -1]): two unknowns, nothing inferred (TF).
  Value *minus1 = b.scalarInt(DType::Int32, -1);
  Value *p2 = b.create(OpKind::Stack, {dimOf(b, x, 0), minus1}, {{"axis", int64_t(0)}});
  CHECK(b.create(OpKind::Reshape, {x, p2})->type == f32({kUnknownDim, kUnknownDim}));
  std::vector<Value *> outs{z, r};
  b.ret(outs);
  CHECK_FALSE(verifyModule(m));
  // The text form round-trips.
  std::string text = printModule(m);
  CHECK(text.find("fill %") != std::string::npos);
  auto parsed = parseModule(text);
  REQUIRE(parsed.ok());
  CHECK(printModule(*parsed.module) == text);
  CHECK_FALSE(verifyModule(*parsed.module));
}

TEST_CASE("shape args: run-time slice bounds leave the sliced dims unknown") {
  Module m;
  Function *f = m.addFunction("f");
  Value *x = f->addParam(f32({5, 3}), "x");
  Value *i = f->addParam(i32({}), "i");
  Builder b(f->body());
  Value *zero = b.scalarInt(DType::Int32, 0);
  Value *begin = b.create(OpKind::Stack, {i, zero}, {{"axis", int64_t(0)}});
  Attrs a{{"end", std::vector<int64_t>{0, 0}}, {"strides", std::vector<int64_t>{1, 1}},
          {"end_mask", int64_t(2)}, {"begin_mask", int64_t(2)}, {"shrink_axis_mask", int64_t(1)}};
  // x[i, :]: the shrunk dim goes, the full dim stays known.
  Value *row = b.create(OpKind::StridedSlice, {x, begin}, a);
  CHECK(row->type == f32({3}));
  // x[i:, :] (no shrink): dim 0 unknown.
  a["shrink_axis_mask"] = int64_t(0);
  a["end_mask"] = int64_t(3);
  Value *rows = b.create(OpKind::StridedSlice, {x, begin}, a);
  CHECK(rows->type == f32({kUnknownDim, 3}));
  std::vector<Value *> outs{row, rows};
  b.ret(outs);
  CHECK_FALSE(verifyModule(m));
}

TEST_CASE("shape args: binding operand values into attributes") {
  const OpDef &d = opDef(OpKind::StridedSlice);
  Attrs a{{"begin", std::vector<int64_t>{1}}, {"shrink_axis_mask", int64_t(1)}};
  // begin is static, so the two trailing operands are end and strides.
  auto args = dynamicShapeArgs(d, a, 3);
  REQUIRE(args.size() == 2);
  CHECK(std::string(args[0].attr) == "end");
  CHECK(std::string(args[1].attr) == "strides");
  std::vector<ShapeArgValue> values{std::vector<int64_t>{2}, std::vector<int64_t>{1}};
  Attrs bound = bindShapeArgs(d, a, 3, values);
  CHECK(*attrInts(bound, "end") == std::vector<int64_t>{2});
  CHECK(*attrInts(bound, "strides") == std::vector<int64_t>{1});
  CHECK(*attrInts(bound, "begin") == std::vector<int64_t>{1});
  // More operands than missing attributes is malformed.
  Attrs full{{"begin", std::vector<int64_t>{1}}, {"end", std::vector<int64_t>{2}},
             {"strides", std::vector<int64_t>{1}}};
  CHECK_THROWS_AS(dynamicShapeArgs(d, full, 2), OpError);
  // A scalar argument binds an int.
  std::vector<ShapeArgValue> depth{int64_t(7)};
  Attrs oh = bindShapeArgs(opDef(OpKind::OneHot), {}, 2, depth);
  CHECK(attrInt(oh, "depth", -1) == 7);
}
