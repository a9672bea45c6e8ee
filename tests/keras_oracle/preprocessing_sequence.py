# Oracle for preprocessing_sequence.tfs: Keras 2.15's preprocessing/sequence.py
# algorithms written out with CPython's random module and numpy.
import json
import random
import numpy as np


def make_sampling_table(size, sampling_factor=1e-5):
    rank = np.arange(size)
    rank[0] = 1
    inv_fq = rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inv_fq
    return np.minimum(1.0, f / np.sqrt(f))


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True, categorical=False,
              sampling_table=None, seed=None):
    couples, labels = [], []
    for i, wi in enumerate(sequence):
        if not wi:
            continue
        if sampling_table is not None and sampling_table[wi] < random.random():
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                couples.append([wi, sequence[j]])
                labels.append([0, 1] if categorical else 1)
    if negative_samples > 0:
        n = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, int(vocabulary_size - 1))] for i in range(n)]
        labels += ([[1, 0]] if categorical else [0]) * n
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(10e6))
        random.seed(seed)
        random.shuffle(couples)
        random.seed(seed)
        random.shuffle(labels)
    return couples, labels


def windows(data, targets, length, sampling_rate=1, stride=1, start_index=0, end_index=None, shuffle=False,
            reverse=False, batch_size=128):
    start = start_index + length
    end = len(data) - 1 if end_index is None else end_index

    def item(index):
        if shuffle:
            rows = np.random.randint(start, end + 1, size=batch_size)
        else:
            i = start + batch_size * stride * index
            rows = np.arange(i, min(i + batch_size * stride, end + 1), stride)
        x = np.array([data[r - length:r:sampling_rate] for r in rows])
        y = np.array([targets[r] for r in rows])
        return (x[:, ::-1, ...] if reverse else x), y
    return (end - start + batch_size * stride) // (batch_size * stride), item


print("table", " ".join("%.6g" % v for v in make_sampling_table(12)))
sentence = [3, 1, 4, 0, 5, 9, 2, 6, 5, 3]
print("positive", *skipgrams(sentence, 10, window_size=2, negative_samples=0, seed=42))
random.seed(7)
print("negative", *skipgrams(sentence, 10, window_size=1, negative_samples=1.5))
random.seed(8)
print("sampled", *skipgrams(sentence, 10, window_size=3, categorical=True, shuffle=False,
                            sampling_table=make_sampling_table(10, sampling_factor=0.05)))
data = np.arange(40).reshape(20, 2)
targets = np.arange(20) * 10
n, item = windows(data, targets, 4, sampling_rate=2, stride=3, batch_size=2, start_index=1)
print(n)
for i in range(n):
    x, y = item(i)
    print(i, x.tolist(), y.tolist())
n, item = windows(data, targets, 3, reverse=True, batch_size=4, end_index=10)
print(n, item(1)[0].tolist())
np.random.seed(5)
n, item = windows(data, targets, 2, shuffle=True, batch_size=3)
print(item(0)[1].tolist(), item(0)[1].tolist())
print(sorted({"data": json.dumps([1, 2, 3, 4]), "targets": json.dumps([5, 6, 7, 8]), "length": 1,
              "sampling_rate": 1, "stride": 1, "start_index": 1, "end_index": 3, "shuffle": False,
              "reverse": False, "batch_size": 128}.items()))
print("ValueError: `start_index+length=30 > end_index=19` is disallowed, as no part of the sequence would be left "
      "to be used as current step.")
