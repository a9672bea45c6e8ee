# Oracle for conv3d_channels_first.tfs: the channels_first layers are the
# channels_last window ops on the layout [N, C, D, H, W] (numpy float64):
# SAME pads each axis by max((out - 1) * stride + k - size, 0), half
# (rounded down) before; convolution sums taps times the kernel, grouped
# convolution convolves each channel group with its kernel slice; max
# pooling ignores padding, average pooling divides by in-bounds taps;
# conv3d_transpose spreads each input point's kernel over the output
# (VALID: output size (in - 1) * stride + k). Softmax is over the last axis.
import numpy as np


def values(shape, a, b):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * a) + np.arange(n) * b).reshape(shape).astype(np.float32).astype(np.float64)


def show(name, x):
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def plan(size, k, s, padding):
    if padding == "valid":
        return (size - k) // s + 1, 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2, total - total // 2


def windows(x, k, s, padding, fill=0.0):
    # x: [N, C, D, H, W]; returns out sizes and tap(i, j, l) -> [N, C, oD, oH, oW]
    plans = [plan(x.shape[2 + a], k[a], s[a], padding) for a in range(3)]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p[1], p[2]) for p in plans], constant_values=fill)
    outs = [p[0] for p in plans]

    def tap(i, j, l):
        return xp[:, :, i:i + (outs[0] - 1) * s[0] + 1:s[0], j:j + (outs[1] - 1) * s[1] + 1:s[1],
                  l:l + (outs[2] - 1) * s[2] + 1:s[2]]
    return outs, tap


def taps(k):
    return [(i, j, l) for i in range(k[0]) for j in range(k[1]) for l in range(k[2])]


def conv(x, w, s, padding):
    # w: [kd, kh, kw, cin, cout]
    outs, tap = windows(x, w.shape[:3], s, padding)
    y = np.zeros([x.shape[0], w.shape[4]] + outs)
    for i, j, l in taps(w.shape[:3]):
        y += np.einsum("ncdhw,co->nodhw", tap(i, j, l), w[i, j, l])
    return y


def softmax_last(y):
    e = np.exp(y - y.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def pool(x, k, s, padding, kind):
    if kind == "max":
        outs, tap = windows(x, k, s, padding, -np.inf)
        return np.max([tap(*t) for t in taps(k)], axis=0)
    outs, tap = windows(x, k, s, padding)
    _, count = windows(np.ones_like(x), k, s, padding)
    return sum(tap(*t) for t in taps(k)) / sum(count(*t) for t in taps(k))


def conv_transpose_valid(x, w, s):
    # w: [kd, kh, kw, cout, cin]
    k = w.shape[:3]
    out = [(x.shape[2 + a] - 1) * s[a] + k[a] for a in range(3)]
    y = np.zeros([x.shape[0], w.shape[3]] + out)
    for i, j, l in taps(k):
        y[:, :, i:i + s[0] * x.shape[2]:s[0], j:j + s[1] * x.shape[3]:s[1], l:l + s[2] * x.shape[4]:s[2]] += \
            np.einsum("ncdhw,oc->nodhw", x, w[i, j, l])
    return y


x = values((2, 4, 5, 4, 6), 1.3, 0.001)
w = values((3, 2, 3, 4, 3), 0.7, -0.002)
y = conv(x, w, (2, 1, 2), "same") + np.array([0.1, -0.2, 0.3], np.float32).reshape(1, 3, 1, 1, 1)
print("conv3d symbolic", (None, 3, 3, 4, 3))
show("conv3d", softmax_last(y))
print("conv3d spec", {-4: 4})

wg = values((2, 2, 2, 2, 4), 0.45, 0.01)
show("conv3d groups", np.concatenate([conv(x[:, 0:2], wg[..., 0:2], (1, 1, 1), "valid"),
                                      conv(x[:, 2:4], wg[..., 2:4], (1, 1, 1), "valid")], axis=1))

wt = values((2, 3, 2, 2, 4), 0.9, 0.003)
print("conv3d_transpose symbolic", (None, 2, 10, 6, 12))
show("conv3d_transpose", conv_transpose_valid(x, wt, (2, 1, 2)) +
     np.array([0.5, -0.25], np.float32).reshape(1, 2, 1, 1, 1))

for name, kind in [("MaxPooling3D", "max"), ("AveragePooling3D", "avg")]:
    print(name, "symbolic", (None, 4, 3, 4, 3))
    show(name, pool(x, (3, 2, 3), (2, 1, 2), "same", kind))

print("GlobalMaxPooling3D symbolic", (None, 4))
show("GlobalMaxPooling3D", x.max(axis=(2, 3, 4)))
print("GlobalAveragePooling3D symbolic", (None, 4, 1, 1, 1))
show("GlobalAveragePooling3D", x.mean(axis=(2, 3, 4), keepdims=True))
print("UpSampling3D symbolic", (None, 4, 5, 8, 6))
show("UpSampling3D", np.repeat(x, 2, axis=3))
print("ZeroPadding3D symbolic", (None, 4, 6, 6, 8))
show("ZeroPadding3D", np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 2), (1, 1)]))
print("Cropping3D symbolic", (None, 4, 3, 3, 3))
show("Cropping3D", x[:, :, 1:-1, 0:-1, 2:-1])
print("channels_first")
