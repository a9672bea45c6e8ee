"""Prints the `make bench` table from the RESULT/CHECK lines that
bench/run.sh collected (one file per system), with tfs's ratio to each peer
(>1: tfs is slower) and the goal of issue 20 for each workload."""
import sys

SYSTEMS = ["tfs", "c++", "numpy", "numba", "torch", "cpython"]
# workload: (label, unit scale, unit, goal text, goal check on the ratios)
WORKLOADS = [
    ("lstm", "LSTM cell 10x10, 1000 steps", 1e3, "ms", "<= 1.5x C++", lambda r: r.get("c++", 9) <= 1.5),
    ("mlp", "MLP 64-128-10 epoch (digits)", 1e3, "ms", "faster than Numba", lambda r: r.get("numba", 9) < 1),
    ("chain", "relu(a*b+c)*0.5-tanh(a), 10M", 1e3, "ms", "<= 2x C++, >= 4x faster than numpy",
     lambda r: r.get("c++", 9) <= 2 and r.get("numpy", 9) <= 0.25),
    # The chain's floors (bench/README.md): not goals of issue 20, references.
    # tfs computes TF's rational tanh (runtime/kernels/tf_float_math.h); the
    # C++ peer SLEEF's u35 tanh, the one tfs used before.
    ("tanh", "  floor: tanh(a) alone, 10M", 1e3, "ms", "ref: <= 1.1x C++ (C++: SLEEF tanh)",
     lambda r: r.get("c++", 9) <= 1.1),
    ("stream", "  floor: a*b+c (3r+1w), 10M", 1e3, "ms", "ref: <= 1.1x C++ (streaming stores)",
     lambda r: r.get("c++", 9) <= 1.1),
    ("reduce_sum", "reduce_sum 10M f32", 1e3, "ms", "<= 1.2x torch", lambda r: r.get("torch", 9) <= 1.2),
    ("sum_even", "sum_even loop, 1M i64", 1e3, "ms", "<= 2x C++", lambda r: r.get("c++", 9) <= 2),
    ("range_loop", "tf.range loop, per iteration", 1e9, "ns", "<= 2x C++", lambda r: r.get("c++", 9) <= 2),
    ("while_loop", "while i < n loop, per iteration", 1e9, "ns", "<= 2x C++", lambda r: r.get("c++", 9) <= 2),
    ("call", "tf.function call overhead", 1e9, "ns", "<= 150 ns", lambda r: r["_tfs"] <= 150e-9),
    ("collatz", "collatz, pure Python", 1e3, "ms", "<= 1x CPython", lambda r: r.get("cpython", 9) <= 1),
    ("matmul", "matmul 1024^2 f32", 1e3, "ms", "= OpenBLAS", lambda r: r.get("numpy", 9) <= 1.1),
    ("data_batch", "tf.data shuffle+batch, 256 rows", 1e3, "ms", "<= 1 ms per batch",
     lambda r: r["_tfs"] <= 1e-3),
    ("data_map_batch", "tf.data map(x/255)+batch, 32 img", 1e3, "ms", "<= 10x numpy",
     lambda r: r.get("numpy", 99) <= 10),
    ("cnn_train", "Keras CNN train step (fit), b32", 1e3, "ms", "<= 2x TF (~5 ms)", lambda r: r["_tfs"] <= 10e-3),
    ("compile", "compile latency, small fn", 1e3, "ms", "<= 20 ms", lambda r: r["_tfs"] <= 20e-3),
    ("compile_rnn", "compile, LSTM step unrolled x30", 1e3, "ms", "<= 500 ms", lambda r: r["_tfs"] <= 0.5),
]


def read(path):
    results, checks = {}, {}
    try:
        for line in open(path):
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "RESULT":
                results[parts[1]] = float(parts[2])
            elif len(parts) >= 3 and parts[0] == "CHECK":
                checks[parts[1]] = parts[2:]
    except OSError:
        pass
    return results, checks


def main():
    outdir = sys.argv[1]
    data = {s: read(f"{outdir}/{s}.out") for s in SYSTEMS}
    # The C++ peer's range loop is also the while loop's peer (same code).
    if "range_loop" in data["c++"][0]:
        data["c++"][0]["while_loop"] = data["c++"][0]["range_loop"]
    head = f"{'workload':<32} {'unit':>4} " + " ".join(f"{s:>8}" for s in SYSTEMS) + \
        "  " + " ".join(f"{'/' + s:>7}" for s in SYSTEMS[1:]) + "  goal"
    print(head)
    print("-" * len(head))
    for key, label, scale, unit, goal, ok in WORKLOADS:
        times = {s: data[s][0].get(key) for s in SYSTEMS}
        cells = [f"{t * scale:8.3g}" if t is not None else f"{'-':>8}" for t in times.values()]
        ratios = {}
        tfs = times["tfs"]
        for s in SYSTEMS[1:]:
            if tfs is not None and times[s]:
                ratios[s] = tfs / times[s]
        rcells = [f"{ratios[s]:7.2f}" if s in ratios else f"{'-':>7}" for s in SYSTEMS[1:]]
        met = ""
        if tfs is not None:
            ratios["_tfs"] = tfs
            met = "met" if ok(ratios) else "NOT met"
        print(f"{label:<32} {unit:>4} " + " ".join(cells) + "  " + " ".join(rcells) + f"  {goal} ({met})")
    # Results that disagree between systems mean the workloads differ.
    print()
    for key, *_ in WORKLOADS:
        ref = data["tfs"][1].get(key)
        for s in SYSTEMS[1:]:
            other = data[s][1].get(key)
            if ref and other:
                try:
                    same = all(abs(float(a) - float(b)) <= 1e-3 * max(1.0, abs(float(a)))
                               for a, b in zip(ref, other))
                except ValueError:
                    same = ref == other
                if not same:
                    print(f"warning: {key}: tfs computes {' '.join(ref)}, {s} {' '.join(other)}")
    print("(seconds scaled to the unit; medians of repeated runs inside one process per system; "
          "ratios are tfs/peer, > 1 means tfs is slower; '-': not measured or peer not installed)")


if __name__ == "__main__":
    main()
