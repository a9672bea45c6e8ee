// IR text format: the printer's exact output for graphs built with the
// Builder (STYLE.md examples), the parser's round trip
// print(parse(print(g))) == print(g), and its diagnostics on bad input.
#include "ir/builder.h"
#include "ir/text.h"

#include <doctest/doctest.h>
#include <limits>

using namespace tfs::ir;

namespace {

TensorType f32(std::vector<int64_t> dims = {}) {
  return TensorType{DType::Float32, Shape(std::move(dims))};
}
TensorType i32(std::vector<int64_t> dims = {}) {
  return TensorType{DType::Int32, Shape(std::move(dims))};
}

// Parses `text`, requires success, and checks it prints back unchanged.
std::string roundTrip(const std::string &text) {
  auto parsed = parseModule(text);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error->str());
  std::string printed = printModule(*parsed.module);
  CHECK(printed == text);
  auto again = parseModule(printed);
  REQUIRE(again.ok());
  CHECK(printModule(*again.module) == printed);
  return printed;
}

std::string parseError(const std::string &text) {
  auto parsed = parseModule(text);
  REQUIRE_FALSE(parsed.ok());
  return parsed.error->str();
}

} // namespace

TEST_CASE("printer: the STYLE.md cond example built with the Builder") {
  Module m;
  Function *f = m.addFunction("f");
  Value *x = f->addParam(f32(), "x");
  Builder b(f->body());
  Value *zero = b.scalar(DType::Float32, 0.0);
  Value *p = b.create(OpKind::Greater, {x, zero});
  auto ys = b.cond(
      p,
      [&](Builder &t) {
        return std::vector<Value *>{t.create(OpKind::Mul, {x, x})};
      },
      [&](Builder &e) {
        return std::vector<Value *>{e.create(OpKind::Neg, {x})};
      });
  b.ret(ys);
  CHECK(printModule(m) == R"(func @f(%x: f32[]) -> f32[] {
  %0 = const 0.0 : f32[]
  %1 = greater %x, %0 : bool[]
  %2 = cond %1 -> (f32[]) {
    %3 = mul %x, %x : f32[]
    yield %3
  } else {
    %4 = neg %x : f32[]
    yield %4
  }
  return %2
}
)");
}

TEST_CASE("printer: the STYLE.md while_loop example built with the Builder") {
  Module m;
  Function *f = m.addFunction("count");
  Value *n = f->addParam(i32(), "n");
  Builder b(f->body());
  Value *zero = b.scalarInt(DType::Int32, 0);
  std::string names[] = {"i"};
  auto r = b.whileLoop(
      std::span(&zero, 1),
      [&](Builder &c, std::span<Value *const> a) {
        return c.create(OpKind::Less, {a[0], n});
      },
      [&](Builder &c, std::span<Value *const> a) {
        Value *one = c.scalarInt(DType::Int32, 1);
        return std::vector<Value *>{c.create(OpKind::Add, {a[0], one})};
      },
      {}, {}, names);
  b.ret(r);
  CHECK(printModule(m) == R"(func @count(%n: i32[]) -> i32[] {
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
}

TEST_CASE("printer: constants of every dtype, splats and empty tensors") {
  Module m;
  Function *f = m.addFunction("consts");
  Builder b(f->body());
  double vals[] = {1.0, 2.0, 3.0, 4.5};
  b.constant(DenseElements::fromDoubles(DType::Float32, Shape({2, 2}), vals));
  b.constant(DenseElements::splat(DType::Float64, Shape({3}), 0.1));
  int64_t ints[] = {-1, 7};
  b.constant(DenseElements::fromInts(DType::Int64, Shape({1, 2}), ints));
  b.constant(DenseElements::scalarBool(true));
  b.constant(DenseElements::fromStrings(Shape({2}), {"a\"b", "c\n"}));
  b.constant(DenseElements::fromDoubles(DType::Float32, Shape({2, 0}), {}));
  b.scalar(DType::Float32, 1e-5);
  b.scalar(DType::Float32, -std::numeric_limits<double>::infinity());
  b.ret({});
  CHECK(printModule(m) == R"(func @consts() -> () {
  %0 = const dense<[[1.0, 2.0], [3.0, 4.5]]> : f32[2,2]
  %1 = const dense<0.1> : f64[3]
  %2 = const dense<[[-1, 7]]> : i64[1,2]
  %3 = const true : bool[]
  %4 = const dense<["a\"b", "c\n"]> : str[2]
  %5 = const dense<[[], []]> : f32[2,0]
  %6 = const 1e-05 : f32[]
  %7 = const -inf : f32[]
  return
}
)");
  roundTrip(printModule(m));
}

