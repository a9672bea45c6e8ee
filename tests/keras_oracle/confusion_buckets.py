# Oracle for confusion_buckets.tfs: Keras 2.15's bucketed confusion counts (metrics_utils'
# optimized update for evenly spaced thresholds) and AUC's interpolated areas, in numpy.
import numpy as np

EPS = 1e-7
y_true = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0], dtype=np.float32)
y_pred = np.array([-2.0, 3.5, 0.5, 0.25, 0.1, 0.9, 0.0, 1.0, 0.75, 0.6], dtype=np.float32)
w = np.array([1.0, 2.0, 0.5, 1.0, 1.5, 1.0, 1.0, 3.0, 0.25, 1.0], dtype=np.float32)


def buckets(thresholds, yt, yp, weights):
    n = len(thresholds)
    with_eps = thresholds[0] < 0.0 or thresholds[-1] > 1.0
    p = np.clip(yp, 0.0, 1.0).astype(np.float32)
    b = np.ceil(p * np.float32(n - 1)) - 1
    if with_eps:
        b = np.maximum(b, 0)
    lab = (yt != 0).astype(np.float32)
    tl, fl = lab * weights, (1 - lab) * weights
    tpb, fpb = np.zeros(n, np.float32), np.zeros(n, np.float32)
    for i, bi in enumerate(b.astype(int)):
        if bi >= 0:
            tpb[bi] += tl[i]
            fpb[bi] += fl[i]
    tp, fp = np.cumsum(tpb[::-1])[::-1], np.cumsum(fpb[::-1])[::-1]
    return tp, fp, fl.sum() - fp, tl.sum() - tp


def auc_roc(tp, fp, tn, fn):
    tpr = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=(tp + fn) != 0)
    fpr = np.divide(fp, fp + tn, out=np.zeros_like(fp), where=(fp + tn) != 0)
    return float(np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2))


def auc_pr(tp, fp, tn, fn):
    # Keras's interpolate_pr_auc (Davis & Goadrich).
    dtp = tp[:-1] - tp[1:]
    p = tp + fp
    dp = p[:-1] - p[1:]
    prec_slope = np.divide(dtp, dp, out=np.zeros_like(dtp), where=dp != 0)
    intercept = tp[1:] - prec_slope * p[1:]
    safe_p_ratio = np.where((p[:-1] > 0) & (p[1:] > 0),
                            np.divide(p[:-1], np.where(p[1:] > 0, p[1:], 1), dtype=np.float32), np.ones_like(p[1:]))
    pr_auc = prec_slope * (dtp + intercept * np.log(safe_p_ratio))
    denom = tp[1:] + fn[1:]
    return float(np.sum(np.divide(pr_auc, denom, out=np.zeros_like(pr_auc), where=denom != 0)))


def show(name, th, area):
    tp, fp, tn, fn = buckets(np.array(th, dtype=np.float64), y_true, y_pred, w)
    for k, v in (("tp", tp), ("fp", fp), ("tn", tn), ("fn", fn)):
        print(name, k, [float(x) for x in v])
    print(name, "result", area(tp, fp, tn, fn))


def even(n):
    return [0.0 - EPS] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0 + EPS]


show("auc_roc", even(5), auc_roc)
show("auc_pr", even(5), auc_pr)
show("auc_given", [0.0 - EPS, 0.25, 0.5, 0.75, 1.0 + EPS], auc_roc)
ones = np.ones_like(y_true)
tp, fp, tn, fn = buckets(np.array([0.0, 0.5, 1.0]), y_true, y_pred, ones)
print("precision", [float(x) for x in np.divide(tp, tp + fp, out=np.zeros_like(tp), where=(tp + fp) != 0)])
print("recall", [float(x) for x in np.divide(tp, tp + fn, out=np.zeros_like(tp), where=(tp + fn) != 0)])
tp, _, _, _ = buckets(np.array([0.0, 0.25, 0.5, 0.75, 1.0]), y_true, y_pred, ones)
print("tp_counts", [float(x) for x in tp])
print("tp_uneven", [float(((y_pred > t) & (y_true != 0)).sum()) for t in (0.1, 0.5, 0.95)])

yt2 = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], dtype=np.float32)
yp2 = np.array([[0.5, 1.2], [0.75, 0.25], [0.3, -0.1], [1.0, 0.5]], dtype=np.float32)
cols = [buckets(np.array(even(5)), yt2[:, j], yp2[:, j], np.ones(4, np.float32)) for j in range(2)]
print("multi tp", [[float(cols[j][0][i]) for j in range(2)] for i in range(5)])
print("multi fp", [[float(cols[j][1][i]) for j in range(2)] for i in range(5)])
print("multi result", float(np.mean([auc_roc(*c) for c in cols])))
