# numpy oracle for remaining_layers.tfs: each layer computed from its
# definition (ReLU: max_value cap, negative_slope * (x - threshold) below
# the threshold; SeparableConv1D: depthwise channel c * multiplier + m, then
# a 1x1 pointwise kernel; "same" average pooling averages the real values
# of its window; LSTM gates i, f, c, o; GRU gates z, r, h with reset_after
# and a [2, 3 * units] bias; the activity regularizer's loss is divided by
# the batch size).
import numpy as np
from oracle_common import fixed, show_values as show


def weights_for(shapes, scale=0.1, first=0):
    return [fixed(s, scale + 0.02 * (first + i), 0.01 * (first + i)) for i, s in enumerate(shapes)]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


seq = fixed((2, 5, 3), 0.1, 0.013)
img = fixed((2, 3, 4, 2), 0.1, 0.05)
other = fixed((2, 5, 3), 0.15, -0.05)
state3 = fixed((2, 3), 0.2, 0.03)
state2 = fixed((2, 2), 0.25, -0.02)
carry2 = fixed((2, 2), 0.3, 0.04)
step = seq[:, 1]


def simple_step(x, h, w):
    return np.tanh(x @ w[0] + h @ w[1] + w[2])


def lstm_step(x, h, c, w):
    z = x @ w[0] + h @ w[1] + w[2]
    u = h.shape[1]
    i, f = sigmoid(z[:, 0:u]), sigmoid(z[:, u:2 * u])
    g, o = np.tanh(z[:, 2 * u:3 * u]), sigmoid(z[:, 3 * u:4 * u])
    c = f * c + i * g
    return o * np.tanh(c), c


def gru_step(x, h, w):
    u = h.shape[1]
    x_part = x @ w[0] + w[2][0]
    h_part = h @ w[1] + w[2][1]
    z = sigmoid(x_part[:, 0:u] + h_part[:, 0:u])
    r = sigmoid(x_part[:, u:2 * u] + h_part[:, u:2 * u])
    candidate = np.tanh(x_part[:, 2 * u:] + r * h_part[:, 2 * u:])
    return z * h + (1 - z) * candidate


show("activation_tanh", np.tanh(seq))
relu = np.where(seq >= 0.05, np.minimum(seq, 0.3), 0.1 * (seq - 0.05))
show("relu_options", relu)
show("flatten", img.reshape(2, -1))
show("lambda", seq * seq + 1.0)
for name in ["dropout_inference", "gaussian_noise_inference", "gaussian_dropout_inference",
             "spatial_dropout_inference", "identity"]:
    show(name, seq)

w = weights_for([(2, 3, 2), (1, 6, 3), (3,)])
depthwise = np.zeros((2, 4, 6))
for t in range(4):
    depthwise[:, t] = np.einsum("bkc,kcm->bcm", seq[:, t:t + 2], w[0]).reshape(2, 6)
show("separable_conv1d", depthwise @ w[1][0] + w[2])
show("maxpool1d", np.stack([seq[:, 0:2].max(1), seq[:, 2:4].max(1)], 1))
show("avgpool1d_same", np.stack([seq[:, 0:2].mean(1), seq[:, 2:4].mean(1), seq[:, 4:5].mean(1)], 1))
show("global_max1d", seq.max(1))
show("global_max2d", img.max((1, 2)))
show("global_avg2d", img.mean((1, 2)))
show("zero_padding1d", np.pad(seq, ((0, 0), (1, 2), (0, 0))))
show("upsampling1d", seq.repeat(3, axis=1))
show("cropping1d", seq[:, 1:3])

w = weights_for([(3, 8), (2, 8), (8,)])
h, c, outs = np.zeros((2, 2)), np.zeros((2, 2)), []
for t in range(5):
    h, c = lstm_step(seq[:, t], h, c, w)
    outs.append(h)
show("rnn_lstm_cell", np.stack(outs, 1))

w_simple = weights_for([(3, 3), (3, 3), (3,)])
w_gru = weights_for([(3, 6), (2, 6), (2, 6)], first=3)
h1, h2 = np.zeros((2, 3)), np.zeros((2, 2))
for t in range(5):
    h1 = simple_step(seq[:, t], h1, w_simple)
    h2 = gru_step(h1, h2, w_gru)
show("stacked_cells", h2)

show("multiply", seq * other)
show("maximum", np.maximum(seq, other))
show("minimum", np.minimum(seq, other))
show("simple_rnn_cell", simple_step(step, state3, weights_for([(3, 3), (3, 3), (3,)])))
h, c = lstm_step(step, state2, carry2, weights_for([(3, 8), (2, 8), (8,)]))
show("lstm_cell", np.concatenate([h, c], -1))
show("gru_cell", gru_step(step, state2, weights_for([(3, 6), (2, 6), (2, 6)])))
show("activity_regularization", seq)
show("activity_regularization_loss", (0.01 * np.abs(seq).sum() + 0.02 * (seq * seq).sum()) / 2)

for name in ["activation_tanh", "relu_options", "flatten", "lambda", "dropout_inference",
             "gaussian_noise_inference", "gaussian_dropout_inference", "spatial_dropout_inference", "identity",
             "separable_conv1d", "maxpool1d", "avgpool1d_same", "global_max1d", "global_max2d", "global_avg2d",
             "zero_padding1d", "upsampling1d", "cropping1d", "rnn_lstm_cell", "stacked_cells", "multiply", "maximum",
             "minimum", "simple_rnn_cell", "lstm_cell", "gru_cell", "activity_regularization"]:
    print(name, "gradient matches finite differences:", True)
print("dropout_training kept values scaled:", True, "some dropped:", True)
