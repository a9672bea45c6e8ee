"""Numba peer of bench/workloads: @njit loops (np.dot inside for GEMMs), as a
Numba user would write them; compile time is excluded except for compile."""
import time

import numpy as np
from numba import njit

from common import data, digits, lstm_data, median_time, mlp_init, report


@njit(cache=False)
def _sigmoid(x):
    one = np.float32(1.0)
    return one / (one + np.exp(-x))


@njit(cache=False)
def _lstm(xs, wx, wh, b):
    h = np.zeros((10, 10), np.float32)
    c = np.zeros((10, 10), np.float32)
    for t in range(xs.shape[0]):
        z = np.dot(xs[t], wx) + np.dot(h, wh) + b
        i, f, g, o = z[:, :10], z[:, 10:20], z[:, 20:30], z[:, 30:]
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
    return h, c


@njit(cache=False)
def _mlp_epoch(x_all, y_all, w1, b1, w2, b2):
    n_all = y_all.shape[0]
    loss = 0.0
    for s in range(0, n_all, 64):
        x = x_all[s:s + 64]
        y = y_all[s:s + 64]
        n = y.shape[0]
        hpre = np.dot(x, w1) + b1
        h = np.maximum(hpre, np.float32(0))
        logits = np.dot(h, w2) + b2
        d = np.empty_like(logits)
        loss = 0.0
        for r in range(n):
            m = logits[r].max()
            e = np.exp(logits[r] - m)
            t = e.sum()
            loss += np.log(t) + m - logits[r, y[r]]
            d[r] = e / t
            d[r, y[r]] -= 1
        loss /= n
        d /= np.float32(n)
        gw2 = np.dot(h.T.copy(), d)
        gb2 = d.sum(axis=0)
        dh = np.dot(d, w2.T.copy()) * (hpre > 0)
        gw1 = np.dot(x.T.copy(), dh)
        gb1 = dh.sum(axis=0)
        w1 -= np.float32(0.1) * gw1
        b1 -= np.float32(0.1) * gb1
        w2 -= np.float32(0.1) * gw2
        b2 -= np.float32(0.1) * gb2
    return loss


@njit(cache=False)
def _chain(a, b, c, out):
    for i in range(a.shape[0]):
        out[i] = max(a[i] * b[i] + c[i], np.float32(0)) * np.float32(0.5) - np.tanh(a[i])


@njit(cache=False)
def _reduce_sum(a):
    s = np.float32(0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


@njit(cache=False)
def _sum_even(xs):
    s = 0
    for x in xs:
        if x % 2 == 0:
            s += x
    return s


@njit(cache=False)
def _range_loop(n):
    x = np.float32(0)
    for _ in range(n):
        x = x + np.float32(1)
    return x


@njit(cache=False)
def _trivial(x):
    return x


def main():
    xs, wx, wh, b = lstm_data()
    out = {}

    def lstm():
        out["hc"] = _lstm(xs, wx, wh, b)
    t = median_time(lstm)
    report("lstm", t, float(out["hc"][0].sum()), float(out["hc"][1].sum()))

    x_all, y_all = digits()

    def mlp():
        out["loss"] = _mlp_epoch(x_all, y_all, *mlp_init())
    t = median_time(mlp)
    report("mlp", t, out["loss"])

    n = 10000000
    a, bb, c = data(n, 7), data(n, 13), data(n, 17)
    res = np.empty(n, np.float32)
    t = median_time(lambda: _chain(a, bb, c, res))
    report("chain", t, float(res.astype(np.float64).sum()))
    t = median_time(lambda: _reduce_sum(a))
    report("reduce_sum", t, float(_reduce_sum(a)))

    ints = np.arange(1000000, dtype=np.int64) * 7 % 1009
    t = median_time(lambda: _sum_even(ints))
    report("sum_even", t, int(_sum_even(ints)))
    iters = 10000000
    t = median_time(lambda: _range_loop(iters))
    report("range_loop", t / iters, float(_range_loop(iters)))

    one = np.float32(1.0)
    calls = 100000

    def call_loop():
        for _ in range(calls):
            _trivial(one)

    def empty_loop():
        for _ in range(calls):
            pass
    t = (median_time(call_loop) - median_time(empty_loop)) / calls
    report("call", t)

    # Compile latency: a fresh small function each time (first call minus
    # a second call).
    times = []
    for r in range(3):
        k = 2.0 + r

        @njit(cache=False)
        def small(x):
            y = x * k + 1.0
            if y.sum() > 0.0:
                y = np.tanh(y)
            return y - 1.0
        v = np.array([1.0, 2.0, 3.0], np.float32)
        t0 = time.perf_counter()
        small(v)
        t1 = time.perf_counter()
        small(v)
        t2 = time.perf_counter()
        times.append((t1 - t0) - (t2 - t1))
    times.sort()
    report("compile", times[len(times) // 2])


if __name__ == "__main__":
    main()
