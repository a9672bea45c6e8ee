#!/usr/bin/env bash
# Runs the `# RUN:` lines of one golden file, lit-style: %tfs is the driver,
# %s the file, %S its directory, %FileCheck LLVM's FileCheck; `not CMD`
# expects failure (exit 1).
set -u
TFS="$1"; FILECHECK="$2"; FILE="$3"
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$(dirname "$FILE")"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r line; do
  cmd="${line#*RUN:}"
  cmd="${cmd//%tfs/$TFS}"; cmd="${cmd//%FileCheck/$FILECHECK}"
  cmd="${cmd//%S/$(cd "$(dirname "$FILE")" && pwd)}"
  cmd="${cmd//%s/$FILE}"; cmd="${cmd//%t/$tmp/t}"
  cmd="${cmd//not /$HERE/not.sh }"
  n=$((n + 1))
  if ! (set -o pipefail; cd "$tmp" && eval "$cmd"); then
    echo "FAILED RUN line $n: $cmd" >&2
    exit 1
  fi
done < <(grep -E '^#[[:space:]]*RUN:' "$FILE")
[ $n -gt 0 ] || { echo "no RUN lines in $FILE" >&2; exit 1; }
