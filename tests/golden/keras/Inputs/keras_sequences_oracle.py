# Writes small synthetic imdb.npz / reuters.npz files under
# HOME/.keras/datasets (argv[1] is HOME) holding numpy object arrays of word
# index lists as the real files do (np.savez of dtype=object arrays: pickled
# members), then prints what Keras 2.15's imdb / reuters load_data return
# for them: the RandomState(seed) shuffle, start_char / index_from shift,
# maxlen filter (sequences shorter than maxlen), num_words / skip_top limits
# with oov_char (or dropping when oov_char is None), the test_split of
# reuters, and pad_sequences of the result. (Without a start_char or
# index_from shift Keras adds the train and test object arrays, which is
# numpy's elementwise +: a broadcast ValueError for these sizes.) Written from Keras's documented
# algorithm with numpy; datasets_sequences.tfs must print the same.
import os
import sys

import numpy as np

home = sys.argv[1]
root = os.path.join(home, ".keras", "datasets")
os.makedirs(root, exist_ok=True)


def seqs(rng, n, lo, hi):
    out = np.empty(n, dtype=object)
    for i in range(n):
        out[i] = [int(v) for v in rng.randint(1, 30, size=rng.randint(lo, hi))]
    return out


gen = np.random.RandomState(7)
x_train, x_test = seqs(gen, 9, 2, 9), seqs(gen, 6, 2, 9)
y_train, y_test = gen.randint(0, 2, size=9), gen.randint(0, 2, size=6)
np.savez(os.path.join(root, "imdb.npz"), x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
rx, ry = seqs(gen, 12, 1, 7), gen.randint(0, 46, size=12)
np.savez(os.path.join(root, "reuters.npz"), x=rx, y=ry)


def shifted(xs, start_char, index_from):
    if start_char is not None:
        return [[start_char] + [w + index_from for w in x] for x in xs]
    if index_from:
        return [[w + index_from for w in x] for x in xs]
    return xs


def limited(xs, num_words, skip_top, oov_char):
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        return [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    return [[w for w in x if skip_top <= w < num_words] for x in xs]


def short_only(maxlen, xs, labels):
    keep = [(x, y) for x, y in zip(xs, labels) if len(x) < maxlen]
    return [x for x, _ in keep], [y for _, y in keep]


def imdb(num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1, oov_char=2, index_from=3):
    with np.load(os.path.join(root, "imdb.npz"), allow_pickle=True) as f:
        xa, la, xb, lb = f["x_train"], f["y_train"], f["x_test"], f["y_test"]
    rng = np.random.RandomState(seed)
    order = np.arange(len(xa))
    rng.shuffle(order)
    xa, la = xa[order], la[order]
    order = np.arange(len(xb))
    rng.shuffle(order)
    xb, lb = xb[order], lb[order]
    xa, xb = shifted(xa, start_char, index_from), shifted(xb, start_char, index_from)
    if maxlen:
        xa, la = short_only(maxlen, xa, la)
        xb, lb = short_only(maxlen, xb, lb)
    xs = limited(xa + xb, num_words, skip_top, oov_char)
    labels = np.concatenate([la, lb])
    n = len(xa)
    return (np.array(xs[:n], dtype="object"), labels[:n]), (np.array(xs[n:], dtype="object"), labels[n:])


def reuters(num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1, oov_char=2,
            index_from=3):
    with np.load(os.path.join(root, "reuters.npz"), allow_pickle=True) as f:
        xs, labels = f["x"], f["y"]
    rng = np.random.RandomState(seed)
    order = np.arange(len(xs))
    rng.shuffle(order)
    xs, labels = xs[order], labels[order]
    xs = shifted(xs, start_char, index_from)
    if maxlen:
        xs, labels = short_only(maxlen, xs, labels)
    xs = limited(xs, num_words, skip_top, oov_char)
    n = int(len(xs) * (1 - test_split))
    return ((np.array(xs[:n], dtype="object"), np.array(labels[:n])),
            (np.array(xs[n:], dtype="object"), np.array(labels[n:])))


def pad(sequences, maxlen):
    # keras pad_sequences defaults: int32, 'pre' padding and truncation, value 0
    out = np.zeros((len(sequences), maxlen), dtype="int32")
    for i, s in enumerate(sequences):
        s = list(s)[-maxlen:]
        if s:
            out[i, -len(s):] = s
    return out


def show(name, a):
    print(name, a.dtype, a.shape)
    print(repr(a))


cases = [dict(), dict(num_words=20), dict(num_words=20, skip_top=4, seed=5), dict(maxlen=6),
         dict(oov_char=None, num_words=15), dict(start_char=None, index_from=0)]
for kw in cases:
    print("imdb", sorted(kw.items()))
    try:
        (a, b), (c, d) = imdb(**kw)
    except ValueError as e:  # without a shift the object arrays add elementwise, as in Keras
        print("ValueError:", e)
        continue
    show("x_train", a)
    show("y_train", b)
    show("x_test", c)
    show("y_test", d)
for kw in [dict(), dict(test_split=0.5, num_words=12, seed=1), dict(maxlen=5, start_char=None)]:
    print("reuters", sorted(kw.items()))
    (a, b), (c, d) = reuters(**kw)
    show("x_train", a)
    show("y_train", b)
    show("x_test", c)
    show("y_test", d)
(a, b), _ = imdb(num_words=20)
print(repr(pad(a, 5)))
try:
    imdb(maxlen=2)
except ValueError:
    print("ValueError: After filtering for sequences shorter than maxlen=2, no sequence was kept. Increase maxlen.")
