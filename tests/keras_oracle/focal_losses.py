# Oracle for focal_losses.tfs: Keras 2.15's focal cross entropies in numpy.
# Binary: bce * (1 - p_t) ** gamma (times alpha / 1 - alpha with class
# balancing), p_t = y * p + (1 - y) * (1 - p); probabilities clipped to
# [1e-7, 1 - 1e-7] with log(p + 1e-7), logits through the stable sigmoid
# cross entropy; mean over the axis. Categorical: probabilities (softmax of
# logits) renormalised and clipped, sum(alpha * (1 - p) ** gamma * -y log p).
# Reductions: mean over all (sum_over_batch_size), sum, none.
import numpy as np

EPS = 1e-7


def show(name, x):
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def bce(y, out, from_logits):
    if from_logits:
        return np.maximum(out, 0) - out * y + np.log1p(np.exp(-np.abs(out)))
    p = np.clip(out, EPS, 1 - EPS)
    return -(y * np.log(p + EPS) + (1 - y) * np.log(1 - p + EPS))


def bfc(y, out, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
        axis=-1):
    y, out = f32(y), f32(out)
    if label_smoothing:
        y = y * (1 - label_smoothing) + 0.5 * label_smoothing
    p = 1 / (1 + np.exp(-out)) if from_logits else out
    p_t = y * p + (1 - y) * (1 - p)
    v = (1 - p_t) ** gamma * bce(y, out, from_logits)
    if apply_class_balancing:
        v = (y * alpha + (1 - y) * (1 - alpha)) * v
    return v.mean(axis=axis)


def cfc(y, out, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0):
    y, out = f32(y), f32(out)
    if label_smoothing:
        y = y * (1 - label_smoothing) + label_smoothing / y.shape[-1]
    if from_logits:
        e = np.exp(out - out.max(axis=-1, keepdims=True))
        out = e / e.sum(axis=-1, keepdims=True)
    out = np.clip(out / out.sum(axis=-1, keepdims=True), EPS, 1 - EPS)
    return (np.asarray(alpha) * (1 - out) ** gamma * -y * np.log(out)).sum(axis=-1)


y_true = [[0, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1]]
y_prob = [[0.1, 0.8, 0.6], [0.3, 0.2, 0.05], [0.95, 0.4, 0.5], [0.2, 0.7, 0.99]]
logits = [[-2.0, 1.5, 0.3], [0.7, -1.2, -3.0], [2.5, -0.4, 0.0], [-1.0, 0.9, 4.0]]
show("bfc default", bfc(y_true, y_prob))
show("bfc gamma0", bfc(y_true, y_prob, gamma=0.0))
show("bfc balanced", bfc(y_true, y_prob, apply_class_balancing=True, alpha=0.3, gamma=1.5))
show("bfc logits", bfc(y_true, logits, from_logits=True, gamma=3.0))
show("bfc smoothing", bfc(y_true, y_prob, label_smoothing=0.2))
show("bfc axis0", bfc(y_true, y_prob, axis=0))
show("doc bfc", bfc([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], gamma=2))
per = bfc(y_true, logits, apply_class_balancing=True, gamma=2.5, from_logits=True)
show("BFC", per.mean())
show("BFC weighted", (per * [1.0, 0.5, 0.0, 2.0]).mean())
show("BFC sum", bfc(y_true, y_prob).sum())
show("BFC none", bfc(y_true, y_prob, label_smoothing=0.1))
print("BFC config", sorted({"reduction": "auto", "name": "binary_focal_crossentropy", "apply_class_balancing": True,
                            "alpha": 0.25, "gamma": 2.5, "from_logits": True, "label_smoothing": 0.0,
                            "axis": -1}.items()))
onehot = [[0, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]]
probs = [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05], [0.6, 0.3, 0.1], [0.2, 0.3, 0.4]]
show("cfc default", cfc(onehot, probs))
show("cfc alpha list", cfc(onehot, probs, alpha=[0.2, 0.5, 0.3], gamma=1.0))
show("cfc logits", cfc(onehot, logits, from_logits=True))
show("cfc smoothing", cfc(onehot, probs, label_smoothing=0.3, gamma=0.5))
show("doc cfc", cfc([[0, 1, 0], [0, 0, 1]], [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05]]))
per = cfc(onehot, probs, alpha=0.5, gamma=1.0)
show("CFC", per.mean())
show("CFC weighted", (per * [0.5, 1.0, 2.0, 0.0]).mean())
print("CFC config", sorted({"reduction": "auto", "name": "categorical_focal_crossentropy", "alpha": 0.5, "gamma": 1.0,
                            "from_logits": False, "label_smoothing": 0.0, "axis": -1}.items()))
print(True, True)
print("CategoricalFocalCrossentropy", 0.5, 1.0)
