# Oracle for conv_lstm.tfs: Keras 2.15's ConvLSTM step in numpy (float64
# from the float32 inputs): z_g = conv(x, W_g, padding, strides) + b_g +
# conv(h, U_g, 'same'), g in (i, f, c, o) the four filter blocks;
# c' = f * c + i * act(z_c), h' = o * act(c'), with hard_sigmoid(x) =
# clip(0.2 x + 0.5, 0, 1).
import numpy as np


def values(shape, a, b):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * a) + np.arange(n) * b).reshape(shape).astype(np.float32).astype(np.float64)


def show(name, x):
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def weights(shapes):
    return [(values(s, 0.4 + 0.2 * i, 0.001).astype(np.float32) * np.float32(0.5)).astype(np.float64)
            for i, s in enumerate(shapes)]


def conv(x, w, strides, padding):
    # x [batch, *spatial, c], w [*k, c, o]
    rank = w.ndim - 2
    k = w.shape[:rank]
    pads, outs = [], []
    for a in range(rank):
        size = x.shape[1 + a]
        if padding == "same":
            out = -(-size // strides[a])
            total = max((out - 1) * strides[a] + k[a] - size, 0)
            pads.append((total // 2, total - total // 2))
        else:
            out = (size - k[a]) // strides[a] + 1
            pads.append((0, 0))
        outs.append(out)
    xp = np.pad(x, [(0, 0)] + pads + [(0, 0)])
    y = np.zeros([x.shape[0]] + outs + [w.shape[-1]])
    for tap in np.ndindex(*k):
        index = tuple([slice(None)] + [slice(tap[a], tap[a] + (outs[a] - 1) * strides[a] + 1, strides[a])
                                       for a in range(rank)])
        y += xp[index] @ w[tap]
    return y


def hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0, 1)


def conv_lstm(x, kernel, rkernel, bias, strides, padding, act=np.tanh, ract=hard_sigmoid, backwards=False):
    f = kernel.shape[-1] // 4
    rank = kernel.ndim - 2
    steps = list(range(x.shape[1]))
    if backwards:
        steps.reverse()
    h = None
    outputs = []
    for t in steps:
        zx = conv(x[:, t], kernel, strides, padding)
        if bias is not None:
            zx = zx + bias
        if h is None:
            h = np.zeros(zx.shape[:-1] + (f,))
            c = np.zeros_like(h)
        z = zx + conv(h, rkernel, (1,) * rank, "same")
        i, fg, cc, o = [z[..., g * f:(g + 1) * f] for g in range(4)]
        c = ract(fg) * c + ract(i) * act(cc)
        h = ract(o) * act(c)
        outputs.append(h)
    return np.stack(outputs, axis=1), h, c


seq2 = values((2, 3, 4, 5, 2), 0.8, 0.002)
k, r, b = weights([(2, 3, 2, 12), (2, 3, 3, 12), (12,)])
print("weights", [("conv_lst_m2d/conv_lstm_cell/kernel:0", [2, 3, 2, 12]),
                  ("conv_lst_m2d/conv_lstm_cell/recurrent_kernel:0", [2, 3, 3, 12]),
                  ("conv_lst_m2d/conv_lstm_cell/bias:0", [12])])
show("ConvLSTM2D same", conv_lstm(seq2, k, r, b, (1, 1), "same")[1])
k, r, b = weights([(2, 2, 2, 8), (2, 2, 2, 8), (8,)])
out, h, c = conv_lstm(seq2, k, r, b, (1, 2), "valid", act=lambda v: np.maximum(v, 0),
                      ract=lambda v: 1 / (1 + np.exp(-v)))
show("ConvLSTM2D seq", out)
show("ConvLSTM2D h", h)
show("ConvLSTM2D c", c)
seq1 = values((2, 4, 6, 3), 0.6, -0.003)
k, r = weights([(3, 3, 8), (3, 2, 8)])
show("ConvLSTM1D backwards", conv_lstm(seq1, k, r, None, (1,), "valid", backwards=True)[1])
print("[TensorShape([None, None, 6, 6, 4]), TensorShape([None, 6, 6, 4]), TensorShape([None, 6, 6, 4])]")
print((None, 32), 3 * 3 * 2 * 8 + 3 * 3 * 2 * 8 + 8)
print("ConvLSTM2D", 2, (3, 3), "hard_sigmoid")
