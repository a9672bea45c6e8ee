import numpy as np
import scipy.special


def show(name, a, digits=4):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        print(name, a.shape, [float("%.*f" % (digits, v)) + 0.0 for v in a.astype(np.float64).ravel()])
    else:
        print(name, a.shape, a.ravel().tolist())


def s2b(x, block, pads):
    # TF's SpaceToBatchND, as its documentation defines it.
    x = np.asarray(x)
    m = len(block)
    x = np.pad(x, [[0, 0]] + list(pads) + [[0, 0]] * (x.ndim - m - 1))
    shape = [x.shape[0]]
    for i in range(m):
        shape += [x.shape[i + 1] // block[i], block[i]]
    x = x.reshape(shape + list(x.shape[m + 1:]))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, x.ndim))
    x = x.transpose(perm)
    return x.reshape([-1] + [x.shape[m + 1 + i] for i in range(m)] + list(x.shape[2 * m + 1:]))


x = np.array([[[[1], [2]], [[3], [4]]]], np.float32)
show("s2b doc", s2b(x, [2, 2], [[0, 0], [0, 0]]))
rng = np.random.RandomState(11)
v = rng.randint(0, 100, size=(2, 3, 5, 2)).astype(np.int32)
s = s2b(v, [2, 3], [[1, 0], [0, 1]])
show("s2b", s)
show("b2s", v)
show("s2b 1-d", s2b(v[:, :, 0, :], [3], [[1, 2]]))
show("nn s2b", s2b(v, [1, 2], [[0, 0], [1, 0]]))
show("traced round trip", v)
f = rng.uniform(-1, 1, size=(1, 4, 4, 1)).astype(np.float32)
w = rng.uniform(-1, 1, size=(4, 2, 2, 1)).astype(np.float32)
# d/df sum(s2b(f) * w): w moved back by the inverse shuffle.
grad = np.zeros_like(f)
idx = s2b(np.arange(16).reshape(1, 4, 4, 1), [2, 2], [[0, 0], [0, 0]])
grad.reshape(-1)[idx.reshape(-1)] = w.reshape(-1)
show("s2b grad", grad)

a = np.array([[1.0, 2.0], [0.5, 0.5], [3.0, 4.5]], np.float64)
show("lbeta", scipy.special.betaln(a[:, 0], a[:, 1]))
show("lbeta grad", scipy.special.digamma(a) - scipy.special.digamma(a.sum(axis=1, keepdims=True)))
show("erfcinv", scipy.special.erfcinv([0.1, 0.5, 1.0, 1.5, 1.9]))
show("accumulate_n", a.astype(np.float32) * 6.0)

m = rng.uniform(-1, 1, size=(3, 4)).astype(np.float32).astype(np.float64)
n2 = np.linalg.norm(m, axis=1, keepdims=True)
show("normalize", m / n2)
show("norm", n2)
show("normalize l1", m / np.abs(m).sum())
low = rng.uniform(-1, 1, size=(2, 5, 2))
stacked = np.stack([low[0] @ low[0].T, np.eye(5)])
show("matrix_rank", np.array([np.linalg.matrix_rank(t) for t in stacked], np.int32))
show("matrix_rank tol", np.int32(2))
d = np.array([[1, 2], [3, 4]], np.int32)
td = np.zeros((2, 2, 2, 2), np.int32)
for i in range(2):
    for j in range(2):
        td[i, j, i, j] = d[i, j]
show("tensor_diag", td)
show("tensor_diag_part", d)

sig = rng.uniform(-1, 1, size=(2, 9, 2)).astype(np.float32).astype(np.float64)
k1 = rng.uniform(-1, 1, size=(3, 2, 3)).astype(np.float32).astype(np.float64)
out = np.zeros((2, 5, 3))
for t in range(5):
    for k in range(3):
        out[:, t] += sig[:, t + 2 * k] @ k1[k]
show("convolution 1d", out)
img = rng.uniform(-1, 1, size=(1, 6, 6, 2)).astype(np.float32).astype(np.float64)
k2 = rng.uniform(-1, 1, size=(3, 3, 2, 1)).astype(np.float32).astype(np.float64)
out = np.zeros((1, 2, 2, 1))
for i in range(2):
    for j in range(2):
        for p in range(3):
            for q in range(3):
                out[:, i, j] += img[:, i + 2 * p, j + 2 * q] @ k2[p, q]
show("atrous", out)
show("pool max", img.reshape(1, 3, 2, 3, 2, 2).max(axis=(2, 4)))
show("pool avg 1d", sig.reshape(2, 3, 3, 2).mean(axis=2))

prefix = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} %s [Op:%s] name: "
print(prefix % ("SpaceToBatchND", "padded_shape[0]=3 is not divisible by block_shape[0]=2", "SpaceToBatchND"))
print(prefix % ("BatchToSpaceND", "Input batch dimension (2) is not divisible by product of block sizes (4)",
                "BatchToSpaceND"))
print(prefix % ("DiagPart", "Invalid shape [2,3]: dimensions 0 and 1 do not match.", "DiagPart"))
print("tf.parallel_stack() is not compatible with eager execution.")
