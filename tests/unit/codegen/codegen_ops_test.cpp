// Native scalar lowerings against the eager kernels: every op with a native
// lowering, on edge values (zero, negatives, NaN, INT_MIN, -1 divisors),
// must give bit-identical results to the graph interpreter; plus call,
// print, tensor captures and slot-carried loop values.
#include "codegen/codegen.h"
#include "ir/text.h"
#include "runtime/graph/interpreter.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tfs;
using runtime::Tensor;

namespace {

struct PrintContext : runtime::RunContext {
  std::string printed;
  void writePrintOutput(const std::string &text, bool) override { printed += text; }
};

std::unique_ptr<ir::Module> parseText(const std::string &text) {
  auto parsed = ir::parseModule(text);
  REQUIRE_MESSAGE(parsed.ok(), (parsed.error ? parsed.error->str() : "") << "\n" << text);
  return std::move(parsed.module);
}

// Bitwise equality (so NaN == NaN and -0.0 != 0.0).
bool sameBits(const Tensor &a, const Tensor &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.byteSize() == b.byteSize() &&
         std::memcmp(a.rawData(), b.rawData(), a.byteSize()) == 0;
}

// Outcome of one run: the result's bits or the error text.
struct Outcome {
  std::optional<Tensor> value;
  std::string error;
};

template <class Run> Outcome outcome(Run run) {
  try {
    return {run().at(0), {}};
  } catch (const runtime::GraphRunError &e) {
    return {std::nullopt, e.errorClass + ": " + e.message};
  }
}

void checkAgree(const std::string &text, std::vector<Tensor> args) {
  auto m = parseText(text);
  const ir::Function &f = *m->functions().at(0);
  runtime::RunContext c1, c2;
  Outcome want = outcome([&] { return runtime::runFunction(f, args, c1); });
  Outcome got = outcome([&] { return codegen::runCompiled(f, args, c2); });
  INFO(text);
  INFO("args: " << args[0].elementAsDouble(0) << ", "
                << (args.size() > 1 ? args[1].elementAsDouble(0) : 0.0));
  CHECK(got.error == want.error);
  REQUIRE(got.value.has_value() == want.value.has_value());
  if (got.value)
    CHECK(sameBits(*got.value, *want.value));
}

template <class T> std::vector<Tensor> samples() {
  std::vector<Tensor> out;
  if constexpr (std::is_floating_point_v<T>) {
    for (T v : {T(0), T(-0.0), T(1.5), T(-2.25), T(7), T(-3), T(1e30),
                std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity()})
      out.push_back(Tensor::scalar(v));
  } else {
    for (T v : {T(0), T(1), T(-1), T(7), T(-7), T(3), std::numeric_limits<T>::min(),
                std::numeric_limits<T>::max()})
      out.push_back(Tensor::scalar(v));
  }
  return out;
}

// Note [INT_MIN / -1]
// The eager kernels divide with C++ `/` and `%`, which trap (SIGFPE) on
// INT_MIN / -1; compiled code instead wraps like two's complement (the
// quotient is INT_MIN, the remainder 0). Those cases are checked against the
// wrapped values, not against the interpreter.
template <class T> bool overflowingDivision(std::string_view op, const Tensor &a, const Tensor &b) {
  if constexpr (std::is_floating_point_v<T>) {
    return false;
  } else {
    bool division = op == "div" || op == "floordiv" || op == "mod";
    return division && a.data<T>()[0] == std::numeric_limits<T>::min() && b.data<T>()[0] == T(-1);
  }
}

template <class T> void checkWrappedDivision(const char *ty, std::string_view op, const Tensor &a) {
  auto m = parseText(fmt::format("func @f(%a: {0}[], %b: {0}[]) -> {0}[] {{\n  %0 = {1} %a, %b : "
                                 "{0}[]\n  return %0\n}}\n",
                                 ty, op));
  runtime::RunContext ctx;
  std::vector<Tensor> args = {a, Tensor::scalar(T(-1))};
  T got = codegen::runCompiled(*m->functions().at(0), args, ctx).at(0).template scalarValue<T>();
  CHECK(got == (op == "mod" ? T(0) : std::numeric_limits<T>::min()));
}

template <class T> void checkOps(const char *ty) {
  const char *binary[] = {"add", "sub", "mul", "div", "floordiv", "mod", "maximum", "minimum",
                          "squared_difference", "pow"};
  const char *compare[] = {"equal", "not_equal", "less", "less_equal", "greater",
                           "greater_equal"};
  const char *unary[] = {"neg", "abs", "sign", "square", "relu", "zeros_like", "ones_like",
                         "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tanh", "sigmoid", "erf"};
  auto xs = samples<T>();
  for (const char *op : binary)
    for (const Tensor &a : xs)
      for (const Tensor &b : xs) {
        if (overflowingDivision<T>(op, a, b)) {
          checkWrappedDivision<T>(ty, op, a);
          continue;
        }
        checkAgree(fmt::format("func @f(%a: {0}[], %b: {0}[]) -> {0}[] {{\n  %0 = {1} %a, %b : "
                               "{0}[]\n  return %0\n}}\n",
                               ty, op),
                   {a, b});
      }
  for (const char *op : compare)
    for (const Tensor &a : xs)
      for (const Tensor &b : xs)
        checkAgree(fmt::format("func @f(%a: {0}[], %b: {0}[]) -> bool[] {{\n  %0 = {1} %a, %b : "
                               "({0}[], {0}[]) -> bool[]\n  return %0\n}}\n",
                               ty, op),
                   {a, b});
  for (const char *op : unary)
    for (const Tensor &a : xs)
      checkAgree(fmt::format("func @f(%a: {0}[]) -> {0}[] {{\n  %0 = {1} %a : {0}[]\n  return "
                             "%0\n}}\n",
                             ty, op),
                 {a});
  for (const char *to : {"f32", "f64", "i32", "i64", "bool"})
    for (const Tensor &a : xs)
      checkAgree(fmt::format("func @f(%a: {0}[]) -> {1}[] {{\n  %0 = cast %a {{dtype = {1}}} : "
                             "({0}[]) -> {1}[]\n  return %0\n}}\n",
                             ty, to),
                 {a});
}

// Ops the type rules reject for a dtype fail at parse/verify time in the
// pipeline; here both backends simply have to agree, errors included.
}  // namespace

