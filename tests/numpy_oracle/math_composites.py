# numpy twin of math_composites.tfs: each value computed with numpy from the
# formulas of TF 2.15's docs (and the examples printed there), printed as TF prints.
import numpy as np
from tfprint import show, tensor

np.seterr(all="ignore")
A = np.array
f64, f32 = np.float64, np.float32


def tlist(values):
    parts = []
    for v in values:
        a = np.asarray(v)
        body = repr(a) if a.ndim else str(a[()])
        if a.ndim:
            body = "array(" + repr(a)[6:] if False else repr(a)
        parts.append("<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            "(" + ", ".join(str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")", a.dtype.name,
            (("\n" if "\n" in repr(a) else "") + repr(a)) if a.ndim else str(a[()])))
    return parts


x = A([0.0, 1.0, 2.0, 0.0])
y = A([0.0, 3.0, 0.5, 2.0])
show(np.where(x == 0, 0.0, x * np.log(np.where(x == 0, 1.0, y))))
show(np.where(x == 0, 0.0, x / np.where(x == 0, 1.0, y)))
show(np.where(x == 0, 0.0, x * np.log1p(y)))
show(-np.log1p(np.exp(-(y - 1.0))))
show(np.where(y == 0, 0.0, 1.0 / np.where(y == 0, 1.0, y)))
show(3.0 * y)
show(f32(np.mean(x == 0)))
show(3.0 + (1.0 * y - 2.0) * y)
show(np.all(y[1:] >= y[:-1]))
show(np.all(np.diff([1, 2, 3]) > 0))
show(np.round(A([0.5, 1.5, -2.5], f32)))
print(True)

cm = np.zeros((5, 5), np.int32)
for a, b in zip([1, 2, 4], [2, 2, 4]):
    cm[a, b] += 1
show(cm)
cm = np.zeros((3, 3), f32)
for a, b, w in zip([0, 1, 1], [1, 1, 0], [1.5, 2.0, 0.5]):
    cm[a, b] += w
show(cm)
perm = [3, 4, 0, 2, 1]
inv = np.zeros(5, np.int32)
inv[perm] = np.arange(5)
show(inv)

t1, t3 = A([3.0, 4.0], f32), A([12.0], f32)
norm = f32(np.sqrt(np.sum(t1 ** 2) + np.sum(t3 ** 2)))
scale = f32(6.5) * min(1 / norm, 1 / f32(6.5))
print(tensor(t1 * scale), None, tensor(t3 * scale), tensor(norm))
print(tensor(t1), tensor(f32(5.0)))
show(f32(3.0))

t = A([[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]], np.int32)
show(t[1:2, 0:1, 0:3])
show(t[1:2, 0:2, 0:3])
show(t[1:2, -1:-3:-1, 0:3])
show(t[:, 1, :])
show(t[0:, np.newaxis])

show(np.clip(A([-5.0, 300.7, 1e10, 7.9], f32), 0, 255).astype(np.uint8))
show(np.clip(A([70000, -70000, 5], np.int32), -32768, 32767).astype(np.int16))
u, idx, cnt = np.unique(A([1, 1, 2, 4, 4, 4, 7, 8, 8]), return_inverse=True, return_counts=True)
print(tensor(u.astype(np.int32)), tensor(idx.astype(np.int32)), tensor(cnt.astype(np.int32)))
show(A(np.unravel_index([2, 5, 7], (3, 3)), np.int32))
show(A(np.unravel_index(5, (3, 3)), np.int32))
print("(2, 4, 3)")
print("(None, 5)")
show(A(np.broadcast_shapes((2, 1, 3), (4, 1)), np.int32))
print("[" + ", ".join(tlist([A([2, 3], np.int32), A([4], np.int32)])) + "]")
print("[" + ", ".join(tlist([np.int32(1), A([2.0], f32)])) + "]")

