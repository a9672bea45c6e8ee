import numpy as np


def show(name, a, digits=4):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        print(name, a.shape, [float("%.*f" % (digits, v)) + 0.0 for v in a.astype(np.float64).ravel()])
    else:
        print(name, a.shape, a.ravel().tolist())


rng = np.random.RandomState(2)
weights = rng.normal(0, 0.5, size=(10, 4)).astype(np.float32).astype(np.float64)
biases = rng.normal(0, 0.1, size=(10,)).astype(np.float32).astype(np.float64)
inputs = rng.normal(0, 1, size=(3, 4)).astype(np.float32).astype(np.float64)
labels = np.array([[1, 4], [7, 2], [0, 9]], np.int64)
sampled = np.array([3, 4, 8, 0, 5], np.int64)
true_count = rng.uniform(0.1, 0.9, size=(3, 2)).astype(np.float32).astype(np.float64)
sampled_count = rng.uniform(0.1, 0.9, size=(5,)).astype(np.float32).astype(np.float64)


def logits(labels, true_count, remove_hits):
    num_true = labels.shape[1]
    true_logits = np.einsum("bd,bkd->bk", inputs, weights[labels]) + biases[labels] - np.log(true_count)
    sampled_logits = inputs @ weights[sampled].T + biases[sampled] - np.log(sampled_count)
    if remove_hits:
        for i in range(labels.shape[0]):
            for c in labels[i]:
                hit = np.where(sampled == c)[0]
                if len(hit):
                    sampled_logits[i, hit[-1]] += -np.finfo(np.float32).max
    out = np.concatenate([true_logits, sampled_logits], 1)
    targets = np.concatenate([np.full(true_logits.shape, 1.0 / num_true), np.zeros(sampled_logits.shape)], 1)
    return out, targets


def nce(remove):
    z, y = logits(labels, true_count, remove)
    return (np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))).sum(axis=1)


def softmax_xent(labels, true_count, remove):
    z, y = logits(labels, true_count, remove)
    z = z - z.max(axis=1, keepdims=True)
    return -(y * (z - np.log(np.exp(z).sum(axis=1, keepdims=True)))).sum(axis=1)


show("nce", nce(False))
show("nce hits removed", nce(True))
show("sampled softmax", softmax_xent(labels, true_count, True))
show("sampled softmax keep hits", softmax_xent(labels, true_count, False))
show("hits indices", np.array([0, 2], np.int32))
show("hits ids", np.array([1, 3], np.int64))
show("hits weights", np.full(2, -np.finfo(np.float32).max, np.float32), 1)
# d/dW of sum(sampled softmax loss), one true class, hits removed.
z, y = logits(labels[:, :1], true_count[:, :1], True)
p = np.exp(z - z.max(axis=1, keepdims=True))
p /= p.sum(axis=1, keepdims=True)
g = p - y
grad = np.zeros_like(weights)
ids = np.concatenate([labels[:, :1], np.tile(sampled, (3, 1))], 1)
for i in range(3):
    for k, c in enumerate(ids[i]):
        grad[c] += g[i, k] * inputs[i]
show("grad", grad)
print("default sampler", (3,), True)
