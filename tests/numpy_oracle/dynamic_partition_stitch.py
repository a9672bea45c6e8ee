import numpy as np


def show(name, a):
    a = np.asarray(a)
    print(name, a.shape, a.dtype.name, a.ravel().tolist())


def partition(data, parts, n):
    parts = np.asarray(parts)
    return [np.asarray(data)[parts == i] for i in range(n)]


def stitch(indices, values):
    indices = [np.asarray(i) for i in indices]
    values = [np.asarray(v) for v in values]
    rows = max(int(i.max()) for i in indices if i.size) + 1
    extra = values[0].shape[indices[0].ndim:]
    out = np.zeros((rows,) + extra, dtype=values[0].dtype)
    for i, v in zip(indices, values):
        for k, r in enumerate(i.ravel()):
            out[r] = v.reshape((-1,) + extra)[k]
    return out


rng = np.random.RandomState(5)
data = rng.randint(-50, 50, size=(6, 3)).astype(np.float32)
parts = [2, 0, 2, 1, 0, 2]
for i, p in enumerate(partition(data, parts, 4)):
    show("partition %d" % i, p)
p2 = [[0, 1, 1], [1, 0, 0]]
for i, p in enumerate(partition(np.arange(12).reshape(2, 3, 2).astype(np.int64), p2, 2)):
    show("2-d partitions %d" % i, p)
show("scalar partitions", np.array([[1, 2, 3]], np.int32))

indices = [6, [4, 1], [[5, 2], [0, 3]]]
values = [np.array([61, 62], np.int32), [[41, 42], [11, 12]], [[[51, 52], [21, 22]], [[1, 2], [31, 32]]]]
show("stitch", stitch(indices, values))
show("stitch duplicates", stitch([[0, 1, 1, 3], [1, 3]], [np.array([1.0, 2.0, 3.0, 4.0], np.float32), [9.0, 8.0]]))
show("stitch gaps", stitch([[4, 1]], [np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)]))
show("round trip", data)

w = rng.uniform(-1, 1, size=(6, 3)).astype(np.float32)
scale = np.array([{0: 2.0, 1: 0.0, 2: 0.5}[p] for p in parts], np.float32)[:, None]
grad = w * scale
b_rows = np.array(parts) == 1
grad[b_rows] = 2.0 * (data[b_rows] * w[b_rows]) * w[b_rows]
show("partition grad", np.round(grad, 4))
# d/dd1: 2*d1*grad[[0,1,2]], d/dd2: 3*grad[[1,3]] (TF's gradient ignores overwrites).
g = np.array([1.0, 10.0, 100.0, 1000.0], np.float32)
show("stitch grad d1", 2.0 * np.array([1.0, 2.0, 3.0], np.float32) * g[[0, 1, 2]])
show("stitch grad d2", 3.0 * g[[1, 3]])

for i, p in enumerate(partition(data, parts, 3)):
    show("traced %d" % i, p)
show("traced stitch", data * 2.0)

prefix = "{{function_node __wrapped__%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
print(prefix % "DynamicPartition_num_partitions_2" + "partitions[2] = 5 is not in [0, 2) [Op:DynamicPartition] name: ")
print(prefix % "DynamicPartition_num_partitions_2" + "partitions[1,0] = -1 is not in [0, 2) [Op:DynamicPartition] name: ")
print(prefix % "DynamicStitch_N_2" + "indices[0] is out of range [Op:DynamicStitch] name: ")
print(prefix % "DynamicStitch_N_1" + "data[0].shape = [3] does not start with indices[0].shape = [2] "
      "[Op:DynamicStitch] name: ")
