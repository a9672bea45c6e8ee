# Oracle for group_normalization.tfs: Keras 2.15's GroupNormalization by
# numpy: reshape the channel axis into (groups, C // groups), moments over
# every axis but batch and group, (x - mean) / sqrt(var + eps) * gamma +
# beta; the gradients of sum(y * w) with respect to gamma and beta are
# sum(xhat * w) and sum(w) over all but the channel axis.
import numpy as np

x = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
x = np.sin(x) * 3.0 + x / 7.0


def show(name, y):
    print(name, *["%.6f" % v for v in np.asarray(y).reshape(-1)])


def xhat(x, groups, axis, eps):
    xm = np.moveaxis(x, axis, -1)
    shape = xm.shape
    g = xm.reshape(shape[:-1] + (groups, shape[-1] // groups))
    axes = tuple(range(1, g.ndim - 2)) + (g.ndim - 1,)
    mean = g.mean(axis=axes, keepdims=True)
    var = g.var(axis=axes, keepdims=True)
    out = ((g - mean) / np.sqrt(var + eps)).reshape(shape)
    return np.moveaxis(out, -1, axis)


gamma = np.array([1.0, 2.0, 0.5, -1.0])
beta = np.array([0.0, 0.1, 0.2, 0.3])
print("weights", ["group_normalization/gamma:0", "group_normalization/beta:0"], (4,))
show("groups2", xhat(x, 2, 2, 1e-3))
show("affine", xhat(x, 2, 2, 1e-3) * gamma + beta)
show("first", xhat(x, 3, 1, 0.5))
show("instance", xhat(x, 4, 2, 1e-3))
print("instance groups", 4, 0)
w = np.cos(np.arange(24, dtype=np.float64)).reshape(2, 3, 4)
show("dgamma", (xhat(x, 2, 2, 1e-3) * w).sum(axis=(0, 1)))
show("dbeta", w.sum(axis=(0, 1)))
print("config", sorted([("name", "gn"), ("trainable", True), ("dtype", "float32"), ("groups", 2), ("axis", -1),
                        ("epsilon", 0.001), ("center", True), ("scale", True), ("beta_regularizer", None),
                        ("gamma_regularizer", None), ("beta_constraint", None), ("gamma_constraint", None)]))
print("<class 'keras.src.layers.normalization.group_normalization.GroupNormalization'>")
print("ValueError", "Number of groups (3) must be a multiple of the number of channels (4).")
print("ValueError", "Number of groups (8) cannot be more than the number of channels (4).")
print("ValueError", "Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=2). Received: axis=3")
