#!/usr/bin/env bash
# The command line as a user meets it: -c, -, a script on stdin, --version,
# --emit going to stderr or -o (never into the program's stdout), --profile
# and --time reports, `tfs graph`, usage errors, and the bash completion
# knowing every option of --help. Usage: cli.sh TFS SOURCE_DIR
set -u
TFS="$1"; SRC="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
check() {  # check NAME COMMAND... : the command must succeed
  local name="$1"; shift
  if ! "$@" >"$tmp/log" 2>&1; then echo "FAIL $name"; cat "$tmp/log"; fail=1; else echo "ok $name"; fi
}
cat >prog.tfs <<'P'
import tensorflow as tf
@tf.function
def step(w, x):
    return tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)))
w = tf.ones([4, 4])
print(float(step(w, tf.ones([2, 4]))))
print(float(step(w, tf.ones([3, 4]))))
P

check "-c runs code" bash -c "[ \"\$('$TFS' -c 'print(6 * 7)')\" = 42 ]"
check "-c sets sys.argv" bash -c "[ \"\$('$TFS' -c 'import sys; print(sys.argv)' a b)\" = \"['-c', 'a', 'b']\" ]"
check "- reads stdin" bash -c "[ \"\$(echo 'import sys; print(sys.argv)' | '$TFS' - x)\" = \"['-', 'x']\" ]"
check "piped stdin without a script" bash -c "[ \"\$(echo 'print(1 + 1)' | '$TFS')\" = 2 ]"
check "--version names commit, LLVM, TF" bash -c "'$TFS' --version | grep -q 'commit' && '$TFS' --version | grep -q '^LLVM 14' && '$TFS' --version | grep -q 'TensorFlow 2.15'"
"$TFS" run prog.tfs >plain.out 2>plain.err
check "--emit keeps stdout the program's" bash -c "'$TFS' run prog.tfs --emit=graph >emit.out 2>emit.err && cmp plain.out emit.out && grep -q '^func @step' emit.err"
check "-o writes the emit output to a file" bash -c "'$TFS' run prog.tfs --emit=graph-opt -o g.txt >o.out 2>o.err && cmp plain.out o.out && grep -q '^func @step' g.txt && ! grep -q func o.err"
check "--emit=dot renders" bash -c "'$TFS' run prog.tfs --emit=dot -o g.dot >/dev/null && dot -Tsvg <g.dot >g.svg && grep -q 'class=\"node op\"' g.svg"
check "--profile table" bash -c "'$TFS' run prog.tfs --profile >/dev/null 2>p.err && grep -q '^tf.function step, trace 1 (compiled): 1 call,' p.err && grep -q '^tf.function step, trace 2 (compiled): 1 call,' p.err && grep -qE '^  \(native code\) +1 ' p.err && grep -q 'where the time went' p.err"
check "--profile on the interpreter" bash -c "'$TFS' run prog.tfs --profile --backend=interp >/dev/null 2>p2.err && grep -q '^tf.function step, trace 2 (graph interpreter): 1 call,' p2.err && grep -qE '^  relu +prog.tfs:4 +1 ' p2.err"
check "--time phases" bash -c "'$TFS' run prog.tfs --time >/dev/null 2>t.err && for p in parse convert trace optimize compile run total; do grep -qE \"^  \$p \" t.err || exit 1; done"
check "tfs graph draws an SVG" bash -c "'$TFS' graph prog.tfs -o pic.svg >/dev/null 2>/dev/null && grep -q '<svg' pic.svg && [ \$(grep -c 'class=\"cluster\"' pic.svg) -ge 2 ]"
check "tfs graph writes .dot text" bash -c "'$TFS' graph prog.tfs -o pic.dot >/dev/null 2>/dev/null && head -1 pic.dot | grep -q '^digraph tfs'"
check "usage error is status 2" bash -c "'$TFS' --emit=nope prog.tfs 2>/dev/null; [ \$? -eq 2 ]"
check "completion knows every option" bash -c "for o in \$('$TFS' --help | grep -oE '(^| )--?[a-z][a-z-]*' | sort -u); do grep -qe \"\$o\" '$SRC/tools/completion/tfs.bash' || { echo \"not in completion: \$o\"; exit 1; }; done"
exit $fail
