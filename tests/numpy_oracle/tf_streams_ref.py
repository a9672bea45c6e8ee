# TF 2.15's random streams written from TF's kernel sources (Philox-4x32-10,
# GenerateKey, FillPhiloxRandom's layouts, Box-Muller with glibc's logf /
# sincosf, RandomShuffle, tf.data's ShuffleDataset and seed generator,
# random_seed.get_seed with CPython's random.Random), shared by the numpy
# twins of the random programs. Importing it checks it against the values
# TF's documentation prints, so every twin rests on a validated reference.
import ctypes
import random

import numpy as np

M32 = 0xFFFFFFFF
libm = ctypes.CDLL("libm.so.6")
libm.logf.restype = ctypes.c_float
libm.logf.argtypes = [ctypes.c_float]
libm.sincosf.argtypes = [ctypes.c_float, ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float)]


def philox(counter, key):
    c, k = list(counter), list(key)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k[1]) & M32, p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return c


class Gen:
    def __init__(self, counter, key):
        self.c = (counter[0] | counter[1] << 32 | counter[2] << 64 | counter[3] << 96)
        self.key = key

    @staticmethod
    def from_seeds(seed, seed2):
        seed, seed2 = seed & (2**64 - 1), seed2 & (2**64 - 1)
        return Gen([0, 0, seed2 & M32, seed2 >> 32], [seed & M32, seed >> 32])

    def skip(self, n):
        low = (self.c & (2**64 - 1)) + n
        self.c = (self.c >> 64 << 64) + low if low < 2**64 else ((self.c >> 64) + 1 << 64) + (low - 2**64)
        self.c &= 2**128 - 1

    def next(self):
        out = philox([(self.c >> s) & M32 for s in (0, 32, 64, 96)], self.key)
        self.skip(1)
        return out


def stateless(seed):
    s0, s1 = seed[0] & (2**64 - 1), seed[1] & (2**64 - 1)
    m = philox([s0 & M32, s0 >> 32, s1 & M32, s1 >> 32], [0x3EC8F720, 0x02461E29])
    return Gen([0, 0, m[2], m[3]], [m[0], m[1]])


def words(gen, n):
    out = []
    while len(out) < n:
        out += gen.next()
    return out[:n]


def u32_to_f32(x):
    return np.array([(127 << 23) | (x & 0x7FFFFF)], np.uint32).view(np.float32)[0] - np.float32(1)


def box_muller(x0, x1):
    u1 = max(u32_to_f32(x0), np.float32(1e-7))
    v1 = np.float32(2.0 * np.pi * float(u32_to_f32(x1)))
    u2 = np.float32(np.sqrt(np.float32(-2.0) * np.float32(libm.logf(float(u1)))))
    s, c = ctypes.c_float(), ctypes.c_float()
    libm.sincosf(float(v1), ctypes.byref(s), ctypes.byref(c))
    return np.float32(s.value) * u2, np.float32(c.value) * u2


def normal(gen, n):
    out = []
    while len(out) < n:
        w = gen.next()
        out += list(box_muller(w[0], w[1])) + list(box_muller(w[2], w[3]))
    return np.array(out[:n], np.float32)


def uniform(gen, n):
    return np.array([u32_to_f32(w) for w in words(gen, n)], np.float32)


def int32_full(gen, n):
    return np.array(words(gen, n), np.uint32).view(np.int32)


# Self-check against TF's docstrings (stateless_split, stateless_normal).
assert list(int32_full(stateless([1, 2]), 6)) == [1105988140, 1738052849, -335576002, 370444179, 10670227, -246211131]
assert str(normal(stateless([1105988140, 1738052849]), 3)) == "[-0.59835213 -0.9578608   0.9002807 ]"
assert str(normal(stateless([1105988140, 3]), 3)) == "[0.03197195 0.8979765  0.13253039]"
assert str(normal(Gen([1234, 0, 0, 0], [0, 0]), 6)) == ("[ 0.9356609   1.0854305  -0.93788373 -0.5061547   1.3169702   "
                                                        "0.7137579 ]")


class Context:
    """TF's eager seeds: get_seed and the kernel cache of the stateful ops."""

    def __init__(self, global_seed):
        self.rng = random.Random(global_seed)
        self.global_seed = global_seed
        self.kernels = {}

    def seeds(self, op_seed):
        if op_seed is None:
            op_seed = self.rng.randint(0, 2**31 - 1)
        return self.global_seed % (2**31 - 1), op_seed % (2**31 - 1)

    def kernel(self, name, op_seed):
        seeds = self.seeds(op_seed)
        key = (name,) + seeds
        if key not in self.kernels:
            self.kernels[key] = [Gen.from_seeds(*seeds), 0]
        return self.kernels[key]

    def draw(self, name, op_seed, n, reserve):
        k = self.kernel(name, op_seed)
        gen = Gen([0, 0, 0, 0], k[0].key)
        gen.c = k[0].c
        k[0].skip(reserve)
        return gen


# tf.random.shuffle: swap i with i + word % (n - i).
def shuffle(gen, n):
    order = list(range(n))
    w = words(gen, n - 1)
    for i in range(n - 1):
        j = i + w[i] % (n - i)
        order[i], order[j] = order[j], order[i]
    return order


# tf.data.Dataset.shuffle: seeds from get_seed, per-iterator seeds from the
# seed generator, then the ring buffer.
def dataset_shuffle(n, size, seeds, iteration, reshuffle=True):
    if reshuffle:
        w = words(Gen.from_seeds(*seeds), 2 * iteration + 2)
        seeds = (w[2 * iteration], w[2 * iteration + 1])
    stream = iter(words(Gen.from_seeds(*seeds), n))
    ring, start, end, nxt, out = {}, 0, 0, 0, []
    while True:
        while nxt < n and end - start < size:
            ring[end % size] = nxt
            end += 1
            nxt += 1
        count = end - start
        if count == 0:
            return out
        index = (start + next(stream) % count) % size
        first = start % size
        out.append(ring[index])
        ring[index] = ring[first]
        del ring[first]
        start += 1
