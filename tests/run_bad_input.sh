#!/usr/bin/env bash
# One bad-input script: its `# ERROR: LINE:COL: Class` header names the first
# diagnostic tfs must print ("FILE:LINE:COL: error: Class: ..."); optional
# `# MESSAGE: text` lines must appear in stderr. The exit status must be
# exactly 1 (a clean error: never a signal, a hang or a crash).
# Extra driver flags may be given on a `# ARGS: ...` line.
set -u
TFS="$1"; FILE="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
spec="$(grep -m1 -E '^# ERROR: ' "$FILE" | sed 's/^# ERROR: //')"
[ -n "$spec" ] || { echo "no '# ERROR: LINE:COL: Class' header in $FILE"; exit 1; }
args="$(grep -m1 -E '^# ARGS: ' "$FILE" | sed 's/^# ARGS: //')"
loc="${spec%%: *}"; cls="${spec#*: }"
(cd "$tmp" && timeout 60 "$TFS" run "$FILE" $args) >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
[ $rc -eq 1 ] || { echo "expected exit 1, got $rc"; cat "$tmp/err"; exit 1; }
first="$(grep -m1 ': error: ' "$tmp/err")"
want="$FILE:$loc: error: $cls"
case "$first" in
  "$want"|"$want:"*) ;;
  *) echo "first diagnostic:  $first"; echo "expected prefix:   $want"; exit 1 ;;
esac
status=0
while IFS= read -r msg; do
  grep -Fq -- "$msg" "$tmp/err" || { echo "stderr lacks: $msg"; cat "$tmp/err"; status=1; }
done < <(grep -E '^# MESSAGE: ' "$FILE" | sed 's/^# MESSAGE: //')
exit $status
