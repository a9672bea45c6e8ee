// AutoGraph converters: parse -> convert -> print code, checked against the
// expected converted text; analysis helpers on small bodies.
#include "autograph/analysis.h"
#include "autograph/autograph.h"
#include "frontend/frontend.h"

#include <doctest/doctest.h>
#include <iostream>

using namespace tfs;

namespace {
std::string convert(const std::string &src) {
  auto m = frontend::parseSource("t.tfs", src);
  auto *fn = llvm::cast<ast::FunctionDef>(m->body.at(0).get());
  return autograph::printCode(*autograph::convertFunction(*fn));
}
}  // namespace

TEST_CASE("if/else becomes ag__.if_stmt over the modified, live variables") {
  CHECK(convert("def f(x):\n"
                "    if x > 0:\n"
                "        x = x * x\n"
                "    else:\n"
                "        x = 0.0\n"
                "    return x\n") ==
        "def f(x):\n"
        "    def if_true(x):\n"
        "        x = x * x\n"
        "        return (x,)\n"
        "    def if_false(x):\n"
        "        x = 0.0\n"
        "        return (x,)\n"
        "    (x,) = ag__.if_stmt(x > 0, if_true, if_false, (x,), ('x',))\n"
        "    return x\n");
}

TEST_CASE("for with continue: loop state, continue flag, converted calls") {
  std::string out = convert("def sum_even(items):\n"
                            "    s = 0\n"
                            "    for c in items:\n"
                            "        if c % 2 > 0:\n"
                            "            continue\n"
                            "        s += c\n"
                            "    return s\n");
  CHECK(out ==
        "def sum_even(items):\n"
        "    s = 0\n"
        "    def loop_body(itr, s):\n"
        "        c = itr\n"
        "        continue_ = False\n"
        "        def if_true(continue_):\n"
        "            continue_ = True\n"
        "            return (continue_,)\n"
        "        def if_false(continue_):\n"
        "            return (continue_,)\n"
        "        (continue_,) = ag__.if_stmt(c % 2 > 0, if_true, if_false, (continue_,), ('continue_',))\n"
        "        def if_true_1(s):\n"
        "            s += c\n"
        "            return (s,)\n"
        "        def if_false_1(s):\n"
        "            return (s,)\n"
        "        (s,) = ag__.if_stmt(ag__.not_(continue_), if_true_1, if_false_1, (s,), ('s',))\n"
        "        return (s,)\n"
        "    (s,) = ag__.for_stmt(items, None, loop_body, (s,), ('s',))\n"
        "    return s\n");
}

TEST_CASE("while with break and an early return") {
  std::string out = convert("def f(n):\n"
                            "    i = 0\n"
                            "    while i < n:\n"
                            "        if i == 3:\n"
                            "            return i\n"
                            "        i += 1\n"
                            "    return -1\n");
  CHECK(out.find("do_return = False") != std::string::npos);
  CHECK(out.find("ag__.while_stmt(loop_cond, loop_body, (do_return, i, retval_), ('do_return', 'i', 'retval_'))") != std::string::npos);
  CHECK(out.find("return ag__.retval(retval_)") != std::string::npos);
  CHECK(out.find("ag__.and_(lambda: ag__.not_(do_return), lambda: i < n)") != std::string::npos);
}

TEST_CASE("undefined before an if gets ag__.Undefined; logical operators are lazy") {
  std::string out = convert("def f(a, b):\n"
                            "    if a and not b:\n"
                            "        y = 1\n"
                            "    else:\n"
                            "        y = 2\n"
                            "    return y if a else g(y, k=b)\n");
  CHECK(out.find("y = ag__.Undefined('y')") != std::string::npos);
  CHECK(out.find("ag__.and_(lambda: a, lambda: ag__.not_(b))") != std::string::npos);
  CHECK(out.find("ag__.if_exp(a, lambda: y, lambda: ag__.converted_call(g, (y,), {'k': b}), 'a')") != std::string::npos);
}

TEST_CASE("analysis: upward-exposed reads") {
  auto m = frontend::parseSource("t.tfs", "t = x * 2\ns = s + t\nif c:\n    u = 1\nv = u\n");
  auto exposed = autograph::upwardExposed(m->body);
  CHECK(exposed == autograph::NameSet{"c", "s", "u", "x"});
}
