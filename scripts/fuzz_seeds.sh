# Sourced by scripts/fuzz.sh and scripts/fuzz_replay.sh: the seed inputs each
# fuzz target starts from, gathered at run time from the test folders.
#   fuzz_seeds ROOT TARGET DIR   copies TARGET's seeds into DIR
fuzz_seeds() {
  local root=$1 target=$2 dir=$3 f
  mkdir -p "$dir"
  case $target in
    fuzz_parser|fuzz_interpreter)
      find "$root/tests/golden" "$root/samples" "$root/tests/differential" "$root/tests/autograph" \
           "$root/tests/bad_input" "$root/tests/programs" -name '*.tfs' -size -64k 2>/dev/null |
        while read -r f; do
          cp "$f" "$dir/$(echo "${f#"$root"/}" | tr / _)"
        done ;;
    fuzz_ir_text)
      for f in "$root"/tests/golden/ir/*.ir; do cp "$f" "$dir/"; done ;;
    fuzz_saved_model)
      # Each IR golden's input function as a model with no variables.
      for f in "$root"/tests/golden/ir/*.ir; do
        { sed '/^\/\/ EXPECTED/,$d' "$f"; echo "=== variables.txt"; } > "$dir/$(basename "$f")"
      done ;;
  esac
}
