# numpy oracle for metrics_losses_basic.tfs, from Keras 2.15's definitions:
# probabilities clipped to [1e-7, 1 - 1e-7] (and 1e-7 added inside the
# binary cross-entropy's logs), SUM_OVER_BATCH_SIZE dividing the weighted sum
# by the number of samples, compile-style metrics averaging with their
# weights; AUC from 200 (or num_thresholds) thresholds i/(n-1) plus -1e-7 and
# 1 + 1e-7, a prediction counting as positive above a threshold, and the ROC
# area by the trapezoid rule.
import numpy as np

EPS = 1e-7


def show(name, x):
    print(name, " ".join(["%.6g" % v for v in np.asarray(x, dtype=np.float64).ravel()]))


f32 = lambda a: np.array(a, "float32").astype(np.float64)
labels = f32([[0], [1], [1], [0], [1], [0]])
probs = f32([[0.1], [0.8], [0.35], [0.6], [0.9], [0.2]])
sw = f32([1.0, 2.0, 0.5, 1.0, 0.0, 3.0])
onehot = f32([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]])
sparse = np.array([0, 1, 2, 1])
dist = f32([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
logits = f32([[2.0, -1.0, 0.5], [0.1, 0.2, -0.3], [-1.0, 0.0, 3.0], [1.5, 1.0, -2.0]])
reg_true = f32([[1.0, -2.0], [0.5, 3.0], [0.0, 1.0]])
reg_pred = f32([[1.5, -1.0], [0.0, 2.0], [2.5, 1.5]])


def weighted_mean(values, weights=None):
    values = np.asarray(values, np.float64).ravel()
    weights = np.ones_like(values) if weights is None else np.broadcast_to(np.asarray(weights, np.float64), values.shape)
    return values, weights


class Mean:
    # Running weighted mean over updates; each update gives per-sample values.
    def __init__(self, fn):
        self.fn, self.total, self.count = fn, 0.0, 0.0

    def update(self, *args, sample_weight=None):
        v, w = weighted_mean(self.fn(*args), sample_weight)
        self.total += np.sum(v * w)
        self.count += np.sum(w)

    def result(self):
        return self.total / self.count if self.count else 0.0


def in_top_k(pred, target, k):
    return np.array([np.sum(p > p[t]) < k for p, t in zip(pred, target)], np.float64)


def roc_rates(y, p, w, n=200):
    # True and false positive rates at AUC's n default thresholds (predictions here lie inside [0, 1], away from
    # the thresholds, where comparing with each threshold and Keras's bucket counting agree).
    thresholds = np.array([-EPS] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1 + EPS], np.float32)
    y, p, w = y.ravel(), p.ravel().astype(np.float32), w.ravel()
    above = p[None, :] > thresholds[:, None]
    tp = (above * (y == 1) * w).sum(1)
    fp = (above * (y == 0) * w).sum(1)
    fn = (~above * (y == 1) * w).sum(1)
    tn = (~above * (y == 0) * w).sum(1)
    tpr = np.where(tp + fn > 0, tp / np.maximum(tp + fn, 1e-300), 0)
    fpr = np.where(fp + tn > 0, fp / np.maximum(fp + tn, 1e-300), 0)
    return tpr, fpr


def auc(y, p, w, n=200):
    tpr, fpr = roc_rates(y, p, w, n)
    return np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)


def report(name, first, second):
    show(name, [first, second])
    show(name + "_reset", 0.0)


