#!/usr/bin/env bash
# Runs one fuzz target for a long time: ./scripts/fuzz-long.sh TARGET SECONDS [LIBFUZZER_ARGS...]
# e.g. ./scripts/fuzz-long.sh fuzz_pipeline 1800 -jobs=2 -workers=2
#
# Builds the sanitized build if needed (scripts/sanitize-and-fuzz.sh), then
# fuzzes from the committed corpus plus what earlier long runs found, kept in
# build-sanitize/fuzz-work/TARGET/ (crashing inputs land there too). Prints
# libFuzzer's final stats: executions, coverage (cov: edges, ft: features).
# New inputs worth keeping can be minimized into the committed corpus with
#   build-sanitize/fuzz/TARGET -merge=1 fuzz/corpus/TARGET build-sanitize/fuzz-work/TARGET/corpus
set -euo pipefail
source "$(dirname "$0")/common.sh"
if [ $# -lt 2 ]; then
  echo "usage: $0 fuzz_text_parser|fuzz_yaml_loader|fuzz_pipeline SECONDS [LIBFUZZER_ARGS...]" >&2
  exit 2
fi
target="$1" seconds="$2"
shift 2
[ -d "$FUSERC_ROOT/fuzz/corpus/$target" ] || { echo "error: no fuzz target '$target'" >&2; exit 2; }

fuserc_build_sanitized
fuserc_sanitizer_env
work="$FUSERC_SANITIZE_BUILD/fuzz-work/$target"
mkdir -p "$work/corpus"
dict=()
[ -f "$FUSERC_SANITIZE_BUILD/fuzz/$target.dict" ] && dict=(-dict="$FUSERC_SANITIZE_BUILD/fuzz/$target.dict")
status=0
"$FUSERC_SANITIZE_BUILD/fuzz/$target" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" "$@" \
  "$work/corpus" "$FUSERC_ROOT/fuzz/corpus/$target" 2>&1 | tee "$work/last-run.log" || status=$?
echo "== $target, ${seconds}s (log: $work/last-run.log)"
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE)' "$work/last-run.log" | tail -n 1 || true
grep -E '^stat::' "$work/last-run.log" || true
exit "$status"
