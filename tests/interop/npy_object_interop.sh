#!/usr/bin/env bash
# Object arrays (dtype=object) in .npy / .npz files: numpy reads the files
# tfs writes, and tfs reads the files numpy writes, to the same arrays as
# numpy reading its own. Skips (77) without numpy.
set -u
TFS="$1"; HERE="$(cd "$(dirname "$0")" && pwd)"
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c "import numpy" 2>/dev/null || { echo "python3 with numpy not found: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
"$TFS" run "$HERE/npy_objects.tfs" write tfs_ || { echo "tfs failed to write"; exit 1; }
"$PY" "$HERE/npy_objects.tfs" write np_ || { echo "python3 failed to write"; exit 1; }
"$PY" "$HERE/npy_objects.tfs" read np_ > want || { echo "python3 failed to read its files"; exit 1; }
status=0
"$PY" "$HERE/npy_objects.tfs" read tfs_ > numpy_reads_tfs || { echo "python3 failed to read tfs's files"; status=1; }
cmp -s want numpy_reads_tfs || { echo "numpy reads tfs's files differently:"; diff want numpy_reads_tfs | head -20; status=1; }
"$TFS" run "$HERE/npy_objects.tfs" read np_ > tfs_reads_numpy || { echo "tfs failed to read numpy's files"; status=1; }
cmp -s want tfs_reads_numpy || { echo "tfs reads numpy's files differently:"; diff want tfs_reads_numpy | head -20; status=1; }
exit $status
