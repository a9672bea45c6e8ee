# Oracle for ../ragged_ops.tfs (run with /usr/bin/python3; its stdout is the
# .expected file). RaggedTensor printing is TF 2.15's __repr__ algorithm
# (numpy() of the rows; np.array2string(separator=", ") under
# np.printoptions(formatter={"all": f})) run on real numpy; values are
# computed with numpy and Python.
import numpy as np


def _formatter(x):
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size != 0 else repr(x.tolist())
    return str(x)


def _rows(values, splits):
    rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
    if not rows:
        return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
    ragged = any(len(r) != len(rows[0]) for r in rows)
    return np.array(rows, dtype=np.object_ if ragged else None)


class RT:
    def __init__(self, flat, *splits):
        self.flat = np.asarray(flat)
        self.splits = [np.asarray(s, dtype=np.int64) for s in splits]

    def numpy(self):
        v = self.flat
        for s in reversed(self.splits):
            v = _rows(v, s)
        return v

    def __str__(self):
        with np.printoptions(formatter={"all": _formatter}):
            return "<tf.RaggedTensor %s>" % _formatter(self.numpy())

    __repr__ = __str__


def splits_of(lengths):
    return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


def const(rows, dtype):
    # A ragged_rank (depth - 1) tensor of nested lists.
    levels = []
    items = rows
    while items and isinstance(items[0], list):
        levels.append(splits_of([len(r) for r in items]))
        nxt = []
        for r in items:
            nxt.extend(r)
        items = nxt
    return RT(np.array(items, dtype=dtype).reshape(-1), *levels)


def const_uniform_inner(rows, dtype):
    return RT(np.array([v for r in rows for v in r], dtype=dtype), splits_of([len(r) for r in rows]))


def tensor_text(a, dtype_name):
    body = str(a)
    shape = "(" + ", ".join(str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")"
    sep = "\n" if "\n" in body else ""
    return "tf.Tensor(%s%s, shape=%s, dtype=%s)" % (sep, body, shape, dtype_name)


def shape_text(dims):
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def row_reduce(rows, fn, empty):
    return np.array([fn(r) if len(r) else empty for r in rows])


def col_reduce(rows, fn):
    width = max(len(r) for r in rows)
    return np.array([fn([r[j] for r in rows if len(r) > j]) for j in range(width)])


digits_rows = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
digits = const(digits_rows, np.int32)
words = const([[b"So", b"long"], [b"thanks", b"for", b"all", b"the", b"fish"]], object)
print(digits)
print(words)
print(const([[1.5, 2.0], [3.25]], np.float32))
print(const([[1, 2], [3, 4]], np.int32))
print(const([[[1, 2], [3]], [[4]]], np.int32))
print(const([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], np.int32))
print(const([[[1], [2, 3]], [[4], [5, 6]]], np.int32))
print(RT(np.array([[1, 2], [3, 4], [5, 6]], np.int32), [0, 2, 3]))
print(RT(np.zeros([0], np.float32), [0, 0, 0]))
print(const([[0.1, 1e-5, 1e20], [2.5]], np.float32))
print(const([[True], [False, True]], bool))
print(const([list(range(1, 28)), list(range(100, 140))], np.int32))
print(const([[i] for i in range(1200)] + [[1, 2]], np.int32))
print(tensor_text(np.array([1, 2, 3], np.int32), "int32"))

values = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32)
for _ in range(5):
    print(RT(values, [0, 4, 4, 7, 8, 8]))
print(RT(values, [0, 1, 3], [0, 2, 3, 8]))
print(RT(values, [0, 1, 3], [0, 2, 3, 8]))
print(RT(np.array([1, 2, 3], np.int32), [0, 1, 3, 3]))
print(RT(np.array([1, 2, 3, 0], np.int32), [0, 1, 4]))
print(RT(np.array([1, 2, 3, 4, 5, 6, 7, 8], np.int32), [0, 2, 4], [0, 2, 4, 6, 8]))

print(shape_text([5, None]), "<dtype: 'int32'>", 1, shape_text([2, None]), "<dtype: 'string'>")
print(values.tolist(), [0, 4, 4, 7, 8, 8], "<dtype: 'int64'>")
print([4, 0, 3, 1, 0], 5, [0, 0, 0, 0, 2, 2, 2, 3])
print(shape_text([2, None, None]), 2, [1, 2, 3, 4])
print([[0, 2, 3], [0, 2, 3, 4]])
print(digits_rows, [[[1, 2], [3]], [[4]]])
dense = np.zeros((5, 4), np.int32)
for i, r in enumerate(digits_rows):
    dense[i, :len(r)] = r
