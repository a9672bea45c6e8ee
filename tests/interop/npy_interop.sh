#!/usr/bin/env bash
# np.save / np.savez files written by tfs are the files numpy 1.24 writes:
# each .npy is byte-for-byte numpy's, and numpy reads tfs's .npz archives
# (stored and deflated) back to equal arrays. Skips (77) without numpy.
set -u
TFS="$1"; HERE="$(cd "$(dirname "$0")" && pwd)"
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c "import numpy" 2>/dev/null || { echo "python3 with numpy not found: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$TFS" run "$HERE/npy_arrays.tfs" tfs_ || { echo "tfs failed"; exit 1; }
"$PY" "$HERE/npy_arrays.tfs" np_ >/dev/null || { echo "python3 failed"; exit 1; }
status=0
[ "$(ls np_*.npy | wc -l)" -eq 10 ] && [ "$(ls tfs_*.npy | wc -l)" -eq 10 ] || { echo "expected 10 .npy files from each"; status=1; }
for f in np_*.npy; do
  t="tfs_${f#np_}"
  cmp -s "$f" "$t" || { echo "$t differs from numpy's $f:"; cmp "$f" "$t" | head -2; status=1; }
done
"$PY" - <<'PY' || status=1
import numpy as np, glob
for name in ["stored.npz", "deflated.npz"]:
    ours, theirs = np.load("tfs_" + name), np.load("np_" + name)
    assert sorted(ours.files) == sorted(theirs.files), (name, ours.files, theirs.files)
    for k in theirs.files:
        a, b = ours[k], theirs[k]
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), (name, k)
print("npz archives read back by numpy: ok")
PY
exit $status
