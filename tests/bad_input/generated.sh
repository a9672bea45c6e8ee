#!/usr/bin/env bash
# Bad inputs that cannot be checked in as text: binary and non-UTF-8 files,
# an empty file, a 10 MB line, pathological nesting, a missing file. Each case
# is generated into a temporary directory and must end with the expected exit
# status (never a signal: status >= 128 means tfs crashed or was killed) and
# the expected first diagnostic. Usage: bash generated.sh /path/to/tfs
set -u
TFS="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failures=0

# expect NAME WANT_RC STDERR_REGEX [STDOUT_EXACT]
# Runs `tfs run NAME` (NAME relative to $tmp); STDERR_REGEX must match the
# first line of stderr ('' = stderr must be empty).
expect() {
  local name="$1" want="$2" regex="$3" stdout="${4-}"
  timeout 60 "$TFS" run "$name" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  local first; first="$(head -n 1 "$tmp/err")"
  local ok=1
  if [ $rc -ge 124 ]; then
    echo "FAIL $name: exit $rc (crash, signal or timeout)"; ok=0
  elif [ $rc -ne "$want" ]; then
    echo "FAIL $name: exit $rc, expected $want"; ok=0
  fi
  if [ -z "$regex" ]; then
    [ -s "$tmp/err" ] && { echo "FAIL $name: unexpected stderr"; ok=0; }
  elif ! printf '%s\n' "$first" | grep -Eq -- "$regex"; then
    echo "FAIL $name: first stderr line does not match /$regex/"; ok=0
  fi
  if [ $# -ge 4 ] && [ "$(cat "$tmp/out")" != "$stdout" ]; then
    echo "FAIL $name: stdout differs from '$stdout'"; ok=0
  fi
  if [ $ok -eq 0 ]; then
    head -c 2000 "$tmp/err"; echo
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# Binary: fixed bytes with a NUL and invalid UTF-8 on line 2, then 4 KB of
# random bytes. CPython rejects both before tokenizing, at column 1.
printf 'x = 1\n\x00\xff\xfe\x01garbage\n' > binary_fixed.tfs
expect binary_fixed.tfs 1 '^binary_fixed\.tfs:2:1: error: SyntaxError: source code cannot contain null bytes$'
head -c 4096 /dev/urandom > binary_random.tfs
expect binary_random.tfs 1 '^binary_random\.tfs:[0-9]+:1: error: SyntaxError: '

# Non-UTF-8 text (Latin-1 é in a string), as CPython reports it.
printf 'x = 1\ns = "caf\xe9"\nprint(s)\n' > latin1.tfs
expect latin1.tfs 1 "^latin1\.tfs:2:1: error: SyntaxError: Non-UTF-8 code starting with '\\\\xe9' in file latin1\.tfs on line 2"

# Empty and blank files run like python: exit 0, no output.
: > empty.tfs
expect empty.tfs 0 '' ''
printf '\n\n# only a comment\n\n' > blank.tfs
expect blank.tfs 0 '' ''

# A single 10 MB line: a string literal runs; a 10 MB expression stops at
# tfs's statement-size limit with a clean SyntaxError (not memory exhaustion).
{ printf 's = "'; head -c 10000000 /dev/zero | tr '\0' a; printf '"\nprint(len(s))\n'; } > long_string.tfs
expect long_string.tfs 0 '' '10000000'
{ printf 'x = 1'; head -c 10000000 /dev/zero | tr '\0' '\n' | head -n 2500000 | tr '\n' '+' | sed 's/+/ + 1/g'; printf '\n'; } > long_expr.tfs
expect long_expr.tfs 1 '^long_expr\.tfs:1:[0-9]+: error: SyntaxError: statement too long'

# Deep nesting: brackets stop at CPython's limit of 200 (no stack overflow).
{ printf 'x = '; head -c 10000 /dev/zero | tr '\0' '('; printf 1; head -c 10000 /dev/zero | tr '\0' ')'; printf '\n'; } > parens.tfs
expect parens.tfs 1 '^parens\.tfs:1:205: error: SyntaxError: too many nested parentheses$'
{ printf 'x = '; head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; printf '\n'; } > lists.tfs
expect lists.tfs 1 '^lists\.tfs:1:205: error: SyntaxError: too many nested parentheses$'
# 100,000 unary minus signs and 100,000 chained attribute lookups: too deep
# to compile, as in CPython.
{ printf 'x = '; head -c 100000 /dev/zero | tr '\0' '-'; printf '1\n'; } > unary.tfs
expect unary.tfs 1 '^unary\.tfs:1:[0-9]+: error: RecursionError: maximum recursion depth exceeded during compilation$'
{ printf 'class A:\n    pass\na = A()\na.b = a\nx = a'; head -c 100000 /dev/zero | tr '\0' '\n' | sed 's/^/.b/' | tr -d '\n'; printf '\n'; } > attrs.tfs
expect attrs.tfs 1 '^attrs\.tfs:5:[0-9]+: error: RecursionError: maximum recursion depth exceeded during compilation$'

# A 1,000-deep nested if: CPython's indentation limit is 100 levels.
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%*sif True:\n", i, ""; printf "%*sx = 1\n", 1000, "" }' > deep_if.tfs
expect deep_if.tfs 1 '^deep_if\.tfs:101:101: error: IndentationError: too many levels of indentation$'
# 95 nested defs, each calling the next (was exponential in the closure analysis).
awk 'BEGIN { n = 95; for (i = 0; i < n; i++) printf "%*sdef f%d():\n", 4 * i, "", i;
             printf "%*sreturn 1\n", 4 * n, "";
             for (i = n - 1; i > 0; i--) printf "%*sreturn f%d()\n", 4 * i, "", i;
             print "print(f0())" }' > deep_defs.tfs
expect deep_defs.tfs 0 '' '1'
# A 100,000-long comparison chain (was quadratic in the AST builder).
{ printf 'x = 1'; head -c 100000 /dev/zero | tr '\0' '\n' | sed 's/^/ < 2/' | tr -d '\n'; printf '\nprint(x)\n'; } > compare_chain.tfs
expect compare_chain.tfs 0 '' 'False'

# A file that does not exist: like `python3 missing.py`, a usage error
# (status 2) naming the file.
expect missing.tfs 2 "^tfs: error: can't open file 'missing\.tfs': No such file or directory$"
# A directory given as the script.
mkdir adir.tfs
expect adir.tfs 2 "^tfs: error: can't open file 'adir\.tfs': Is a directory$"

[ $failures -eq 0 ] || { echo "$failures generated case(s) failed"; exit 1; }