rows = np.tile(np.arange(1, 9, dtype=np.int32), (4, 1))
out = rows.copy()
for b, n in enumerate([7, 2, 3, 5]):
    out[b, :n] = rows[b, :n][::-1]
show(out)
show(out.T)
show(A([5.0, 25.0], f32))

z = A([-1.5, 0.0, 2.0, 0.25])
lab = A([1.0, 0.0, 1.0, 0.5])
show(np.concatenate([np.maximum(z, 0), np.maximum(-z, 0)]))
lw = 1 + (2.5 - 1) * lab
show((1 - lab) * z + lw * (np.log1p(np.exp(-np.abs(z))) + np.maximum(-z, 0)))
tg = lab * 3.0
base = np.exp(z) - z * tg
show(base)
stirling = tg * np.log(tg) - tg + 0.5 * np.log(2 * np.pi * tg)
show(base + np.where((tg >= 0) & (tg <= 1), 0, stirling))
show(f32(np.mean(np.maximum(z, 0) == 0)))

data = np.arange(24, dtype=f64).reshape(2, 3, 4) / 7.0
m_ss = data.sum(axis=(0, 2))
v_ss = (data ** 2).sum(axis=(0, 2))
print(tensor(f64(8.0)), tensor(m_ss), tensor(v_ss), None)
print(tensor(m_ss / 8.0), tensor(v_ss / 8.0 - (m_ss / 8.0) ** 2))
m_ss = (data - 1.0).sum(axis=1, keepdims=True)
v_ss = ((data - 1.0) ** 2).sum(axis=1, keepdims=True)
print("(" + ", ".join(tlist([m_ss / 3.0 + 1.0, v_ss / 3.0 - (m_ss / 3.0) ** 2])) + ")")
w = A([[[1.0], [2.0], [0.5]]])
wm = (w * data).sum(axis=1) / (w + np.zeros_like(data)).sum(axis=1)
wv = (w * (data - wm[:, None, :]) ** 2).sum(axis=1) / (w + np.zeros_like(data)).sum(axis=1)
print("(" + ", ".join(tlist([wm, wv])) + ")")


def depth_to_space(a, bs):
    b, h, w_, c = a.shape
    out = np.zeros((b, h * bs, w_ * bs, c // (bs * bs)), a.dtype)
    oc = c // (bs * bs)
    for i in range(h * bs):
        for j in range(w_ * bs):
            for k in range(oc):
                out[:, i, j, k] = a[:, i // bs, j // bs, ((i % bs) * bs + (j % bs)) * oc + k]
    return out


def space_to_depth(a, bs):
    b, h, w_, c = a.shape
    out = np.zeros((b, h // bs, w_ // bs, c * bs * bs), a.dtype)
    for i in range(h):
        for j in range(w_):
            for k in range(c):
                out[:, i // bs, j // bs, ((i % bs) * bs + (j % bs)) * c + k] = a[:, i, j, k]
    return out


show(depth_to_space(np.arange(1, 5, dtype=np.int32).reshape(1, 1, 1, 4), 2))
big = np.arange(2 * 2 * 3 * 8, dtype=np.int32).reshape(2, 2, 3, 8)
show(depth_to_space(big, 2))
show(space_to_depth(depth_to_space(big, 2), 2))
show(space_to_depth(np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1), 2))
lrn_in = np.arange(2 * 2 * 7, dtype=f64).reshape(1, 2, 2, 7) / 10.0 - 1.0
sq = np.zeros_like(lrn_in)
for d in range(7):
    sq[..., d] = (lrn_in[..., max(0, d - 2):d + 3] ** 2).sum(axis=-1)
print(np.round((lrn_in / (1.5 + 0.3 * sq) ** 0.75).astype(f32), 5))
for _ in range(7):
    print(True)
print("InvalidArgumentError Image width 4 and height 3 should be divisible by block_size: 2")
print("InvalidArgumentError 0 is duplicated in the input.")
