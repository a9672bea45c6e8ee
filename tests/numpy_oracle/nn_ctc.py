import itertools

import numpy as np


def show(name, a, digits=4):
    a = np.asarray(a)
    if a.dtype.kind == "f":
        print(name, a.shape, [float("%.*f" % (digits, v)) + 0.0 for v in a.astype(np.float64).ravel()])
    else:
        print(name, a.shape, a.ravel().tolist())


def collapse(path, blank, merge=True):
    out, prev = [], None
    for c in path:
        if c != blank and not (merge and c == prev):
            out.append(c)
        prev = c
    return out


def ctc(logits, labels, label_length, logit_length, blank):
    # -log sum over every alignment of the frames that collapses to the label.
    losses = []
    for b in range(logits.shape[1]):
        lg = logits[:logit_length[b], b].astype(np.float64)
        lp = lg - np.log(np.exp(lg).sum(axis=1, keepdims=True))
        target = list(labels[b][:label_length[b]])
        total = 0.0
        for path in itertools.product(range(lg.shape[1]), repeat=lg.shape[0]):
            if collapse(path, blank) == target:
                total += np.exp(sum(lp[t, c] for t, c in enumerate(path)))
        losses.append(-np.log(total) if total > 0 else np.inf)
    return np.array(losses)


rng = np.random.RandomState(0)
logits = rng.uniform(-2, 2, size=(6, 3, 4)).astype(np.float32)
labels = np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]], np.int32)
label_length = np.array([3, 2, 1], np.int32)
logit_length = np.array([6, 5, 3], np.int32)
dense = ctc(logits, labels, label_length, logit_length, 0)
show("dense", dense)
show("batch major", dense)
show("sparse blank last", ctc(logits, labels - 1, label_length, logit_length, 3))
show("dense blank 3", ctc(logits, labels - 1, label_length, logit_length, 3))
grad = np.zeros(logits.shape)
eps = 1e-6
for idx in itertools.product(*[range(d) for d in logits.shape]):
    up, down = logits.astype(np.float64), logits.astype(np.float64)
    up[idx] += eps
    down[idx] -= eps
    grad[idx] = (ctc(up, labels, label_length, logit_length, 0).sum() -
                 ctc(down, labels, label_length, logit_length, 0).sum()) / (2 * eps)
show("grad", grad, 3)
show("traced", dense)
show("traced grad", grad, 3)
show("too long", np.array([np.inf], np.float32))


def greedy(logits, lengths, merge=True, blank=None):
    blank = logits.shape[2] - 1 if blank is None else blank
    seqs, neg = [], []
    for b in range(logits.shape[1]):
        frames = logits[:lengths[b], b]
        seqs.append(collapse(list(frames.argmax(axis=1)), blank, merge))
        neg.append([-frames.max(axis=1).astype(np.float64).sum()])
    return seqs, np.array(neg)


seqs, neg = greedy(logits, logit_length)
show("greedy indices", np.array([[b, i] for b, s in enumerate(seqs) for i in range(len(s))], np.int64))
show("greedy values", np.array([c for s in seqs for c in s], np.int64))
show("greedy shape", np.array([3, max(len(s) for s in seqs)], np.int64))
show("greedy neg sum", neg)
seqs, _ = greedy(logits, logit_length, merge=False, blank=0)
width = max(len(s) for s in seqs)
show("unmerged dense", np.array([s + [0] * (width - len(s)) for s in seqs], np.int64))
print("{{function_node __wrapped__CTCLoss_device_/job:localhost/replica:0/task:0/device:CPU:0}} Not enough time for "
      "target transition sequence (required: 5, available: 4)0You can turn this error into a warning by using the "
      "flag ignore_longer_outputs_than_inputs [Op:CTCLoss] name: ")
print("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