m = Mean(lambda v: v)
m.update([1.0, 2.0, 4.0], sample_weight=[1.0, 0.5, 2.0])
a = m.result()
m.update([2.0, 4.0], sample_weight=[0.5, 2.0])
report("mean", a, m.result())
report("sum", 7.0, 13.0)
report("accuracy", 0.75, 3 / 8)
m = Mean(lambda t, p: (p > 0.5) == t)
m.update(labels, probs, sample_weight=sw)
a = m.result()
m.update(labels[1:], probs[1:], sample_weight=sw[1:])
report("binary_accuracy", a, m.result())
acc = np.mean((probs > 0.7) == labels)
report("binary_accuracy_threshold", acc, acc)
m = Mean(lambda t, p: np.argmax(t, 1) == np.argmax(p, 1))
m.update(onehot, dist)
a = m.result()
m.update(onehot[1:], dist[1:])
report("categorical_accuracy", a, m.result())
m = Mean(lambda t, p: t == np.argmax(p, 1))
m.update(sparse, dist)
a = m.result()
m.update(sparse[1:], dist[1:])
report("sparse_categorical_accuracy", a, m.result())
m = Mean(lambda t, p: in_top_k(p, np.argmax(t, 1), 2))
m.update(onehot, dist)
a = m.result()
m.update(onehot[1:], dist[1:])
report("top2_categorical_accuracy", a, m.result())
m = Mean(lambda t, p: in_top_k(p, t, 2))
m.update(sparse, logits)
a = m.result()
m.update(sparse[1:], logits[1:])
report("sparse_top2_categorical_accuracy", a, m.result())
ones = np.ones(6)
report("auc", auc(labels, probs, ones),
       auc(np.concatenate([labels, labels[1:]]), np.concatenate([probs, probs[1:]]), np.ones(11)))
two = auc(np.concatenate([labels, labels]), np.concatenate([probs, probs]), np.concatenate([sw, sw]), 50)
report("auc_weighted_50", auc(labels, probs, sw, 50), two)


def precision(y, p, w):
    pos = (p.ravel() > 0.5)
    return np.sum(pos * (y.ravel() == 1) * w) / np.sum(pos * w)


def recall(y, p, w):
    pos = (p.ravel() > 0.5)
    return np.sum(pos * (y.ravel() == 1) * w) / np.sum((y.ravel() == 1) * w)


cat = lambda a: np.concatenate([a, a[1:]])
report("precision", precision(labels, probs, ones), precision(cat(labels), cat(probs), np.ones(11)))
report("recall", recall(labels, probs, sw), recall(cat(labels), cat(probs), cat(sw)))
m = Mean(lambda t, p: np.mean(np.abs(t - p), -1))
m.update(reg_true, reg_pred)
a = m.result()
m.update(reg_true[1:], reg_pred[1:])
report("mae", a, m.result())
m = Mean(lambda t, p: np.mean((t - p) ** 2, -1))
m.update(reg_true, reg_pred, sample_weight=[1.0, 2.0, 0.5])
a = m.result()
m.update(reg_true[1:], reg_pred[1:], sample_weight=[2.0, 0.5])
report("mse", a, m.result())
m = Mean(lambda t, p: (t - p) ** 2)
m.update(reg_true, reg_pred)
a = np.sqrt(m.result())
m.update(reg_true[1:], reg_pred[1:])
report("rmse", a, np.sqrt(m.result()))
mape = np.mean(100 * np.mean(np.abs(reg_true[:2] - reg_pred[:2]) / np.maximum(np.abs(reg_true[:2]), EPS), -1))
report("wrapper", mape, mape)

show("fn_binary_accuracy", np.mean((probs > 0.5) == labels, -1))
show("fn_categorical_accuracy", np.argmax(onehot, 1) == np.argmax(dist, 1))
show("fn_sparse_categorical_accuracy", sparse == np.argmax(dist, 1))
show("fn_top_k_categorical_accuracy", in_top_k(dist, np.argmax(onehot, 1), 2))
show("fn_sparse_top_k_categorical_accuracy", in_top_k(logits, sparse, 1))
show("fn_mae", np.mean(np.abs(reg_true - reg_pred), -1))
show("fn_mse", np.mean((reg_true - reg_pred) ** 2, -1))
show("metric_subclass", [np.sum((probs.ravel() > 0.5) * sw) + np.sum(probs > 0.5), 1])
show("metric_subclass_reset", 0.0)


def log_softmax(z):
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def bce(t, p):
    p = np.clip(p, EPS, 1 - EPS)
    return np.mean(-(t * np.log(p + EPS) + (1 - t) * np.log(1 - p + EPS)), -1)


