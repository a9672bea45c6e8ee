# numpy oracle for preprocessing_image.tfs. CategoryEncoding / Discretization
# / Normalization from their definitions (Discretization's adapted boundaries
# by Keras 2.15's summarize / merge_summaries / compress over batches of 32);
# tf.image.resize's half-pixel bilinear and nearest sampling; Keras's
# smart_resize and CenterCrop; and TF's ImageProjectiveTransformV3 kernel
# (image_ops.h: fill-mode coordinate mapping, then nearest or bilinear
# reads with the fill value outside) applied to Keras's rotation / zoom /
# translation matrices.
import math

import numpy as np
from oracle_common import show


def encode(rows, depth, mode, weights=None):
    out = np.zeros((len(rows), depth))
    for r, row in enumerate(rows):
        for j, i in enumerate(row):
            if mode == "count":
                out[r, i] += 1 if weights is None else weights[r][j]
            else:
                out[r, i] = 1
    return out


show("one_hot", encode([[3], [2], [0], [1]], 5, "one_hot"))
show("multi_hot", encode([[0, 1, 1], [4, 4, 2]], 5, "multi_hot"))
show("count", encode([[0, 1, 1], [4, 4, 2]], 5, "count", [[0.5, 1.0, 2.0], [0.25, 0.5, 3.0]]))


def bucketize(x, bounds):
    return np.searchsorted(np.array(bounds, dtype=np.float32).astype(np.float64), np.asarray(x), side="right")


x = np.array([[-1.5, 1.0, 3.4, 0.5], [0.0, 3.0, 1.3, 0.0]])
show("bucket", bucketize(x, [0.0, 1.0, 2.0]))
show("bucket one_hot", encode([[int(b)] for b in bucketize([0.5, -2.0, 7.0], [0.0, 1.0])], 3, "one_hot"))

data = np.array([(i * 37) % 101 / 10.0 for i in range(250)]).reshape(125, 2)


def summarize(values, epsilon):
    values = np.sort(values.reshape([-1]).astype(np.float32))
    increment = int(np.float32(values.size) / np.float32(1.0 / epsilon))
    step = max(increment, 1)
    b = values[increment::step]
    return np.stack([b, np.full(b.shape, step, dtype=np.float32)])