TEST_CASE("text: constants of the small, unsigned, half and complex dtypes round trip") {
  // u64 beyond INT64_MAX, f16/bf16 values printed as float32's shortest
  // digits (0.1 in f16 is 0.099975586), complex as [re, im] pairs.
  std::string text = R"(func @consts() -> () {
  %0 = const 18446744073709551615 : u64[]
  %1 = const dense<[-128, 127]> : i8[2]
  %2 = const dense<[0, 65535]> : u16[2]
  %3 = const 0.099975586 : f16[]
  %4 = const dense<[0.100097656, 3.0]> : bf16[2]
  %5 = const dense<[[1.0, -2.5], [0.0, 0.1]]> : c64[2]
  %6 = const dense<[0.1, 2.0]> : c128[]
  return
}
)";
  roundTrip(text);
  auto parsed = parseModule(text);
  REQUIRE(parsed.ok());
  const Node &big = *parsed.module->functions()[0]->body().nodes().front();
  CHECK(uint64_t(big.constValue->intAt(0)) == UINT64_MAX);
  CHECK(parseError(R"(func @f() -> () {
  %0 = const 256 : u8[]
  return
}
)").find("out of range for u8") != std::string::npos);
  CHECK(parseError(R"(func @f() -> () {
  %0 = const 1.0 : c64[]
  return
}
)").find("[re, im] pairs") != std::string::npos);
}

TEST_CASE("text: attributes of each kind, captures, variables, calls, locs") {
  std::string text = R"(func @g(%a: f32[2], %b: f32[2]) -> f32[2] {
  %0 = add %a, %b : f32[2]
  return %0
}

func @f(%x: f32[2]) captures(%w: f32[2], var "v": f32[2]) -> (f32[2], f32[?]) {
  %0 = read_variable {var = "v"} : f32[2]
  %1 = call @g(%x, %w) : f32[2]
  assign_add_variable %1 {var = "v"} : (f32[2]) -> ()
  %2 = reduce_sum %0 {axis = [0], keepdims = false} : f32[]
  %3 = cast %2 {dtype = i32} : i32[]
  %4 = transpose %x {perm = [0]} : f32[2]
  %5 = identity %4 {alpha = 0.5, beta = -inf, name = "n\t", s = shape[2,?], u = shape[*]} : f32[2]
  %6 = identity %5 : f32[?]
  return %4, %6
}
)";
  roundTrip(text);
}

TEST_CASE("text: locations print with --print-loc and parse back") {
  std::string text = R"(func @f(%x: f32[]) -> f32[] {
  %0 = neg %x : f32[] loc("f.tfs":2:6)
  cond %x -> () {
    yield loc("f.tfs":3:1)
  } else {
    yield
  } loc("dir/a \"b\".tfs":4:10)
  return %0
}
)";
  auto parsed = parseModule(text);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error->str());
  PrintOptions withLoc;
  withLoc.printLoc = true;
  CHECK(printModule(*parsed.module, withLoc) == text);
  // Without the option the same module prints location-free.
  CHECK(printModule(*parsed.module).find("loc(") == std::string::npos);
}

TEST_CASE("text: multi-result nodes and nested regions with shadowed names") {
  std::string text = R"(func @f(%i: i32[], %x: f32[]) -> (i32[], f32[]) {
  %0, %1 = while_loop %i, %x : i32[], f32[] cond(%i_1: i32[], %x_1: f32[]) {
    %2 = const 10 : i32[]
    %3 = less %i_1, %2 : bool[]
    yield %3
  } body(%i_1: i32[], %x_1: f32[]) {
    %4 = const 1 : i32[]
    %5 = add %i_1, %4 : i32[]
    %6 = mul %x_1, %x_1 : f32[]
    yield %5, %6
  }
  return %0, %1
}
)";
  roundTrip(text);
}

