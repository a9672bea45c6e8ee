# Oracle for conv3d.tfs: TF's NDHWC window ops by their definitions in
# numpy (float64): SAME pads each spatial axis by max((out - 1) * stride +
# (k - 1) * dilation + 1 - size, 0), half (rounded down) before; a
# convolution sums window taps times the kernel; max pooling ignores the
# padding, average pooling divides by the in-bounds taps; conv3d_transpose
# is the adjoint of conv3d (each input point spreads its kernel over the
# output). Gradients are central finite differences of these functions.
import numpy as np


def values(shape, a, b):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * a) + np.arange(n) * b).reshape(shape)


def show(name, x):
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def plan(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return (size - eff) // s + 1, 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + eff - size, 0)
    return out, total // 2, total - total // 2


def pad5(x, pads, value=0.0):
    return np.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)], constant_values=value)


def windows(x, k, s, d, padding, value=0.0):
    # (outs, padded x, tap index generator)
    plans = [plan(x.shape[1 + a], k[a], s[a], d[a], padding) for a in range(3)]
    xp = pad5(x, [(p[1], p[2]) for p in plans], value)
    outs = [p[0] for p in plans]

    def tap(i, j, l):
        return xp[:, i * d[0]:i * d[0] + (outs[0] - 1) * s[0] + 1:s[0],
                  j * d[1]:j * d[1] + (outs[1] - 1) * s[1] + 1:s[1],
                  l * d[2]:l * d[2] + (outs[2] - 1) * s[2] + 1:s[2]]
    return outs, tap


def taps(k):
    return [(i, j, l) for i in range(k[0]) for j in range(k[1]) for l in range(k[2])]


def conv3d(x, w, s, padding, d):
    outs, tap = windows(x, w.shape[:3], s, d, padding)
    y = np.zeros([x.shape[0]] + outs + [w.shape[4]])
    for i, j, l in taps(w.shape[:3]):
        y += tap(i, j, l) @ w[i, j, l]
    return y


def max_pool3d(x, k, s, padding):
    outs, tap = windows(x, k, s, [1, 1, 1], padding, -np.inf)
    return np.max([tap(*t) for t in taps(k)], axis=0)


def avg_pool3d(x, k, s, padding):
    outs, tap = windows(x, k, s, [1, 1, 1], padding)
    _, count = windows(np.ones_like(x), k, s, [1, 1, 1], padding)
    return sum(tap(*t) for t in taps(k)) / sum(count(*t) for t in taps(k))


def conv3d_transpose(x, w, out_shape, s, padding):
    k = w.shape[:3]
    plans = [plan(out_shape[1 + a], k[a], s[a], 1, padding) for a in range(3)]
    full = [plans[a][1] + plans[a][2] + out_shape[1 + a] + k[a] + s[a] * x.shape[1 + a] for a in range(3)]
    y = np.zeros([x.shape[0]] + full + [w.shape[3]])
    for i, j, l in taps(k):
        y[:, i:i + s[0] * x.shape[1]:s[0], j:j + s[1] * x.shape[2]:s[1], l:l + s[2] * x.shape[3]:s[2]] += \
            x @ w[i, j, l].T
    b = [p[1] for p in plans]
    return y[:, b[0]:b[0] + out_shape[1], b[1]:b[1] + out_shape[2], b[2]:b[2] + out_shape[3]]


def numeric_grad(f, v, eps=1e-6):
    g = np.zeros_like(v)
    flat = v.reshape(-1)
    gf = g.reshape(-1)
    for n in range(flat.size):
        old = flat[n]
        flat[n] = old + eps
        up = f()
        flat[n] = old - eps
        down = f()
        flat[n] = old
        gf[n] = (up - down) / (2 * eps)
    return g


x = values((2, 5, 4, 6, 2), 1.3, 0.001)
w = values((3, 2, 3, 2, 3), 0.7, -0.002)
wt = values((2, 3, 2, 3, 2), 0.9, 0.003)
probe = values((2, 5, 4, 6, 3), 0.37, 0.0)

for strides, padding, dilations in [([1, 1, 1, 1, 1], "VALID", [1, 1, 1, 1, 1]),
                                    ([1, 2, 1, 2, 1], "SAME", [1, 1, 1, 1, 1]),
                                    ([1, 1, 1, 1, 1], "SAME", [1, 2, 1, 2, 1]),
                                    ([1, 2, 2, 3, 1], "VALID", [1, 1, 1, 1, 1])]:
    tag = "conv3d %s s%s d%s" % (padding, strides[1:4], dilations[1:4])
    s, d = strides[1:4], dilations[1:4]
    y = conv3d(x, w, s, padding, d)
    p = probe[:, :y.shape[1], :y.shape[2], :y.shape[3], :]

    def loss():
        return np.sum(conv3d(x, w, s, padding, d) * p)
    show(tag, y)
    show(tag + " dx", numeric_grad(loss, x))
    show(tag + " dw", numeric_grad(loss, w))

