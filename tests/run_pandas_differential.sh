#!/usr/bin/env bash
# Runs one pandas program under tfs and under Debian's python3 + pandas 1.5
# (python3-pandas) and compares them as run_numpy_differential.sh does.
# Skips (77) without python3 + pandas.
set -u
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c "import pandas" 2>/dev/null || { echo "python3 with pandas not found: skipping"; exit 77; }
exec bash "$(dirname "$0")/run_numpy_differential.sh" "$@"