TEST_CASE("printer: source names are sanitized and made unique") {
  Module m;
  Function *f = m.addFunction("f");
  f->addParam(f32(), "x:0");
  f->addParam(f32(), "x_0");
  f->addParam(f32(), "");
  f->addTensorCapture("x_0", f32(), nullptr);
  Builder b(f->body());
  b.ret({});
  std::string printed = printModule(m);
  CHECK(printed == "func @f(%x_0: f32[], %x_0_1: f32[], %0: f32[]) "
                   "captures(%x_0_2: f32[]) -> () {\n  return\n}\n");
  roundTrip(printed);
}

TEST_CASE("parser: diagnostics with line:col") {
  CHECK(parseError("func @f() -> () {\n  %0 = frob : f32[]\n}\n") ==
        "<ir>:2:8: error: unknown op 'frob'");
  CHECK(parseError("func @f() -> () {\n  %0 = neg %y : f32[]\n}\n") ==
        "<ir>:2:12: error: use of undefined value '%y'");
  CHECK(parseError("func @f(%x: f32[], %y: i32[]) -> () {\n"
                   "  %0 = add %x, %y : i32[]\n}\n") ==
        "<ir>:2:21: error: operands have different types (f32[] and i32[]); "
        "use a functional type '(operands) -> result'");
  CHECK(parseError("func @f(%x: f32[]) -> () {\n  %0 = neg %x : (i32[]) -> "
                   "i32[]\n}\n") == "<ir>:2:17: error: operand 0 has type "
                                    "f32[] but the signature says i32[]");
  CHECK(
      parseError("func @f() -> () {\n  %0 = const dense<[1, 2]> : i32[3]\n}") ==
      "<ir>:2:20: error: constant literal has 2 elements on axis 0 but its "
      "type has 3");
  CHECK(parseError("func @f() -> () {\n  %0 = const 1.5 : i32[]\n}") ==
        "<ir>:2:14: error: expected an integer in a i32 constant");
  CHECK(parseError("func @f() -> () {\n  %0 = const 3000000000 : i32[]\n}") ==
        "<ir>:2:14: error: integer '3000000000' is out of range for i32");
  CHECK(parseError("func @f(%x: f32[]) -> () {\n  %x = neg %x : f32[]\n}") ==
        "<ir>:2:3: error: redefinition of value '%x'");
  CHECK(parseError("func @f() -> f33[] {}") ==
        "<ir>:1:14: error: unknown dtype 'f33'");
  CHECK(parseError("func @f() -> () {\n  %0 = const \"abc : str[]\n}") ==
        "<ir>:2:14: error: unterminated string literal");
  CHECK(parseError("func @f() -> () {") ==
        "<ir>:1:18: error: expected '}' but found end of input");
}

TEST_CASE("parser: survives hostile input") {
  // Deep nesting, truncation at every byte, junk bytes: errors, not crashes.
  std::string deep = "func @f() -> () {\n %0 = const dense<" +
                     std::string(100000, '[') + "> : f32[1]\n}";
  CHECK_FALSE(parseModule(deep).ok());
  std::string good =
      R"(func @f(%x: f32[2]) captures(var "v": f32[2]) -> f32[2] {
  %0 = const dense<[1.0, -2.5]> : f32[2] loc("a.tfs":1:2)
  %1 = add %x, %0 : f32[2]
  %2 = cond %x -> (f32[2]) {
    yield %1
  } else {
    yield %0
  }
  return %2
}
)";
  REQUIRE(parseModule(good).ok());
  for (size_t cut = 0; cut < good.size(); ++cut) {
    auto r = parseModule(good.substr(0, cut));
    if (r.ok())
      CHECK(printModule(*parseModule(printModule(*r.module)).module) ==
            printModule(*r.module));
  }
  for (size_t i = 0; i < good.size(); ++i) {
    for (char junk : {'\0', '\xff', '%', '}', '[', '"', '9', '-'}) {
      std::string mutated = good;
      mutated[i] = junk;
      auto r = parseModule(mutated);
      if (r.ok()) {
        std::string p = printModule(*r.module);
        auto again = parseModule(p);
        REQUIRE_MESSAGE(again.ok(), p);
        CHECK(printModule(*again.module) == p);
      }
    }
  }
  CHECK_FALSE(parseModule("func @f() -> () { %0 = const dense<1.0> : "
                          "f32[100000000000,100000000000] }")
                  .ok());
}
