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
cot = rng.uniform(-1, 1, size=(1, 2, 2, 1)).astype(np.float32).astype(np.float64)
# The transpose is the adjoint: <atrous_T(c), x> = <c, atrous(x)>.
print("atrous transpose", (1, 6, 6, 2), "%.4f" % float((out * cot).sum()))
show("pool max", img.reshape(1, 3, 2, 3, 2, 2).max(axis=(2, 4)))
show("pool avg 1d", sig.reshape(2, 3, 3, 2).mean(axis=2))

scores = np.array([[3.0, 1.0, 4.0, 1.0, 5.0], [9.0, 2.0, 6.0, 5.0, 3.0]], np.float32)
idx = np.argsort(-scores, axis=1, kind="stable")[:, :3]
show("approx_max_k", np.take_along_axis(scores, idx, 1))
show("approx_max_k idx", idx.astype(np.int32))
idx = np.argsort(scores, axis=0, kind="stable")[:2]
show("approx_min_k", np.take_along_axis(scores, idx, 0))
show("approx_min_k idx", idx.astype(np.int32))
show("nextafter", np.nextafter(np.array([1.0, 0.0, -1.0, 2.0, 1e-30], np.float32),
                               np.array([2.0, -1.0, 0.0, 2.0, -1.0], np.float32)), 50)
show("nextafter f64", np.nextafter(np.array([1.0, -3.0]), np.array([0.0, -4.0])), 20)
diags = rng.uniform(-1, 1, size=(2, 3, 4)).astype(np.float64)
diags[:, 1] += 3.0
rhs = rng.uniform(-1, 1, size=(2, 4, 2))
mats = np.zeros((2, 4, 4))
for b in range(2):
    mats[b] += np.diag(diags[b, 1]) + np.diag(diags[b, 0, :-1], 1) + np.diag(diags[b, 2, 1:], -1)
show("tridiagonal_matmul", mats @ rhs)
show("tridiagonal_solve", np.linalg.solve(mats, rhs))
show("tridiagonal_solve vector", np.linalg.solve(mats[0], rhs[0, :, 0]))
morph = rng.uniform(0, 1, size=(1, 6, 5, 2)).astype(np.float32)
kern = rng.uniform(0, 0.2, size=(3, 2, 2)).astype(np.float32)


def dilate(x, k, stride, rate, same):
    h, w = x.shape[1:3]
    kh, kw = k.shape[:2]
    eh, ew = (kh - 1) * rate[0] + 1, (kw - 1) * rate[1] + 1
    if same:
        oh, ow = -(-h // stride[0]), -(-w // stride[1])
        ph, pw = max((oh - 1) * stride[0] + eh - h, 0) // 2, max((ow - 1) * stride[1] + ew - w, 0) // 2
    else:
        oh, ow = (h - eh) // stride[0] + 1, (w - ew) // stride[1] + 1
        ph = pw = 0
    out = np.full((x.shape[0], oh, ow, x.shape[3]), -np.inf, np.float32)
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    y, z = i * stride[0] + a * rate[0] - ph, j * stride[1] + b * rate[1] - pw
                    if 0 <= y < h and 0 <= z < w:
                        out[:, i, j] = np.maximum(out[:, i, j], x[:, y, z] + k[a, b])
    return out


show("dilation2d same", dilate(morph, kern, (1, 1), (1, 1), True))
show("dilation2d valid rate", dilate(morph, kern, (2, 1), (1, 2), False))
show("erosion2d", -dilate(-morph, kern[::-1, ::-1], (1, 1), (1, 1), False))
show("collapse_repeated", np.array([[1, 2, 3], [4, 5, 0], [7, 8, 0]], np.int32))
show("collapse lengths", np.array([3, 2, 2], np.int32))

prefix = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} %s [Op:%s] name: "
print(prefix % ("SpaceToBatchND", "padded_shape[0]=3 is not divisible by block_shape[0]=2", "SpaceToBatchND"))
print(prefix % ("BatchToSpaceND", "Input batch dimension (2) is not divisible by product of block sizes (4)",
                "BatchToSpaceND"))
print(prefix % ("DiagPart", "Invalid shape [2,3]: dimensions 0 and 1 do not match.", "DiagPart"))
print("tf.parallel_stack() is not compatible with eager execution.")
