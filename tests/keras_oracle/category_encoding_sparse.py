# Oracle for category_encoding_sparse.tfs: bincount per row (weights summed
# per bin, binary modes 1.0), the nonzero bins as row-major (row, bin)
# entries; a 1-D multi_hot/count input is one row of shape [depth]; one_hot
# of a 1-D input is one row per value; Discretization buckets by the
# number of boundaries <= x.
import numpy as np


def show_sparse(name, dense):
    idx = np.argwhere(dense != 0)
    print(name, "shape", list(dense.shape), "indices", idx.tolist())
    print(name, "values", " ".join(["%.6g" % v for v in dense[tuple(idx.T)].tolist()]))


def bincount(rows, depth, weights=None, binary=False):
    rows = np.atleast_2d(rows)
    out = np.zeros((rows.shape[0], depth))
    for r in range(rows.shape[0]):
        for j, v in enumerate(rows[r]):
            out[r, v] += 1.0 if weights is None else weights[r][j]
    return np.minimum(out, 1.0) if binary else out


w = np.array([[0.5, 1.5, 0.7, 1.8, 0.2]], dtype=np.float32).astype(np.float64)
show_sparse("count weighted", bincount([[5, 11, 5, 17, 17]], 20, w))
show_sparse("count", bincount([[1, 3, 3], [0, 0, 2]], 20))
show_sparse("multi_hot 2d", bincount([[1, 3, 3], [5, 0, 5]], 6, binary=True))
show_sparse("multi_hot 1d", bincount([4, 1, 4], 6, binary=True)[0])
show_sparse("one_hot", bincount([[3], [0], [2]], 4, binary=True))
x = np.array([-1.0, 0.5, 3.0, 1.0])
buckets = (x[:, None] >= np.array([0.0, 1.0, 2.5])[None, :]).sum(axis=1)
show_sparse("discretization", bincount(buckets[:, None], 4, binary=True))
wn = w / w.sum(axis=-1, keepdims=True)
kernel = np.arange(80, dtype=np.float32).reshape(20, 4) / 10.0
out = bincount([[5, 11, 5, 17, 17]], 20, wn) @ kernel
print("dense", " ".join(["%.6g" % v for v in out.reshape([-1]).tolist()]))
print(True)
