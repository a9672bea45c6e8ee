# Helpers for the numpy twins of tests/numpy_oracle/*.tfs: print numpy
# values the way TensorFlow 2.15 prints tensors (its str() of an EagerTensor
# is numpy's str of the value plus shape and dtype).
import numpy as np


def shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def tensor(value, dtype=None):
    """str(tf.Tensor) of a numpy value."""
    a = np.asarray(value, dtype)
    body = str(a) if a.ndim else str(a[()])
    sep = "\n" if "\n" in body else ""
    return "tf.Tensor(%s%s, shape=%s, dtype=%s)" % (sep, body, shape_text(a.shape), a.dtype.name)


def show(*values):
    print(*[tensor(v) if isinstance(v, (np.ndarray, np.generic)) else v for v in values])
