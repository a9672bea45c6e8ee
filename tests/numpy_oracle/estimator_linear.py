import numpy as np
f32 = np.float32
x1 = np.array([0.5, 1.0, -1.0, 2.0, 0.0, 1.5, -0.5, 3.0], f32)
x2 = np.array([1.0, 0.0, 2.0, -1.0, 1.0, 0.5, 0.0, 1.0], f32)
color = ["r", "g", "b", "g", "r", "b", "g", "x"]
onehot = np.array([[c == v for v in "rgb"] for c in color], f32)
X = np.concatenate([onehot, x1[:, None], x2[:, None]], 1)  # columns sorted by name: color, x1, x2
y_reg = np.array([1.0, 2.0, -1.0, 3.0, 0.5, 2.0, 0.0, 4.0], f32)[:, None]
y_cls = np.array([1, 1, 0, 1, 0, 1, 0, 1], f32)[:, None]


class Ftrl:
    def __init__(self, shape, lr):
        self.accum = np.full(shape, 0.1, f32)
        self.linear = np.zeros(shape, f32)
        self.lr = f32(lr)

    def step(self, var, g):
        new_accum = self.accum + g * g
        self.linear = self.linear + g - (np.sqrt(new_accum) - np.sqrt(self.accum)) / self.lr * var
        quadratic = np.sqrt(new_accum) / self.lr
        var = np.where(np.abs(self.linear) > 0, (np.sign(self.linear) * f32(0) - self.linear) / quadratic, 0).astype(f32)
        self.accum = new_accum
        return var


def batches(epochs):
    for e in range(epochs):
        for i in range(0, 8, 4):
            yield X[i:i + 4], i


def sigmoid(x):
    return (1 / (1 + np.exp(-x))).astype(f32)


def train(kind, steps):
    w = np.zeros((5, 1), f32)
    b = np.zeros((1,), f32)
    ow, ob = Ftrl((5, 1), 0.2), Ftrl((1,), 0.2)
    n = 0
    for xb, i in batches(2):
        if n == steps:
            break
        y = (y_reg if kind == "reg" else y_cls)[i:i + 4]
        pred = xb @ w + b
        d = (f32(2) * (pred - y) if kind == "reg" else sigmoid(pred) - y) / f32(len(xb))
        w = ow.step(w, xb.T @ d)
        b = ob.step(b, d.sum(0))
        n += 1
    return w, b, n


def bce(logit, z):
    return np.maximum(logit, 0) - logit * z + np.log1p(np.exp(-np.abs(logit)))


def show(d):
    print(True, "global_step")
    print({k: round(float(v), 5) for k, v in d.items()})
    print("float32", "int64")


w, b, n = train("reg", None)
pred = X @ w + b
losses = [float(np.mean((pred[i:i + 4] - y_reg[i:i + 4]) ** 2)) for i in (0, 4)]
show({"average_loss": np.mean((pred - y_reg) ** 2), "label/mean": y_reg.mean(), "loss": np.mean(losses),
      "prediction/mean": pred.mean(), "global_step": n})
print(8, ["predictions"], "float32", (1,))
print([round(float(v), 5) for v in pred[:, 0]])
print([round(float(v), 5) for v in w[:3, 0]])

w, b, n = train("cls", 3)
logit = X @ w + b
p = sigmoid(logit)
cls = (logit > 0).astype(f32)
losses = [float(np.mean(bce(logit[i:i + 4], y_cls[i:i + 4]))) for i in (0, 4)]
lab = y_cls[:, 0] > 0
pos = cls[:, 0] > 0
tp, fp, fn = np.sum(pos & lab), np.sum(pos & ~lab), np.sum(~pos & lab)
th = np.array([-1e-7] + [(i + 1) / 199.0 for i in range(198)] + [1 + 1e-7], f32)
pp = p[:, 0][None, :] > th[:, None]
TP = np.sum(pp & lab, 1).astype(f32); FN = np.sum(~pp & lab, 1).astype(f32)
TN = np.sum(~pp & ~lab, 1).astype(f32); FP = np.sum(pp & ~lab, 1).astype(f32)
rec = np.where(TP + FN > 0, TP / np.maximum(TP + FN, 1), 0)
fpr = np.where(FP + TN > 0, FP / np.maximum(FP + TN, 1), 0)
auc = np.sum((fpr[:-1] - fpr[1:]) * (rec[:-1] + rec[1:]) / 2)
dtp = TP[:-1] - TP[1:]
P = TP + FP
dp = np.maximum(P[:-1] - P[1:], 0)
slope = np.where(dp > 0, dtp / np.where(dp > 0, dp, 1), 0)
icpt = TP[1:] - slope * P[1:]
ratio = np.where((P[:-1] > 0) & (P[1:] > 0), P[:-1] / np.where(P[1:] > 0, P[1:], 1), 1)
den = np.maximum(TP[1:] + FN[1:], 0)
auc_pr = np.sum(np.where(den > 0, slope * (dtp + icpt * np.log(ratio)) / np.where(den > 0, den, 1), 0))
lm = y_cls.mean()
show({"accuracy": np.mean(cls == y_cls), "accuracy_baseline": max(lm, 1 - lm), "auc": auc, "auc_precision_recall": auc_pr,
      "average_loss": np.mean(bce(logit, y_cls)), "label/mean": lm, "loss": np.mean(losses),
      "precision": tp / (tp + fp), "prediction/mean": p.mean(), "recall": tp / (tp + fn), "global_step": 3})
print(['all_class_ids', 'all_classes', 'class_ids', 'classes', 'logistic', 'logits', 'probabilities'])
c = int(cls[0, 0])
print(np.array([c]), np.array([str(c).encode()]), np.array([0, 1], np.int32), np.array([b"0", b"1"]))
print(round(float(p[0, 0]), 5), [round(float(1 - p[0, 0]), 5), round(float(p[0, 0]), 5)])
