"""Random programs for the differential tester: generation, the numpy twin,
and the .tfs text.

A program is inputs (shape, dtype, values) and steps over SSA values; value
i < len(inputs) is input i, value len(inputs) + k is step k's result. The
same steps run three ways: as a .tfs program (eagerly, as tf.functions with
and without unknown-dim input signatures, under GradientTape eagerly and in
a tf.function), as numpy in the inputs' dtype, and as float64 numpy for
finite differences.
"""
import numpy as np

from ops import BINARY, FLOATS, REDUCE, UNARY, np_reduce

DIM_CHOICES = (1, 2, 3, 4, 0, 1, 2, 3)


class Program:
    def __init__(self, inputs, steps, dtype):
        self.inputs = inputs  # list of np.ndarray
        self.steps = steps    # list of tuples, see _step_text / _step_numpy
        self.dtype = dtype

    def copy_without(self, k):
        """The program with step k removed: its uses read its first operand."""
        n = len(self.inputs)
        first = self.steps[k][2]
        steps = []
        for j, s in enumerate(self.steps):
            if j == k:
                continue
            steps.append(_remap(s, lambda v: (first if v == n + k else v) if v < n + k else v - 1))
        return Program(self.inputs, steps, self.dtype)


def _remap(step, f):
    kind = step[0]
    out = list(step)
    out[2] = f(step[2])
    if kind == "binary" and isinstance(step[3], int):
        out[3] = f(step[3])
    return tuple(out)


# ---------------------------------------------------------------- generation

def _shape(rng, rank):
    return tuple(rng.choice(DIM_CHOICES) if rng.random() < 0.97 else 0 for _ in range(rank))


def _broadcast_partner(rng, shape):
    """A shape that broadcasts with `shape` (drop leading dims, set some to 1)."""
    rank = len(shape)
    keep = rng.randint(0, rank)
    return tuple(1 if rng.random() < 0.3 else d for d in shape[rank - keep:])


def _values(rng, shape, dtype):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "int32":
        vals = [rng.randint(-5, 5) for _ in range(n)]
    else:
        vals = [round(rng.uniform(-2, 2), 3) for _ in range(n)]
    return np.array(vals, dtype=dtype).reshape(shape)


def generate(rng):
    dtype = rng.choice(("float32", "float32", "float64", "int32"))
    floating = dtype in FLOATS
    rank = rng.choice((0, 1, 1, 2, 2, 2, 3))
    shape0 = _shape(rng, rank)
    inputs = [_values(rng, shape0, dtype)]
    if rng.random() < 0.7:
        inputs.append(_values(rng, _broadcast_partner(rng, shape0), dtype))
    shapes = [a.shape for a in inputs]
    steps = []
    for _ in range(rng.randint(3, 12)):
        v = rng.randrange(len(shapes)) if rng.random() < 0.3 else len(shapes) - 1
        step = _random_step(rng, v, shapes, dtype, floating)
        if step is None:
            continue
        try:
            out = _step_numpy(step, [np.zeros(s, dtype=dtype) for s in shapes], dtype)
        except (ValueError, IndexError):
            continue
        steps.append(step)
        shapes.append(out.shape)
        if out.size > 4096:
            break
    return Program(inputs, steps, dtype)


def _unary_names(dtype):
    return [n for n, (_, _, ds) in sorted(UNARY.items()) if dtype in ds]


def _random_step(rng, v, shapes, dtype, floating):
    shape = shapes[v]
    rank = len(shape)
    kinds = ["unary"] * 4 + ["binary"] * 4 + ["reduce"] * 2 + ["cond", "agif", "while", "agfor", "inner"]
    if rank >= 1:
        kinds += ["transpose", "reshape", "concat", "cumsum", "reverse", "expand"]
    if rank == 2:
        kinds += ["matmul"]
    kind = rng.choice(kinds)
    unary = _unary_names(dtype)
    if kind == "unary":
        return ("unary", rng.choice(unary), v)
    if kind == "binary":
        name = rng.choice([n for n, (_, _, ds) in sorted(BINARY.items()) if dtype in ds])
        r = rng.random()
        if r < 0.2 and name != "safe_div":
            other = ("const", rng.choice((2, -1, 3)) if not floating else rng.choice((0.5, -1.5, 2.0)))
        else:
            partner = [i for i, s in enumerate(shapes) if _broadcasts(s, shape)]
            other = rng.choice(partner)
        return ("binary", name, v, other)
    if kind == "reduce":
        name = rng.choice([n for n, (_, _, ds) in sorted(REDUCE.items()) if dtype in ds])
        if rank == 0 or rng.random() < 0.3:
            axis = None
        elif rng.random() < 0.5:
            axis = rng.randrange(-rank, rank)
        else:
            axis = sorted(rng.sample(range(rank), rng.randint(1, rank)))
        return ("reduce", name, v, axis, rng.random() < 0.3)
    if kind in ("cond", "agif"):
        return (kind, rng.choice(unary), v, rng.choice(unary))
    if kind in ("while", "agfor"):
        return (kind, rng.choice(unary), v, rng.randint(0, 3))
    if kind == "inner":
        return ("inner", rng.choice(unary), v)
    if kind == "transpose":
        perm = list(range(rank))
        rng.shuffle(perm)
        return ("transpose", None, v, perm)
    if kind == "reshape":
        target = [-1] if rng.random() < 0.5 else list(reversed(shape))
        return ("reshape", None, v, target)
    if kind == "concat":
        return ("concat", None, v, rng.randrange(-rank, rank))
    if kind == "cumsum":
        return ("cumsum", None, v, rng.randrange(rank))
    if kind == "reverse":
        return ("reverse", None, v)
    if kind == "expand":
        return ("expand", None, v, rng.randint(-rank - 1, rank))
    if kind == "matmul":
        return ("matmul", None, v)
    return None


