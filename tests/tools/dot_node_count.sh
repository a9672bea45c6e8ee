#!/usr/bin/env bash
# --emit=dot draws what --emit=graph prints: for each program, the Graphviz
# text is rendered with `dot -Tsvg` (Debian's graphviz), and the SVG's op
# nodes, parameters and region arguments are counted against the nodes,
# parameters and block arguments of the printed IR.
# Usage: dot_node_count.sh TFS PROGRAM...
set -u
TFS="$1"; shift
command -v dot >/dev/null || { echo "graphviz's dot is not installed: skipping"; exit 77; }
PY=/usr/bin/python3
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
status=0; checked=0
for p in "$@"; do
  [ -f "$p" ] || continue
  dir="$(dirname "$p")"; base="$(basename "$p")"
  stdin=/dev/null; [ -f "${p%.tfs}.stdin" ] && stdin="${p%.tfs}.stdin"
  # Programs run in a scratch directory (some write files).
  rm -rf "$tmp/cwd"; mkdir -p "$tmp/cwd"; cp -r "$dir"/. "$tmp/cwd/" 2>/dev/null
  (cd "$tmp/cwd" && "$TFS" run "$base" --emit=graph -o "$tmp/g.txt" >/dev/null 2>&1 <"$stdin")
  (cd "$tmp/cwd" && "$TFS" run "$base" --emit=dot -o "$tmp/g.dot" >/dev/null 2>&1 <"$stdin")
  [ -s "$tmp/g.dot" ] || continue   # traced nothing (or failed before tracing)
  if ! dot -Tsvg <"$tmp/g.dot" >"$tmp/g.svg" 2>"$tmp/dot.err"; then
    echo "FAIL $p: dot could not render --emit=dot:"; cat "$tmp/dot.err"; status=1; continue
  fi
  counts="$("$PY" - "$tmp/g.txt" "$tmp/g.svg" <<'PY'
import re, sys
ir = open(sys.argv[1]).read()
svg = open(sys.argv[2]).read()
ops = params = args = 0
for line in ir.splitlines():
    s = line.strip()
    if not s or s.startswith('//'):
        continue
    if s.startswith('func @'):
        head = s.split(')')[0]
        params += len(re.findall(r'%[\w.]+:', head))
        continue
    if s == '}' :
        continue
    if s.startswith('}'):           # } else {   } body(%i: ...) {
        args += len(re.findall(r'%[\w.]+:', s))
        continue
    ops += 1
    m = re.search(r'\bcond\((.*)\)\s*\{$', s)   # while_loop ... cond(%i: T) {
    if m:
        args += len(re.findall(r'%[\w.]+:', m.group(1)))
print(ops, params, args,
      svg.count('class="node op"'), svg.count('class="node param"'),
      svg.count('class="node blockarg"'))
PY
)"
  read -r ops params args sops sparams sargs <<<"$counts"
  checked=$((checked + 1))
  if [ "$ops" != "$sops" ] || [ "$params" != "$sparams" ] || [ "$args" != "$sargs" ]; then
    echo "FAIL $p: IR has $ops nodes, $params params, $args block args; SVG has $sops, $sparams, $sargs"
    status=1
  else
    echo "ok $p: $ops nodes"
  fi
done
[ $checked -gt 0 ] || { echo "no program traced a graph"; exit 1; }
exit $status
