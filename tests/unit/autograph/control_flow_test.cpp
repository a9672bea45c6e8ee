// control_flow converter: if/elif/else, while and for become ag__.if_stmt /
// ag__.while_stmt / ag__.for_stmt over the statement's state (modified and live
// variables); parse -> convert -> printCode compared with the expected text.
#include "tests/unit/autograph/convert_util.h"

#include <doctest/doctest.h>

using tfs::autograph::test::convert;

TEST_CASE("if without else: the branch that does nothing passes the state through") {
  CHECK(convert(R"py(
def if_no_else(x):
    y = 0
    if x > 0:
        y = x
    return y
)py") == R"py(
def if_no_else(x):
    y = 0
    def if_true(y):
        y = x
        return (y,)
    def if_false(y):
        return (y,)
    (y,) = ag__.if_stmt(x > 0, if_true, if_false, (y,), ('y',))
    return y
)py");
}

TEST_CASE("a variable defined in one branch only starts as ag__.Undefined") {
  CHECK(convert(R"py(
def if_one_branch(c):
    if c:
        z = 1
    return z
)py") == R"py(
def if_one_branch(c):
    z = ag__.Undefined('z')
    def if_true(z):
        z = 1
        return (z,)
    def if_false(z):
        return (z,)
    (z,) = ag__.if_stmt(c, if_true, if_false, (z,), ('z',))
    return z
)py");
}

TEST_CASE("a variable overwritten after the if is not an output") {
  CHECK(convert(R"py(
def if_dead(c):
    if c:
        y = 1
    y = 3
    return y
)py") == R"py(
def if_dead(c):
    def if_true():
        y = 1
        return ()
    def if_false():
        return ()
    ag__.if_stmt(c, if_true, if_false, (), ())
    y = 3
    return y
)py");
}

TEST_CASE("elif chains nest: the inner if_stmt is converted first") {
  CHECK(convert(R"py(
def if_elif(x):
    if x > 0:
        r = 1
    elif x < 0:
        r = -1
    else:
        r = 0
    return r
)py") == R"py(
def if_elif(x):
    r = ag__.Undefined('r')
    def if_true_1(r):
        r = 1
        return (r,)
    def if_false_1(r):
        def if_true(r):
            r = -1
            return (r,)
        def if_false(r):
            r = 0
            return (r,)
        (r,) = ag__.if_stmt(x < 0, if_true, if_false, (r,), ('r',))
        return (r,)
    (r,) = ag__.if_stmt(x > 0, if_true_1, if_false_1, (r,), ('r',))
    return r
)py");
}

TEST_CASE("while: loop variables are the modified, live ones, sorted") {
  CHECK(convert(R"py(
def while_sum(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s
)py") == R"py(
def while_sum(n):
    i = 0
    s = 0
    def loop_cond(i, s):
        return i < n
    def loop_body(i, s):
        s += i
        i += 1
        return (i, s)
    (i, s) = ag__.while_stmt(loop_cond, loop_body, (i, s), ('i', 's'))
    return s
)py");
}

TEST_CASE("while: a temporary written before read and dead after is not carried") {
  CHECK(convert(R"py(
def while_temp(n):
    i = 0
    while i < n:
        tmp = i * 2
        i = tmp + 1
    return i
)py") == R"py(
def while_temp(n):
    i = 0
    def loop_cond(i):
        return i < n
    def loop_body(i):
        tmp = i * 2
        i = tmp + 1
        return (i,)
    (i,) = ag__.while_stmt(loop_cond, loop_body, (i,), ('i',))
    return i
)py");
}

TEST_CASE("for over range: range dispatches at run time") {
  CHECK(convert(R"py(
def for_range(n):
    s = 0
    for i in range(n):
        s = s + i
    return s
)py") == R"py(
def for_range(n):
    s = 0
    def loop_body(itr, s):
        i = itr
        s = s + i
        return (s,)
    (s,) = ag__.for_stmt(ag__.converted_call(range, (n,), {}), None, loop_body, (s,), ('s',))
    return s
)py");
}

TEST_CASE("for with a nested tuple target over enumerate") {
  CHECK(convert(R"py(
def for_enumerate(pairs):
    s = 0
    for i, (a, b) in enumerate(pairs):
        s = s + a * b + i
    return s
)py") == R"py(
def for_enumerate(pairs):
    s = 0
    def loop_body(itr, s):
        (i, (a, b)) = itr
        s = s + a * b + i
        return (s,)
    (s,) = ag__.for_stmt(ag__.converted_call(enumerate, (pairs,), {}), None, loop_body, (s,), ('s',))
    return s
)py");
}

TEST_CASE("for with no state: a Python list mutated by a converted method call") {
  CHECK(convert(R"py(
def for_list_append(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return out
)py") == R"py(
def for_list_append(xs):
    out = []
    def loop_body(itr):
        x = itr
        ag__.converted_call(out.append, (x * 2,), {})
        return ()
    ag__.for_stmt(xs, None, loop_body, (), ())
    return out
)py");
}

TEST_CASE("nested functions are converted; calls to them go through converted_call") {
  CHECK(convert(R"py(
def nested_def(x):
    def g(y):
        while y > 10:
            y = y - 10
        return y
    return g(x) + 1
)py") == R"py(
def nested_def(x):
    def g(y):
        def loop_cond(y):
            return y > 10
        def loop_body(y):
            y = y - 10
            return (y,)
        (y,) = ag__.while_stmt(loop_cond, loop_body, (y,), ('y',))
        return y
    return ag__.converted_call(g, (x,), {}) + 1
)py");
}

TEST_CASE("a global written in a branch stays global inside the branch function") {
  CHECK(convert(R"py(
def global_write(x):
    global counter
    if x:
        counter = counter + 1
    return counter
)py") == R"py(
def global_write(x):
    global counter
    def if_true():
        global counter
        counter = counter + 1
        return ()
    def if_false():
        return ()
    ag__.if_stmt(x, if_true, if_false, (), ())
    return counter
)py");
}

TEST_CASE("a subscript store makes its base state (TF's composite symbols); an attribute store does not") {
  CHECK(convert(R"py(
def subscript_targets(x, d, o):
    if x:
        d[0] = x
        o.attr = 1
    return d, o
)py") == R"py(
def subscript_targets(x, d, o):
    def if_true(d):
        d[0] = x
        o.attr = 1
        return (d,)
    def if_false(d):
        return (d,)
    (d,) = ag__.if_stmt(x, if_true, if_false, (d,), ('d',))
    return (d, o)
)py");
}

TEST_CASE("generated names avoid the user's names") {
  CHECK(convert(R"py(
def f(itr, if_true, do_return):
    for x in itr:
        if x > do_return:
            if_true = if_true + x
    return if_true
)py") == R"py(
def f(itr, if_true, do_return):
    def loop_body(itr_1, if_true):
        x = itr_1
        def if_true_1(if_true):
            if_true = if_true + x
            return (if_true,)
        def if_false(if_true):
            return (if_true,)
        (if_true,) = ag__.if_stmt(x > do_return, if_true_1, if_false, (if_true,), ('if_true',))
        return (if_true,)
    (if_true,) = ag__.for_stmt(itr, None, loop_body, (if_true,), ('if_true',))
    return if_true
)py");
}
