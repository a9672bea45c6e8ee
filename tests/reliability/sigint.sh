#!/usr/bin/env bash
# Ctrl-C (SIGINT) stops a run with "KeyboardInterrupt" and exit status 130:
# in interpreted Python code, and in a compiled graph loop that never
# returns to the interpreter (the 2 s watchdog).
set -u
TFS="$1"; HERE="$(cd "$(dirname "$0")" && pwd)"
status=0
for script in sigint_loop.tfs sigint_graph_loop.tfs; do
  for backend in jit interp; do
    err="$(mktemp)"
    "$TFS" run "$HERE/$script" --backend=$backend 2>"$err" &
    pid=$!
    sleep 0.7
    kill -INT "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "$script/$backend: still running 5 s after SIGINT"; kill -9 "$pid"; status=1
    fi
    wait "$pid"; rc=$?
    [ $rc -eq 130 ] || { echo "$script/$backend: exit $rc, expected 130"; status=1; }
    grep -q "KeyboardInterrupt" "$err" || { echo "$script/$backend: no KeyboardInterrupt message"; cat "$err"; status=1; }
    rm -f "$err"
  done
done
[ $status -eq 0 ] && echo ok
exit $status
