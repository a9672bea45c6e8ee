"""Helpers shared by the numpy oracles of this folder (each NAME.py prints
what NAME.tfs must print): deterministic weights and one-line value dumps."""
import numpy as np


def fixed(shape, scale, offset=0.0):
    """Deterministic float64 values in [-6, 6] * scale + offset, the same
    formula the .tfs programs use to fill weights and inputs."""
    n = int(np.prod(shape))
    return np.array([scale * (((i * 7) % 13) - 6) + offset for i in range(n)]).reshape(shape)


def fixed32(shape, scale, offset=0.0):
    return fixed(shape, scale, offset).astype(np.float32)


def show(name, x):
    """`name [shape] v0 v1 ...` with 6 significant digits."""
    x = np.asarray(x, dtype=np.float64)
    print(name, list(x.shape), " ".join(["%.6g" % v for v in x.reshape([-1]).tolist()]))


def show_values(name, x):
    """`name v0 v1 ...` (no shape) with 6 significant digits."""
    print(name, " ".join(["%.6g" % v for v in np.asarray(x, dtype=np.float64).ravel()]))
