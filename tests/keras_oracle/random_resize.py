# RandomHeight / RandomWidth (Keras 2.15 image_preprocessing.py) with a
# factor range of one point, so the draw is known: when training the image
# is resized along one axis to int((1 + f) * size) with tf.image.resize's
# bilinear (half-pixel centers) or nearest rule, written here in numpy; at
# inference the input passes unchanged, whatever its dtype.
import numpy as np
from oracle_common import show


def resize_bilinear(img, out_h, out_w):
    n, h, w, c = img.shape
    out = np.zeros((n, out_h, out_w, c))

    def taps(out_size, in_size):
        scale = in_size / out_size
        res = []
        for i in range(out_size):
            src = (i + 0.5) * scale - 0.5
            lo = int(np.floor(src))
            frac = src - lo
            res.append((min(max(lo, 0), in_size - 1), min(max(lo + 1, 0), in_size - 1), frac))
        return res
    ys, xs = taps(out_h, h), taps(out_w, w)
    for i, (y0, y1, fy) in enumerate(ys):
        for j, (x0, x1, fx) in enumerate(xs):
            top = img[:, y0, x0] * (1 - fx) + img[:, y0, x1] * fx
            bottom = img[:, y1, x0] * (1 - fx) + img[:, y1, x1] * fx
            out[:, i, j] = top * (1 - fy) + bottom * fy
    return out


def resize_nearest(img, out_h, out_w):
    n, h, w, c = img.shape
    rows = [min(int(np.floor((i + 0.5) * h / out_h)), h - 1) for i in range(out_h)]
    cols = [min(int(np.floor((j + 0.5) * w / out_w)), w - 1) for j in range(out_w)]
    return img[:, rows][:, :, cols]


x = (np.arange(2 * 4 * 6 * 2) % 11).reshape(2, 4, 6, 2).astype(np.float64)
show("height 1.5 bilinear", resize_bilinear(x, int(1.5 * 4), 6))
show("height 0.75 bilinear", resize_bilinear(x, int(0.75 * 4), 6))
show("width 1.3 bilinear", resize_bilinear(x, 4, int(1.3 * 6)))
show("width 0.5 nearest", resize_nearest(x, 4, int(0.5 * 6)))
show("height single image", resize_bilinear(x[:1], int(1.5 * 4), 6)[0])
print("inference unchanged True int32")
print("output shapes (None, None, 6, 2) (None, 4, None, 2)")