def _broadcasts(a, b):
    """Whether shape a broadcasts onto b without changing b's shape."""
    if len(a) > len(b):
        return False
    return all(x == y or x == 1 for x, y in zip(reversed(a), reversed(b)))


# ---------------------------------------------------------------- numpy twin

def _step_numpy(step, vals, dtype):
    kind, name, a = step[0], step[1], vals[step[2]]
    t = np.dtype(dtype).type
    if kind == "unary":
        return np.asarray(UNARY[name][1](a), dtype=dtype)
    if kind == "binary":
        b = np.asarray(step[3][1], dtype=dtype) if isinstance(step[3], tuple) else vals[step[3]]
        return np.asarray(BINARY[name][1](a, b), dtype=dtype)
    if kind == "reduce":
        axis = tuple(step[3]) if isinstance(step[3], list) else step[3]
        return np_reduce(name, a, axis, step[4])
    if kind in ("cond", "agif"):
        f = UNARY[name][1] if np.sum(a) > 0 else UNARY[step[3]][1]
        return np.asarray(f(a), dtype=dtype)
    if kind in ("while", "agfor"):
        for _ in range(step[3]):
            a = np.asarray(UNARY[name][1](a), dtype=dtype)
        return a
    if kind == "inner":
        return np.asarray(UNARY[name][1](a), dtype=dtype)
    if kind == "transpose":
        return np.transpose(a, step[3])
    if kind == "reshape":
        return np.reshape(a, step[3])
    if kind == "concat":
        return np.concatenate([a, a], axis=step[3])
    if kind == "cumsum":
        return np.cumsum(a, axis=step[3], dtype=dtype)
    if kind == "reverse":
        return a[::-1]
    if kind == "expand":
        return np.expand_dims(a, step[3])
    if kind == "matmul":
        return np.matmul(a, a.T).astype(dtype) if a.dtype.kind == "f" else _int_matmul(a)
    raise ValueError(kind)


def _int_matmul(a):
    return (a.astype(np.int64) @ a.T.astype(np.int64)).astype(np.int32)


def run_numpy(prog, inputs=None, dtype=None):
    dtype = dtype or prog.dtype
    vals = [np.asarray(x, dtype=dtype) for x in (inputs if inputs is not None else prog.inputs)]
    with np.errstate(all="ignore"):
        for s in prog.steps:
            vals.append(_step_numpy(s, vals, dtype))
    return vals[-1]


def connected_inputs(prog):
    """Inputs the output depends on through differentiable paths."""
    n = len(prog.inputs)
    deps = [{i} for i in range(n)]
    for s in prog.steps:
        d = set(deps[s[2]])
        if s[0] == "binary" and isinstance(s[3], int):
            d |= deps[s[3]]
        deps.append(d)
    return deps[-1] if prog.steps else deps[-1]


# ---------------------------------------------------------------- tfs text

def _lit(v):
    return repr(float(v)) if isinstance(v, float) else repr(int(v))


def _unary_text(name, x):
    return UNARY[name][0].format(x)


