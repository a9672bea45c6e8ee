# The numpy twin of random_stateless_params.tfs, on tf_streams_ref (TF 2.15's
# Philox and stateless key, validated on TF's documented values) plus TF's
# RandomGamma / RandomPoisson / RandomBinomial functors: output i (parameter-major) draws
# from its own copy of the generator skipped 256 * i blocks; doubles come
# two per block (Uint64ToDouble of word pairs, BoxMullerDouble), used last
# first; the result is laid out sample-major.
import ctypes
import math

import numpy as np
from tf_streams_ref import Gen, stateless
from tfprint import show

libm = ctypes.CDLL("libm.so.6")
libm.sincos.argtypes = [ctypes.c_double, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]


def u64_to_double(x0, x1):
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return float(np.array([bits], np.uint64).view(np.float64)[0]) - 1.0


class Pairs:
    def __init__(self, gen):
        self.gen, self.u, self.n = gen, [], []

    def uniform(self):
        if not self.u:
            w = self.gen.next()
            self.u = [u64_to_double(w[0], w[1]), u64_to_double(w[2], w[3])]
        return self.u.pop()

    def normal(self):
        if not self.n:
            w = self.gen.next()
            u1 = max(u64_to_double(w[0], w[1]), 1e-7)
            v1 = 2 * math.pi * u64_to_double(w[2], w[3])
            u2 = math.sqrt(-2.0 * math.log(u1))
            s, c = ctypes.c_double(), ctypes.c_double()
            libm.sincos(v1, ctypes.byref(s), ctypes.byref(c))
            self.n = [s.value * u2, c.value * u2]
        return self.n.pop()


def gamma(p, alpha):
    if alpha == 1.0:
        return -math.log1p(-p.uniform())
    small = alpha < 1
    d = alpha + (2.0 / 3 if small else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = p.normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = p.uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            res = d * v
            if small:
                res *= math.pow(p.uniform(), 1 / alpha)
            return res


def poisson(p, rate):
    if rate < 10:
        limit, prod, x = math.exp(-rate), 1.0, 0.0
        while True:
            prod *= p.uniform()
            if prod <= limit:
                return x
            x += 1
    log_rate = math.log(rate)
    b = 0.931 + 2.53 * math.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = p.uniform() - 0.5
        v = p.uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v * inv_alpha / (a / (us * us) + b)) <= -rate + k * log_rate - math.lgamma(k + 1):
            return k


def draws(fn, seed, params, samples):
    base = stateless(seed)
    out = [0.0] * (len(params) * samples)
    for j, param in enumerate(params):
        for k in range(samples):
            gen = Gen([0, 0, 0, 0], base.key)
            gen.c = base.c
            gen.skip(256 * (j * samples + k))
            out[k * len(params) + j] = fn(Pairs(gen), param)
    return out


tiny32 = np.finfo(np.float32).tiny
g = np.array(draws(gamma, [1, 2], [0.5, 1.5], 3), np.float32).reshape(3, 2)
show(np.maximum(tiny32, g / np.float32(1)))
g = np.array(draws(gamma, [7, 8], [1.0], 4), np.float64)
show(np.maximum(np.finfo(np.float64).tiny, g / 2.0))
show(np.maximum(tiny32, np.array(draws(gamma, [7, 8], [3.0], 2), np.float32)))
show(np.array(draws(poisson, [3, 4], [3.0], 5), np.int32))
show(np.array(draws(poisson, [5, 6], [4.0, 25.0], 2), np.float32).reshape(2, 2))
print("InvalidArgumentError")


# Binomial (TF's RandomBinomialFunctor): per output i, BTRS from 256 * i
# blocks on when count * p >= 10 (in the parameters' float32), else
# inversion from 42 * i; p > 0.5 mirrors through 1 - p.
TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
        0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287]


def tail(k):
    if k <= 9:
        return TAIL[int(k)]
    s = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / s) / s) / (k + 1)


def inversion(p, count, prob):
    total, n = 0.0, 0
    while True:
        total += math.ceil(math.log(p.uniform()) / math.log1p(-prob))
        if total > count:
            return n
        n += 1


def btrs(p, count, prob):
    spq = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    vr = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * spq
    m = math.floor((count + 1) * prob)
    while True:
        u = p.uniform() - 0.5
        v = p.uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or k > count:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1))) +
                 (count + 1) * math.log((count - m + 1) / (count - k + 1)) +
                 (k + 0.5) * math.log(r * (count - k + 1) / (k + 1)) + tail(m) + tail(count - m) - tail(k) -
                 tail(count - k))
        if v <= bound:
            return k


def binomial_one(base, i, count, prob):
    def pairs(skip):
        gen = Gen([0, 0, 0, 0], base.key)
        gen.c = base.c
        gen.skip(skip)
        return Pairs(gen)
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    mirrored = prob > np.float32(0.5)
    q = np.float32(1) - prob if mirrored else prob
    if count * q >= np.float32(10):
        k = btrs(pairs(256 * i), float(count), float(q))
    else:
        k = inversion(pairs(42 * i), float(count), float(q))
    return float(count) - k if mirrored else float(k)


def binomial(base, samples, counts, probs):
    counts, probs = np.broadcast_arrays(np.array(counts, np.float32), np.array(probs, np.float32))
    batches = counts.size
    out = [0.0] * (batches * samples)
    for b in range(batches):
        for s_ in range(samples):
            out[s_ * batches + b] = binomial_one(base, b * samples + s_, counts.flat[b], probs.flat[b])
    return out


show(np.array(binomial(stateless([123, 456]), 1, [10.0, 20.0, 50.0, 5.0], [0.8, 0.3, 0.5, 0.05]), np.int32))
show(np.array(binomial(stateless([1, 2]), 3, [30.0, 100.0], [0.6]), np.float32).reshape(3, 2))
state = Gen([7, 0, 0, 0], [0, 0])
show(np.array(binomial(state, 3, [15.0, 4.0], [0.5]), np.int32).reshape(3, 2))
state.skip(2 * 2 * 100 * (3 + 3) // 4)
show(np.array(binomial(state, 2, [40.0], [0.25]), np.int32))
state.skip(1 * 2 * 100 * (2 + 3) // 4)
print(np.array([state.c & (2**64 - 1), state.c >> 64, 0], np.int64))
