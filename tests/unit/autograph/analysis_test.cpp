// AutoGraph static analysis: reads/writes of statements, definite writes and
// upward-exposed reads (liveness), local scope; and what the converters derive
// from it: if outputs, loop variables, possibly-undefined symbols, spans of
// generated code, determinism.
#include "autograph/analysis.h"
#include "tests/unit/autograph/convert_util.h"

#include <doctest/doctest.h>

using namespace tfs;
using autograph::NameSet;
using autograph::test::convert;
using autograph::test::parse;

TEST_CASE("analysis: tuple, starred, attribute and subscript targets; augmented assignment") {
  auto m = parse("a, (b, *c) = x\nd.e = f\ng[h] += i\nj += 1\n");
  auto u = autograph::usageOf(m->body);
  CHECK(u.writes == NameSet{"a", "b", "c", "j"});
  CHECK(u.reads == NameSet{"d", "f", "g", "h", "i", "j", "x"});
}

TEST_CASE("analysis: nested defs bind their name and read only free names") {
  auto m = parse("def g(p, q=dflt):\n    r = p + free\n    return r\n");
  auto u = autograph::usageOf(m->body);
  CHECK(u.writes == NameSet{"g"});
  CHECK(u.reads == NameSet{"dflt", "free"});
}

TEST_CASE("analysis: upward-exposed reads") {
  auto m = parse("t = x * 2\ns = s + t\nif c:\n    u = 1\nv = u\n");
  CHECK(autograph::upwardExposed(m->body) == NameSet{"c", "s", "u", "x"});
}

TEST_CASE("analysis: an if definitely writes only what both branches write") {
  auto m = parse("if c:\n    a = 1\n    b = a\nelse:\n    a = 2\n    d = b\n");
  auto f = autograph::flowOf(*m->body[0]);
  CHECK(f.definiteWrites == NameSet{"a"});
  CHECK(f.exposedReads == NameSet{"b", "c"});
}

TEST_CASE("analysis: loop bodies write nothing definitely; a for target is bound per iteration") {
  auto m = parse("while i < n:\n    t = i\n    i = t + s\n"
                 "for x in xs:\n    y = x + z\n");
  auto w = autograph::flowOf(*m->body[0]);
  CHECK(w.definiteWrites.empty());
  CHECK(w.exposedReads == NameSet{"i", "n", "s"});
  auto f = autograph::flowOf(*m->body[1]);
  CHECK(f.definiteWrites.empty());
  CHECK(f.exposedReads == NameSet{"xs", "z"});
}

TEST_CASE("analysis: local names exclude global and nonlocal declarations") {
  auto m = parse("def f(a):\n    global g\n    g = 1\n    if a:\n        b = 2\n    for c in a:\n        pass\n");
  auto *fn = llvm::cast<ast::FunctionDef>(m->body[0].get());
  CHECK(autograph::localNames(*fn) == NameSet{"a", "b", "c"});
}

TEST_CASE("if outputs: modified in either branch and live after; dead ones dropped") {
  std::string out = convert(R"py(
def f(c, x):
    if c:
        a = x
        b = x
        t = x
    else:
        a = -x
    return a + b
)py");
  CHECK(out.find("(a, b) = ag__.if_stmt(c, if_true, if_false, (a, b), ('a', 'b'))") != std::string::npos);
  CHECK(out.find("b = ag__.Undefined('b')") != std::string::npos);
  CHECK(out.find("a = ag__.Undefined('a')") != std::string::npos);
  CHECK(out.find("'t'") == std::string::npos);
}

TEST_CASE("loop variables: live after, read before write, or live into the next iteration") {
  std::string out = convert(R"py(
def f(n):
    i = 0
    prev = 0
    cur = 1
    while i < n:
        nxt = prev + cur
        prev = cur
        cur = nxt
        i += 1
    return cur
)py");
  CHECK(out.find("(cur, i, prev) = ag__.while_stmt(loop_cond, loop_body, (cur, i, prev), ('cur', 'i', 'prev'))") !=
        std::string::npos);
}

TEST_CASE("a variable first defined in a loop and used after it is possibly undefined") {
  CHECK(convert(R"py(
def f(xs):
    for x in xs:
        y = x * 2
    return y + x
)py") == R"py(
def f(xs):
    x = ag__.Undefined('x')
    y = ag__.Undefined('y')
    def loop_body(itr, x, y):
        x = itr
        y = x * 2
        return (x, y)
    (x, y) = ag__.for_stmt(xs, None, loop_body, (x, y), ('x', 'y'))
    return y + x
)py");
}

TEST_CASE("generated code carries the span of the user statement it came from") {
  auto m = parse("def f(x):\n    y = 0\n    if x > 0:\n        y = x\n    while y < 10:\n        y += 1\n    return y\n");
  auto *fn = llvm::cast<ast::FunctionDef>(m->body[0].get());
  auto conv = autograph::convertFunction(*fn);
  std::vector<uint32_t> lines;
  for (const auto &s : conv->body) lines.push_back(s->span.line);
  // y = 0 | def if_true, def if_false, if_stmt call | loop_cond, loop_body, while_stmt | return
  CHECK(lines == std::vector<uint32_t>{2, 3, 3, 3, 5, 5, 5, 7});
  auto *call = llvm::cast<ast::Assign>(conv->body[3].get());
  CHECK(call->value->span.line == 3);
}

TEST_CASE("conversion is deterministic and leaves the input untouched") {
  auto m = parse("def f(a, b):\n    while a < b and b > 0:\n        if a:\n            break\n        a += 1\n    return a\n");
  auto *fn = llvm::cast<ast::FunctionDef>(m->body[0].get());
  std::string before = autograph::printCode(*fn);
  std::string one = autograph::printCode(*autograph::convertFunction(*fn));
  std::string two = autograph::printCode(*autograph::convertFunction(*fn));
  CHECK(one == two);
  CHECK(autograph::printCode(*fn) == before);
}