TEST_CASE("codegen ops: f32 natives match the kernels") { checkOps<float>("f32"); }
TEST_CASE("codegen ops: f64 natives match the kernels") { checkOps<double>("f64"); }
TEST_CASE("codegen ops: i32 natives match the kernels") { checkOps<int32_t>("i32"); }
TEST_CASE("codegen ops: i64 natives match the kernels") { checkOps<int64_t>("i64"); }

TEST_CASE("codegen ops: logical ops and where on bools") {
  for (bool a : {false, true})
    for (bool b : {false, true}) {
      std::vector<Tensor> args = {Tensor::scalar(a), Tensor::scalar(b)};
      for (const char *op : {"logical_and", "logical_or", "equal", "less"})
        checkAgree(fmt::format("func @f(%a: bool[], %b: bool[]) -> bool[] {{\n  %0 = {} %a, %b "
                               ": bool[]\n  return %0\n}}\n",
                               op),
                   args);
      checkAgree("func @f(%a: bool[], %b: bool[]) -> f32[] {\n  %0 = const 1.0 : f32[]\n"
                 "  %1 = const 2.0 : f32[]\n  %2 = logical_not %b : bool[]\n"
                 "  %3 = logical_and %a, %2 : bool[]\n"
                 "  %4 = where %3, %0, %1 : (bool[], f32[], f32[]) -> f32[]\n  return %4\n}\n",
                 args);
    }
}

TEST_CASE("codegen ops: call, print and tensor captures") {
  auto m = parseText(R"(func @g(%x: i32[]) -> i32[] {
  %0 = mul %x, %x : i32[]
  return %0
}
func @f(%x: i32[]) captures(%w: f32[2]) -> (i32[], f32[2]) {
  %0 = call @g(%x) : i32[]
  print %0, %w {template = "sq={} w={}"} : (i32[], f32[2]) -> ()
  %1 = add %w, %w : f32[2]
  return %0, %1
}
)");
  const ir::Function &f = *m->lookup("f");
  std::vector<Tensor> args = {Tensor::scalar(int32_t(6)),
                              Tensor::fromDoubles(ir::DType::Float32, {2}, {1, 2})};
  PrintContext c1, c2;
  auto want = runtime::runFunction(f, args, c1);
  auto got = codegen::runCompiled(f, args, c2);
  CHECK(sameBits(got[0], want[0]));
  CHECK(sameBits(got[1], want[1]));
  CHECK(got[0].scalarValue<int32_t>() == 36);
  CHECK(c2.printed == c1.printed);
  CHECK(!c2.printed.empty());
}

TEST_CASE("codegen ops: a scalar carried with a relaxed shape stays in a slot") {
  auto m = parseText(R"(func @f(%x: f32[]) -> f32[?] {
  %0 = const 0 : i32[]
  %1, %2 = while_loop %x, %0 : f32[], i32[] cond(%a: f32[?], %i: i32[]) {
    %3 = const 3 : i32[]
    %4 = less %i, %3 : bool[]
    yield %4
  } body(%a: f32[?], %i: i32[]) {
    %5 = add %a, %a : f32[?]
    %6 = const 1 : i32[]
    %7 = add %i, %6 : i32[]
    yield %5, %7
  }
  return %1
}
)");
  const ir::Function &f = *m->lookup("f");
  std::vector<Tensor> args = {Tensor::scalar(1.5f)};
  runtime::RunContext c1, c2;
  auto want = runtime::runFunction(f, args, c1);
  auto got = codegen::runCompiled(f, args, c2);
  CHECK(sameBits(got[0], want[0]));
}

TEST_CASE("codegen ops: errors inside a callee name the call site") {
  auto m = parseText(R"(func @g(%x: i32[]) -> i32[] {
  %0 = const 0 : i32[]
  %1 = mod %x, %0 : i32[] loc("a.tfs":2:7)
  return %1
}
func @f(%x: i32[]) -> i32[] {
  %0 = call @g(%x) : i32[] loc("a.tfs":5:3)
  return %0
}
)");
  const ir::Function &f = *m->lookup("f");
  std::vector<Tensor> args = {Tensor::scalar(int32_t(4))};
  runtime::RunContext ctx;
  try {
    codegen::runCompiled(f, args, ctx);
    FAIL("expected an error");
  } catch (const runtime::GraphRunError &e) {
    CHECK(e.message == "Integer division by zero [Op:FloorMod]");
    CHECK(e.loc.path() == "a.tfs");
    REQUIRE(e.callSites.size() == 1);
    CHECK(e.callSites[0].path() == "a.tfs");
  }
}
