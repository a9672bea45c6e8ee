# Oracle for ../io_decode_raw.tfs (run with /usr/bin/python3; its stdout is
# io_decode_raw.expected): numpy's frombuffer with '<' and '>' byte orders.
import numpy as np


def tensor(a, dtype):
    text = np.array2string(a)
    if "\n" in text:
        text = "\n" + text
    shape = "(" + ", ".join(str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")"
    return "tf.Tensor(%s, shape=%s, dtype=%s)" % (text, shape, dtype)


def err(op, msg):
    return ("InvalidArgumentError: {{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
            " %s [Op:%s] name: " % (op, msg, op))


print("Byte strings:", tensor(np.frombuffer(b"Duck", np.uint8), "uint8"))
data = b"\x01\x02\x03\x04\x05\x06\x07\x08"
for name, code in [("uint8", "u1"), ("int8", "i1"), ("int16", "i2"), ("uint16", "u2"), ("int32", "i4"),
                   ("int64", "i8"), ("float16", "f2"), ("float32", "f4"), ("float64", "f8"), ("bool", "?")]:
    little = np.frombuffer(data, "<" + code).tolist()
    big = np.frombuffer(data, ">" + code).tolist()
    print(name, little, big)
print(tensor(np.frombuffer(b"\x00\x00\x80\x3f\x00\x00\x00\x40\xdb\x0f\x49\x40", "<f4"), "float32"))
print(tensor(np.frombuffer(b"\x01\x00\x02\x00\xff\xff\x00\x80", "<i2").reshape(2, 2), "int16"))
print(tensor(np.frombuffer(b"abc\x00abcd\x00\x00\x00\x00", np.uint8).reshape(3, 4), "uint8"))
print(tensor(np.frombuffer(b"\x01\x00\x00\x00\x02\x00\x00\x00", "<i4").reshape(1, 2), "int32"))
print("(0, 0)")
print(tensor(np.frombuffer(b"abcd", np.uint8).reshape(1, 2, 2), "uint8"))
print(tensor(np.frombuffer(b"\x00\x01", ">u2"), "uint16"))
print(tensor(np.array([5, 6], np.int32).reshape(2, 1), "int32"))
print(err("DecodeRaw", "Input to DecodeRaw has length 5 that is not a multiple of 4, the size of int32"))
print(err("DecodeRaw", "DecodeRaw requires input strings to all be the same size, but element 1 has size 2 != 4"))
print(err("DecodePaddedRaw", "fixed_length (6) must be a multiple of the size of out_type (4)"))
print(err("DecodePaddedRaw", "fixed_length (0) must be positive"))
print("TypeError: Value passed to parameter 'out_type' has DataType string not in list of allowed values: "
      "float16, float32, float64, int32, uint16, uint8, int16, int8, int64, complex64, complex128, bool, bfloat16")
