// Reference graph interpreter tests: const, elementwise ops, cond,
// while_loop, call, variables through the RunContext, print, placeholders,
// pruned runs (Session.run) and error locations.
#include "autodiff_test_util.h"

#include "ir/builder.h"
#include "ir/text.h"
#include "ir/passes/passes.h"
#include "runtime/graph/constant_folder.h"
#include "runtime/graph/dense_convert.h"
#include "runtime/graph/interpreter.h"
#include "runtime/kernels/kernels.h"

#include <map>

using namespace tfs;
using namespace tfs::runtime;
using namespace tfs::testutil;
using ir::DType;
using ir::OpKind;
using ir::Value;

namespace {

ir::TensorType scalarType(DType d) { return {d, ir::Shape(std::vector<int64_t>{})}; }

// Variables by capture name, prints into a string, feeds by placeholder name.
struct MapContext : RunContext {
  std::map<std::string, Tensor> variables;
  std::map<std::string, Tensor> feeds;
  std::string printed;

  Tensor readVariable(const ir::Function &, const ir::Capture &var) override {
    return variables.at(var.name);
  }
  void assignVariable(const ir::Function &, const ir::Capture &var,
                      const Tensor &value) override {
    variables[var.name] = value;
  }
  Tensor feedPlaceholder(const ir::Node &node) override {
    auto it = feeds.find(ir::attrString(node.attrs, "name", "Placeholder"));
    if (it == feeds.end())
      return RunContext::feedPlaceholder(node);
    return it->second;
  }
  void writePrintOutput(const std::string &text, bool) override { printed += text; }
};

}  // namespace

TEST_CASE("graph interpreter: cond picks a branch on the predicate") {
  ir::Module m;
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam(scalarType(DType::Float32), "x");
  ir::Builder b(f->body());
  Value *zero = b.scalar(DType::Float32, 0.0);
  Value *p = b.create(OpKind::Greater, {x, zero});
  auto ys = b.cond(
      p, [&](ir::Builder &t) { return std::vector<Value *>{t.create(OpKind::Mul, {x, x})}; },
      [&](ir::Builder &e) { return std::vector<Value *>{e.create(OpKind::Neg, {x})}; });
  b.ret(ys);
  MapContext ctx;
  Tensor three = f32({}, {3.0f}), minus2 = f32({}, {-2.0f});
  checkClose(runFunction(*f, std::span<const Tensor>(&three, 1), ctx).at(0), f32({}, {9.0f}));
  checkClose(runFunction(*f, std::span<const Tensor>(&minus2, 1), ctx).at(0), f32({}, {2.0f}));
}

TEST_CASE("graph interpreter: while_loop sums 0..n-1") {
  ir::Module m;
  ir::Function *f = m.addFunction("sum_to");
  Value *n = f->addParam(scalarType(DType::Int32), "n");
  ir::Builder b(f->body());
  Value *i0 = b.scalarInt(DType::Int32, 0);
  Value *s0 = b.scalarInt(DType::Int32, 0);
  std::vector<Value *> inits{i0, s0};
  auto rs = b.whileLoop(
      inits,
      [&](ir::Builder &c, std::span<Value *const> a) {
        return c.create(OpKind::Less, {a[0], n});
      },
      [&](ir::Builder &c, std::span<Value *const> a) {
        Value *one = c.scalarInt(DType::Int32, 1);
        return std::vector<Value *>{c.create(OpKind::Add, {a[0], one}),
                                    c.create(OpKind::Add, {a[1], a[0]})};
      });
  std::vector<Value *> out{rs[1]};
  b.ret(out);
  MapContext ctx;
  Tensor ten = i32({}, {10});
  auto r = runFunction(*f, std::span<const Tensor>(&ten, 1), ctx);
  CHECK(r.at(0).elementAsInt(0) == 45);
  Tensor zero = i32({}, {0});
  CHECK(runFunction(*f, std::span<const Tensor>(&zero, 1), ctx).at(0).elementAsInt(0) == 0);
}

TEST_CASE("graph interpreter: variables are read and assigned through the context") {
  ir::Module m;
  ir::Function *f = m.addFunction("increment");
  Value *amount = f->addParam(scalarType(DType::Int32), "amount");
  std::string v = f->addVariableCapture("v", scalarType(DType::Int32), nullptr);
  ir::Builder b(f->body());
  b.assignVariable(OpKind::AssignAddVariable, v, amount);
  Value *after = b.readVariable(v);
  std::vector<Value *> out{after};
  b.ret(out);
  MapContext ctx;
  ctx.variables[v] = i32({}, {0});
  Tensor three = i32({}, {3}), four = i32({}, {4});
  runFunction(*f, std::span<const Tensor>(&three, 1), ctx);
  auto r = runFunction(*f, std::span<const Tensor>(&four, 1), ctx);
  CHECK(r.at(0).elementAsInt(0) == 7);
  CHECK(ctx.variables[v].elementAsInt(0) == 7);
}