def compress(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum = summary[1].cumsum()
    bins = np.interp(percents, cum / cum[-1], summary[0])
    cum = np.interp(percents, cum / cum[-1], cum)
    return np.stack((bins, cum - np.concatenate(([0], cum[:-1])))).astype(np.float32)


summary = np.zeros((2, 0), dtype=np.float32)
for start in range(0, 125, 32):
    merged = np.concatenate((summarize(data[start:start + 32], 0.01), summary), axis=1)
    summary = compress(merged[:, np.argsort(merged[0], kind="stable")], 0.01)
bounds = compress(summary, 1.0 / 5)[0, :-1]
show("adapted bounds", bounds)
show("adapted", bucketize(data[:6].astype(np.float32), bounds))

mean, var = data.mean(axis=0), data.var(axis=0)
show("norm", (data[:3] - mean) / np.sqrt(var))
show("norm mean", mean.reshape(1, 2))
show("norm variance", var.reshape(1, 2))
show("norm invert", np.array([[1.0, -1.0]]) * 2.0 + 2.0)
show("rescale", np.array([[0.0, 255.0, 51.0]]) / 255 - 1)

img = np.array([(i * 29) % 31 for i in range(2 * 5 * 7 * 2)], dtype=np.float64).reshape(2, 5, 7, 2)


def resize_axis(x, axis, out, method):
    n = x.shape[axis]
    scale = n / out
    if method == "nearest":
        idx = [min(int(math.floor((o + 0.5) * scale)), n - 1) for o in range(out)]
        return np.take(x, idx, axis=axis)
    pieces = []
    for o in range(out):
        src = max((o + 0.5) * scale - 0.5, 0.0)
        lo = int(math.floor(src))
        hi = min(lo + 1, n - 1)
        f = src - lo
        pieces.append(np.take(x, lo, axis=axis) * (1 - f) + np.take(x, hi, axis=axis) * f)
    return np.stack(pieces, axis=axis)


def resize(x, h, w, method="bilinear"):
    return resize_axis(resize_axis(x, 1, h, method), 2, w, method)


def smart_resize(x, h, w):
    H, W = x.shape[1], x.shape[2]
    ch, cw = min(H, int(W * h / w)), min(W, int(H * w / h))
    top, left = int((H - ch) / 2), int((W - cw) / 2)
    return resize(x[:, top:top + ch, left:left + cw], h, w)


show("resize", resize(img, 3, 4))
show("resize nearest", resize(img, 3, 4, "nearest"))
show("resize aspect", smart_resize(img, 4, 4))
show("center crop", img[:, 1:4, 1:5])
show("center upsize", smart_resize(img, 6, 6))

for name in ["RandomFlip", "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast", "RandomBrightness",
             "RandomCrop"]:
    print(name, "inference identity", True)


def map_coord(c, n, mode):
    if mode == "constant":
        return c
    if n <= 1:
        return 0.0
    if mode == "reflect":
        if c < 0:
            c = 2 * n * int(-c / (2 * n)) + c
            c = c + 2 * n if c < -n else -c - 1
        elif c > n - 1:
            c -= 2 * n * int(c / (2 * n))
            if c >= n:
                c = 2 * n - c - 1
    elif mode == "wrap":
        if c < 0:
            c += n * (int(-c / (n - 1)) + 1)
        elif c > n - 1:
            c -= n * int(c / (n - 1))
    return min(max(c, 0.0), n - 1.0)


def projective(images, matrices, mode, interp, fill):
    b, H, W, C = images.shape
    out = np.zeros(images.shape)

    def read(i, y, x):
        return images[i, y, x] if 0 <= y < H and 0 <= x < W else np.full(C, fill)

    for i in range(b):
        a0, a1, a2, b0, b1, b2, c0, c1 = matrices[i]
        for oy in range(H):
            for ox in range(W):
                k = c0 * ox + c1 * oy + 1.0
                x = map_coord((a0 * ox + a1 * oy + a2) / k, W, mode)
                y = map_coord((b0 * ox + b1 * oy + b2) / k, H, mode)
                if x < 0 or x > W - 1 or y < 0 or y > H - 1:
                    out[i, oy, ox] = fill
                elif interp == "nearest":
                    out[i, oy, ox] = read(i, int(math.floor(y + 0.5)), int(math.floor(x + 0.5)))
                else:
                    yf, xf = math.floor(y), math.floor(x)
                    top = (xf + 1 - x) * read(i, yf, xf) + (x - xf) * read(i, yf, xf + 1)
                    bottom = (xf + 1 - x) * read(i, yf + 1, xf) + (x - xf) * read(i, yf + 1, xf + 1)
                    out[i, oy, ox] = (yf + 1 - y) * top + (y - yf) * bottom
    return out


H, W = 5, 7
angle = 0.1 * 2 * np.pi
c, s = math.cos(angle), math.sin(angle)
rotation = [c, -s, ((W - 1) - (c * (W - 1) - s * (H - 1))) / 2, s, c, ((H - 1) - (s * (W - 1) + c * (H - 1))) / 2, 0, 0]
zx, zy = 1.45, 0.65
zoom = [zx, 0, (W - 1) / 2 * (1 - zx), 0, zy, (H - 1) / 2 * (1 - zy), 0, 0]
dx, dy = -0.55 * W, 0.3 * H
shift = [1, 0, -dx, 0, 1, -dy, 0, 0]
for fill in ["reflect", "wrap", "constant", "nearest"]:
    for interp in ["bilinear", "nearest"]:
        show("rotate %s %s" % (fill, interp), projective(img, [rotation] * 2, fill, interp, -1.0))
        show("zoom %s %s" % (fill, interp), projective(img, [zoom] * 2, fill, interp, 0.0))
        show("translate %s %s" % (fill, interp), projective(img[:1], [shift], fill, interp, 2.5)[0])

for trial in range(3):
    print("flip is a mirror", True)
print("contrast keeps channel means", True)
print("random crop is a window", True)
