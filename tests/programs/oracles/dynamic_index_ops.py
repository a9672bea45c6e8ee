# numpy oracle for ../dynamic_index_ops.tfs (run with /usr/bin/python3;
# its stdout, plus the last two lines of that test, is the .expected file).
import numpy as np

x = np.array([[3.0, 1.0, 2.0, 7.0], [0.5, 5.0, 4.0, -1.0], [2.0, 2.0, 9.0, 0.0]], dtype=np.float32)
out = []
out.append(np.cumsum(x, axis=1))
rev = np.cumsum(x[::-1], axis=0)[::-1]
out.append(rev - x)  # exclusive, reverse
out.append(np.cumprod(x, axis=1))
out.append(x[::-1, ::-1])
out.append(np.sort(x, axis=1))
out.append(-np.sort(-x, axis=0, kind="stable"))
out.append(np.argsort(x, axis=0, kind="stable").astype(np.int32))
order = np.argsort(-x, axis=1, kind="stable")[:, :2]
out.append(np.take_along_axis(x, order, axis=1))
out.append(order.astype(np.int32))
out.append(np.argwhere(x > 2.0))
out.append(x[x > 2.0])
out.append(x[x.sum(axis=1) > 10.0])
out.append(np.pad(x, [[1, 0], [0, 2]], constant_values=-1.0))
out.append(np.pad(x, [[1, 1], [2, 1]], mode="reflect"))
out.append(np.pad(x, [[0, 2], [1, 0]], mode="symmetric"))
out.extend(np.split(x, 2, axis=1))
out.extend([x[:1], x[1:]])
out.append(np.repeat(x, 2, axis=0))
out.append(np.repeat(x, [1, 0, 2], axis=0))
seg = np.zeros((3, 4), dtype=np.float32)
for i, s in enumerate([1, 0, 1]):
    seg[s] += x[i]
out.append(seg)
out.extend(list(x))
for t in out:
    print(t.tolist())
