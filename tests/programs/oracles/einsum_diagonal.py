# Oracle for ../einsum_diagonal.tfs (run with /usr/bin/python3; its stdout
# is einsum_diagonal.expected): np.einsum of the same arrays.
import numpy as np

rng = np.random.RandomState(3)


def arr(*s):
    return rng.randint(-3, 4, size=s).astype(np.float32)


cases = [("bxby->bxy", arr(2, 3, 2, 4)), ("ii->i", arr(3, 3)), ("ii", arr(3, 3)), ("iij->j", arr(2, 2, 3)),
         ("ijj,jk->ik", arr(2, 3, 3), arr(3, 2)), ("iji->ij", arr(2, 3, 2)), ("...ii->...i", arr(2, 3, 3))]
for eq, *xs in cases:
    r = np.einsum(eq, *xs)
    print(eq, r.shape, r.reshape(-1).tolist())
print(np.einsum("bxby->bxy", cases[0][1]).reshape(-1).tolist())
print("InvalidArgumentError: Expected dimension 2 at axis 1 of the input shaped (2, 3) but got dimension 3")
