# numpy oracle for metrics_more.tfs, from Keras 2.15's definitions: F-beta
# from per-class (or micro) weighted tp/fp/fn with predictions binarised by
# threshold or the row maximum; IoU = tp / (row + col - tp) of the weighted
# confusion matrix, averaged over the target classes with a nonzero
# denominator; R2 = 1 - SSE / (sum(w y^2) - sum(w y)^2 / sum(w)); the curve
# metrics from tp/fp/tn/fn at Keras's thresholds (0, i/(n-1), 1; positive
# when the score is > threshold).
import numpy as np
from oracle_common import show


def div(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return np.where(b == 0, 0.0, a / np.where(b == 0, 1.0, b))


def fbeta(yt, yp, average, threshold, beta=1.0, w=None):
    if threshold is None:
        pred = ((yp >= yp.max(axis=1, keepdims=True)) & (np.abs(yp) > 1e-9)).astype(float)
    else:
        pred = (yp > threshold).astype(float)
    w = np.ones(len(yt)) if w is None else w
    axis = None if average == "micro" else 0
    tp = (pred * yt * w[:, None]).sum(axis=axis)
    fp = (pred * (1 - yt) * w[:, None]).sum(axis=axis)
    fn = ((1 - pred) * yt * w[:, None]).sum(axis=axis)
    support = (yt * w[:, None]).sum(axis=axis)
    p, r = div(tp, tp + fp), div(tp, tp + fn)
    f = div(p * r, beta ** 2 * p + r) * (1 + beta ** 2)
    if average == "weighted":
        return (f * div(support, support.sum())).sum()
    if average is not None:
        return f.mean()
    return f


y_true = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 0]], dtype=np.float64)
y_pred = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0], [0.1, 0.3, 0.9], [0.5, 0.4, 0.1]],
                  dtype=np.float32).astype(np.float64)
weights = np.array([1.0, 0.5, 2.0, 1.0, 0.25])
for average in [None, "micro", "macro", "weighted"]:
    for threshold in [None, 0.5]:
        show("f1 %s %s" % (average, threshold), fbeta(y_true, y_pred, average, threshold))
    show("f2 %s" % average, fbeta(y_true, y_pred, average, 0.55, 2.0, weights))
show("f2 after reset", fbeta(y_true[:2], y_pred[:2], "weighted", 0.55, 2.0))


def confusion(labels, preds, n, w=None):
    cm = np.zeros((n, n))
    for i, (a, b) in enumerate(zip(labels, preds)):
        cm[int(a), int(b)] += 1.0 if w is None else w[i]
    return cm


def iou(cm, targets):
    tp = np.diag(cm)
    den = cm.sum(axis=0) + cm.sum(axis=1) - tp
    tp, den = tp[targets], den[targets]
    return div(div(tp, den).sum(), (den != 0).sum())


labels = np.array([0, 1, 2, 2, 1, 0, 3, 3])
preds = np.array([0, 2, 2, 1, 1, 0, 3, 0])
lw = np.array([1.0, 0.5, 1.0, 2.0, 1.0, 0.3, 1.0, 1.0])
cm = confusion(labels, preds, 4)
show("mean iou", iou(cm, [0, 1, 2, 3]))
show("mean iou weighted", iou(cm + confusion(labels, preds, 4, lw), [0, 1, 2, 3]))
show("iou 0 2", iou(cm, [0, 2]))
keep = labels != 0
show("iou ignore", iou(confusion(labels[keep], preds[keep], 4), [1]))
show("binary iou", iou(confusion([0, 1, 0, 1], [0, 0, 1, 1], 2), [0, 1]))
show("one hot mean iou", iou(confusion([0, 1, 2, 2], [0, 2, 2, 0], 3), [0, 1, 2]))

r_true = np.array([[1.0, 2.0], [2.0, 1.0], [4.0, 0.5], [3.0, 3.0]])
r_pred = np.array([[1.5, 1.8], [2.1, 1.4], [3.5, 0.4], [2.5, 2.0]])
rw = np.array([1.0, 1.0, 2.0, 0.5])[:, None]
s, ss = (rw * r_true).sum(0), (rw * r_true * r_true).sum(0)
total = ss - s * s / rw.sum(0)
raw = 1 - ((r_true - r_pred) ** 2 * rw).sum(0) / total
show("r2 uniform_average", raw.mean())
show("r2 variance_weighted_average", (total * raw).sum() / total.sum())
show("r2 None", raw)
total = (r_true ** 2).sum(0) - r_true.sum(0) ** 2 / 4
r2 = (1 - ((r_true - r_pred) ** 2).sum(0) / total).mean()
n = r_true.size
show("r2 adjusted", 1 - (1 - r2) * (n - 1) / (n - 1 - 1))

scores = np.array([0.1, 0.35, 0.4, 0.8, 0.65, 0.2, 0.9, 0.55, 0.3, 0.7], dtype=np.float32)
truth = np.array([0, 0, 1, 1, 1, 0, 1, 0, 0, 1])


def rates(n, w=None):
    thresholds = [0.0] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0]
    th = np.array(thresholds, dtype=np.float32)[:, None]
    w = np.ones(len(truth)) if w is None else w
    pos = scores[None, :] > th
    tp = (pos * truth * w).sum(1)
    fp = (pos * (1 - truth) * w).sum(1)
    fn = (~pos * truth * w).sum(1)
    tn = (~pos * (1 - truth) * w).sum(1)
    return {"sens": div(tp, tp + fn), "spec": div(tn, tn + fp), "prec": div(tp, tp + fp)}


def at(constrained, dependent, value):
    ok = constrained >= value
    return dependent[ok].max() if ok.any() else 0.0


for name, c, d, v in [("PrecisionAtRecall", "sens", "prec", 0.8), ("RecallAtPrecision", "prec", "sens", 0.75),
                      ("SensitivityAtSpecificity", "spec", "sens", 0.6),
                      ("SpecificityAtSensitivity", "sens", "spec", 0.9)]:
    for n in [200, 7]:
        r = rates(n)
        show("%s %d" % (name, n), at(r[c], r[d], v))
r = rates(200, np.linspace(0.5, 1.5, 10))
show("PrecisionAtRecall weighted", at(r["sens"], r["prec"], 0.5))

# The Dense(2, softmax, ones kernel) gives equal scores for [1,1] and [0,0]
# inputs: ties count as predicted for both classes (F1) and argmax picks 0.
x = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]] * 4)
y = np.array([[0, 1], [1, 0], [1, 0], [0, 1]] * 4, dtype=np.float64)
# A MeanIoU without a name is "mean_io_u", made unique per session: the
# second one created is "mean_io_u_1" (F1Score's default name is fixed).
print("evaluate keys", ["f1_score", "loss", "mean_io_u_1"])
show("evaluate f1", fbeta(y, np.full((16, 2), 0.5), "macro", None))
show("evaluate iou", iou(confusion(y.argmax(1), np.zeros(16), 2), [0, 1]))
