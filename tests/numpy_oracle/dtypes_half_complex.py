import numpy as np
from tfprint import show, tensor, shape_text

A = np.array
f16 = np.float16
h = A([0.1, 1.5, -2.25, 65504.0, 1e5, 3.0e-5], f16)
show(h)
show(h * f16(2), h + f16(0.001), h / f16(3))
x = A([0.5, 2.0, 10.0], f16)
# float16 math: computed in float32, rounded once.
r = lambda f, v: f(v.astype(np.float32)).astype(f16)
show(r(np.sqrt, x), r(np.exp, x), r(np.log, x), r(np.tanh, x))
show(A([0.1, 0.2, 0.7], f16).astype(np.float32).mean().astype(f16), r(np.sum, x), x.max())
show(A([0.1, 1 / 3, 70000.0, -1e-8], np.float32).astype(f16))
show(h.astype(np.float32).astype(np.int32), h.astype(np.float32))
show(f16(0.1), f16(1 / 3), f16(2.0))
show((A([[1, 2], [3, 4]], np.float32) @ A([[0.5], [0.25]], np.float32)).astype(f16))
show(x > f16(1), np.maximum(A([-1.0, 2.5], f16), f16(0)))


# bfloat16: float32's top 16 bits, rounded to nearest even (TF/Eigen's
# conversion); ml_dtypes prints each value as C++'s ostream (%g) does.
def bf16(values):
    f = np.array(values, np.float32, ndmin=1)
    bits = f.view(np.uint32).astype(np.int64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = rounded.astype(np.uint32).view(np.float32)
    return out.reshape(np.shape(values))


def bf16_text(values):
    v = bf16(values)
    items = ["%g" % e for e in v.reshape(-1)]
    body = items[0] if v.ndim == 0 else "[" + " ".join(items) + "]"
    return "tf.Tensor(%s, shape=%s, dtype=bfloat16)" % (body, shape_text(v.shape))


b = bf16([0.1, 1.5, 3.0, 1 / 3, 1000.7, -2e-3])
print(bf16_text(b))
print(bf16_text(b * bf16(3)), tensor(b))
print(bf16_text(np.float32(0.1)), bf16_text(np.float32(6.5)))

c = A([1.0, -2.5, 0.0], np.float32) + 1j * A([2.0, 0.5, -1.0], np.float32)
c = c.astype(np.complex64)
show(c)
show(c * c, c + np.complex64(1), c / np.complex64(1 + 1j))
show(c.real, c.imag, np.conj(c), np.abs(c))
show(c.sum(), c == np.conj(c), A([1, 2]).astype(np.complex128))
show(np.complex64(1 - 2j), np.angle(c).astype(np.float32))


def tup(*vals):
    out = []
    for v in vals:
        v = np.asarray(v)
        body = repr(v) if v.ndim else str(v[()])
        out.append("<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (shape_text(v.shape), v.dtype.name, body))
    print("(" + ", ".join(out) + ")")


tup(x * x - f16(1), x.astype(np.float32).mean().astype(f16))
bb = bf16([1.0, 2.0])
print("(<tf.Tensor: shape=(2,), dtype=bfloat16, numpy=array([%s], dtype=bfloat16)>, "
      "<tf.Tensor: shape=(), dtype=bfloat16, numpy=%g>)" % (", ".join("%g" % e for e in bf16(bb * bb - 1)), bf16(bb.mean())))
vv = A([1.5, -2.0], f16)
show((f16(3) * vv * vv).astype(f16))
