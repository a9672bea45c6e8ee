# Oracle for image_data_generator.tfs: Keras 2.15's preprocessing/image.py
# algorithm (np.random draws in Keras's order; each channel resampled by
# scipy.ndimage.affine_transform as Keras calls it), written out here with
# numpy, scipy and PIL (which also writes the PNG files the program reads).
import os
import numpy as np
from scipy import ndimage
from PIL import Image


def show(name, x):
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def offset_center(matrix, x, y):
    o_x = float(x) / 2 - 0.5
    o_y = float(y) / 2 - 0.5
    offset_matrix = np.array([[1, 0, o_x], [0, 1, o_y], [0, 0, 1]])
    reset_matrix = np.array([[1, 0, -o_x], [0, 1, -o_y], [0, 0, 1]])
    return np.dot(np.dot(offset_matrix, matrix), reset_matrix)


def affine(x, theta=0, tx=0, ty=0, shear=0, zx=1, zy=1, row_axis=0, col_axis=1, channel_axis=2,
           fill_mode="nearest", cval=0.0, order=1):
    m = None

    def compose(m, n):
        return n if m is None else np.dot(m, n)
    if theta != 0:
        t = np.deg2rad(theta)
        m = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    if tx != 0 or ty != 0:
        m = compose(m, np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        m = compose(m, np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        m = compose(m, np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if m is None:
        return x
    m = offset_center(m, x.shape[row_axis], x.shape[col_axis])
    x = np.rollaxis(x, channel_axis, 0)
    if col_axis > row_axis:
        m[:, [0, 1]] = m[:, [1, 0]]
        m[[0, 1]] = m[[1, 0]]
    chans = [ndimage.affine_transform(c, m[:2, :2], m[:2, 2], order=order, mode=fill_mode, cval=cval) for c in x]
    return np.rollaxis(np.stack(chans, axis=0), 0, channel_axis + 1)


def channel_shift(x, intensity, channel_axis):
    x = np.rollaxis(x, channel_axis, 0)
    lo, hi = np.min(x), np.max(x)
    x = np.stack([np.clip(c + intensity, lo, hi) for c in x], axis=0)
    return np.rollaxis(x, 0, channel_axis + 1)


def flip(x, axis):
    return np.asarray(x).swapaxes(axis, 0)[::-1, ...].swapaxes(0, axis)


class Gen:
    def __init__(self, rotation=0, width=0.0, height=0.0, shear=0.0, zoom=0.0, channel_shift=0.0, hflip=False,
                 vflip=False, fill_mode="nearest", rescale=None):
        self.rotation, self.width, self.height, self.shear = rotation, width, height, shear
        self.zoom = [1 - zoom, 1 + zoom] if isinstance(zoom, (int, float)) else list(zoom)
        self.channel_shift, self.hflip, self.vflip = channel_shift, hflip, vflip
        self.fill_mode, self.rescale = fill_mode, rescale

    def shift(self, r, size):
        try:
            t = np.random.choice(r)
            t *= np.random.choice([-1, 1])
        except ValueError:
            t = np.random.uniform(-r, r)
        if np.max(r) < 1:
            t *= size
        return t

    def params(self, shape, seed=None):
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation, self.rotation) if self.rotation else 0
        tx = self.shift(self.height, shape[0]) if self.height else 0
        ty = self.shift(self.width, shape[1]) if self.width else 0
        shear = np.random.uniform(-self.shear, self.shear) if self.shear else 0
        if self.zoom[0] == 1 and self.zoom[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom[0], self.zoom[1], 2)
        fh = (np.random.random() < 0.5) * self.hflip
        fv = (np.random.random() < 0.5) * self.vflip
        cs = np.random.uniform(-self.channel_shift, self.channel_shift) if self.channel_shift != 0 else None
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy, "flip_horizontal": fh,
                "flip_vertical": fv, "channel_shift_intensity": cs, "brightness": None}

    def apply(self, x, p):
        x = affine(x, p["theta"], p["tx"], p["ty"], p["shear"], p["zx"], p["zy"], fill_mode=self.fill_mode)
        if p["channel_shift_intensity"] is not None:
            x = channel_shift(x, p["channel_shift_intensity"], 2)
        if p["flip_horizontal"]:
            x = flip(x, 1)
        if p["flip_vertical"]:
            x = flip(x, 0)
        return x

    def standardize(self, x):
        if self.rescale:
            x *= self.rescale
        return x


img = (np.sin(np.arange(5 * 6 * 2) * 0.7) * 10 + np.arange(5 * 6 * 2) * 0.3).reshape(5, 6, 2).astype(np.float32)
for mode in ["nearest", "constant", "reflect", "wrap"]:
    show("rotate " + mode, affine(img, theta=35, fill_mode=mode, cval=-1.5))
    show("shift " + mode, affine(img, tx=2.5, ty=-3.25, fill_mode=mode))
    show("zoom shear " + mode, affine(img, shear=20, zx=0.7, zy=1.6, fill_mode=mode))
show("order0", affine(img, theta=-50, tx=1.2, zx=1.3, order=0))
chw = np.transpose(img, (2, 0, 1))
show("channels first", affine(chw, theta=12, ty=0.5, row_axis=1, col_axis=2, channel_axis=0))
show("channel shift", channel_shift(img, 4.0, 2))

np.random.seed(3)
show("random_rotation", affine(img, theta=np.random.uniform(-40, 40)))
tx = np.random.uniform(-0.2, 0.2) * 5
ty = np.random.uniform(-0.3, 0.3) * 6
show("random_shift", affine(img, tx=tx, ty=ty, fill_mode="wrap"))
show("random_shear", affine(img, shear=np.random.uniform(-30, 30)))
zx, zy = np.random.uniform(0.6, 1.2, 2)
show("random_zoom", affine(img, zx=zx, zy=zy))
show("random_channel_shift", channel_shift(img, np.random.uniform(-5.0, 5.0), 2))

gen = Gen(rotation=30, width=0.2, height=[-1, 0, 2], shear=10, zoom=0.25, channel_shift=2.0, hflip=True,
          vflip=True, fill_mode="reflect")
for seed in [0, 1, 2]:
    p = gen.params(img.shape, seed=seed)
    print("params", seed, " ".join("%s=%.6g" % (k, p[k]) for k in sorted(p) if p[k] is not None))
    show("random_transform %d" % seed, gen.apply(img, gen.params(img.shape, seed=seed)))
print([0.75, 1.25], 3, 1, 2)

data = (np.cos(np.arange(7 * 4 * 5 * 3) * 0.31) * 50 + 100).reshape(7, 4, 5, 3).astype(np.float32)
labels = np.arange(7) * 10
x = data * np.float32(1 / 255.0)
mean = np.mean(x, axis=(0, 1, 2)).reshape(1, 1, 3)
x = x - mean
std = np.std(x, axis=(0, 1, 2)).reshape(1, 1, 3)
show("mean", mean)
show("std", std)
show("standardize", (data[0] * np.float32(1 / 255.0) - mean) / (std + 1e-6))
small = data[:, :1, :2, :].astype(np.float64)
zmean = np.mean(small, axis=(0, 1, 2)).reshape(1, 1, 3)
flat = np.reshape(small - zmean, (7, -1))
u, s, _ = np.linalg.svd(flat.T, full_matrices=False)
zca = (u * (np.sqrt(7) / (s + 1e-6))).dot(u.T)
show("zca std", ((small[1] - zmean).reshape(-1, 6) @ zca).reshape(1, 2, 3))
d2 = data[2] - np.mean(data[2], keepdims=True)
show("samplewise", d2 / (np.std(d2, keepdims=True) + 1e-6))


class Flow:
    # Keras's Iterator over a generator: __next__ / __getitem__ reseed
    # np.random with seed + batches seen.
    def __init__(self, n, batch_size, shuffle, seed, batch):
        self.n, self.batch_size, self.shuffle, self.seed, self.batch = n, batch_size, shuffle, seed, batch
        self.batch_index, self.total, self.index_array = 0, 0, None

    def set_index(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def next(self):
        if self.seed is not None:
            np.random.seed(self.seed + self.total)
        if self.batch_index == 0:
            self.set_index()
        current = (self.batch_index * self.batch_size) % self.n
        if self.n > current + self.batch_size:
            self.batch_index += 1
        else:
            self.batch_index = 0
        self.total += 1
        return self.batch(self.index_array[current:current + self.batch_size])

    def __getitem__(self, idx):
        if self.seed is not None:
            np.random.seed(self.seed + self.total)
        self.total += 1
        if self.index_array is None:
            self.set_index()
        return self.batch(self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])


def array_batches(gen, x, y):
    def batch(index):
        out = np.zeros((len(index),) + x.shape[1:], dtype=np.float32)
        for i, j in enumerate(index):
            out[i] = gen.standardize(gen.apply(x[j].astype(np.float32), gen.params(x[j].shape)))
        return out, y[index]
    return batch


flow_gen = Gen(hflip=True, width=1, rescale=0.5)
it = Flow(7, 3, True, 11, array_batches(flow_gen, data, labels))
print(len(it), 7, 3)
for _ in range(4):
    bx, by = it.next()
    print("next", by.tolist(), "%.6g" % bx.sum(), bx.dtype)
bx, by = it[2]
print("getitem", by.tolist(), "%.6g" % bx.sum())
it.set_index()
print("epoch end", it[0][1].tolist())
print("unshuffled", [(4, 4, 5, 3), (3, 4, 5, 3), (4, 4, 5, 3)])
print("weighted", 3, [0, 10, 20, 30, 40], ["%.4g" % v for v in np.arange(5) / 7.0])

# The image files: class folders "cats" and "dogs" (and a file that is not
# an image, skipped), PNGs of different sizes resized by nearest neighbour.
os.makedirs("images/cats", exist_ok=True)
os.makedirs("images/dogs/inner", exist_ok=True)
paths = ["images/cats/a.png", "images/cats/b.png", "images/dogs/c.png", "images/dogs/inner/d.png",
         "images/dogs/e.png"]
for n, path in enumerate(paths):
    h, w = 5 + n, 7 + 2 * n
    pixels = ((np.arange(h * w * 3).reshape(h, w, 3) * (n + 3) + 40 * n) % 256).astype(np.uint8)
    Image.fromarray(pixels, "RGB").save(path)
with open("images/dogs/notes.txt", "w") as f:
    f.write("not an image")
files = ["cats/a.png", "cats/b.png", "dogs/c.png", "dogs/e.png", "dogs/inner/d.png"]
classes = [0, 0, 1, 1, 1]
print("Found 5 images belonging to 2 classes.")
print({"cats": 0, "dogs": 1}, classes, files)


def load(path, mode):
    im = Image.open(os.path.join("images", path)).convert(mode).resize((6, 4), Image.NEAREST)
    a = np.asarray(im, dtype=np.float32)
    return a if a.ndim == 3 else a[:, :, None]


tree = Gen(vflip=True, rescale=1 / 255.0)


def dir_batch(index):
    out = np.zeros((len(index), 4, 6, 3), dtype=np.float32)
    for i, j in enumerate(index):
        x = load(files[j], "RGB")
        out[i] = tree.standardize(tree.apply(x, tree.params(x.shape)))
    y = np.zeros((len(index), 2), dtype=np.float32)
    for i, j in enumerate(index):
        y[i, classes[j]] = 1.0
    return out, y


flow = Flow(5, 2, True, 5, dir_batch)
for _ in range(3):
    bx, by = flow.next()
    show("dir batch", bx)
    show("dir labels", by)
print("Found 5 images belonging to 2 classes.")
gray = np.stack([tree.standardize(tree.apply(load(f, "L"), tree.params((4, 6, 1)))) for f in files])
show("gray", gray)
print("sparse", [0.0, 0.0, 1.0, 1.0, 1.0])

from PIL import ImageEnhance


def brightness(x, factor, scale=True):
    # Keras's apply_brightness_shift: array_to_img, ImageEnhance, img_to_array.
    lo, hi = np.min(x), np.max(x)
    local = (lo < 0) or (hi > 255)
    a = np.asarray(x, dtype=np.float32)
    if local or scale:
        a = a - np.min(a)
        if np.max(a) != 0:
            a /= np.max(a)
        a *= 255
    a = a.astype("uint8")
    im = Image.fromarray(a, "RGB") if a.shape[2] == 3 else Image.fromarray(a[:, :, 0], "L")
    out = np.asarray(ImageEnhance.Brightness(im).enhance(factor), dtype=np.float32)
    if out.ndim == 2:
        out = out[:, :, None]
    if not scale and local:
        out = out / 255 * (hi - lo) + lo
    return out


pixels = ((np.arange(4 * 5 * 3) * 37) % 256).reshape(4, 5, 3).astype(np.float32)
show("brightness 0.6", brightness(pixels, 0.6))
show("brightness 1.7 unscaled", brightness(pixels, 1.7, scale=False))
show("brightness wide range", brightness(pixels * 2 - 100, 0.8, scale=False))
show("brightness gray", brightness(pixels[:, :, :1], 1.3))
np.random.seed(9)
show("random_brightness", brightness(pixels, np.random.uniform(0.5, 1.5)))
np.random.seed(4)
flip_h = (np.random.random() < 0.5) * True
np.random.random()
factor = np.random.uniform(0.2, 1.8)
print("brightness param", "%.6g" % factor, flip_h)
show("brightness transform", brightness(flip(pixels, 1) if flip_h else pixels, factor, scale=False))


def load_small(path, mode):
    im = Image.open(os.path.join("images", path)).convert(mode).resize((4, 3), Image.NEAREST)
    a = np.asarray(im, dtype=np.float32)
    return (a if a.ndim == 3 else a[:, :, None]) * np.float32(1 / 255.0)


print("Found 3 validated image filenames belonging to 2 classes.")
print({"dog": 0, "cat": 1}, [1, 0, 1], ["cats/a.png", "dogs/c.png", "dogs/e.png"])
show("frame x", np.stack([load_small("cats/a.png", "RGB"), load_small("dogs/c.png", "RGB")]))
show("frame y", [[0, 1], [1, 0]])
show("frame w", [1.0, 2.0])
print("Found 3 validated image filenames belonging to 3 classes.")
print({"bird": 0, "cat": 1, "dog": 2}, ["dogs/c.png", "cats/b.png", "dogs/e.png"], [2, 0, 1])
show("sparse y", [2, 0, 1])
print("Found 4 validated image filenames.")
show("raw y", [0.5, 1.5, 4.5])
print("Found 4 validated image filenames.")
show("multi x", np.stack([load_small("cats/a.png", "L"), load_small("dogs/c.png", "L")]))
show("multi y", [[0.5, 1.5], [1.0, 2.0]])
