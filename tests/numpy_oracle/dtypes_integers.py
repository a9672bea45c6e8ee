import numpy as np
from tfprint import show, tensor

A = np.array
u8 = A([1, 2, 200, 255], np.uint8)
show(u8)
show(u8 + u8, u8 * np.uint8(3), u8 - np.uint8(5))
show(u8 // np.uint8(7), u8 % np.uint8(7))
show(u8 > np.uint8(100), np.maximum(u8, np.uint8(150)))
# TF reduces uint8 in uint64 and casts back (the mean truncates).
show(np.uint8(u8.sum(dtype=np.uint64)), u8.max(), u8.min(), np.uint8(u8.sum(dtype=np.uint64) // 4))
show(A([300, -1]).astype(np.uint8))

i8 = A([-128, -7, 0, 7, 127], np.int8)
show(i8)
show(-i8, np.abs(i8), i8 + np.int8(1))
# x // -1 wraps (-(-128) is -128 in int8).
show((-i8.astype(np.int64)).astype(np.int8), i8 // np.int8(2), i8 % np.int8(3))
show(np.int8(i8.sum(dtype=np.int64)), np.int8(A([16, 16, 3]).prod()))

i16 = A([[30000, -300], [2, 3]], np.int16)
show(i16 * np.int16(2))
s = i16.astype(np.int64)
show(s.sum(axis=0).astype(np.int16), (np.trunc(s.sum(axis=1) / 2)).astype(np.int16))

u16 = A([65535, 1], np.uint16)
show(u16 + np.uint16(1), u16 // np.uint16(256))
u32 = A([4000000000, 7], np.uint32)
show(u32 + u32, u32 // np.uint32(3), u32 > np.uint32(5))
u64 = A([9000000000000000000, 3], np.uint64)
show(u64 + u64, u64 // np.uint64(2), u64.max())

f = A([-1.5, 0.7, 255.9, 256.0, 300.7, -129.0, 1e10], np.float32)
for d in [np.uint8, np.int8, np.int16, np.uint16, np.uint32]:
    show(f.astype(d))
show(u8.astype(np.int8), i8.astype(np.uint8), i8.astype(np.float32))


def traced(a, b):
    return (a * b + a, a // b, a.dtype.type(a.sum(dtype=np.uint64 if a.dtype.kind == 'u' else np.int64)), a < b)


def show_tuple(vals):
    print("(" + ", ".join(
        "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (
            tensor(v).split("shape=")[1].split(",")[0] if v.ndim == 0 else "(" + ",".join(str(d) for d in v.shape) + ",)",
            v.dtype.name, repr(v) if v.ndim else str(v)) for v in map(np.asarray, vals)) + ")")


show_tuple(traced(A([100, 250], np.uint8), A([3, 7], np.uint8)))
# int8 floordiv rounds toward -inf.
show_tuple(traced(A([-100, 120], np.int8), A([3, -7], np.int8)))
