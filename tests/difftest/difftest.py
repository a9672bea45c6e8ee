#!/usr/bin/python3
"""Random differential tester: random tfs programs against a numpy twin and
float64 finite differences.

  difftest.py TFS --seeds 0:40            programs of seeds 0..39 (ctest)
  difftest.py TFS --seeds 0:5000 --jobs 2 a long campaign (make difftest)
  difftest.py TFS --seed 17 --show        print one program and its result

Each program runs on both backends (--backend=jit and --backend=interp):
eagerly, as a tf.function, as a tf.function with unknown-dim input
signatures, and under a GradientTape eagerly and inside a tf.function.
Values are compared with numpy in the program's dtype (a program whose
float32 and float64 numpy results disagree is ill-conditioned and skipped),
gradients with central differences of the float64 twin (components where
two step sizes disagree sit on a kink and are skipped). Every finding is
minimized (steps removed while it persists) and printed as a reproducer.
Exit status: 0 when no program disagrees, 1 otherwise.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program import connected_inputs, generate, run_numpy, tfs_text  # noqa: E402

MODES = ("eager", "function", "signature")
BACKENDS = ("--backend=jit", "--backend=interp")


def parse_output(text):
    out = {}
    for line in text.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 2:
            continue
        tag = parts[0]
        if parts[1] == "error":
            out[tag] = ("error", " ".join(parts[2:]))
        elif parts[1] == "None":
            out[tag] = None
        elif len(parts) >= 3:
            dtype = parts[1]
            rest = line.split(" ", 2)[2]
            shape_text, _, vals = rest.partition("] ")
            shape = tuple(int(d) for d in shape_text.strip("[]").split(",") if d.strip())
            if not vals and shape_text.endswith("]"):
                vals = ""
            values = [float(v) for v in vals.split()] if vals else []
            out[tag] = (dtype, shape, values)
    return out


def tolerance(dtype):
    return (2e-3, 1e-4) if dtype == "float32" else (1e-7, 1e-9)


def close(got, want, dtype, scale=None):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if dtype == "int32":
        return bool(np.array_equal(got, want))
    rtol, atol = tolerance(dtype)
    scale = scale if scale is not None else (np.max(np.abs(want[np.isfinite(want)])) if np.any(np.isfinite(want)) else 0)
    return bool(np.all(np.isclose(got, want, rtol=rtol, atol=atol * (1 + scale), equal_nan=True)))


def fd_gradient(prog, weights, i):
    """Central differences of sum(prog * w) in float64 w.r.t. input i; NaN
    where two step sizes disagree (a kink or a discontinuity)."""
    base = [np.asarray(x, dtype=np.float64) for x in prog.inputs]
    w = weights.astype(np.float64)

    def loss(xs):
        return float(np.sum(run_numpy(prog, xs, "float64") * w))

    grad = np.zeros(base[i].shape)
    flat = grad.reshape(-1)
    for j in range(flat.size):
        ests = []
        for eps in (1e-6, 1e-4):
            plus = [x.copy() for x in base]
            minus = [x.copy() for x in base]
            plus[i].reshape(-1)[j] += eps
            minus[i].reshape(-1)[j] -= eps
            ests.append((loss(plus) - loss(minus)) / (2 * eps))
        a, b = ests
        flat[j] = a if abs(a - b) <= 1e-3 * (1 + abs(a)) else np.nan
    return grad


def run_tfs(tfs, text, backend, timeout=120):
    with tempfile.NamedTemporaryFile("w", suffix=".tfs", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        p = subprocess.run([tfs, "run", path, backend], capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    finally:
        os.unlink(path)


def check(tfs, prog, weights_rng_seed):
    """The findings of one program: a list of short strings (empty: agrees)."""
    with np.errstate(all="ignore"):
        want = run_numpy(prog)
        want64 = run_numpy(prog, dtype="float64") if prog.dtype != "int32" else want
    floating = prog.dtype != "int32"
    if floating and not close(want.astype(np.float64), want64, prog.dtype):
        return None  # ill-conditioned in float32: no oracle
    weights = None
    if floating and np.all(np.isfinite(want64)) and np.max(np.abs(want64), initial=0) < 1e4:
        wrng = np.random.RandomState(weights_rng_seed)
        weights = wrng.uniform(-1, 1, size=want.shape).round(3).astype(prog.dtype)
    text = tfs_text(prog, weights)
    findings = []
    limits = []  # NotImplementedError: an honest limitation, reported apart
    for backend in BACKENDS:
        rc, stdout, stderr = run_tfs(tfs, text, backend)
        if rc != 0:
            first = (stderr.strip().splitlines() or ["(no output)"])[0]
            findings.append(f"{backend}: exit {rc}: {first}")
            continue
        got = parse_output(stdout)
        for m in MODES:
            r = got.get(m)
            if r is not None and r[0] == "error" and r[1].startswith("NotImplementedError"):
                limits.append(f"{backend} {m}: {r[1]}")
            elif r is None or r[0] == "error":
                findings.append(f"{backend} {m}: {r[1] if r else 'no output'}")
            elif r[0] != str(want.dtype) or r[1] != want.shape:
                findings.append(f"{backend} {m}: {r[0]}{list(r[1])}, numpy {want.dtype}{list(want.shape)}")
            elif not close(r[2], want.reshape(-1), prog.dtype):
                findings.append(f"{backend} {m}: values differ from numpy")
        if weights is None:
            continue
        connected = connected_inputs(prog)
        for gmode in ("grad_eager", "grad_function"):
            if gmode in got and got[gmode] is not None and got[gmode][0] == "error":
                if got[gmode][1].startswith("NotImplementedError"):
                    limits.append(f"{backend} {gmode}: {got[gmode][1]}")
                    continue
                findings.append(f"{backend} {gmode}: {got[gmode][1]}")
                continue
            for i, x in enumerate(prog.inputs):
                g = got.get(f"{gmode}{i}", "missing")
                if g == "missing":
                    findings.append(f"{backend} {gmode}{i}: no output")
                elif g is None:
                    if i in connected:
                        findings.append(f"{backend} {gmode}{i}: None for a connected input")
                elif g[1] != x.shape:
                    findings.append(f"{backend} {gmode}{i}: gradient shape {list(g[1])}, input {list(x.shape)}")
                else:
                    fd = fd_gradient(prog, weights, i).reshape(-1)
                    ok = np.isnan(fd) | np.isclose(g[2], fd, rtol=2e-2, atol=2e-3 * (1 + np.nanmax(np.abs(fd), initial=0)))
                    if not np.all(ok):
                        findings.append(f"{backend} {gmode}{i}: gradient differs from finite differences")
    if not findings and limits:
        return ["limit " + limits[0]]
    return findings


def minimize(tfs, prog, seed, findings):
    """Removes steps while a finding of the same kind persists."""
    key = findings[0].split(":")[0]
    changed = True
    while changed and len(prog.steps) > 1:
        changed = False
        for k in range(len(prog.steps) - 1, -1, -1):
            cand = prog.copy_without(k)
            try:
                run_numpy(cand)
            except Exception:
                continue
            f = check(tfs, cand, seed)
            if f and any(x.split(":")[0] == key for x in f):
                prog, findings, changed = cand, f, True
                break
    return prog, findings


def one(tfs, seed, do_minimize):
    prog = generate(random.Random(seed))
    if not prog.steps:
        return seed, None, None, "skipped"
    findings = check(tfs, prog, seed)
    if findings is None:
        return seed, None, None, "skipped"
    if not findings:
        return seed, None, None, "ok"
    if findings[0].startswith("limit "):
        return seed, prog, findings, "limit"
    if do_minimize:
        prog, findings = minimize(tfs, prog, seed, findings)
    return seed, prog, findings, "finding"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfs")
    ap.add_argument("--seeds", default="0:20", help="A:B, seeds A..B-1")
    ap.add_argument("--seed", type=int, help="one seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print the program of --seed")
    ap.add_argument("--no-minimize", action="store_true")
    args = ap.parse_args()
    if args.seed is not None:
        seeds = [args.seed]
    else:
        a, b = (int(v) for v in args.seeds.split(":"))
        seeds = list(range(a, b))
    if args.show:
        prog = generate(random.Random(seeds[0]))
        print(tfs_text(prog, None))
        print("# numpy:", run_numpy(prog).tolist())
    counts = {"ok": 0, "skipped": 0, "finding": 0, "limit": 0}
    limits = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, prog, findings, status in pool.map(lambda s: one(args.tfs, s, not args.no_minimize), seeds):
            counts[status] += 1
            if status == "limit":
                limits.setdefault(findings[0].split(": ", 1)[1], []).append(seed)
            if status == "finding":
                print(f"=== seed {seed}: " + "; ".join(findings[:4]))
                print(tfs_text(prog, None))
                sys.stdout.flush()
    print(f"difftest: {len(seeds)} programs, {counts['ok']} agree, {counts['skipped']} skipped "
          f"(ill-conditioned or empty), {counts['limit']} stop at a NotImplementedError, "
          f"{counts['finding']} disagree")
    for msg, ss in sorted(limits.items()):
        print(f"  not supported ({len(ss)} programs, e.g. seed {ss[0]}): {msg}")
    return 1 if counts["finding"] else 0


if __name__ == "__main__":
    sys.exit(main())
