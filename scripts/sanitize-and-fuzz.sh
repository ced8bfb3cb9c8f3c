#!/usr/bin/env bash
# The sanitizer half of the tests (called by test.sh): builds fuserc with
# Clang, AddressSanitizer and UndefinedBehaviorSanitizer in its own build
# directory (build-sanitize/), runs the unit and lit tests there, then runs
# each libFuzzer target of fuzz/ briefly from its committed corpus. Any
# sanitizer report, crash, leak or hang fails it.
#
#   FUSERC_FUZZ_SECONDS   seconds per fuzz target (default 45; 0 skips fuzzing)
#   FUSERC_SANITIZE_BUILD the build directory (default build-sanitize)
set -euo pipefail
source "$(dirname "$0")/common.sh"
seconds="${FUSERC_FUZZ_SECONDS:-45}"

echo "== sanitized build ($FUSERC_SANITIZE_BUILD)"
fuserc_build_sanitized
fuserc_sanitizer_env

echo "== unit tests under ASan+UBSan"
"$FUSERC_SANITIZE_BUILD/tests/fuserc_unit_tests" --gtest_brief=1

echo "== lit tests under ASan+UBSan"
python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv "$FUSERC_SANITIZE_BUILD/tests/lit"

[ "$seconds" -gt 0 ] || exit 0
# The corpus is copied so that what a short run finds stays out of the tree;
# a crashing input is kept in build-sanitize/fuzz-artifacts/.
artifacts="$FUSERC_SANITIZE_BUILD/fuzz-artifacts"
mkdir -p "$artifacts"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for target in fuzz_text_parser fuzz_yaml_loader fuzz_pipeline; do
  echo "== $target for ${seconds}s"
  mkdir -p "$work/$target"
  cp "$FUSERC_ROOT/fuzz/corpus/$target/"* "$work/$target/"
  dict=()
  [ -f "$FUSERC_SANITIZE_BUILD/fuzz/$target.dict" ] && dict=(-dict="$FUSERC_SANITIZE_BUILD/fuzz/$target.dict")
  if ! "$FUSERC_SANITIZE_BUILD/fuzz/$target" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/$target-" \
      "$work/$target" > "$work/$target.log" 2>&1; then
    tail -n 80 "$work/$target.log"
    echo "error: $target failed; the input is in $artifacts/ (rerun: $FUSERC_SANITIZE_BUILD/fuzz/$target FILE)" >&2
    exit 1
  fi
  grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::new_units_added)' "$work/$target.log"
done
