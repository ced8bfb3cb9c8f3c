#!/usr/bin/env bash
# Compiles every example, bench case and GPU case with `fuserc -o` and prints
# one SHA-256 per output file (header, fatbin, manifest), sorted: a refactor
# that must not change what fuserc generates diffs two of these listings.
#   scripts/output-digests.sh [FUSERC] > digests.txt
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fuserc="${1:-$root/build/cli/fuserc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for src in "$root"/examples/*.fus "$root"/examples/*.yaml "$root"/bench/cases/* "$root"/gpu/cases/*; do
  rel="${src#"$root"/}"
  out="$work/$(echo "$rel" | tr '/.' '__')"
  if ! "$fuserc" "$src" -o "$out" >/dev/null 2>"$work/err"; then
    echo "FAILED $rel: $(head -c 300 "$work/err")"
    continue
  fi
  (cd "$out" && sha256sum -- *) | sed "s|  |  $rel/|"
done
