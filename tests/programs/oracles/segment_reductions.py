# numpy oracle of tests/programs/segment_reductions.tfs (prints its expected
# lines; the error lines are TF 2.15's Segment* kernel messages).
import numpy as np

data = np.float32([[1, 2], [3, -4], [5, 6], [-7, 8], [9, 1]])
ids = [0, 0, 2, 2, 3]


def segments(x, seg, n, fn, empty):
    out = []
    for s in range(n):
        rows = [x[j] for j in range(len(seg)) if seg[j] == s]
        out.append(fn(np.array(rows), axis=0) if rows else np.full(x.shape[1:], empty, x.dtype))
    return np.array(out, dtype=x.dtype)


for name, fn, empty in (("sum", np.sum, 0), ("mean", np.mean, 0), ("max", np.max, 0), ("min", np.min, 0),
                        ("prod", np.prod, 1)):
    v = segments(data, ids, 4, fn, empty).tolist()
    print("segment_" + name, v, v)
uids = [2, -1, 0, 2, 0]
lowest, highest = np.finfo(np.float32).min, np.finfo(np.float32).max
for name, fn, empty in (("sum", np.sum, 0), ("mean", np.mean, 0), ("max", np.max, lowest),
                        ("min", np.min, highest), ("prod", np.prod, 1),
                        ("sqrt_n", lambda r, axis: r.sum(axis=axis) / np.sqrt(len(r)), 0)):
    values = [[round(float(v), 4) for v in row] for row in segments(data, uids, 4, fn, empty)]
    print("unsorted_segment_" + name, values, True)
print([5, np.iinfo(np.int32).min], [np.iinfo(np.int32).max, 1], [1, 4])
print("(0, 2)")

x = np.array([0.5, 2.0, 2.0, -1.0, 3.0, 0.0, 4.0])
sids = [0, 0, 0, 1, 1, 2, 2]
w = np.array([1.0, -2.0, 3.0])


def fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(len(v))])


for name, fn in (("segment_max", np.max), ("segment_min", np.min), ("segment_prod", np.prod),
                 ("segment_mean", np.mean), ("segment_sum", np.sum)):
    loss = lambda v, fn=fn: float((segments(v, sids, 3, fn, 0) * w).sum())
    g = fd(loss, x)
    if name == "segment_max":
        g[1] = g[2] = 0.5  # the tie 2.0, 2.0 shares the gradient (central differences see a kink)
    print(name, g.round(6).tolist())
z = np.array([0.0, 0.0, 2.0, 0.0, 3.0])
# segment 0 has two zeros: every partial derivative is 0; segment 1 = 0 * 3.
print("prod with zeros", [0.0, 0.0, 0.0, 3.0, 0.0])
# ids [1, 0, 1, 1, 0, 2, 2]: segment 0 = {x1 = 2, x4 = 3} -> x4; segment 1 =
# {x0 = 0.5, x2 = 2, x3 = -1} -> x2; segment 2 = {x5 = 0, x6 = 4} -> x6.
print("traced max grad", [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0])
print("InvalidArgumentError segment ids are not increasing")
print("InvalidArgumentError segment ids must be >= 0")
print("InvalidArgumentError Segment id -2 out of range [0, 0), possibly because 'segment_ids' input is not sorted.")
print([0.0, 6.0])
print("InvalidArgumentError segment_ids[1] = 3 is out of range [0, 2)")
print("InvalidArgumentError segment_ids should be a vector.")
