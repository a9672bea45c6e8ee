# numpy oracle for optimizers_more.tfs: Keras 2.15's update rules.
#   Ftrl: n' = n + g^2; z += g + 2*l2s*w - (n'^-p - n^-p)/lr * w (p = -power);
#         w = (clip(z, -l1, l1) - z) / (n'^-p/lr + 2*(l2 + beta/(2 lr))).
#   Adafactor (t = step): rho = min(lr, 1/sqrt(t)) (lr itself first capped so
#         when relative_step); alpha = max(eps2, rms(w)) * rho; beta2 = 1 -
#         t^decay; matrices keep row / column means r, c of g^2 + eps1 and
#         v = r / mean(r) (x) c; vectors v = beta2 v + (1-beta2)(g^2+eps1);
#         u = g / sqrt(v); w -= alpha * u / max(1, rms(u) / clip).
#   Lion: w -= lr * sign(b1 m + (1-b1) g); m = b2 m + (1-b2) g; weight decay
#         first: w -= w * wd * lr.
import numpy as np
from oracle_common import show


def grads(step):
    g = np.array([[0.3, -0.2, 0.5], [-0.4, 0.1, 0.25]], dtype=np.float32) * (1.0 + 0.5 * step)
    return g.astype(np.float64), np.array([0.2, -0.6, 0.05], dtype=np.float32).astype(np.float64) * (1.5 - 0.4 * step)


def ftrl(lr, power=-0.5, l1=0.0, l2=0.0, l2s=0.0, beta=0.0, init=0.1):
    def step(w, g, state, t):
        n = state.setdefault("n", np.full(w.shape, init))
        z = state.setdefault("z", np.zeros(w.shape))
        p = -power
        n2 = n + g * g
        z = z + g + 2 * l2s * w - (n2 ** p - n ** p) / lr * w
        quad = n2 ** p / lr + 2 * (l2 + beta / (2.0 * lr))
        state["n"], state["z"] = n2, z
        return (np.clip(z, -l1, l1) - z) / quad
    return step


def rms(x):
    return np.sqrt(np.mean(np.square(x)))


def adafactor(lr, decay=-0.8, eps1=1e-30, eps2=1e-3, clip=1.0, relative=True):
    def step(w, g, state, t):
        rate = min(lr, 1 / np.sqrt(t)) if relative else lr
        rho = min(rate, 1 / np.sqrt(t))
        alpha = max(eps2, rms(w)) * rho
        g2 = g * g + eps1
        b2 = 1 - t ** decay
        if w.ndim >= 2:
            r = b2 * state.get("r", np.zeros(w.shape[:-1])) + (1 - b2) * g2.mean(axis=-1)
            c = b2 * state.get("c", np.zeros(w.shape[-1:])) + (1 - b2) * g2.mean(axis=-2)
            state["r"], state["c"] = r, c
            v = (r / r.mean(axis=-1, keepdims=True))[..., None] * c[None, :]
        else:
            v = b2 * state.get("v", np.zeros(w.shape)) + (1 - b2) * g2
            state["v"] = v
        u = g / np.sqrt(v)
        return w - alpha * u / max(1.0, rms(u) / clip)
    return step


def lion(lr, b1=0.9, b2=0.99, wd=None):
    def step(w, g, state, t):
        m = state.get("m", np.zeros(w.shape))
        if wd:
            w = w - w * wd * lr
        w = w - lr * np.sign(b1 * m + (1 - b1) * g)
        state["m"] = b2 * m + (1 - b2) * g
        return w
    return step


def run(name, rule):
    w = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.7]])
    b = np.array([0.1, -0.3, 0.8])
    sw, sb = {}, {}
    for step in range(3):
        gw, gb = grads(step)
        w = rule(w, gw, sw, step + 1)
        b = rule(b, gb, sb, step + 1)
    show(name + " w", w)
    show(name + " b", b)
    print(name, "iterations", 3)


run("ftrl", ftrl(0.1))
run("ftrl l1 l2", ftrl(0.2, power=-0.7, l1=0.05, l2=0.1, l2s=0.02, beta=0.3, init=0.5))
run("adafactor", adafactor(0.1))
run("adafactor absolute", adafactor(0.05, relative=False, clip=0.5, decay=-0.6))
run("lion", lion(0.01))
run("lion betas", lion(0.02, b1=0.5, b2=0.8))
run("lion decay", lion(0.02, wd=0.1))
for name in ["Ftrl", "Adafactor", "Lion"]:
    print(name.lower(), name)
print("lion config", "Lion", 0.5, 0.9, 0.99)