TEST_CASE("graph interpreter: call runs another function of the module") {
  ir::Module m;
  ir::Function *sq = m.addFunction("square");
  Value *a = sq->addParam(scalarType(DType::Float32), "a");
  {
    ir::Builder b(sq->body());
    std::vector<Value *> r{b.create(OpKind::Mul, {a, a})};
    b.ret(r);
  }
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam(scalarType(DType::Float32), "x");
  ir::Builder b(f->body());
  std::vector<Value *> args{x};
  auto r1 = b.call(*sq, args);
  auto r2 = b.call(*sq, r1);
  b.ret(r2);
  MapContext ctx;
  Tensor two = f32({}, {2.0f});
  checkClose(runFunction(*f, std::span<const Tensor>(&two, 1), ctx).at(0), f32({}, {16.0f}));
}

TEST_CASE("graph interpreter: tensor captures come from trailing args") {
  ir::Module m;
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam(scalarType(DType::Float32), "x");
  Value *w = f->addTensorCapture("w", scalarType(DType::Float32), nullptr);
  ir::Builder b(f->body());
  std::vector<Value *> r{b.create(OpKind::Mul, {x, w})};
  b.ret(r);
  MapContext ctx;
  std::vector<Tensor> args{f32({}, {3.0f}), f32({}, {5.0f})};
  checkClose(runFunction(*f, args, ctx).at(0), f32({}, {15.0f}));
}

TEST_CASE("graph interpreter: print formats like tf.print") {
  ir::Module m;
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam({DType::Int32, ir::Shape({7})}, "x");
  ir::Builder b(f->body());
  std::vector<Value *> ops{x};
  b.createNode(OpKind::Print, ops, {{"template", std::string("x = {}")}});
  Value *h = b.constant(ir::DenseElements::scalarString("hello"));
  std::vector<Value *> ops2{h, x};
  b.createNode(OpKind::Print, ops2, {{"sep", std::string(", ")}});
  b.ret({});
  MapContext ctx;
  Tensor xs = i32({7}, {1, 2, 3, 4, 5, 6, 7});
  runFunction(*f, std::span<const Tensor>(&xs, 1), ctx);
  // A string scalar is quoted unless it is tf.print's sole input (TF's print_v2).
  CHECK(ctx.printed == "x = [1 2 3 ... 5 6 7]\n\"hello\", [1 2 3 ... 5 6 7]\n");
}

TEST_CASE("graph interpreter: placeholders and pruned runs") {
  ir::Module m;
  ir::Function *g = m.addFunction("graph");
  ir::Builder b(g->body());
  std::vector<ir::TensorType> vec2{{DType::Float32, ir::Shape({2})}};
  Value *p =
      b.createTyped(OpKind::Placeholder, {}, {{"name", std::string("p")}}, vec2)->result();
  Value *q =
      b.createTyped(OpKind::Placeholder, {}, {{"name", std::string("q")}}, vec2)->result();
  Value *sq = b.create(OpKind::Square, {p});
  Value *sum = b.create(OpKind::Add, {p, q});
  b.ret({});
  MapContext ctx;
  ctx.feeds["p"] = f32({2}, {1, 2});
  FetchList fetch;
  fetch.values = {sq};
  auto r = runFetches(*g, fetch, {}, ctx);
  checkClose(r.at(0), f32({2}, {1, 4}));
  fetch.values = {sum};
  try {
    runFetches(*g, fetch, {}, ctx);
    FAIL("expected a missing-feed error");
  } catch (const GraphRunError &e) {
    CHECK(e.errorClass == "InvalidArgumentError");
    CHECK(e.message.find("You must feed a value for placeholder tensor 'q'") !=
          std::string::npos);
  }
}

TEST_CASE("graph interpreter: kernel errors carry the node's location") {
  ir::Module m;
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "x");
  Value *y = f->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "y");
  ir::Builder b(f->body());
  frontend::SourceSpan span;
  span.line = span.endLine = 7;
  span.col = 3;
  span.endCol = 6;
  std::vector<Value *> r{b.create(OpKind::Add, {x, y}, {}, span)};
  b.ret(r);
  MapContext ctx;
  std::vector<Tensor> args{f32({2}, {1, 2}), f32({3}, {1, 2, 3})};
  try {
    runFunction(*f, args, ctx);
    FAIL("expected an incompatible-shapes error");
  } catch (const GraphRunError &e) {
    CHECK(e.errorClass == "InvalidArgumentError");
    CHECK(e.loc.span.line == 7);
  }
}

TEST_CASE("graph interpreter: runs a function parsed from IR text") {
  auto parsed = ir::parseModule(R"(func @count(%n: i32[]) -> i32[] {
  %0 = const 0 : i32[]
  %1 = while_loop %0 : i32[] cond(%i: i32[]) {
    %2 = less %i, %n : bool[]
    yield %2
  } body(%i: i32[]) {
    %3 = const 1 : i32[]
    %4 = add %i, %3 : i32[]
    yield %4
  }
  return %1
}
)");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.error ? parsed.error->str() : ""));
  MapContext ctx;
  Tensor five = i32({}, {5});
  auto r = runFunction(*parsed.module->lookup("count"), std::span<const Tensor>(&five, 1), ctx);
  CHECK(r.at(0).elementAsInt(0) == 5);
}

