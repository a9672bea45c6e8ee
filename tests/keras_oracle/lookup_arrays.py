# Oracle for lookup_arrays.tfs: Keras 2.15's IndexLookup by hand -- the
# vocabulary sorted by count then token, both descending (numpy lexsort
# reversed), special tokens first; OOV -> index 1 (or the mask 0 first);
# multi_hot / count / one_hot as bincount per row, tf_idf as count * idf
# (special tokens weighted by the mean idf); TextVectorization lowercases,
# strips punctuation, splits on whitespace and pads/truncates to the length.
import collections
import numpy as np

rng = np.random.RandomState(0)
words = np.array(["w%d" % i for i in range(700)])
tokens = words[(rng.zipf(1.3, size=60000) - 1) % 700]


def vocab_of(values, specials, max_tokens=None):
    counts = collections.Counter(values)
    for s in specials:
        counts.pop(s, None)
    ordered = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    if max_tokens:
        ordered = ordered[:max_tokens - len(specials)]
    return specials + [k for k, _ in ordered]


def as_bytes(s):
    return s.encode() if isinstance(s, str) else s


vocab = vocab_of([t.encode() for t in tokens.tolist()], [b"[UNK]"], 300)
vocab = [v.decode() for v in vocab]
print(len(vocab), vocab[:8], vocab[-3:])
index = dict((v, i) for i, v in enumerate(vocab))
ids = np.array([index.get(t, 0) for t in tokens.tolist()], dtype=np.int64).reshape(-1, 20)
print(ids.shape, ids.dtype, int(ids.sum()), int((ids == 0).sum()), ids[0].tolist())

ints = (rng.zipf(1.5, size=60000) % 500).astype(np.int64)
iv = vocab_of(ints.tolist(), [0, -1])
print(len(iv), iv[:8])
iindex = dict((v, i) for i, v in enumerate(iv))
got = np.array([0 if v == 0 else iindex.get(v, 1) for v in ints.tolist()])
print(int(got.sum()), int((got == 0).sum()), int((got == 1).sum()), got[:10].tolist())

print([[0, 1], [1, 0]])
# tf.Assert's eager message over tf.strings.format of the OOV inputs.
print("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
      "b'When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values [\"zz\" \"yy\"], consider "
      "setting `num_oov_indices=1`.'")

sub = vocab[1:40]
sindex = dict((v, i + 1) for i, v in enumerate(sub))
idf = np.linspace(1.0, 2.0, 39)
for mode in ["multi_hot", "count", "one_hot", "tf_idf"]:
    x = tokens[:200].reshape(-1, 1) if mode == "one_hot" else tokens[:2000].reshape(-1, 50)
    out = np.zeros((x.shape[0], 40), dtype=np.float64)
    for r in range(x.shape[0]):
        for t in x[r].tolist():
            i = sindex.get(t, 0)
            if mode in ("multi_hot", "one_hot"):
                out[r, i] = 1.0
            else:
                out[r, i] += 1.0
    out = out.astype(np.float32)
    if mode == "tf_idf":
        weights = np.concatenate([[idf.mean()], idf]).astype(np.float32)
        out = out * weights
    print(mode, out.shape, "%.4f" % out.sum(dtype=np.float32), "%.4f" % out[1].sum(dtype=np.float32),
          out[0][:6].tolist())

docs = [" ".join(tokens[i:i + 30].tolist()) for i in range(0, 60000, 30)]
split = [d.lower().split() for d in docs]
tvv = vocab_of([t for row in split for t in row], ["", "[UNK]"], 200)
print(len(tvv), tvv[:6])
tindex = dict((v, i) for i, v in enumerate(tvv))
seq = np.zeros((len(docs), 25), dtype=np.int64)
for r, row in enumerate(split):
    ids_r = [tindex.get(t, 1) for t in row][:25]
    seq[r, :len(ids_r)] = ids_r
print(seq.shape, int(seq.sum()), seq[3][:10].tolist())
