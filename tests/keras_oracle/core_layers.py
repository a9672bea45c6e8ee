# numpy oracle for core_layers.tfs: each layer computed from its definition
# in Keras 2.15 / TF (padding "same" splits the total padding with the
# extra element after; pooling averages over the unpadded elements;
# normalization epsilon 1e-3; LSTM gates i, f, c, o; GRU gates z, r, h with
# reset_after=True).
import numpy as np
from oracle_common import fixed, show_values as show


def weights_for(shapes, scale=0.1):
    return [fixed(s, scale + 0.02 * i, 0.01 * i) for i, s in enumerate(shapes)]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def same_pads(n, k, s, d=1):
    out = -(-n // s)
    total = max((out - 1) * s + (k - 1) * d + 1 - n, 0)
    return total // 2, total - total // 2


def conv1d(x, kernel, bias, stride=1, padding="valid", dilation=1):
    k = kernel.shape[0]
    if padding == "same":
        x = np.pad(x, ((0, 0), same_pads(x.shape[1], k, stride, dilation), (0, 0)))
    span = (k - 1) * dilation + 1
    steps = range(0, x.shape[1] - span + 1, stride)
    return np.stack([sum(x[:, t + j * dilation] @ kernel[j] for j in range(k)) for t in steps], 1) + bias


def conv2d(x, kernel, bias, stride=1, padding="valid"):
    kh, kw = kernel.shape[:2]
    if padding == "same":
        x = np.pad(x, ((0, 0), same_pads(x.shape[1], kh, stride), same_pads(x.shape[2], kw, stride), (0, 0)))
    rows = range(0, x.shape[1] - kh + 1, stride)
    cols = range(0, x.shape[2] - kw + 1, stride)
    return np.stack([np.stack([np.einsum("bhwc,hwco->bo", x[:, r:r + kh, c:c + kw], kernel) for c in cols], 1)
                     for r in rows], 1) + bias


def pool2d(x, size, reduce, padding="valid"):
    pads = [(0, 0), (0, 0)]
    if padding == "same":
        pads = [same_pads(x.shape[1], size, size), same_pads(x.shape[2], size, size)]
    h_out = (x.shape[1] + sum(pads[0]) - size) // size + 1
    w_out = (x.shape[2] + sum(pads[1]) - size) // size + 1
    out = np.zeros((x.shape[0], h_out, w_out, x.shape[3]))
    for r in range(h_out):
        for c in range(w_out):
            r0, c0 = r * size - pads[0][0], c * size - pads[1][0]
            window = x[:, max(r0, 0):r0 + size, max(c0, 0):c0 + size]
            out[:, r, c] = reduce(window, axis=(1, 2))
    return out


seq = fixed((2, 5, 3), 0.1)
img = fixed((2, 5, 4, 3), 0.1, 0.05)

w = weights_for([(3, 4), (4,)])
show("dense", np.tanh(seq @ w[0] + w[1]))
w = weights_for([(3, 3, 2), (2,)])
show("conv1d_same_s2", conv1d(seq, w[0], w[1], stride=2, padding="same"))
w = weights_for([(2, 3, 2), (2,)])
show("conv1d_dilated", np.maximum(conv1d(seq, w[0], w[1], dilation=2), 0))
w = weights_for([(3, 2, 3, 2), (2,)])
show("conv2d_valid", conv2d(img, w[0], w[1]))
w = weights_for([(3, 3, 3, 2), (2,)])
show("conv2d_same_s2", conv2d(img, w[0], w[1], stride=2, padding="same"))
show("maxpool2d", pool2d(img, 2, np.max))
show("avgpool2d_same", pool2d(img, 2, np.mean, "same"))
show("global_avg1d", seq.mean(1))
w = weights_for([(3,), (3,)], 0.5)
mean, var = seq.mean(-1, keepdims=True), seq.var(-1, keepdims=True)
show("layernorm", (seq - mean) / np.sqrt(var + 1e-3) * w[0] + w[1])

w = weights_for([(3, 3), (3, 3), (3,)])
h, outs = np.zeros((2, 3)), []
for t in range(5):
    h = np.tanh(seq[:, t] @ w[0] + h @ w[1] + w[2])
    outs.append(h)
show("simple_rnn", np.stack(outs, 1))

w = weights_for([(3, 8), (2, 8), (8,)])
h, c = np.zeros((2, 2)), np.zeros((2, 2))
for t in range(5):
    z = seq[:, t] @ w[0] + h @ w[1] + w[2]
    i, f, g, o = sigmoid(z[:, 0:2]), sigmoid(z[:, 2:4]), np.tanh(z[:, 4:6]), sigmoid(z[:, 6:8])
    c = f * c + i * g
    h = o * np.tanh(c)
show("lstm", h)

w = weights_for([(3, 6), (2, 6), (2, 6)])
h, outs = np.zeros((2, 2)), []
for t in range(5):
    x_part = seq[:, t] @ w[0] + w[2][0]
    h_part = h @ w[1] + w[2][1]
    z = sigmoid(x_part[:, 0:2] + h_part[:, 0:2])
    r = sigmoid(x_part[:, 2:4] + h_part[:, 2:4])
    candidate = np.tanh(x_part[:, 4:6] + r * h_part[:, 4:6])
    h = z * h + (1 - z) * candidate
    outs.append(h)
show("gru", np.stack(outs, 1))

gamma, beta, moving_mean, moving_var = fixed((3,), 0.5), fixed((3,), 0.2), fixed((3,), 0.1), fixed((3,), 0.1, 1.0)
show("batchnorm_inference", (img - moving_mean) / np.sqrt(moving_var + 1e-3) * gamma + beta)
mean, var = img.mean((0, 1, 2)), img.var((0, 1, 2))
show("batchnorm_training", (img - mean) / np.sqrt(var + 1e-3))
# The fused kernel (4-D input) moves the variance with the unbiased batch
# variance; the unfused path (fused=False, other ranks) with the biased one.
show("batchnorm_moving", list(0.1 * mean) + list(0.9 + 0.1 * var * 40 / 39))
show("batchnorm_moving_unfused", 0.9 + 0.1 * var)
show("batchnorm_moving_3d", 0.9 + 0.1 * seq.var((0, 1)))
table = fixed((6, 3), 0.2)
show("embedding", table[np.array([[5, 0, 2], [1, 1, 4]])])
for name in ["dense", "conv1d_same_s2", "conv1d_dilated", "conv2d_valid", "conv2d_same_s2", "maxpool2d",
             "avgpool2d_same", "global_avg1d", "layernorm", "simple_rnn", "lstm", "gru", "batchnorm_inference",
             "batchnorm_training"]:
    print(name, "gradient matches finite differences:", True)
