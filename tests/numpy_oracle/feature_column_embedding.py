import numpy as np

f32 = np.float32


def table(rows, dim):
    return np.arange(rows * dim, dtype=f32).reshape(rows, dim) / f32(10.0)


def lookup(E, rows, combiner, max_norm=None):
    out = np.zeros((len(rows), E.shape[1]), f32)
    for r, pairs in enumerate(rows):
        acc = np.zeros(E.shape[1], f32)
        wsum = f32(0)
        w2 = f32(0)
        for i, w in pairs:
            e = E[i]
            if max_norm is not None:
                n = np.sqrt(np.sum(e * e, dtype=f32))
                if n > max_norm:
                    e = e * f32(max_norm) / n
            acc = acc + e * f32(w)
            wsum = wsum + f32(w)
            w2 = w2 + f32(w) * f32(w)
        if combiner == "mean" and wsum != 0:
            acc = acc / wsum
        if combiner == "sqrtn" and w2 != 0:
            acc = acc / np.sqrt(w2)
        out[r] = acc
    return out


def show(x):
    print(np.round(x, 5))


E5 = table(5, 3)
letter_rows = [[(0, 1), (2, 1)], [(1, 1)], [], [(4, 1)]]
for combiner in ["mean", "sum", "sqrtn"]:
    show(lookup(E5, letter_rows, combiner))
show(lookup(table(4, 2), [[(1, 1.0), (2, 2.0), (2, 0.5)], [(0, 3.0), (3, 1.0)]], "mean"))
print(6)
E6 = table(6, 2)
bucket_rows = [[(0, 1), (1 + 3, 1)], [(2, 1), (2 + 3, 1)]]
show(lookup(E6, bucket_rows, "mean"))
show(lookup(E5, letter_rows, "sum", max_norm=1.0))
emb = lookup(E5, [[(0, 1), (2, 1)], [(1, 1)]], "mean")
onehot = np.zeros((2, 6), f32)
onehot[0, 0] = onehot[0, 4] = 1
onehot[1, 2] = onehot[1, 5] = 1
out = np.concatenate([emb, np.array([[3], [4]], f32), onehot], 1)
show(out)
print(1, "(5, 3)")
grad = np.zeros((5, 3), f32)
coeff = np.array([[1, 2, 3], [4, 5, 6]], f32)
grad[0] += coeff[0] / 2
grad[2] += coeff[0] / 2
grad[1] += coeff[1]
show(grad)
show(out)
