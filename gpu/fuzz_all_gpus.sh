#!/usr/bin/env bash
# The differential fuzzer on every GPU of the machine at once: one
# gpu/fuzz_diff.py per GPU (CUDA_VISIBLE_DEVICES), each with its share of
# the host's cores and its own range of fresh seeds; the first GPU runs the
# regression seeds (gpu/fuzz_regression_seeds.txt) first. Results are
# packed into one archive, OUT/fuzz.tgz (the GPU machine returns few files),
# and each GPU's summary is printed.
#
# Usage (repository root, on the GPU machine, .carry as in gpu/README.md):
#   gpu/fuzz_all_gpus.sh OUT FIRST_SEED SEEDS_PER_GPU DEADLINE_S
# FUZZ_EXTRA adds arguments to every fuzz_diff.py (e.g. --dry-run, to try
# the script where there is no GPU but nvidia-smi); FUZZ_GPUS=N uses only
# the first N GPUs (the others left to other work, with their share of
# the cores).
set -euo pipefail

out=$1 first=$2 per_gpu=$3 deadline=$4
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${FUSERC_BIN:-$root/.carry/bin}"
include="${DLPACK_INCLUDE:-$root/.carry/include}"
all_gpus=$(nvidia-smi -L | wc -l)
gpus=${FUZZ_GPUS:-$all_gpus}
((gpus >= 1 && gpus <= all_gpus)) || gpus=$all_gpus
jobs=$(($(nproc) / all_gpus - 1))
((jobs >= 1)) || jobs=1
regressions=$(sed 's/#.*//' "$root/gpu/fuzz_regression_seeds.txt" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')

mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >"$out/gpus.txt"
echo "$gpus GPUs, $(nproc) cores, $jobs jobs per GPU"
for ((g = 0; g < gpus; g++)); do
  start=$((first + g * per_gpu))
  seeds="$start:$((start + per_gpu))"
  ((g == 0)) && [ -n "$regressions" ] && seeds="$regressions,$seeds"
  mkdir -p "$out/gpu$g"
  CUDA_VISIBLE_DEVICES=$g PYTHONUNBUFFERED=1 python3 "$root/gpu/fuzz_diff.py" \
    --fuserc "$bin/fuserc" --interp "$bin/fuserc-interp" --fuzzgen "$bin/fuserc-fuzzgen" \
    --dlpack-include "$include" --seeds "$seeds" --out "$out/gpu$g" --work "/tmp/fuserc-fuzz$g" \
    --jobs "$jobs" --deadline "$deadline" --min-seconds 40 --min-checks 60 ${FUZZ_EXTRA:-} \
    >"$out/gpu$g/log.txt" 2>&1 &
done
wait
for ((g = 0; g < gpus; g++)); do
  echo "== GPU $g"
  head -6 "$out/gpu$g/summary.txt" 2>/dev/null || tail -5 "$out/gpu$g/log.txt"
  grep -h -A4 "^minimized seed" "$out/gpu$g/log.txt" || true
done
(cd "$out" && tar -czf fuzz.tgz gpu* && rm -rf gpu[0-9]*)
