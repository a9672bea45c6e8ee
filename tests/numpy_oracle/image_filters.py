import numpy as np


def show(name, a, digits=4):
    print(name, [float("%.*f" % (digits, v)) + 0.0 for v in np.asarray(a, dtype=np.float64).ravel()])


rng = np.random.RandomState(0)
img = rng.uniform(0, 1, size=(2, 12, 13, 3)).astype(np.float32)
img2 = np.clip(img + rng.normal(0, 0.1, size=img.shape), 0, 1).astype(np.float32)
f = img.astype(np.float64)
f2 = img2.astype(np.float64)

YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]])
YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]])
YIQ_INV = np.array([[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]])
YUV_INV = np.array([[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]])
show("yiq", f[0, :2, :2] @ YIQ)
show("yuv", f[0, :2, :2] @ YUV)
show("yiq back", f[0, :1, :2] @ YIQ @ YIQ_INV)
show("yuv back", f[0, :1, :2] @ YUV @ YUV_INV)
print("transpose", "(2, 13, 12, 3)", "(13, 12, 3)")
sub = f[:, :4, :5]
dy = np.zeros_like(sub); dy[:, :-1] = sub[:, 1:] - sub[:, :-1]
dx = np.zeros_like(sub); dx[:, :, :-1] = sub[:, :, 1:] - sub[:, :, :-1]
show("dy", dy[0, :, :, 0])
show("dx", dx[1, :, :, 2])
sub = f[:, :5, :6]
p = np.pad(sub, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="reflect")
ky = np.array([[-1, -2, -1], [0, 0, 0], [1, 2, 1]])
kx = np.array([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]])


def corr(p, k, h, w):
    out = np.zeros((p.shape[0], h, w, p.shape[3]))
    for i in range(h):
        for j in range(w):
            out[:, i, j, :] = np.einsum("bijc,ij->bc", p[:, i:i + k.shape[0], j:j + k.shape[1], :], k)
    return out


sy, sx = corr(p, ky, 5, 6), corr(p, kx, 5, 6)
print("sobel", "(2, 5, 6, 3, 2)")
show("sobel y", sy[0, :, :, 1])
show("sobel x", sx[1, :, :, 0])
tv = np.abs(f[:, 1:] - f[:, :-1]).sum(axis=(1, 2, 3)) + np.abs(f[:, :, 1:] - f[:, :, :-1]).sum(axis=(1, 2, 3))
show("tv4", tv, 2)
show("tv3", np.abs(f[1, 1:] - f[1, :-1]).sum() + np.abs(f[1, :, 1:] - f[1, :, :-1]).sum(), 2)
mse = ((f - f2) ** 2).mean(axis=(1, 2, 3))
show("psnr", 20 * np.log10(1.0) - 10 * np.log10(mse))
u8a = (img * 255).astype(np.uint8).astype(np.float64) / 255
u8b = (img2 * 255).astype(np.uint8).astype(np.float64) / 255
show("psnr u8", -10 * np.log10(((u8a - u8b) ** 2).mean(axis=(1, 2, 3))))


def ssim(x, y, size, sigma, max_val=1.0, k1=0.01, k2=0.03):
    c = np.arange(size) - (size - 1) / 2.0
    g = np.exp(-0.5 * (c[None, :] ** 2 + c[:, None] ** 2) / sigma ** 2)
    g /= g.sum()
    h, w = x.shape[1] - size + 1, x.shape[2] - size + 1
    red = lambda a: corr(a, g, h, w)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    m0, m1 = red(x), red(y)
    num0 = m0 * m1 * 2.0
    den0 = m0 ** 2 + m1 ** 2
    lum = (num0 + c1) / (den0 + c1)
    cs = (red(x * y) * 2.0 - num0 + c2) / (red(x ** 2 + y ** 2) - den0 + c2)
    return (lum * cs).mean(axis=(1, 2)).mean(axis=-1)


show("ssim", ssim(f, f2, 11, 1.5))
show("ssim small filter", ssim(f, f2, 5, 1.0))
