# numpy oracle of tests/programs/math_inverse_trig.tfs: prints its expected
# lines (run with /usr/bin/python3; the TF error lines are TF 2.15's
# messages, typed in from its kernels' sources).
import numpy as np


def fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e))[k] / (2 * h) for k, e in enumerate(np.eye(len(v)))])


x = np.array([-0.9, -0.3, 0.0, 0.4, 0.8])
big = np.array([1.0, 1.5, 2.0, 4.0])
fns = [("acos", np.arccos, x), ("asin", np.arcsin, x), ("atan", np.arctan, x * 3.0),
       ("acosh", np.arccosh, big), ("asinh", np.arcsinh, x * 3.0), ("atanh", np.arctanh, x)]
for name, f, v in fns:
    g = fd(f, v)
    if name == "acosh":
        g[0] = np.inf  # 1 / sqrt(x^2 - 1) at x = 1 (central differences leave the domain)
    print(name, f(v).round(6).tolist(), True, g.round(5).tolist())
print(np.float32(np.arccos(np.float32(0.5))).round(6), np.float32(np.arcsinh(np.float32(1.0))).round(6),
      np.float32(np.arctan2(np.float32(1.0), np.float32(-1.0))).round(6))
with np.errstate(invalid="ignore", divide="ignore"):
    print(np.arccos(np.float32([2.0])).tolist(), np.arctanh(np.float32([1.0])).tolist())
yy = np.array([[1.0, -2.0, 0.5], [-0.5, 3.0, -1.0]])
xx = np.array([-1.0, 2.0, 0.25])
print("atan2", np.arctan2(yy, xx).round(6).tolist())
h = 1e-6
print("d/dy", ((np.arctan2(yy + h, xx) - np.arctan2(yy - h, xx)) / (2 * h)).round(5).tolist())
print("d/dx", ((np.arctan2(yy, xx + h) - np.arctan2(yy, xx - h)) / (2 * h)).sum(axis=0).round(5).tolist())
i = np.array([7, -7, 7, -7, 0])
j = np.array([2, 2, -2, -2, 3])
print((np.trunc(i / j)).astype(np.int32).tolist(), np.fmod(i, j).tolist())
print(np.fmod(np.float32([7.5, -7.5, 7.5]), np.float32([2.0, 2.0, -2.0])).tolist())
print([np.trunc(np.array([9, -9]) / 4).astype(np.int64).tolist(), np.fmod([9, -9], [4, 4]).tolist()])
print("NotFoundError Could not find device for node: {{node TruncateDiv}} = TruncateDiv[T=DT_FLOAT]")
print("InvalidArgumentError Integer division by zero")
print("LookupError No gradient defined for operation 'TruncateMod' (op type: TruncateMod)")
logits = np.float32([[1.0, 2.0, 3.0]])
print((logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))).round(6).tolist(), True)
p = np.float32([[0.1, 0.8, 0.1], [0.3, 0.3, 0.4], [0.2, 0.5, 0.3], [np.nan, 0.5, 0.2]])
t = [1, 0, 5, 1]


def in_top_k(k):
    out = []
    for row, target in zip(p, t):
        ok = 0 <= target < 3 and np.all(np.isfinite(row))
        out.append(bool(ok and (row > row[target]).sum() < k))
    return out


print(in_top_k(1), in_top_k(2))
print(in_top_k(1))
ids = np.array([[0, 2], [1, 1]])
hot = np.eye(3, dtype=np.float32)[ids]  # [2, 2, 3]
print(np.moveaxis(hot, -1, 0).tolist())
print(np.moveaxis(hot, -1, 1).tolist())
print(np.moveaxis(np.eye(3, dtype=np.int32)[[0, 2]], -1, 0).tolist())
print("InvalidArgumentError Expected axis to be -1 or between [0, 2).  But received: 2")