def _step_text(step, k, names, inners):
    kind, name, a = step[0], step[1], names[step[2]]
    if kind == "unary":
        return [f"{_unary_text(name, a)}"]
    if kind == "binary":
        b = _lit(step[3][1]) if isinstance(step[3], tuple) else names[step[3]]
        return [BINARY[name][0].format(a, b)]
    if kind == "reduce":
        return [f"{REDUCE[name][0]}({a}, axis={step[3]!r}, keepdims={step[4]})"]
    if kind == "cond":
        return [f"tf.cond(tf.reduce_sum({a}) > 0, lambda: {_unary_text(name, a)}, lambda: {_unary_text(step[3], a)})"]
    if kind == "agif":
        return ("if", f"tf.reduce_sum({a}) > 0", _unary_text(name, a), _unary_text(step[3], a))
    if kind == "while":
        return [f"tf.while_loop(lambda i, t: i < {step[3]}, lambda i, t: (i + 1, {_unary_text(name, 't')}), "
                f"[tf.constant(0), {a}])[1]"]
    if kind == "agfor":
        return ("for", a, step[3], _unary_text(name, "t"))
    if kind == "inner":
        inners.append(f"inner{k} = tf.function(lambda t: {_unary_text(name, 't')})")
        return [f"inner{k}({a})"]
    if kind == "transpose":
        return [f"tf.transpose({a}, perm={step[3]!r})"]
    if kind == "reshape":
        return [f"tf.reshape({a}, {step[3]!r})"]
    if kind == "concat":
        return [f"tf.concat([{a}, {a}], axis={step[3]})"]
    if kind == "cumsum":
        return [f"tf.cumsum({a}, axis={step[3]})"]
    if kind == "reverse":
        return [f"{a}[::-1]"]
    if kind == "expand":
        return [f"tf.expand_dims({a}, {step[3]})"]
    if kind == "matmul":
        return [f"tf.matmul({a}, {a}, transpose_b=True)"]
    raise ValueError(kind)


def _tensor_text(x):
    if x.dtype.kind == "f":  # shortest text that reads back as the same value
        flat = ", ".join(np.format_float_positional(v, unique=True) for v in x.reshape(-1))
    else:
        flat = ", ".join(_lit(v) for v in x.reshape(-1).tolist())
    return f"tf.reshape(tf.constant([{flat}], dtype=tf.{x.dtype}), {list(x.shape)!r})"


def tfs_text(prog, weights):
    n = len(prog.inputs)
    params = [f"x{i}" for i in range(n)]
    names = list(params)
    body, inners = [], []
    for k, s in enumerate(prog.steps):
        out = f"v{k}"
        t = _step_text(s, k, names, inners)
        if t[0] == "if":
            body += [f"    if {t[1]}:", f"        {out} = {t[2]}", "    else:", f"        {out} = {t[3]}"]
        elif t[0] == "for":
            body += [f"    t = {t[1]}", f"    for _ in tf.range({t[2]}):", f"        t = {t[3]}", f"    {out} = t"]
        else:
            body.append(f"    {out} = {t[0]}")
        names.append(out)
    body.append(f"    return {names[-1]}")
    plist = ", ".join(params)
    specs = ", ".join(f"tf.TensorSpec({[None] * x.ndim!r}, tf.{x.dtype})" for x in prog.inputs)
    lines = ["import tensorflow as tf", "",
             "def show(tag, t):",
             "    if t is None:",
             "        print(tag, 'None')",
             "        return",
             "    print(tag, t.dtype.name, list(t.shape), ' '.join(repr(v) for v in tf.reshape(t, [-1]).numpy().tolist()))",
             ""]
    lines += inners
    lines += [f"def prog({plist}):"] + body + [""]
    lines += [f"x{i} = {_tensor_text(x)}" for i, x in enumerate(prog.inputs)]
    lines += [f"args = [{plist}]",
              "def mode(tag, f):",
              "    try:",
              "        show(tag, f())",
              "    except Exception as e:",
              "        print(tag, 'error', type(e).__name__, str(e).splitlines()[0] if str(e) else '')",
              "mode('eager', lambda: prog(*args))",
              "mode('function', lambda: tf.function(prog)(*args))",
              f"mode('signature', lambda: tf.function(prog, input_signature=[{specs}])(*args))"]
    if weights is not None:
        lines += [f"w = {_tensor_text(weights)}",
                  "def grads(*a):",
                  "    with tf.GradientTape() as tape:",
                  "        tape.watch(a)",
                  "        loss = tf.reduce_sum(prog(*a) * w)",
                  "    return tape.gradient(loss, a)",
                  "def show_grads(tag, f):",
                  "    try:",
                  "        gs = f()",
                  "    except Exception as e:",
                  "        print(tag, 'error', type(e).__name__, str(e).splitlines()[0] if str(e) else '')",
                  "        return",
                  "    for i, g in enumerate(gs):",
                  "        show(tag + str(i), g)",
                  "show_grads('grad_eager', lambda: grads(*args))",
                  "show_grads('grad_function', lambda: tf.function(grads)(*args))"]
    return "\n".join(lines) + "\n"
