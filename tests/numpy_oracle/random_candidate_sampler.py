import math

import numpy as np

M = 0xFFFFFFFF


def philox_block(counter, key):
    c, k0, k1 = list(counter), key[0], key[1]
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k0) & M, p1 & M, ((p0 >> 32) ^ c[3] ^ k1) & M, p0 & M]
        k0, k1 = (k0 + 0x9E3779B9) & M, (k1 + 0xBB67AE85) & M
    return c


def words(seed, seed2, start):
    # TF's PhiloxRandom(seed, seed2) from 32-bit word `start` on.
    key = [seed & M, (seed >> 32) & M]
    block = start // 4
    at = start % 4
    while True:
        lo = block & ((1 << 64) - 1)
        counter = [lo & M, lo >> 32, seed2 & M, (seed2 >> 32) & M]
        out = philox_block(counter, key)
        for w in out[at:]:
            yield w
        at = 0
        block += 1


def show(name, a):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        print(name, a.shape, [float("%.5f" % v) + 0.0 for v in a.astype(np.float64).ravel()])
    else:
        print(name, a.shape, a.ravel().tolist())


kernels = {}


def sampler(true, num_true, num_sampled, unique, range_max, seed, seed2):
    key = (seed, seed2, num_true, num_sampled, unique, range_max)
    start = kernels.get(key, 0)
    kernels[key] = start + 8192 * num_sampled
    stream = words(seed, seed2, start)
    log_range = math.log1p(range_max)
    picked, tries = [], 0
    while len(picked) < num_sampled:
        x0, x1 = next(stream), next(stream)
        u = (((x0 & 0xFFFFF) << 32) | x1) / 2.0 ** 52
        tries += 1
        v = (int(math.exp(u * log_range)) - 1) % range_max
        if not unique or v not in picked:
            picked.append(v)

    def expected(v):
        p = np.float32(math.log((v + 2.0) / (v + 1.0)) / log_range)
        if tries == num_sampled:
            return np.float32(p * np.float32(num_sampled))
        return np.float32(-np.expm1(np.float32(tries) * np.log1p(-p)))
    return (np.array(picked, np.int64), np.array([[expected(v) for v in row] for row in true], np.float32),
            np.array([expected(v) for v in picked], np.float32))


true = [[3, 7], [0, 1]]
for call in range(3):
    s, t, e = sampler(true, 2, 5, True, 20, 87654321, 7)
    show("unique %d" % call, s)
    show("true expected %d" % call, t)
    show("sampled expected %d" % call, e)
s, t, e = sampler(true, 2, 6, False, 1000, 87654321, 11)
show("with replacement", s)
show("with replacement expected", e)
show("global and op seed", sampler(true, 2, 3, True, 50, 5, 9)[0])
print("Sampler's range is too small. [Op:LogUniformCandidateSampler]")