for ksize, strides, padding in [([2, 2, 2], [2, 2, 2], "VALID"), ([3, 2, 3], [2, 1, 2], "SAME"),
                                ([2, 3, 2], [1, 2, 3], "SAME")]:
    for name, fn in [("max_pool3d", max_pool3d), ("avg_pool3d", avg_pool3d)]:
        tag = "%s %s k%s s%s" % (name, padding, ksize, strides)
        y = fn(x, ksize, strides, padding)
        p = probe[:, :y.shape[1], :y.shape[2], :y.shape[3], :2]
        show(tag, y)
        show(tag + " dx", numeric_grad(lambda: np.sum(fn(x, ksize, strides, padding) * p), x))

xt = values((2, 3, 2, 3, 2), 1.1, 0.01)
for out_shape, strides, padding in [([2, 4, 5, 4, 3], [1, 1, 2, 1, 1], "VALID"),
                                    ([2, 6, 4, 6, 3], [1, 2, 2, 2, 1], "SAME"),
                                    ([2, 7, 5, 7, 3], [1, 2, 2, 2, 1], "VALID")]:
    tag = "conv3d_transpose %s %s s%s" % (padding, out_shape[1:4], strides[1:4])
    s = strides[1:4]
    p = values(out_shape, 0.53, 0.0)

    def loss():
        return np.sum(conv3d_transpose(xt, wt, out_shape, s, padding) * p)
    show(tag, conv3d_transpose(xt, wt, out_shape, s, padding))
    show(tag + " dx", numeric_grad(loss, xt))
    show(tag + " dw", numeric_grad(loss, wt))

# The Keras layers: float32 inputs and weights, computed in float64.
x32 = values((2, 4, 5, 6, 2), 0.9, 0.01).astype(np.float32).astype(np.float64)


def weights(shapes):
    return [values(shape, 0.3 + 0.1 * i, 0.001).astype(np.float32).astype(np.float64)
            for i, shape in enumerate(shapes)]


k, b = weights([(2, 3, 2, 2, 3), (3,)])
show("Conv3D", np.maximum(conv3d(x32, k, [1, 2, 1], "SAME", [1, 1, 1]) + b, 0))
print("Conv3D weights", [("conv3d/kernel:0", [2, 3, 2, 2, 3]), ("conv3d/bias:0", [3])])
k, b = weights([(2, 2, 2, 1, 4), (4,)])
show("Conv3D groups", np.concatenate([conv3d(x32[..., :1], k[..., :2], [1, 1, 1], "VALID", [1, 1, 1]),
                                      conv3d(x32[..., 1:], k[..., 2:], [1, 1, 1], "VALID", [1, 1, 1])], -1) + b)
def weights64(shapes):
    return [values(shape, 0.3 + 0.1 * i, 0.001) for i, shape in enumerate(shapes)]


k, b = weights64([(3, 3, 3, 2, 2), (2,)])
show("Conv3DTranspose same", conv3d_transpose(x32, k, [2, 8, 10, 12, 2], [2, 2, 2], "SAME") + b)
k, b = weights64([(2, 3, 2, 2, 2), (2,)])
# (in - 1) * stride + kernel + output_padding per axis (VALID).
show("Conv3DTranspose valid", conv3d_transpose(x32, k, [2, 9, 7, 19, 2], [2, 1, 3], "VALID") + b)
show("MaxPooling3D", max_pool3d(x32, [2, 2, 2], [2, 2, 2], "VALID"))
show("AveragePooling3D", avg_pool3d(x32, [2, 3, 2], [1, 1, 1], "SAME"))
show("GlobalMaxPooling3D", x32.max(axis=(1, 2, 3)))
show("GlobalAveragePooling3D", x32.mean(axis=(1, 2, 3), keepdims=True))
small = x32[:, :2, :2, :2]
show("UpSampling3D", np.repeat(np.repeat(small, 2, axis=2), 3, axis=3))
show("ZeroPadding3D", np.pad(small, [(0, 0), (1, 0), (2, 2), (0, 1), (0, 0)]))
show("Cropping3D", x32[:, 1:-2, 0:-3, 2:-2])
show("Cropping3D first", x32[:, :, 0:-1, 1:-1, 0:])
