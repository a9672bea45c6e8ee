# The numpy twin of random_graph_seeds.tfs, on tf_streams_ref (TF 2.15's
# kernels): in a graph, the op without a seed made n-th (from 0) in its
# graph draws from Philox(global seed, n), its kernel moving on 256 blocks
# per element after each run.
import numpy as np
from tf_streams_ref import Gen, normal, uniform
from tfprint import show


class GraphOp:
    def __init__(self, op_seed):
        self.gen = Gen.from_seeds(2024, op_seed)

    def draw(self, fn, n):
        gen = Gen([0, 0, 0, 0], self.gen.key)
        gen.c = self.gen.c
        self.gen.skip(n * 256)
        return fn(gen, n)


# f: uniform op seed 0, normal op seed 1; the second call continues both.
fu, fn = GraphOp(0), GraphOp(1)
for _ in range(2):
    show(fu.draw(uniform, 3))
    show(fn.draw(normal, 2))
# g: a (seed 0) and c (seed 1) in the function's graph; b in the true
# branch's graph, its seed 0 again.
show(GraphOp(0).draw(uniform, 2))
show(GraphOp(0).draw(uniform, 2))
show(GraphOp(1).draw(uniform, 2))
# h: Dropout(0.5): x * 2 where uniform >= 0.5 (op seed 0).
x = np.arange(1.0, 7.0, dtype=np.float32)
keep = GraphOp(0).draw(uniform, 6) >= np.float32(0.5)
show(np.where(keep, x * np.float32(2.0), np.float32(0)).astype(np.float32))
# k: dropout at rate 0 takes op seed 0 and draws nothing; uniform gets 1.
show(GraphOp(1).draw(uniform, 2))
show(np.ones(2, np.float32))
