# numpy oracle for optimizers_legacy_ftrl.tfs: TF's ApplyFtrlV2 kernel as
# Keras 2.15's legacy Ftrl calls it (l2 + beta / (2 lr) for l2):
#   g' = g + 2 l2s w;  n' = n + g^2;  z += g' - (n'^p - n^p) / lr * w  (p = -power)
#   w = |z| > l1 ? (l1 sign(z) - z) / (n'^p / lr + 2 l2) : 0
# and the sparse kernel on the named rows only (repeated indices summed).
import numpy as np
from oracle_common import show


def grads(step):
    g = np.array([[0.3, -0.2, 0.5], [-0.4, 0.1, 0.25]], dtype=np.float32) * (1.0 + 0.5 * step)
    b = np.array([0.2, -0.6, 0.05], dtype=np.float32) * (1.5 - 0.4 * step)
    return g.astype(np.float64), b.astype(np.float64)


def ftrl_rows(w, n, z, g, lr, power, l1, l2, l2s, beta):
    p = -power
    l2 = l2 + beta / (2.0 * lr)
    n2 = n + g * g
    z = z + g + 2 * l2s * w - (n2 ** p - n ** p) / lr * w
    quad = n2 ** p / lr + 2 * l2
    w = np.where(np.abs(z) > l1, (l1 * np.sign(z) - z) / quad, 0.0)
    return w, n2, z


def run(name, lr=0.001, power=-0.5, init=0.1, l1=0.0, l2=0.0, l2s=0.0, beta=0.0):
    w = np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.7]], dtype=np.float32).astype(np.float64)
    b = np.array([0.1, -0.3, 0.8], dtype=np.float32).astype(np.float64)
    nw, zw = np.full(w.shape, init), np.zeros(w.shape)
    nb, zb = np.full(b.shape, init), np.zeros(b.shape)
    for step in range(3):
        gw, gb = grads(step)
        w, nw, zw = ftrl_rows(w, nw, zw, gw, lr, power, l1, l2, l2s, beta)
        b, nb, zb = ftrl_rows(b, nb, zb, gb, lr, power, l1, l2, l2s, beta)
    show(name + " w", w)
    show(name + " b", b)
    print(name, "iterations", 3)


run("default")
run("lr", lr=0.1)
run("l1 l2", lr=0.2, l1=0.05, l2=0.1, init=0.5)
run("power shrinkage beta", lr=0.2, power=-0.7, l1=0.01, l2=0.1, l2s=0.02, beta=0.3, init=0.2)
run("power zero", lr=0.05, power=0.0)

table = np.array([[0.5, -0.5], [1.0, 2.0], [-1.5, 0.25], [0.75, -0.3]], dtype=np.float32).astype(np.float64)
n, z = np.full(table.shape, 0.1), np.zeros(table.shape)
for step in range(2):
    values = np.array([[0.2, -0.1], [0.4, 0.3], [-0.1, 0.5]], dtype=np.float32).astype(np.float64) * (1 + step)
    rows = [2, 0]
    g = np.stack([values[0] + values[2], values[1]])
    w2, n2, z2 = ftrl_rows(table[rows], n[rows], z[rows], g, 0.3, -0.5, 0.02, 0.05, 0.01, 0.0)
    table[rows], n[rows], z[rows] = w2, n2, z2
show("sparse table", table)
print({'name': 'sparse_ftrl', 'is_legacy_optimizer': True, 'learning_rate': 0.3, 'decay': 0.0,
       'initial_accumulator_value': 0.1, 'learning_rate_power': -0.5, 'l1_regularization_strength': 0.02,
       'l2_regularization_strength': 0.05, 'beta': 0.0, 'l2_shrinkage_regularization_strength': 0.01})
print("keras.src.optimizers.legacy.ftrl")
