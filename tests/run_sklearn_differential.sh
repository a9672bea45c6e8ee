#!/usr/bin/env bash
# Runs one scikit-learn program under tfs and under Debian's python3 +
# scikit-learn 1.2 (python3-sklearn) and compares them as
# run_numpy_differential.sh does. Skips (77) without python3 + sklearn.
set -u
PY=/usr/bin/python3
[ -x "$PY" ] && "$PY" -c "import sklearn" 2>/dev/null || { echo "python3 with sklearn not found (apt-get install python3-sklearn): skipping"; exit 77; }
exec bash "$(dirname "$0")/run_numpy_differential.sh" "$@"
