#!/usr/bin/env bash
# The interactive prompt through a pseudo-terminal (util-linux `script`): a
# short session with an import, an expression echo, a multi-line def, an
# error that does not end the session, `_`, and an open bracket continued on
# the next line. Usage: repl_pty.sh TFS
set -u
TFS="$1"
command -v script >/dev/null || { echo "no util-linux script: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/in" <<'IN'
import tensorflow as tf
x = tf.constant([1.0, 2.0])
x * 2
1 + 1
def f(a):
    return a + 1

f(41)
print(undefined_name)
_ + 1
y = (3,
4)
y
IN
HOME="$tmp" timeout 60 script -qec "$TFS" /dev/null <"$tmp/in" >"$tmp/out" 2>&1
tr -d '\r' <"$tmp/out" >"$tmp/clean"
fail=0
expect() {  # a whole output line that must appear
  grep -qxF -- "$1" "$tmp/clean" || { echo "missing line: $1"; fail=1; }
}
expect '>>> import tensorflow as tf'
expect '<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>'
expect '2'
expect '...     return a + 1'
expect '42'
expect "<stdin>:1:7: error: NameError: name 'undefined_name' is not defined"
expect '43'
expect '... 4)'
expect '(3, 4)'
if [ $fail -ne 0 ]; then echo "--- session:"; cat "$tmp/clean"; exit 1; fi
echo "REPL session ok"
