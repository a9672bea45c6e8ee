import numpy as np

x = (np.arange(24, dtype="float32").reshape(12, 2) / 10.0).astype(np.float64)
y = x[:, :1] * 2.0 - x[:, 1:] + 0.5


def fit(xt, yt, epochs, bs=4, steps=None, sw=None, val=None, initial_epoch=0, weighted=False, lr=0.1, W=None):
    n = len(xt)
    W = np.zeros((2, 1)) if W is None else W
    b = np.zeros(1)
    sw = np.ones(n) if sw is None else sw
    passes = epochs - initial_epoch
    one = [(i, min(i + bs, n)) for i in range(0, n, bs)]
    stream = one * passes
    pos = 0
    hist = {}
    epochs_run = []
    for e in range(initial_epoch, epochs):
        count = steps if steps is not None else len(one)
        tl = tn = ae = an = wae = wsum = 0.0
        ran_out = False
        for step in range(count):
            if pos >= len(stream):
                ran_out = True
                print("WARNING:tensorflow:Your input ran out of data; interrupting training. Make sure that your "
                      "dataset or generator can generate at least `steps_per_epoch * epochs` batches (in this case, "
                      "%d batches). You may need to use the repeat() function when building your dataset."
                      % (steps * passes))
                break
            s, t = stream[pos]
            pos += 1
            xb, yb, wb = xt[s:t], yt[s:t], sw[s:t]
            err = xb @ W + b - yb
            tl += np.mean(wb[:, None] * err ** 2) * (t - s)
            tn += t - s
            ae += np.sum(np.abs(err))
            an += t - s
            wae += np.sum(wb[:, None] * np.abs(err))
            wsum += np.sum(wb)
            g = 2 * wb[:, None] * err / (t - s)
            W = W - lr * xb.T @ g
            b = b - lr * g.sum(0)
        epochs_run.append(e)
        logs = {"loss": tl / tn, "mae": ae / an}
        if weighted:
            logs["weighted_mae"] = wae / wsum
        if val is not None:
            xv, yv, wv = val
            err = xv @ W + b - yv
            logs["val_loss"] = np.mean(wv[:, None] * err ** 2)
            logs["val_mae"] = np.mean(np.abs(err))
            if weighted:
                logs["val_weighted_mae"] = np.sum(wv[:, None] * np.abs(err)) / np.sum(wv)
        for k in logs:
            hist.setdefault(k, []).append(logs[k])
        if ran_out:
            break
    return epochs_run, hist, W, b


def show(name, r):
    print(name, r[0])
    for k in sorted(r[1]):
        print(" ", k, " ".join(["%.6g" % v for v in r[1][k]]))


r = fit(x[:9], y[:9], 3, initial_epoch=1, val=(x[9:], y[9:], np.ones(3)))
show("validation_split initial_epoch", r)
print("weights", " ".join(["%.6g" % v for v in np.concatenate([r[2].ravel(), r[3]])]))
show("sample_weight validation_data", fit(x, y, 2, sw=np.linspace(0.5, 1.5, 12).astype("float32").astype(np.float64),
                                          val=(x[:4], y[:4], np.array([1.0, 2.0, 0.0, 1.0])), weighted=True))
show("steps_per_epoch 2 of 3", fit(x, y, 3, steps=2))
show("steps_per_epoch 4 of 3", fit(x, y, 3, steps=4))
show("steps_per_epoch without batch_size", fit(x, y, 2, steps=3))
show("dataset steps = cardinality", fit(x, y, 2, steps=3))
r = fit(x, y, 1)
W, b = r[2], r[3]
print("WARNING:tensorflow:Your input ran out of data; interrupting training. Make sure that your dataset or generator "
      "can generate at least `steps_per_epoch * epochs` batches (in this case, 5 batches). You may need to use the "
      "repeat() function when building your dataset.")
err = x @ W + b - y
print("evaluate steps past the data", "%.6g %.6g" % (np.mean(err ** 2), np.mean(np.abs(err))))

labels = np.array([0, 1, 2, 1, 0, 2, 2, 1])
feats = np.stack([np.linspace(-1, 1, 8), np.cos(np.arange(8.0))], 1).astype("float32").astype(np.float64)
cw = np.array([1.0, 2.0, 0.5])
K = np.ones((2, 3))
B = np.zeros(3)
hist = {"loss": [], "accuracy": []}
for e in range(2):
    tl = 0.0
    right = 0
    for s in range(0, 8, 4):
        xb, yb = feats[s:s + 4], labels[s:s + 4]
        z = xb @ K + B
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        w = cw[yb]
        tl += np.mean(w * -np.log(p[np.arange(4), yb])) * 4
        right += np.sum(np.argmax(p, 1) == yb)
        d = p.copy()
        d[np.arange(4), yb] -= 1
        d *= w[:, None] / 4
        K -= 0.5 * xb.T @ d
        B -= 0.5 * d.sum(0)
    hist["loss"].append(tl / 8)
    hist["accuracy"].append(right / 8)
show("class_weight", ([0, 1], hist))

binary = (x[:, 0] > 1.0).astype(int)
cw = np.array([1.0, 3.0])
K = np.zeros((2, 2))
B = np.zeros(2)


def softmax(z):
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


hist = {"loss": [], "accuracy": [], "val_loss": [], "val_accuracy": []}
for e in range(2):
    tl = right = 0.0
    for s in range(0, 12, 4):
        xb, yb = x[s:s + 4], binary[s:s + 4]
        p = softmax(xb @ K + B)
        w = cw[yb]
        tl += np.mean(w * -np.log(p[np.arange(4), yb])) * 4
        right += np.sum(p.argmax(1) == yb)
        d = p.copy()
        d[np.arange(4), yb] -= 1
        d *= w[:, None] / 4
        K -= 0.5 * xb.T @ d
        B -= 0.5 * d.sum(0)
    hist["loss"].append(tl / 12)
    hist["accuracy"].append(right / 12)
    p = softmax(x[:8] @ K + B)
    hist["val_loss"].append(np.mean(-np.log(p[np.arange(8), binary[:8]])))
    hist["val_accuracy"].append(np.mean(p.argmax(1) == binary[:8]))
show("dataset class_weight validation_steps", ([0, 1], hist))
