"""torch peer of bench/workloads: eager torch and TorchScript
(torch.jit.script) where a torch user would reach for it; one thread."""
import importlib.util
import os
import tempfile
import time

import numpy as np
import torch

from common import data, digits, lstm_data, median_time, mlp_init, report

torch.set_num_threads(1)


@torch.jit.script
def _lstm(xs: torch.Tensor, wx: torch.Tensor, wh: torch.Tensor, b: torch.Tensor):
    h = torch.zeros(10, 10)
    c = torch.zeros(10, 10)
    for t in range(xs.shape[0]):
        z = torch.mm(xs[t], wx) + torch.mm(h, wh) + b
        i, f, g, o = torch.split(z, 10, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
    return h, c


@torch.jit.script
def _chain(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor):
    return torch.relu(a * b + c) * 0.5 - torch.tanh(a)


@torch.jit.script
def _sum_even(xs: torch.Tensor):
    return xs[xs % 2 == 0].sum()


@torch.jit.script
def _range_loop(n: int):
    x = torch.zeros([])
    for _ in range(n):
        x = x + 1.0
    return x


@torch.jit.script
def _trivial(x: torch.Tensor):
    return x


def main():
    xs, wx, wh, b = (torch.from_numpy(v) for v in lstm_data())
    out = {}
    with torch.no_grad():
        def lstm():
            out["hc"] = _lstm(xs, wx, wh, b)
        t = median_time(lstm)
        report("lstm", t, float(out["hc"][0].sum()), float(out["hc"][1].sum()))

    x_all, y_all = digits()
    xt, yt = torch.from_numpy(x_all), torch.from_numpy(y_all).long()
    batches = [(xt[s:s + 64], yt[s:s + 64]) for s in range(0, len(y_all), 64)]

    def mlp():
        params = [torch.from_numpy(p).requires_grad_() for p in mlp_init()]
        w1, b1, w2, b2 = params
        loss = None
        for x, y in batches:
            logits = torch.relu(x @ w1 + b1) @ w2 + b2
            loss = torch.nn.functional.cross_entropy(logits, y)
            grads = torch.autograd.grad(loss, params)
            with torch.no_grad():
                for p, g in zip(params, grads):
                    p -= 0.1 * g
        out["loss"] = float(loss)
    t = median_time(mlp)
    report("mlp", t, out["loss"])

    n = 10000000
    with torch.no_grad():
        a, bb, c = (torch.from_numpy(data(n, k)) for k in (7, 13, 17))
        t = median_time(lambda: _chain(a, bb, c))
        report("chain", t, float(_chain(a, bb, c).double().sum()))
        t = median_time(lambda: a.sum())
        report("reduce_sum", t, float(a.sum()))
        m1 = torch.from_numpy(data(1024 * 1024, 7).reshape(1024, 1024))
        m2 = torch.from_numpy(data(1024 * 1024, 11).reshape(1024, 1024))
        t = median_time(lambda: m1 @ m2)
        report("matmul", t, float((m1 @ m2).double().sum()))
        ints = torch.from_numpy(np.arange(1000000, dtype=np.int64) * 7 % 1009)
        t = median_time(lambda: _sum_even(ints))
        report("sum_even", t, int(_sum_even(ints)))
        iters = 100000  # fewer than the others' 10M: ~5 us per iteration
        t = median_time(lambda: _range_loop(iters))
        report("range_loop", t / iters)

        one = torch.tensor(1.0)
        calls = 100000

        def call_loop():
            for _ in range(calls):
                _trivial(one)

        def empty_loop():
            for _ in range(calls):
                pass
        t = (median_time(call_loop) - median_time(empty_loop)) / calls
        report("call", t)

    # Compile latency: a fresh small function each time (scripting needs its
    # source in a file), first call minus a second call.
    times = []
    with tempfile.TemporaryDirectory() as d:
        for r in range(3):
            path = os.path.join(d, f"small{r}.py")
            with open(path, "w") as f:
                f.write("import torch\n"
                        "def small(x: torch.Tensor):\n"
                        f"    y = x * {2.0 + r} + 1.0\n"
                        "    if bool(y.sum() > 0.0):\n"
                        "        y = torch.tanh(y)\n"
                        "    return y - 1.0\n")
            spec = importlib.util.spec_from_file_location(f"small{r}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            v = torch.tensor([1.0, 2.0, 3.0])
            t0 = time.perf_counter()
            small = torch.jit.script(mod.small)
            small(v)
            t1 = time.perf_counter()
            small(v)
            t2 = time.perf_counter()
            times.append((t1 - t0) - (t2 - t1))
    times.sort()
    report("compile", times[len(times) // 2])


if __name__ == "__main__":
    main()
