# numpy oracle for ../sparse_ops.tfs (run with /usr/bin/python3; its stdout,
# plus the last three lines of that test, is the .expected file).
import numpy as np


def dense_of(indices, values, shape, default=0):
    out = np.full(shape, default, dtype=np.asarray(values).dtype)
    for i, v in zip(indices, values):
        out[tuple(i)] = v
    return out


def sparse_of(dense):
    idx = np.argwhere(dense != 0)
    return idx.tolist(), [dense[tuple(i)] for i in idx], list(dense.shape)


def show(a):
    print(np.asarray(a).tolist())


def show_sp(idx, vals, shape):
    print([list(map(int, i)) for i in idx], np.asarray(vals, dtype=np.float32).tolist() if len(vals) and
          isinstance(vals[0], (float, np.floating)) else [int(v) for v in vals], list(map(int, shape)))


def show_dense_as_sp(dense, keep_zero_at=()):
    idx, vals, shape = sparse_of(dense)
    show_sp(idx, vals, shape)


d = np.array([[1., 0., 2., 0.], [0., 0., 0., 3.], [4., 5., 0., 0.]], dtype=np.float32)
show_sp(*sparse_of(d))
show(d)
show(dense_of([[0, 1], [2, 3]], np.array([7, 8], dtype=np.int32), (3, 4), -1))
show_sp([[0, 1], [0, 3], [2, 0]], [3., 2., 1.], [3, 4])
show(dense_of([[2, 0], [0, 3], [0, 1]], np.array([1., 2., 3.], dtype=np.float32), (3, 4)))
show(d.reshape(2, 6))
show(d.reshape(-1, 3))
o = dense_of([[0, 0], [1, 1], [2, 1]], np.array([10., 20., -5.], dtype=np.float32), (3, 4))
# Union of positions: sums where both have an entry.
union = sorted(set(map(tuple, np.argwhere(d != 0).tolist())) | {(0, 0), (1, 1), (2, 1)})
show_sp(union, [d[p] + o[p] for p in union], [3, 4])
# threshold 1.0 drops a sum of both operands below 1 in magnitude: (2,1) = 5 + -5 = 0.
kept = [p for p in union if not (p in {(0, 0), (1, 1), (2, 1)} and d[p] != 0 and abs(d[p] + o[p]) < 1.0)]
show_sp(kept, [d[p] + o[p] for p in kept], [3, 4])
show(d + 1)
show(1 + d)
b = np.arange(8, dtype=np.float32).reshape(4, 2)
show(d @ b)
show(d.T @ np.arange(6, dtype=np.float32).reshape(3, 2))
show(d @ np.arange(8, dtype=np.float32).reshape(2, 4).T)
show(np.arange(6, dtype=np.float32).reshape(2, 3) @ d)
show(d.sum())
show(d.sum(axis=0))
show(d.sum(axis=1, keepdims=True))
# reduce_max over the stored values only; a row/column without any is 0.
neg_idx, neg_val = [[0, 0], [0, 2], [1, 1]], [1, -2, -3]


def smax(axis):
    groups = {}
    for i, v in zip(neg_idx, neg_val):
        key = tuple(i[k] for k in range(2) if k != axis)
        groups[key] = max(groups.get(key, v), v)
    return [groups.get((j,), 0) for j in range(3)]


show(max(neg_val))
show(smax(0))
show(smax(1))
show([[v] for v in smax(1)])
sl = d[1:3, 1:3]
show_sp(*sparse_of(sl))
idx, vals, shape = sparse_of(d)
keep = [True, False, True, False, True]
show_sp([i for i, k in zip(idx, keep) if k], [v for v, k in zip(vals, keep) if k], shape)
show_sp(*sparse_of(np.concatenate([d, o], axis=1)))
show_sp(*sparse_of(np.concatenate([d, o], axis=0)))
show_sp(*sparse_of(d.T))
show_sp(*sparse_of(d[:, None, :]))
ind = np.zeros((2, 4), dtype=bool)
ind[0, 0] = ind[0, 3] = ind[1, 2] = True
show(ind)
show_sp(*sparse_of(d * np.array([1., 10., 100., 1000.], dtype=np.float32)))
show_sp(*sparse_of(np.array([[2.], [3.], [4.]], dtype=np.float32) * d))
show_sp(*sparse_of(d * 0.5))
show_sp(*sparse_of(d / 2.0))
for m in [d, o]:
    show(m @ b)
    show_sp(*sparse_of(m * 3.0))
    show(m.sum(axis=1))
# d(sum((A b)^2)) / d values = 2 (A b)[row] . b[col]; / d b = 2 A^T (A b).
ab = d @ b
show([2 * ab[r] @ b[c] for r, c in idx])
show(2 * d.T @ ab)
print("finite differences agree:", True)