def bce_logits(t, z):
    return np.mean(np.maximum(z, 0) - z * t + np.log1p(np.exp(-np.abs(z))), -1)


def cce(t, p):
    p = np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)
    return -np.sum(t * np.log(p), -1)


def scce(t, p):
    lp = np.log(np.clip(p, EPS, 1 - EPS))
    return -log_softmax(lp)[np.arange(len(t)), t]


def huber(t, p, d=1.0):
    e = np.abs(p - t)
    return np.mean(np.where(e <= d, 0.5 * e * e, d * e - 0.5 * d * d), -1)


hinge_true = f32([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
kl = lambda t, p: np.sum(np.clip(t, EPS, 1) * np.log(np.clip(t, EPS, 1) / np.clip(p, EPS, 1)), -1)
loss_cases = [
    ("mse", lambda t, p: np.mean((t - p) ** 2, -1), reg_true, reg_pred),
    ("mae", lambda t, p: np.mean(np.abs(t - p), -1), reg_true, reg_pred),
    ("huber", lambda t, p: huber(t, p, np.float32(1.2)), reg_true, reg_pred),
    ("hinge", lambda t, p: np.mean(np.maximum(1 - (2 * t - 1) * p, 0), -1), hinge_true,
     (reg_pred.astype(np.float32) / np.float32(3.0)).astype(np.float64)),
    ("kld", kl, dist[:3], dist[1:]),
    ("bce", bce, labels, probs),
    ("bce_logits_smoothing", lambda t, z: bce_logits(t * 0.8 + 0.1, z), labels,
     (probs.astype(np.float32) * 4 - 2).astype(np.float64)),
    ("cce", cce, onehot, dist),
    ("cce_logits_smoothing", lambda t, z: -np.sum((t * 0.9 + 0.1 / 3) * log_softmax(z), -1), onehot, logits),
    ("scce", scce, sparse, dist),
    ("scce_logits", lambda t, z: -log_softmax(z)[np.arange(len(t)), t], sparse, logits),
]
for name, fn, t, p in loss_cases:
    per = fn(t, p)
    w = np.arange(1, len(t) + 1) / 2.0
    show(name, [per.mean(), np.sum(per * w) / len(per)])
    show(name + "_sum", np.sum(per * w))
    show(name + "_none", per)

show("fn_sparse_categorical_crossentropy", -log_softmax(logits)[np.arange(4), sparse])
show("fn_categorical_crossentropy", cce(onehot, dist))
show("fn_binary_crossentropy", bce(labels, probs))
show("fn_mse", np.mean((reg_true - reg_pred) ** 2, -1))
show("fn_huber", huber(reg_true, reg_pred))
cubed = np.mean(np.abs(reg_pred - reg_true) ** 3, -1)
show("loss_subclass", [cubed.mean(), np.sum(cubed * [1.0, 0.0, 2.0])])

kernel = f32([[0.5, -1.5, 2.0], [-0.2, 0.3, -3.0]])
show("l1", f32(0.01) * np.abs(kernel).sum())
show("l2", f32(0.02) * (kernel ** 2).sum())
show("l1l2", f32(0.01) * np.abs(kernel).sum() + f32(0.03) * (kernel ** 2).sum())
show("l1_l2_defaults", f32(0.01) * np.abs(kernel).sum() + f32(0.01) * (kernel ** 2).sum())
show("l2_string", f32(0.01) * (kernel ** 2).sum())
show("dense_losses", [f32(0.01) * np.abs(kernel).sum(), 0.5 * 3])


def norms(w, axis):
    return np.sqrt((w ** 2).sum(axis, keepdims=True))


n0, n1 = norms(kernel, 0), norms(kernel, 1)
show("max_norm", kernel * np.clip(n0, 0, 2.0) / (EPS + n0))
show("max_norm_axis1", kernel * np.clip(n1, 0, 1.0) / (EPS + n1))
show("min_max_norm", kernel * (0.5 * np.clip(n0, 1.0, 2.0) + 0.5 * n0) / (EPS + n0))
show("non_neg", kernel * (kernel >= 0))
show("unit_norm", kernel / (EPS + n0))
show("unit_norm_axis1", kernel / (EPS + n1))


def orthogonal(w, factor, rows=True):
    u = w / np.sqrt((w ** 2).sum(1 if rows else 0, keepdims=True))
    product = u @ u.T if rows else u.T @ u
    size = product.shape[0]
    return factor * 0.5 * np.abs(product * (1 - np.eye(size))).sum() / (size * (size - 1) / 2)


show("orthogonal_rows", orthogonal(kernel, f32(0.2)))
show("orthogonal_columns", orthogonal(kernel, f32(0.2), rows=False))
print("regularizer configs", {"l1": float(np.float32(0.01)), "l2": 0.5}, {"factor": float(np.float32(0.2)),
                                                                        "mode": "rows"})


def radial(k):
    # Keras 2.15's padding loop: start from the 1x1 (odd) or 2x2 (even)
    # centre read at [s-1, s-1], then pad one ring at a time with [s+i, s+i].
    size = k.shape[0]
    s = size // 2
    out = k[s - 1:s, s - 1:s] if size % 2 else np.full((2, 2), k[s - 1, s - 1])
    for i in range(0 if size % 2 else 1, s):
        out = np.pad(out, 1, constant_values=k[s + i, s + i])
    return out


for size in [3, 4, 5]:
    square = np.arange(size * size * 2, dtype=np.float64).reshape(size, size, 1, 2)
    show("radial_%d" % size, np.stack([radial(square[:, :, 0, j]) for j in range(2)]))

two_labels = np.concatenate([labels, 1 - labels[::-1]], 1)
two_probs = np.concatenate([probs, f32([[0.3], [0.75], [0.05], [0.55], [0.95], [0.4]])], 1)


def pr_auc(y, p, w, n=200):
    thresholds = np.array([-EPS] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1 + EPS], np.float32)
    above = p.astype(np.float32)[None, :] > thresholds[:, None]
    tp = (above * (y == 1) * w).sum(1)
    fp = (above * (y == 0) * w).sum(1)
    fn = (~above * (y == 1) * w).sum(1)

    def dnn(a, b):
        return np.where(b != 0, a / np.where(b == 0, 1, b), 0)
    dtp = tp[:-1] - tp[1:]
    pos = tp + fp
    slope = dnn(dtp, np.maximum(pos[:-1] - pos[1:], 0))
    intercept = tp[1:] - slope * pos[1:]
    ratio = np.where((pos[:-1] > 0) & (pos[1:] > 0), dnn(pos[:-1], np.maximum(pos[1:], 0)), 1.0)
    return np.sum(dnn(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0)))