TEST_CASE("constant folder: folds pure ops with the kernels, leaves errors to run time") {
  auto parsed = ir::parseModule(R"(func @f(%x: f32[2]) -> f32[2] {
  %0 = const dense<[1.0, 2.0]> : f32[2]
  %1 = const dense<[3.0, 4.0]> : f32[2]
  %2 = mul %0, %1 : f32[2]
  %3 = add %x, %2 : f32[2]
  return %3
}
)");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.error ? parsed.error->str() : ""));
  ir::PipelineOptions opts;
  opts.constantFolding.folder = makeConstantFolder();
  opts.verifyEach = true;
  auto err = ir::optimize(*parsed.module, opts);
  REQUIRE_MESSAGE(!err, (err ? err->str() : ""));
  std::string text = ir::printModule(*parsed.module);
  CHECK(text.find("mul") == std::string::npos);
  CHECK(text.find("dense<[3.0, 8.0]>") != std::string::npos);
  MapContext ctx;
  Tensor x = f32({2}, {1, 1});
  checkClose(runFunction(*parsed.module->lookup("f"), std::span<const Tensor>(&x, 1), ctx).at(0),
             f32({2}, {4, 9}));
}

TEST_CASE("dense conversion round-trips every dtype") {
  std::vector<Tensor> ts{f32({2}, {1.5f, -2}), f64({}, {0.25}), i32({3}, {1, 2, 3}),
                         Tensor::scalar(int64_t(1) << 40), Tensor::scalar(true),
                         Tensor::scalar(std::string("hello"))};
  for (const Tensor &t : ts) {
    Tensor back = tensorFromDense(denseFromTensor(t));
    CHECK(back.dtype() == t.dtype());
    CHECK(back.shape() == t.shape());
    if (t.dtype() == DType::String)
      CHECK(back.data<std::string>()[0] == "hello");
    else
      for (int64_t i = 0; i < t.numElements(); ++i)
        CHECK(back.elementAsDouble(i) == t.elementAsDouble(i));
  }
}

TEST_CASE("graph interpreter: errors inside a callee name the call sites") {
  ir::Module m;
  ir::Function *g = m.addFunction("g");
  Value *a = g->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "a");
  Value *c = g->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "c");
  frontend::SourceSpan inner, outer;
  inner.line = inner.endLine = 3;
  inner.col = inner.endCol = 5;
  outer.line = outer.endLine = 9;
  outer.col = outer.endCol = 1;
  {
    ir::Builder b(g->body());
    std::vector<Value *> r{b.create(OpKind::Mul, {a, c}, {}, inner)};
    b.ret(r);
  }
  ir::Function *f = m.addFunction("f");
  Value *x = f->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "x");
  Value *y = f->addParam({DType::Float32, ir::Shape({ir::kUnknownDim})}, "y");
  ir::Builder b(f->body());
  std::vector<Value *> args{x, y};
  auto r = b.call(*g, args, outer);
  b.ret(r);
  MapContext ctx;
  std::vector<Tensor> in{f32({2}, {1, 2}), f32({3}, {1, 2, 3})};
  try {
    runFunction(*f, in, ctx);
    FAIL("expected an error");
  } catch (const GraphRunError &e) {
    CHECK(e.loc.span.line == 3);
    REQUIRE(e.callSites.size() == 1);
    CHECK(e.callSites[0].span.line == 9);
  }
}

TEST_CASE("graph interpreter: random ops run through the context") {
  struct SeededContext : MapContext {
    int calls = 0;
    std::vector<Tensor> runRandom(const ir::Node &node, std::span<const Tensor> operands) override {
      ++calls;
      ir::Attrs attrs = node.attrs;
      attrs["seed"] = int64_t(42 + calls);
      return runKernel(node.kind(), operands, attrs);
    }
  };
  ir::Module m;
  ir::Function *f = m.addFunction("f");
  ir::Builder b(f->body());
  Value *r = b.create(OpKind::RandomUniform, {},
                      {{"shape", std::vector<int64_t>{3}}, {"dtype", DType::Float32}});
  std::vector<Value *> out{r};
  b.ret(out);
  SeededContext ctx;
  auto first = runFunction(*f, {}, ctx).at(0);
  auto second = runFunction(*f, {}, ctx).at(0);
  CHECK(ctx.calls == 2);
  CHECK(first.shape() == std::vector<int64_t>{3});
  for (int64_t i = 0; i < 3; ++i) {
    CHECK(first.elementAsDouble(i) >= 0);
    CHECK(first.elementAsDouble(i) < 1);
  }
  CHECK(valuesOf(first) != valuesOf(second));
}
