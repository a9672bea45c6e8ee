"""Shared by the Python peers of bench/workloads: the same data as the tfs
workloads, the digits file, median timing and the RESULT/CHECK lines."""
import os
import sys
import time

import numpy as np

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
# BENCH_CLOCK=cpu (run.sh): every timing of the peers, these helpers' and
# the peers' own time.perf_counter() calls alike, reads the process's CPU
# time instead of the wall clock (on a machine shared with other jobs).
if os.environ.get("BENCH_CLOCK") == "cpu":
    time.perf_counter = time.process_time
HERE = os.path.dirname(os.path.abspath(__file__))


def data(n, k):
    i = np.arange(n, dtype=np.int64)
    return (((i * k) % 1009).astype(np.float64) / 1009.0 - 0.5).astype(np.float32)


def digits():
    rows = [line for line in open(os.path.join(HERE, "..", "data", "digits.txt")).read().split("\n")
            if line and not line.startswith("#")]
    y = np.array([int(r.split(" ")[0]) for r in rows], dtype=np.int32)
    x = np.array([[(ord(ch) - 97) / 16.0 for ch in r.split(" ")[1]] for r in rows], dtype=np.float32)
    return x, y


def mlp_init():
    return [data(64 * 128, 7).reshape(64, 128) * np.float32(0.3), np.zeros(128, np.float32),
            data(128 * 10, 11).reshape(128, 10) * np.float32(0.3), np.zeros(10, np.float32)]


def lstm_data():
    T, B, N, U = 1000, 10, 10, 10
    return (data(T * B * N, 7).reshape(T, B, N), data(N * 4 * U, 13).reshape(N, 4 * U) * np.float32(0.5),
            data(U * 4 * U, 17).reshape(U, 4 * U) * np.float32(0.5), data(4 * U, 19) * np.float32(0.1))


def median_time(f, reps=None):
    f()
    times = []
    for _ in range(reps or REPS):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def report(name, seconds, *checks):
    if checks:
        print("CHECK", name, *checks)
    print("RESULT", name, seconds)
    sys.stdout.flush()
