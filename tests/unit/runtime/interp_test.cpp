// Interpreter unit tests: Python text forms (float repr, %-formatting, the
// format-spec mini-language), the object protocol on built-in values, error
// classes and messages raised through the API.
#include "runtime/interp/interpreter.h"
#include "runtime/interp/pyformat.h"

#include <doctest/doctest.h>

using namespace tfs::runtime;

namespace {

// The class name and message of the exception `fn` raises, or "" when none.
template <class F> std::string raised(Interpreter &in, F fn) {
  try {
    fn();
  } catch (const PyException &e) {
    return in.typeName(e.exc) + ": " + in.exceptionMessage(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("float repr is the shortest round trip") {
  Interpreter in(RunOptions{});
  CHECK(in.repr(Value::real(0.1)) == "0.1");
  CHECK(in.repr(Value::real(1e16)) == "1e+16");
  CHECK(in.repr(Value::real(1.5e-7)) == "1.5e-07");
  CHECK(in.repr(Value::real(-0.0)) == "-0.0");
  CHECK(in.repr(Value::real(3.0)) == "3.0");
  CHECK(in.repr(in.binary(BinOp::Add, Value::real(0.1), Value::real(0.2))) == "0.30000000000000004");
}

TEST_CASE("percent formatting") {
  Interpreter in(RunOptions{});
  CHECK(percentFormat(in, "%5d|%-5d|%05d", in.tuple({Value::integer(42), Value::integer(42), Value::integer(42)})) ==
        "   42|42   |00042");
  CHECK(percentFormat(in, "%.2f %e", in.tuple({Value::real(3.14159), Value::real(12345.678)})) ==
        "3.14 1.234568e+04");
  CHECK(percentFormat(in, "%s%%", in.str("x")) == "x%");
}

TEST_CASE("format spec mini-language") {
  Interpreter in(RunOptions{});
  CHECK(formatWithSpec(in, Value::integer(1234567), ",") == "1,234,567");
  CHECK(formatWithSpec(in, Value::integer(12345678), "_x") == "bc_614e");
  CHECK(formatWithSpec(in, Value::real(3.14159), "*^10.2f") == "***3.14***");
  CHECK(formatWithSpec(in, Value::real(0.25), ".1%") == "25.0%");
  CHECK(formatWithSpec(in, Value::integer(5), "#010b") == "0b00000101");
}

TEST_CASE("dict views and KeyError") {
  Interpreter in(RunOptions{});
  auto d = make<DictObject>();
  d->set(in, in.str("a"), Value::integer(1));
  Value keys = in.call(in.getAttr(Value(d), "keys"), {});
  CHECK(in.repr(keys) == "dict_keys(['a'])");
  CHECK(in.length(keys) == 1);
  d->set(in, in.str("b"), Value::integer(2));
  CHECK(in.repr(keys) == "dict_keys(['a', 'b'])");  // a live view
  CHECK(raised(in, [&] { in.getItem(Value(d), in.str("zz")); }) == "KeyError: 'zz'");
}

TEST_CASE("operator errors carry CPython's messages") {
  Interpreter in(RunOptions{});
  CHECK(raised(in, [&] { in.binary(BinOp::Add, Value::integer(1), in.str("a")); }) ==
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'");
  CHECK(raised(in, [&] { in.binary(BinOp::Div, Value::integer(1), Value::integer(0)); }) ==
        "ZeroDivisionError: division by zero");
  CHECK(raised(in, [&] { in.getItem(in.list({}), Value::integer(3)); }) == "IndexError: list index out of range");
}

