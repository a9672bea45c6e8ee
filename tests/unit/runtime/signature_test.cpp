// Declarative signatures: CPython's binding rules and messages, defaults,
// keyword-only and positional-only parameters, *args/**kwargs, and the
// `=!default` marker that turns an unimplemented argument into
// NotImplementedError instead of dropping it.
#include "runtime/interp/interpreter.h"
#include "runtime/interp/signature.h"

#include <doctest/doctest.h>

using namespace tfs::runtime;

namespace {

std::string raised(Interpreter &in, const Signature &sig, std::vector<Value> args, Kwargs kw = {}) {
  try {
    sig.bind(in, args, kw);
  } catch (const PyException &e) {
    return in.typeName(e.exc) + ": " + in.exceptionMessage(e.exc);
  }
  return "";
}

}  // namespace

TEST_CASE("signature binds positionals, keywords and defaults") {
  Interpreter in(RunOptions{});
  Signature sig("tf.reduce_sum(input_tensor, axis=None, keepdims=False, name=None)");
  CHECK(sig.name() == "reduce_sum");
  Bound b = sig.bind(in, std::vector<Value>{Value::integer(1)}, Kwargs{{"keepdims", Value::boolean(true)}});
  CHECK(b[0].asInt() == 1);
  CHECK(b["axis"].isNone());
  CHECK(b["keepdims"].asBool());
  CHECK(b.given("keepdims"));
  CHECK_FALSE(b.given("axis"));
}

TEST_CASE("signature errors read like CPython's") {
  Interpreter in(RunOptions{});
  Signature sig("f(x, y=2, *, k=3)");
  CHECK(raised(in, sig, {}) == "TypeError: f() missing 1 required positional argument: 'x'");
  CHECK(raised(in, sig, {Value::integer(1), Value::integer(2), Value::integer(3)}) ==
        "TypeError: f() takes from 1 to 2 positional arguments but 3 were given");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"z", Value()}}) == "TypeError: f() got an unexpected keyword argument 'z'");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"x", Value()}}) == "TypeError: f() got multiple values for argument 'x'");
  Signature three("g(a, b, c)");
  CHECK(raised(in, three, {}) == "TypeError: g() missing 3 required positional arguments: 'a', 'b', and 'c'");
  Signature kwonly("h(*, k)");
  CHECK(raised(in, kwonly, {}) == "TypeError: h() missing 1 required keyword-only argument: 'k'");
  Signature posonly("p(x, /)");
  CHECK(raised(in, posonly, {}, {{"x", Value::integer(1)}}) ==
        "TypeError: p() got some positional-only arguments passed as keyword arguments: 'x'");
  Signature one("q(x)");
  CHECK(raised(in, one, {Value::integer(1), Value::integer(2)}) == "TypeError: q() takes 1 positional argument but 2 were given");
}

TEST_CASE("signature collects *args and **kwargs") {
  Interpreter in(RunOptions{});
  Signature sig("f(a, *args, sep=' ', **kwargs)");
  Bound b = sig.bind(in, std::vector<Value>{Value::integer(1), Value::integer(2), Value::integer(3)},
                     Kwargs{{"other", Value::integer(4)}});
  CHECK(b.varArgs().size() == 2);
  CHECK(b.varKwargs().size() == 1);
  CHECK(in.str(b["sep"]) == " ");
}

TEST_CASE("unimplemented arguments raise NotImplementedError unless they keep the default") {
  Interpreter in(RunOptions{});
  Signature sig("argmax(a, axis=None, out=!None, *, keepdims=!False, strides=!(1, 1))");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"out", Value()}}) == "");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"keepdims", Value::boolean(false)}}) == "");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"keepdims", Value::boolean(true)}}) ==
        "NotImplementedError: argmax() argument 'keepdims' is not supported by tfs (only its default, False, is)");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"out", Value::integer(0)}}) ==
        "NotImplementedError: argmax() argument 'out' is not supported by tfs (only its default, None, is)");
  CHECK(raised(in, sig, {Value::integer(1)}, {{"strides", in.tuple({Value::integer(1), Value::integer(1)})}}) == "");
}
