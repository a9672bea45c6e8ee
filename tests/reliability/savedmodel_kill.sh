#!/usr/bin/env bash
# SavedModel writes are atomic: a writer killed (SIGKILL) at any moment
# leaves the previous model loadable and intact. Saves model "1", then
# repeatedly starts overwriting it with a large model "k" and kills the
# writer at a different point each time; after every kill the model on disk
# must load and hold either the last complete model or the new one.
set -u
TFS="$1"; HERE="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
model="$tmp/model"
"$TFS" run "$HERE/save_model.tfs" 1 10 "$model" >/dev/null || { echo "initial save failed"; exit 1; }
last=1.0
for k in 2 3 4 5 6 7; do
  "$TFS" run "$HERE/save_model.tfs" "$k" 2000000 "$model" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$((k * 13 % 10))$((k * 7 % 10))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  got="$("$TFS" run "$HERE/load_model.tfs" "$model" 2>&1)" || { echo "after kill $k: model does not load:"; echo "$got"; exit 1; }
  case "$got" in
    "$last") ;;
    "$k.0") last="$k.0" ;;
    *) echo "after kill $k: model holds '$got' (expected $last or $k.0)"; exit 1 ;;
  esac
  echo "kill $k: model holds $got"
done
# A save that is not killed replaces the model.
"$TFS" run "$HERE/save_model.tfs" 9 10 "$model" >/dev/null || exit 1
[ "$("$TFS" run "$HERE/load_model.tfs" "$model")" = "9.0" ] || { echo "final save not visible"; exit 1; }
echo "ok"