ones6 = np.ones(6)
per_label = [auc(two_labels[:, j], two_probs[:, j], ones6) for j in range(2)]
show("auc_multi_label", np.mean(per_label))
per_label_pr = [pr_auc(two_labels[:, j], two_probs[:, j], ones6) for j in range(2)]
show("auc_multi_label_pr_weighted", (per_label_pr[0] * 1 + per_label_pr[1] * 3) / 4)
show("auc_label_weights", auc(two_labels.ravel(), two_probs.ravel(), np.tile([1.0, 3.0], 6)))


def auc_minoring(y, p, w, n=200):
    tpr, fpr = roc_rates(y, p, w, n)
    return np.sum((fpr[:-1] - fpr[1:]) * np.minimum(tpr[:-1], tpr[1:]))


logits2 = (two_probs.astype(np.float32) * 4 - 2)
sig = (1 / (1 + np.exp(-logits2.astype(np.float64)))).astype(np.float32)
show("auc_from_logits", auc_minoring(two_labels.ravel(), sig.ravel(), np.ones(12)))
print("auc config", sorted({"dtype": "float32", "num_thresholds": 4, "curve": "ROC",
                            "summation_method": "interpolation", "multi_label": False, "num_labels": None,
                            "label_weights": None, "from_logits": False, "thresholds": [0.3, 0.6]}.items()))
print("auc variables", ["true_positives:0", "true_negatives:0", "false_positives:0", "false_negatives:0"])
