// The library's modules as the interpreter imports them (registered by
// lib::registerLibrary, as the driver does).
#include "lib/library.h"
#include "runtime/interp/interpreter.h"

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

TEST_CASE("math module") {
  tfs::lib::registerLibrary();
  Interpreter in(RunOptions{});
  Value m = in.importModule("math");
  CHECK(in.repr(in.call(in.getAttr(m, "sqrt"), std::vector<Value>{Value::integer(16)})) == "4.0");
  CHECK(in.repr(in.call(in.getAttr(m, "floor"), std::vector<Value>{Value::real(-3.5)})) == "-4");
  CHECK(raised(in, [&] { in.call(in.getAttr(m, "sqrt"), std::vector<Value>{Value::integer(-1)}); }) ==
        "ValueError: math domain error");
  CHECK(raised(in, [&] { in.importModule("no_such_mod"); }) == "ModuleNotFoundError: No module named 'no_such_mod'");
}
