# The numpy twin of random_data_streams.tfs, on tf_streams_ref (TF 2.15's
# kernels, validated on TF's documented values) plus, written from TF's
# CPU kernels: RandomDataset (one SingleSampleAdapter word per element),
# StatelessMultinomial (cdf of exp(logit - max) in double, one
# Uint64ToDouble per sample, upper_bound) and DirectedInterleave.
import math

import numpy as np
from tf_streams_ref import Context, Gen, dataset_shuffle, stateless, words

DEFAULT_GRAPH_SEED = 87654321


def iterator_seeds(seeds, iteration, rerandomize):
    # TF's seed generators: fixed, or the next two words of Philox(seeds).
    if not rerandomize:
        return seeds
    w = words(Gen.from_seeds(*seeds), 2 * iteration + 2)
    return w[2 * iteration], w[2 * iteration + 1]


def random_dataset(seeds, n, iteration=0, rerandomize=False):
    return words(Gen.from_seeds(*iterator_seeds(seeds, iteration, rerandomize)), n)


def uint64_to_double(x0, x1):
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return float(np.array([bits], np.uint64).view(np.float64)[0]) - 1.0


def stateless_multinomial(logits, seed):
    finite = [l for l in logits if math.isfinite(l)]
    top = max(finite)
    cdf, total = [], 0.0
    for l in logits:
        if math.isfinite(l):
            total += math.exp(float(l) - float(top))
        cdf.append(total)
    x0, x1 = words(stateless(seed), 2)
    to_find = uint64_to_double(x0, x1) * total
    return next((i for i, c in enumerate(cdf) if c > to_find), len(cdf))


def sample_from_datasets(datasets, logits, seeds, stop_on_empty=False):
    its = [iter(d) for d in datasets]
    alive = [True] * len(its)
    stream = iter(random_dataset(seeds, 4 * 1000))
    out = []
    while True:
        pair = [next(stream), next(stream)]
        i = stateless_multinomial(logits, pair)
        if not alive[i]:
            continue
        value = next(its[i], None)
        if value is not None:
            out.append(value)
            continue
        if stop_on_empty:
            return out
        alive[i] = False
        if not any(alive):
            return out


print(random_dataset((DEFAULT_GRAPH_SEED, 4), 6))
print(random_dataset((DEFAULT_GRAPH_SEED, 4), 6))
print(random_dataset((DEFAULT_GRAPH_SEED, 4), 4, 0, True))
print(random_dataset((DEFAULT_GRAPH_SEED, 4), 4, 1, True))
seeded = (DEFAULT_GRAPH_SEED, 7)
print(sum((dataset_shuffle(10, 4, seeded, k) for k in range(3)), []))
a, b = list(range(5)), list(range(100, 105))
print(sample_from_datasets([a, b], [1.0, 1.0], (DEFAULT_GRAPH_SEED, 3)))
weights = np.log(np.array([0.2, 0.8], np.float32))
print(sample_from_datasets([a, b], [float(w) for w in weights], (DEFAULT_GRAPH_SEED, 5)))
print(sample_from_datasets([a, b], [1.0, 1.0], (DEFAULT_GRAPH_SEED, 9), stop_on_empty=True))

ctx = Context(11)
print(random_dataset(ctx.seeds(None), 3))
print(sample_from_datasets([a, b], [1.0, 1.0], ctx.seeds(None)))
unseeded = ctx.seeds(None)
print(sum((dataset_shuffle(6, 6, unseeded, k) for k in range(2)), []))


# Model.fit(shuffle=True): the permutation of each epoch is RandomShuffle
# (swap i with i + word % (n - i)) from Philox(5, 0), n - 1 words per epoch,
# the kernel moving on by whole blocks.
def fit_orders(seed, n, epochs):
    gen = Gen.from_seeds(seed % (2**31 - 1), 0)
    for _ in range(epochs):
        order = list(range(n))
        w = words(Gen(
            [gen.c & 0xFFFFFFFF, (gen.c >> 32) & 0xFFFFFFFF, (gen.c >> 64) & 0xFFFFFFFF, gen.c >> 96], gen.key), n - 1)
        gen.skip((n - 1 + 3) // 4)
        for i in range(n - 1):
            j = i + w[i] % (n - i)
            order[i], order[j] = order[j], order[i]
        yield order


for order in fit_orders(5, 10, 2):
    for start in range(0, 10, 4):
        print("[" + " ".join(str(v) for v in order[start:start + 4]) + "]")