print(dense.tolist())
clipped = np.full((3, 2), -1, np.int32)
for i, r in enumerate(digits_rows[:3]):
    clipped[i, :min(len(r), 2)] = r[:2]
print(clipped.tolist())
print([[[1, 2], [3, 0]], [[4, 0], [0, 0]]])
print([[1, 2], [3, 4]])
print("<dtype: 'int32'>")
print([5, 4])

print([3, 1, 4, 1], [], 9)
print(const(digits_rows[1:3], np.int32))
print(const([r[0:2] for r in digits_rows], np.int32))
print(const(digits_rows[-2:], np.int32))
print([2, 5, 7])
print([3, 5, 9])
print(const([[4]], np.int32))


def ragged_map(rows, fn, dtype):
    return const([[fn(v) for v in r] for r in rows], dtype)


print(ragged_map(digits_rows, lambda v: v + 3, np.int32))
print(ragged_map(digits_rows, lambda v: 10 - v, np.int32))
print(ragged_map(digits_rows, lambda v: v * v, np.int32))
print(ragged_map(digits_rows, lambda v: v + 3, np.int32))
print(ragged_map(digits_rows, lambda v: v * v, np.int32))
print(ragged_map(digits_rows, lambda v: v // 2, np.int32), ragged_map(digits_rows, lambda v: v % 2, np.int32))
f_rows = [[1.0, 2.0], [3.0]]
f32 = np.float32
print(ragged_map(f_rows, lambda v: f32(v) / f32(2), f32), ragged_map(f_rows, lambda v: f32(1) / f32(v), f32),
      ragged_map(f_rows, lambda v: -v, f32), ragged_map(f_rows, lambda v: v ** 2, f32))
print(ragged_map(f_rows, lambda v: v > 1.5, bool))
print(const([[10.0, 20.0], [300.0]], f32))
print(const([[f32(v) * f32(v) for v in r] for r in f_rows], f32))
print(const([[np.sqrt(f32(v)) for v in r] for r in f_rows], f32))
print(ragged_map(f_rows, lambda v: max(v - 2.0, 0.0), f32))
print(ragged_map(digits_rows, float, f32))
print(ragged_map(digits_rows, lambda v: 1, np.int32))
print(ragged_map(digits_rows, lambda v: 2 * v, np.int32))

print(tensor_text(row_reduce(digits_rows, sum, 0).astype(np.int32), "int32"))
print(tensor_text(np.array([np.sum(r) / len(r) if r else np.nan for r in digits_rows]), "float64"))
print(tensor_text(row_reduce(digits_rows, max, np.iinfo(np.int32).min).astype(np.int32), "int32"))
print([[min(r)] if r else [np.iinfo(np.int32).max] for r in digits_rows])
print(tensor_text(col_reduce(digits_rows, sum).astype(np.int32), "int32"))
print(tensor_text(col_reduce(digits_rows, max).astype(np.int32), "int32"))
print(tensor_text(np.array(sum(sum(r) for r in digits_rows), np.int32), "int32"))
print(tensor_text(np.array([1.5, 3.0], f32), "float32"))
print(tensor_text(np.array([any(v > 4 for v in r) for r in digits_rows]), "bool"))
print(const([[3, 3], [4]], np.int32))

a_rows, b_rows = [[1, 2], [3]], [[4], [5, 6, 7]]
print(const(a_rows + b_rows, np.int32))
print(const([x + y for x, y in zip(a_rows, b_rows)], np.int32))
print(const([a_rows, b_rows], np.int32))
print(const([[x, y] for x, y in zip(a_rows, b_rows)], np.int32))
print(const([a_rows, b_rows], np.int32))

print(const([list(range(n)) for n in [3, 5, 2]], np.int32))
print(const([list(range(0, 4, 2)), list(range(5, 8, 2))], np.int32))
print(const([list(np.arange(0.0, 1.0, 0.5)), list(np.arange(0.0, 2.0, 0.5))], f32))
print(const([[b"a", b"b"], [b"c", b"d", b"e"], []], object))
print("RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)")
print("RaggedTensorSpec(TensorShape([5, None]), tf.int32, 1, tf.int64)")
print("RaggedTensorSpec(TensorShape([2, None, None]), tf.int32, 2, tf.int64)")

for rows in [a_rows, b_rows, digits_rows]:
    print(ragged_map(rows, lambda v: 2 * v, np.int32), [sum(r) for r in rows])

# d/dflat [sum(dense^2) + sum(row_sums * [1, 10])] = 2 * flat + weight of its row.
print([2 * 1.0 + 1, 2 * 2.0 + 1, 2 * 3.0 + 10])
