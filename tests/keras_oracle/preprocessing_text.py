# numpy oracle for preprocessing_text.tfs, from Keras 2.15's index_lookup.py
# and text_vectorization.py: vocabularies ordered by np.lexsort((tokens,
# counts))[::-1] (count, then token, high to low), the mask token "" at 0 and
# one OOV index "[UNK]" in int mode, idf = log(1 + docs / (1 + doc_count)),
# OOV idf = the mean idf; standardize = lower case then strip the
# punctuation regex; split = str.split().
import re

import numpy as np
from oracle_common import show

STRIP = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


def learn(docs, max_tokens=None, start=2):
    tokens, counts = np.unique(np.array([t for d in docs for t in d], dtype=object), return_counts=True)
    order = np.lexsort((tokens, counts))[::-1]
    if max_tokens:
        order = order[:max_tokens - start]
    return [tokens[i] for i in order]


def idf_of(vocab, docs):
    n = len(docs)
    idf = np.array([np.log(1 + n / (1 + sum([t in d for d in docs]))) for t in vocab]).astype(np.float32)
    return np.concatenate([[np.mean(idf)], idf]).astype(np.float32)


def encode(index_rows, depth, mode, weights=None):
    out = np.zeros((len(index_rows), depth), dtype=np.float32)
    for r, row in enumerate(index_rows):
        for i in row:
            if 0 <= i < depth:
                out[r, i] = 1 if mode in ("multi_hot", "one_hot") else out[r, i] + 1
    return out if weights is None else out * weights


def standardize(s):
    return re.sub(STRIP, "", s.lower())


def index_of(vocab, start):
    return {t: i + start for i, t in enumerate(vocab)}


texts = ["The cat sat on the mat.", "The dog ate my homework!", "the END, the end?", "A cat; a dog: a bird",
         "zebra zebra apple", "Mat's cat"]
queries = ["the cat ate the zebra", "unknown words only", "a mat a mat a mat a mat"]
docs = [standardize(t).split() for t in texts]
qdocs = [standardize(q).split() for q in queries]

for mode in ["int", "multi_hot", "count", "tf_idf"]:
    start = 2 if mode == "int" else 1
    vocab = learn(docs, start=start)
    specials = ["", "[UNK]"] if mode == "int" else ["[UNK]"]
    print(mode, specials + vocab)
    idx = index_of(vocab, start)
    rows = [[idx.get(t, 1 if mode == "int" else 0) for t in d] for d in qdocs]
    if mode == "int":
        width = max(len(r) for r in rows)
        show(mode, np.array([r + [0] * (width - len(r)) for r in rows]))
    else:
        show(mode, encode(rows, len(vocab) + 1, mode, idf_of(vocab, docs) if mode == "tf_idf" else None))
    print(mode, "size", len(vocab) + start)


def int_rows(vocab, qd, length, start=2):
    idx = index_of(vocab, start)
    rows = [[idx.get(t, 1) for t in d][:length] for d in qd]
    return np.array([r + [0] * (length - len(r)) for r in rows])


vocab6 = learn(docs, max_tokens=6)
print("max6", ["", "[UNK]"] + vocab6)
show("max6", int_rows(vocab6, qdocs, 4))
show("max6 column", int_rows(vocab6, qdocs, 4))
print("no specials", vocab6)


def bigrams(tokens):
    return tokens + [a + " " + b for a, b in zip(tokens, tokens[1:])]


ng_docs = [bigrams(t.lower().split()) for t in ["x y x y", "y z", "X, y"]]
ng_vocab = learn(ng_docs, start=1)
print("ngrams", ["[UNK]"] + ng_vocab)
idx = index_of(ng_vocab, 1)
show("ngrams", encode([[idx.get(t, 0) for t in bigrams(q.split())] for q in ["x y z", "y x"]], len(ng_vocab) + 1,
                      "count"))

char_vocab = learn([list("abca"), list("bcb")])
print("chars", ["", "[UNK]"] + char_vocab)
show("chars", int_rows(char_vocab, [list("cab"), list("abcdabcd")], 6))

vocab20 = learn(docs, max_tokens=20)
model_out = int_rows(vocab20, qdocs, 5)
show("model", model_out)
show("map", model_out[:2])
show("map", model_out[2:])

words = [["a", "c", "d", "c"], ["d", "z", "b", "a"], ["b", "b", "b", "e"]]
svocab = learn(words, start=1)
print("string", ["[UNK]"] + svocab)
sidx = index_of(svocab, 1)
show("string", np.array([[sidx.get(t, 0) for t in row] for row in words]))
print("invert", words)
print("masked", ["", "x", "y"])
show("masked", np.array([[1, 0, 2]]))
abc = {"a": 1, "b": 2, "c": 3}
q = [abc.get(t, 0) for t in ["c", "q", "a", "c"]]
show("one_hot", encode([[i] for i in q], 4, "one_hot"))
show("multi_hot", encode([q], 4, "multi_hot")[0])
show("count", encode([q], 4, "count")[0])
show("padded", encode([[1, 0], [2, 2]], 6, "multi_hot"))
w = np.array([0.25, 0.75, 0.6, 0.4], dtype=np.float32)
weights = np.concatenate([[np.mean(w)], w]).astype(np.float32)
abcd = {"a": 1, "b": 2, "c": 3, "d": 4}
show("tfidf", encode([[abcd.get(t, 0) for t in r] for r in [["a", "c", "d", "d"], ["d", "z", "b", "z"]]], 5,
                     "count", weights))

ints = [[12, 1138, 42], [42, 1000, 36], [7, 7, 12]]
ivocab = learn(ints, start=1)
print("integer", [-1] + [int(t) for t in ivocab])
iidx = index_of(ivocab, 1)
show("integer", np.array([[iidx[t] for t in row] for row in ints]))
print("multi", [0, -1, -1, -1, 12, 36, 1138, 42])
midx = index_of([12, 36, 1138, 42], 4)
show("multi", np.array([[0 if t == 0 else midx.get(t, 1 + t % 3) for t in row] for row in [[12, 0, 5], [-7, 1000, 36]]]))
inv = {1: 12, 2: 36, 3: 1138, 4: 42}
show("int invert", np.array([[inv.get(i, -1) for i in row] for row in [[1, 3, 4], [4, 0, 2]]]))
