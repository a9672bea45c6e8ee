# Oracle for ../strings_substr.tfs (run with /usr/bin/python3; its stdout is
# strings_substr.expected): Python slicing of the same strings, printed the
# way TF prints a string tensor (numpy's text of the object array). The
# expectations of the docstring examples are TF's own (tf.strings.substr).
import numpy as np


def tensor(values, shape):
    a = np.empty(len(values), dtype=object)
    a[:] = values
    a = a.reshape(shape)
    text = np.array2string(a) if a.ndim else repr(a.item())
    if "\n" in text:
        text = "\n" + text
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    return "tf.Tensor(%s, shape=%s, dtype=string)" % (text, shape_text)


def err(msg):
    print("InvalidArgumentError: {{function_node __wrapped__Substr_device_/job:localhost/replica:0/task:0/device:"
          "CPU:0}} %s [Op:Substr] name: " % msg)


def sub(s, pos, n):
    if pos < 0:
        pos += len(s)
    return s[pos:] if n < 0 else s[pos:pos + n]


print(tensor([b'ell', b'orl'], [2]))
print(tensor([b'ell', b'rl'], [2]))
print(tensor([b'en', b'eve', b'lve', b'hirt', b'urt', b'te', b'ixtee', b'vente', b'hteen'], [3, 3]))
print(tensor([b'e', b'ev', b'lve', b'h', b'ur', b'tee', b'i', b've', b'hte', b'i', b'en', b'nty'], [4, 3]))
print(tensor([b'hir', b'ee', b'n'], [3]))
print(tensor([sub(b'abc', 0, 2), sub(b'xyz', 0, 2), sub(b'abc', 1, 1), sub(b'xyz', 1, 1)], [2, 2]))
print(tensor([sub(b'hello', -3, 2)], []))
print(tensor([sub(b'hello', 1, -1)], []))
print(tensor([sub(b'hello', 5, 2)], []))
print(tensor([sub(b'hello', 1, 10)], []))
s = "h\u00e9llo w\u00f6rld"
print(s[1:5])
print(s[-5:-2])
print(s[-3:])
print(tensor([b''], []))
print(tensor([s.encode()[1:3]], []))
print(tensor([b'ab', b'gh'], [2]))
print("<tf.RaggedTensor [[b'So', b'lo'], [b'th', b'fo', b'al', b'th', b'fi']]>")
err("pos 6 out of range for string b'hello' at index 0")
err("pos -6 out of range for string b'hello' at index 0")
err("pos 4 out of range for string b'abc' at index 1")
err("pos 6 out of range for string at index 0")
err("pos -2 out of range for string at index 0")
err("pos and len should have the same shape, got: [2] vs. [1]")
err("pos and len should have the same shape, got: [2] vs. []")
err("Incompatible shapes: [3] vs. [2]")
err("pos 5 out of range for string b'ab' at index (1, 0)")
print("ValueError: Attr 'unit' of 'Substr' Op passed string 'UTF16' not in: \"BYTE\", \"UTF8_CHAR\".")
