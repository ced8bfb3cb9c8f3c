#!/usr/bin/env bash
# Builds fuserc, fuserc-interp and fuserc-fuzzgen (the differential fuzzer's
# generator, gpu/fuzz_diff.py) to run on the GPU test machine, which has
# the CUDA toolkit but not the Debian packages fuserc builds with: yaml-cpp
# and the C++ runtime are linked statically (FUSERC_PORTABLE_TOOLS=ON), and
# every other shared library they still need, except glibc's and CUDA's, is
# copied next to them (they look there first: RPATH $ORIGIN, then
# /usr/local/cuda/lib64 for libnvrtc).
#
# Usage: scripts/build-device-tools.sh [BUILD_DIR]     (default: build-device)
# Result: BUILD_DIR/bin/{fuserc,fuserc-interp,fuserc-fuzzgen,lib*.so.*} and the example
# scheduler plugin (libfuserc_example_plugin.so, for gpu/cases/plugin_f32.fus), a directory to
# carry to the GPU machine as it is (e.g. copied to .carry/bin).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-device}"
cuda_root=/usr/local/cuda
command -v nvcc >/dev/null && cuda_root="$(dirname "$(dirname "$(command -v nvcc)")")"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCUDAToolkit_ROOT="$cuda_root" -DFUSERC_PORTABLE_TOOLS=ON
cmake --build "$build" --target fuserc fuserc-interp fuserc-fuzzgen fuserc_example_plugin -- -j "${JOBS:-$(nproc)}"

bin="$build/bin"
rm -rf "$bin"
mkdir -p "$bin"
cp "$build/cli/fuserc" "$build/tools/fuserc-interp" "$build/fuzz/fuserc-fuzzgen" \
  "$build/plugins/libfuserc_example_plugin.so" "$bin/"
strip --strip-unneeded "$bin/fuserc" "$bin/fuserc-interp" "$bin/fuserc-fuzzgen"

# The shared libraries still needed, but for glibc's and CUDA's.
for exe in "$bin/fuserc" "$bin/fuserc-interp" "$bin/fuserc-fuzzgen"; do
  ldd "$exe" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
    while read -r soname path; do
      case "$soname" in
        libc.so.* | libm.so.* | libdl.so.* | librt.so.* | libpthread.so.* | ld-linux*) ;;
        libnvrtc* | libcuda.so.*) ;;
        *) [ -e "$bin/$soname" ] || cp -L "$path" "$bin/$soname" ;;
      esac
    done
done

echo "== $bin ($(du -sh "$bin" | cut -f1)):"
ls -l "$bin"
for exe in "$bin/fuserc" "$bin/fuserc-interp" "$bin/fuserc-fuzzgen"; do
  echo "== ldd $(basename "$exe"):"
  ldd "$exe"
done
