# CPython oracle for ../dynamic_loops.tfs and ../dynamic_loops_empty.tfs (run
# with /usr/bin/python3; its stdout up to the line "--- empty" is
# dynamic_loops.expected, the rest dynamic_loops_empty.expected). Shapes are
# printed as TF's TensorShape.
def shape(v):
    dims = []
    while isinstance(v, list):
        dims.append(len(v))
        v = v[0] if v else None
    return "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"


def show(v):
    print(shape(v), v)


show(4)
show([float(i * i) for i in range(4)])
show([[float(i), 1.0] for i in range(3)])
print("(0, 2) []")


def scan(fn, xs, init, reverse=False):
    out, acc = [], init
    for e in (xs[::-1] if reverse else xs):
        acc = fn(acc, e)
        out.append(acc)
    return out[::-1] if reverse else out


def fold(fn, xs, init, reverse=False):
    acc = init
    for e in (xs[::-1] if reverse else xs):
        acc = fn(acc, e)
    return acc


def folds(x):
    show([e * 2.0 for e in x])
    if x:
        show([[e, e * e] for e in x])
    else:
        print("(0, 2) []")
    show([int(e) for e in x])
    show(scan(lambda a, e: a + e, x, 0.5))
    show(scan(lambda a, e: a * 2.0 + e, x, 1.0, reverse=True))
    show(fold(lambda a, e: a * 2.0 + e, x, 1.0))
    show(fold(lambda a, e: a * 2.0 + e, x, 1.0, reverse=True))

folds([1.0, 2.0, 3.0, -4.0])
a, b = [1.0, 5.0, 2.0], [2.0, 3.0, -1.0]
show([p + q for p, q in zip(a, b)])
show([p - q for p, q in zip(a, b)])
show([a[0]] + scan(lambda acc, e: acc + e, a[1:], a[0]))  # no initializer: element 0 starts
show(fold(lambda acc, e: acc * e, b[1:], b[0]))
print("--- empty")
folds([])
print("InvalidArgumentError")
