#!/usr/bin/env bash
# `cmake --install` puts tfs, its man page (from --help) and bash completion
# under a prefix, and the installed tfs runs. Usage: install.sh BUILD_DIR
set -u
BUILD="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
fail=0
for f in bin/tfs share/man/man1/tfs.1 share/bash-completion/completions/tfs; do
  [ -f "$tmp/prefix/$f" ] || { echo "not installed: $f"; fail=1; }
done
[ $fail -eq 0 ] || exit 1
grep -q '^\.TH TFS "1"' "$tmp/prefix/share/man/man1/tfs.1" || { echo "man page header missing"; exit 1; }
grep -q 'emit' "$tmp/prefix/share/man/man1/tfs.1" || { echo "man page lacks the options"; exit 1; }
out="$("$tmp/prefix/bin/tfs" -c 'import tensorflow as tf; print(tf.constant(2) * 3)')"
[ "$out" = "tf.Tensor(6, shape=(), dtype=int32)" ] || { echo "installed tfs printed: $out"; exit 1; }
bash -c "source '$tmp/prefix/share/bash-completion/completions/tfs' && complete -p tfs" >/dev/null ||
  { echo "completion does not load"; exit 1; }
echo "installed and ran"
