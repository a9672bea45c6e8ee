#!/usr/bin/env bash
# Runs one pure-Python program under tfs and under the system python3 and
# compares stdout, the exit status and, when python3 fails, the exception:
# its class (stderr's last line) and its line (the innermost traceback entry,
# against the line of tfs's first diagnostic).
# A program's arguments (sys.argv[1:]) come from NAME.args (one line,
# split on spaces), its stdin from NAME.stdin. Skips (77) when python3 is absent.
set -u
TFS="$1"; FILE="$2"
PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3 || true)"
[ -n "$PY" ] || { echo "python3 not found: skipping"; exit 77; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
in=/dev/null; [ -f "${FILE%.tfs}.stdin" ] && in="${FILE%.tfs}.stdin"
args=(); [ -f "${FILE%.tfs}.args" ] && read -r -a args <"${FILE%.tfs}.args"
(cd "$tmp" && PYTHONDONTWRITEBYTECODE=1 timeout 30 "$PY" "$FILE" "${args[@]}") >"$tmp/py.out" 2>"$tmp/py.err" <"$in"; pyrc=$?
(cd "$tmp" && timeout 30 "$TFS" run "$FILE" "${args[@]}") >"$tmp/tfs.out" 2>"$tmp/tfs.err" <"$in"; tfsrc=$?
status=0
if ! cmp -s "$tmp/py.out" "$tmp/tfs.out"; then
  echo "stdout differs:"; diff "$tmp/py.out" "$tmp/tfs.out" | head -40; status=1
fi
if [ $pyrc -ne 0 ]; then
  # python's last stderr line is "ExcClass: message"; tfs must name the same
  # class, by its full name or without its module prefix (io.UnsupportedOperation).
  exc="$(tail -1 "$tmp/py.err" | cut -d: -f1)"
  [ $tfsrc -eq 1 ] || { echo "python3 failed ($pyrc) but tfs exited $tfsrc"; status=1; }
  grep -Fq "error: $exc" "$tmp/tfs.err" || grep -Fq "error: ${exc##*.}:" "$tmp/tfs.err" ||
    { echo "tfs stderr lacks 'error: $exc'"; cat "$tmp/tfs.err"; status=1; }
  # tfs reports an error raised inside its library (random, json) at the
  # program's line that called into the library, and one raised in the
  # program's own modules at that module's line: compare with python3's
  # innermost traceback entry in the file tfs names.
  tfsfile="$(grep -m1 ': error: ' "$tmp/tfs.err" | sed -E 's/^(.*\.(tfs|py)):[0-9]+:[0-9]+: error: .*$/\1/')"
  pyline="$(grep -oE '^  File "[^"]*", line [0-9]+' "$tmp/py.err" | grep -F "/$(basename "$tfsfile")\"" | tail -1 | grep -oE '[0-9]+$')"
  tfsline="$(grep -m1 ': error: ' "$tmp/tfs.err" | sed -E 's/^.*\.(tfs|py):([0-9]+):[0-9]+: error: .*$/\2/')"
  [ "$pyline" = "$tfsline" ] || { echo "exception line: python3 $pyline, tfs $tfsline"; status=1; }
elif [ $tfsrc -ne 0 ]; then
  echo "tfs exited $tfsrc"; cat "$tmp/tfs.err"; status=1
fi
exit $status
