// optimizeForExecution: the copy a backend runs is optimized, carries its
// callees, leaves the traced function untouched and computes the same.
#include "autodiff_test_util.h"

#include "ir/text.h"
#include "runtime/graph/interpreter.h"
#include "runtime/graph/optimize.h"

using namespace tfs;
using namespace tfs::runtime;
using namespace tfs::testutil;

TEST_CASE("optimizeForExecution: optimized copy with its callees, original untouched") {
  auto parsed = ir::parseModule(R"(func @g(%x: f32[2]) -> f32[2] {
  %0 = const 1.0 : f32[]
  %1 = mul %x, %0 : (f32[2], f32[]) -> f32[2]
  return %1
}
func @f(%x: f32[2]) -> f32[2] {
  %0 = const dense<[1.0, 2.0]> : f32[2]
  %1 = const dense<[3.0, 4.0]> : f32[2]
  %2 = mul %0, %1 : f32[2]
  %3 = exp %x : f32[2]
  %4 = add %x, %2 : f32[2]
  %5 = call @g(%4) : (f32[2]) -> f32[2]
  return %5
}
)");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.error ? parsed.error->str() : ""));
  const ir::Function &f = *parsed.module->lookup("f");
  std::string before = ir::printModule(*parsed.module);

  OptimizedFunction opt = optimizeForExecution(f);
  REQUIRE(opt.fn != nullptr);
  CHECK(opt.fn->name() == "f");
  CHECK(opt.fn != &f);
  CHECK(opt.module->lookup("g") != nullptr);  // the callee came along
  std::string text = ir::printFunction(*opt.fn);
  CHECK(text.find("exp") == std::string::npos);  // dead
  CHECK(text.find("dense<[3.0, 8.0]>") != std::string::npos);  // folded
  CHECK(ir::printFunction(*opt.module->lookup("g")).find("mul") == std::string::npos);
  CHECK(ir::printModule(*parsed.module) == before);

  RunContext ctx;
  Tensor x = f32({2}, {1, 1});
  checkClose(runFunction(*opt.fn, std::span<const Tensor>(&x, 1), ctx).at(0),
             runFunction(f, std::span<const Tensor>(&x, 1), ctx).at(0));
}
