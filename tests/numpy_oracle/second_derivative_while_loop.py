import numpy as np

x = np.array([0.31, -0.72, 0.53, 1.13])
w = np.array([1.0, 2.0, 3.0, 4.0])

# (value, first, second) derivative with respect to x, elementwise.
def loop_f():
    y, d, dd = x.copy(), np.ones_like(x), np.zeros_like(x)
    for _ in range(3):
        s, c = np.sin(y), np.cos(y)
        y, d, dd = (s * x + 0.1 * y,
                    c * d * x + s + 0.1 * d,
                    (-s * d * d + c * dd) * x + 2 * c * d + 0.1 * dd)
    return dd

def for_f():
    a, d, dd = np.zeros_like(x), np.zeros_like(x), np.zeros_like(x)
    for k in range(4):
        t = np.tanh(x + a)
        u1, u2 = 1 + d, dd
        t1 = (1 - t * t) * u1
        t2 = -2 * t * t1 * u1 + (1 - t * t) * u2
        a, d, dd = a + k * t, d + k * t1, dd + k * t2
    return dd

for f in [loop_f, for_f]:
    print(" ".join("%.8f" % v for v in f() * w))
