# The numpy twin of random_tf_streams.tfs, on tf_streams_ref (an independent
# reference of TF 2.15's random streams written from TF's kernel sources,
# which checks itself against the values TF's documentation prints).
import numpy as np
from tf_streams_ref import Context, Gen, dataset_shuffle, normal, shuffle, uniform
from tfprint import show

ctx = Context(2024)
# tf.random.uniform / normal: one op seed per call from the global seed.
show(uniform(ctx.draw("uniform", None, 5, 5 * 256), 5))
show(normal(ctx.draw("normal", None, 6, 6 * 256), 6))
# The same op seed twice: one kernel whose stream moves on 256 per element.
show(uniform(ctx.draw("uniform", 11, 3, 3 * 256), 3))
show(uniform(ctx.draw("uniform", 11, 3, 3 * 256), 3))
show(np.float32(4.0) * uniform(ctx.draw("uniform", None, 3, 3 * 256), 3))
# tf.random.shuffle (see tf_streams_ref.shuffle).
show(np.array(shuffle(ctx.draw("shuffle", 5, 9, (9 - 1 + 3) // 4), 10), np.int32))

seeded = (2024, 7)
print([int(v) for v in dataset_shuffle(10, 4, seeded, 0)])
print([int(v) for v in dataset_shuffle(10, 4, seeded, 1)])
print([int(v) for v in dataset_shuffle(10, 100, seeded, 0, reshuffle=False)])
print([int(v) for v in dataset_shuffle(10, 100, seeded, 0, reshuffle=False)])
# Unseeded under the global seed: the dataset takes the next op seed.
unseeded = ctx.seeds(None)
print([int(v) for v in dataset_shuffle(6, 3, unseeded, 0)])
# list_files: a shuffle of the sorted names with buffer max(n, 1).
names = ["a.txt", "b.txt", "c.txt", "d.txt"]
print([names[i] for i in dataset_shuffle(4, 4, (2024, 3), 0)])
