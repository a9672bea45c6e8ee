// logical_expressions, conditional_expressions, call_trees and the code
// printer, checked through the printed code.
#include "tests/unit/autograph/convert_util.h"

#include <doctest/doctest.h>

using tfs::autograph::test::convert;

TEST_CASE("and/or/not become lazy ag__.and_/ag__.or_/ag__.not_") {
  CHECK(convert(R"py(
def logical(a, b, c):
    return a and not b or c
)py") == R"py(
def logical(a, b, c):
    return ag__.or_(lambda: ag__.and_(lambda: a, lambda: ag__.not_(b)), lambda: c)
)py");
}

TEST_CASE("chained comparisons stay Python comparisons (TF 2.15 leaves them unconverted)") {
  CHECK(convert(R"py(
def chained(a, b, c):
    return a < b <= c
)py") == R"py(
def chained(a, b, c):
    return a < b <= c
)py");
}

TEST_CASE("conditional expressions become ag__.if_exp with the condition text") {
  CHECK(convert(R"py(
def cond_expr(x):
    return x if x > 0 else -x
)py") == R"py(
def cond_expr(x):
    return ag__.if_exp(x > 0, lambda: x, lambda: -x, 'x > 0')
)py");
}

TEST_CASE("lambda bodies are converted") {
  CHECK(convert(R"py(
def lambdas(xs):
    f = lambda v: v * 2 if v > 0 else 0
    return f(xs)
)py") == R"py(
def lambdas(xs):
    f = lambda v: ag__.if_exp(v > 0, lambda: v * 2, lambda: 0, 'v > 0')
    return ag__.converted_call(f, (xs,), {})
)py");
}

TEST_CASE("calls: print untouched; keyword, starred and ** arguments kept") {
  CHECK(convert(R"py(
def calls(x, *args, **kw):
    print('x is', x, sep='')
    y = tf.reduce_sum(x, axis=0)
    z = len(x)
    return helper(y, *args, k=z, **kw)
)py") == R"py(
def calls(x, *args, **kw):
    print('x is', x, sep='')
    y = ag__.converted_call(tf.reduce_sum, (x,), {'axis': 0})
    z = ag__.converted_call(len, (x,), {})
    return ag__.converted_call(helper, (y, *args), {'k': z, **kw})
)py");
}

TEST_CASE("printer: f-strings, repr quoting, bytes, minimal parentheses, comprehensions") {
  CHECK(convert(R"py(
def printer(x):
    s = f"v={x!r:>5} {x + 1:.2f}"
    t = 'it\'s', "q\"", b'x\n'
    u = x ** -2, -x ** 2, (-x) ** 2, (a + b) * c, a - (b - c), not (a and b)
    v = x[1:2, ::3], [i * i for i in x if i], {k: v for k, v in x}, {1, 2}, (x,)
    return s
)py") == R"py(
def printer(x):
    s = f'v={x!r:>5} {x + 1:.2f}'
    t = ("it's", 'q"', b'x\n')
    u = (x ** -2, -x ** 2, (-x) ** 2, (a + b) * c, a - (b - c), ag__.not_(ag__.and_(lambda: a, lambda: b)))
    v = (x[1:2, ::3], [i * i for i in x if i], {k: v for (k, v) in x}, {1, 2}, (x,))
    return s
)py");
}

TEST_CASE("printer: an f-string whose fields hold single quotes uses double quotes") {
  CHECK(convert(R"py(
def f(d, x):
    return f"{d['k']} it's {x!r}", '\x00\x7f', -(-x), x[::], 1.5e300, 1e-05
)py") == R"py(
def f(d, x):
    return (f"{d['k']} it's {x!r}", '\x00\x7f', --x, x[:], 1.5e+300, 1e-05)
)py");
}
