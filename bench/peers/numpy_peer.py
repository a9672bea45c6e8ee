"""numpy peer of bench/workloads (vectorized numpy, out= where it helps)."""
import numpy as np

from common import data, digits, lstm_data, median_time, mlp_init, report


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm():
    xs, wx, wh, b = lstm_data()
    out = {}

    def run():
        h = np.zeros((10, 10), np.float32)
        c = np.zeros((10, 10), np.float32)
        for t in range(1000):
            z = xs[t] @ wx + h @ wh + b
            i, f, g, o = z[:, :10], z[:, 10:20], z[:, 20:30], z[:, 30:]
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
        out["h"], out["c"] = h, c
    t = median_time(run)
    report("lstm", t, float(out["h"].sum()), float(out["c"].sum()))


def mlp():
    x_all, y_all = digits()
    batches = [(x_all[s:s + 64], y_all[s:s + 64]) for s in range(0, len(y_all), 64)]
    out = {}

    def epoch():
        w1, b1, w2, b2 = mlp_init()
        loss = None
        for x, y in batches:
            hpre = x @ w1 + b1
            h = np.maximum(hpre, 0)
            logits = h @ w2 + b2
            m = logits.max(axis=1, keepdims=True)
            e = np.exp(logits - m)
            s = e.sum(axis=1, keepdims=True)
            p = e / s
            n = len(y)
            loss = float(np.mean(np.log(s[:, 0]) + m[:, 0] - logits[np.arange(n), y]))
            d = p
            d[np.arange(n), y] -= 1
            d /= n
            gw2 = h.T @ d
            gb2 = d.sum(axis=0)
            dh = (d @ w2.T) * (hpre > 0)
            gw1 = x.T @ dh
            gb1 = dh.sum(axis=0)
            w1 -= np.float32(0.1) * gw1
            b1 -= np.float32(0.1) * gb1
            w2 -= np.float32(0.1) * gw2
            b2 -= np.float32(0.1) * gb2
        out["loss"] = loss
    t = median_time(epoch)
    report("mlp", t, out["loss"])


def tensor_ops():
    n = 10000000
    a, b, c = data(n, 7), data(n, 13), data(n, 17)
    out = np.empty(n, np.float32)
    tmp = np.empty(n, np.float32)

    def chain():
        np.multiply(a, b, out=out)
        np.add(out, c, out=out)
        np.maximum(out, 0, out=out)
        np.multiply(out, np.float32(0.5), out=out)
        np.tanh(a, out=tmp)
        np.subtract(out, tmp, out=out)
    t = median_time(chain)
    report("chain", t, float(out.astype(np.float64).sum()))
    t = median_time(lambda: np.tanh(a, out=out))
    report("tanh", t, float(out.astype(np.float64).sum()))

    def stream():
        np.multiply(a, b, out=out)
        np.add(out, c, out=out)
    t = median_time(stream)
    report("stream", t, float(out.astype(np.float64).sum()))
    t = median_time(lambda: a.sum())
    report("reduce_sum", t, float(a.sum()))
    m1 = data(1024 * 1024, 7).reshape(1024, 1024)
    m2 = data(1024 * 1024, 11).reshape(1024, 1024)
    t = median_time(lambda: m1 @ m2)
    report("matmul", t, float((m1 @ m2).astype(np.float64).sum()))


def loops():
    xs = np.arange(1000000, dtype=np.int64) * 7 % 1009
    t = median_time(lambda: xs[xs % 2 == 0].sum())
    report("sum_even", t, int(xs[xs % 2 == 0].sum()))


def data_pipeline():
    # bench/workloads/data_pipeline.tfs: each epoch a permutation of the
    # rows, each batch one gather per column.
    rows, batch = 16384, 256
    i = np.arange(rows, dtype=np.int64)
    columns = {"num%d" % c: (((i * (c + 7)) % 1009).astype(np.float64) / 1009.0).astype(np.float32)
               for c in range(8)}
    columns["cat"] = np.array(["a", "b", "c", "d"])[i % 4]
    columns["count"] = i % 100
    labels = i % 2
    rng = np.random.RandomState(1)

    def epoch():
        order = rng.permutation(rows)
        total = 0
        for start in range(0, rows, batch):
            picks = order[start:start + batch]
            features = {k: v[picks] for k, v in columns.items()}
            label = labels[picks]
            total += int(features["count"].sum())
        return total
    t = median_time(epoch)
    report("data_batch", t / (rows // batch), epoch())

    # The second workload: map(cast / 255).batch(32) over uint8 images.
    images_n, image_batch = 4096, 32
    k = np.arange(images_n * 28 * 28, dtype=np.int64)
    images = ((k * 7) % 256).astype(np.uint8).reshape(images_n, 28, 28)
    image_labels = np.arange(images_n, dtype=np.int64) % 10

    def image_epoch():
        total = 0.0
        for start in range(0, images_n, image_batch):
            x = images[start:start + image_batch].astype(np.float32) / np.float32(255.0)
            y = image_labels[start:start + image_batch]
            total += float(x[0, 14, 14])
        return total
    t = median_time(image_epoch)
    report("data_map_batch", t / (images_n // image_batch), "%.4f" % image_epoch())


if __name__ == "__main__":
    data_pipeline()
    lstm()
    mlp()
    tensor_ops()
    loops()
