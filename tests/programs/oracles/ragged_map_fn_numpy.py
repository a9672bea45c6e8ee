# Oracle for ../ragged_map_fn_numpy.tfs (run with /usr/bin/python3; its
# stdout is ragged_map_fn_numpy.expected): the map_fn results TF's docstrings
# and the ragged_tensor guide show, and numpy 1.24's repr of the arrays TF's
# RaggedTensor.numpy() builds (np.array(rows, dtype=object) when ragged).
import numpy as np


def ragged_numpy(values, splits):
    rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
    if not rows:
        return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
    if any(len(r) != len(rows[0]) for r in rows):
        return np.array(rows, dtype=object)
    return np.array(rows)


print("<tf.RaggedTensor [[9, 1, 16, 1], [], [25, 81, 4], [36], []]>")
print("tf.Tensor([ 9  0 16  6  0], shape=(5,), dtype=int32)")
print("<tf.RaggedTensor [[0, 1, 2], [0, 1, 2, 3, 4], [], [0, 1]]>")
print("<tf.RaggedTensor [[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []]>")
print("<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9, 2], [6], []]>")
print("<tf.RaggedTensor [[2, 2, 2, 2], [], [4, 4, 4], [6], []]>")
d = ragged_numpy(np.array([3, 1, 4, 1, 5, 9, 2, 6], np.int32), [0, 4, 4, 7, 8, 8])
print(repr(d))
print(repr(ragged_numpy(np.array([1, 2, 3, 4], np.int32), [0, 2, 4])))
words = np.array([b"So", b"long", b"thanks", b"for", b"all"], dtype=object)
print(repr(ragged_numpy(words, [0, 2, 5])))
inner = ragged_numpy(np.array([1, 2, 3, 4], np.int32), [0, 2, 3, 4])
print(repr(ragged_numpy(inner, [0, 2, 3])))
print(repr(ragged_numpy(np.array([], np.int32), [0])))
print(type(d).__name__, d.dtype, d.shape, d[2].tolist())
