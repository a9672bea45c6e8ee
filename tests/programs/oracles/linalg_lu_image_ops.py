# numpy / scipy oracle for ../linalg_lu_image_ops.tfs (run with
# /usr/bin/python3; its stdout is linalg_lu_image_ops.expected): scipy
# 1.10's expm (Pade scaling and squaring) and LAPACK getrf (lu_factor:
# the same partial pivoting as Eigen's PartialPivLU for inputs without
# pivot ties), np.rot90, a brute-force max pool, and TF's documented
# histogram arithmetic (its docstring example included).
import numpy as np
import scipy.linalg


def rounded(a, single):
    if not single:
        return np.round(a.astype(np.float64), 4) + 0.0
    m = float(np.max(np.abs(a))) if a.size else 0.0
    d = 4 - int(np.floor(np.log10(m))) if m > 0 else 4
    return np.round(a.astype(np.float64), d) + 0.0


def show(label, a):
    a = np.asarray(a)
    if a.dtype == np.float32 or a.dtype == np.float64:
        a = rounded(a, a.dtype == np.float32)
    print(label, a.tolist())


def lu_tf(m):
    # getrf's row swaps as TF's permutation: row i of L U is row p[i] of m.
    packed, piv = scipy.linalg.lu_factor(m)
    p = list(range(len(m)))
    for i, j in enumerate(piv):
        p[i], p[j] = p[j], p[i]
    return packed, np.array(p)


small = np.array([[0.1, 0.4, -0.2], [0.3, -0.1, 0.2], [0.0, 0.25, 0.15]])
big = np.array([[1.5, -0.7, 0.9], [0.4, 2.1, -1.3], [-0.8, 0.6, 1.7]]) * 3.0
show("expm64", np.stack([scipy.linalg.expm(small), scipy.linalg.expm(big)]))
show("expm32", np.stack([scipy.linalg.expm(small), scipy.linalg.expm(big)]).astype(np.float32))
show("expm_zero", np.eye(2, dtype=np.float32))
a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [7.0, 8.5, 10.0]])
lu, p = lu_tf(a)
show("lu", lu)
print("p tf.Tensor(%s, shape=(3,), dtype=int32)" % np.array2string(p.astype(np.int32)))
print("p64 int64")
show("lu_reconstruct", a)
show("lu_matrix_inverse", np.linalg.inv(a))
show("lu_solve", np.linalg.solve(a, [[1.0], [2.0], [3.0]]))
batch = np.stack([a, a[::-1] * 0.5 + np.eye(3)])
print("batch p", [lu_tf(m)[1].tolist() for m in batch])
show("batch lu_reconstruct", batch)
show("batch lu_solve", np.linalg.solve(batch, np.ones((2, 3, 1))))
img = np.arange(12).reshape(2, 3, 2)
for k in range(-1, 5):
    print("rot90 k=%d" % k, np.rot90(img, k % 4, axes=(0, 1)).tolist())
print("rot90 batch", np.rot90(np.stack([img, img + 100]), 1, axes=(1, 2)).tolist())
x = np.array([[[[1.0, 0.3], [2.5, -1.0], [0.2, 0.1]], [[-0.5, 2.0], [1.2, 0.7], [3.0, 0.4]],
               [[0.8, -0.2], [0.6, 1.9], [-1.1, 0.5]]]], np.float32)
x2 = np.concatenate([x, -x], 0)


def pool(x, k, s, same, with_batch):
    n, h, w, c = x.shape
    oh, ow = ((h + s - 1) // s, (w + s - 1) // s) if same else ((h - k) // s + 1, (w - k) // s + 1)
    pt = max((oh - 1) * s + k - h, 0) // 2 if same else 0
    pl = max((ow - 1) * s + k - w, 0) // 2 if same else 0
    out = np.zeros((n, oh, ow, c), np.float32)
    arg = np.zeros((n, oh, ow, c), np.int64)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    best, where = None, None
                    for di in range(k):
                        for dj in range(k):
                            y, xx = i * s + di - pt, j * s + dj - pl
                            if 0 <= y < h and 0 <= xx < w and (best is None or x[b, y, xx, ch] > best):
                                best = x[b, y, xx, ch]
                                where = ((b * h + y) * w + xx) * c + ch if with_batch else (y * w + xx) * c + ch
                    out[b, i, j, ch], arg[b, i, j, ch] = best, where
    return out, arg


out, arg = pool(x2, 2, 1, False, False)
show("pool", out)
print("argmax", "int64", arg.tolist())
out2, arg2 = pool(x2, 2, 2, True, True)
show("pool same", out2)
print("argmax batch", "int32", arg2.tolist())


def hist(values, lo, hi, nbins):
    values = np.asarray(values, np.float64)
    step = (hi - lo) / nbins
    idx = np.minimum((np.maximum(values, lo) - lo) / step, nbins - 1).astype(np.int32)
    return np.bincount(idx, minlength=nbins).tolist()


def bins(values, lo, hi, nbins):
    values = np.asarray(values)
    idx = np.floor(nbins * ((values - lo) / (hi - lo)))
    return np.clip(idx, 0, nbins - 1).astype(np.int32).tolist()


new_values = np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15], np.float32)
print("hist", hist(new_values, 0.0, 5.0, 5))  # TF's docstring: [2, 1, 1, 0, 2]
print("bins", bins(new_values, np.float32(0.0), np.float32(5.0), 5))  # TF's docstring: [0, 0, 1, 2, 4, 4]
vals = np.linspace(-2.0, 7.0, 23)
print("hist64", hist(vals, -1.0, 6.5, 7))
print("bins2d", bins(vals, -1.0, 6.5, 7))
print("isinstance", True, True, False, "TensorSpec")
# TF 2.15's TensorSpec repr.
print("TensorSpec(shape=(2,), dtype=tf.float32, name=None) TensorSpec(shape=(), dtype=tf.int32, name='n')")
show("traced expm", scipy.linalg.expm(a / 8.0))
show("traced lu_reconstruct", a)
print("traced rot90", np.rot90(img, 3, axes=(0, 1)).tolist())
show("traced pool", out)
print("traced argmax", arg.tolist())
print("traced hist", hist(a.reshape(-1), 0.0, 10.0, 4))
