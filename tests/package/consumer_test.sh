#!/usr/bin/env bash
# The installed package from a user's side (ctest package_consumer): copies
# examples/cmake-consumer into WORK, configures and builds it with Ninja
# against the fuserc installed in PREFIX, runs its two programs (they must
# start, find no GPU and skip), and checks what Ninja rebuilds: nothing
# after a build, the fusion's fuserc run after its source is touched, every
# fuserc run after fuserc itself changes.
#
# usage: consumer_test.sh WORK PREFIX CONSUMER_SOURCE STUB_DIR [CMAKE_ARG...]
#   STUB_DIR holds libcuda.so.1, a link to the CUDA driver stub, so the
#   programs start on a machine without a driver.
set -euo pipefail
# The CMake and Ninja to use (ctest passes those of the fuserc build).
cmake=${CMAKE:-cmake}
ninja=${NINJA:-ninja}
work=$1 prefix=$2 consumer=$3 stub_dir=$4
shift 4

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "== $*" >&2; }

rm -rf "$work"
mkdir -p "$work"
cp -R "$consumer" "$work/src"
build=$work/build
out=$build/consumer_kernels_fuserc
# A compile cache of its own: the first build compiles, as on a fresh machine.
export XDG_CACHE_HOME=$work/cache

step "configure against $prefix"
"$cmake" -S "$work/src" -B "$build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" "$@" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring the consumer failed"; }

step "build"
"$ninja" -C "$build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the consumer failed"; }
for name in sgd_update row_softmax; do
  grep -q "fuserc: $name.fus -> " "$work/build.log" || fail "the build did not run fuserc on $name.fus"
  for file in "$name.h" "$name.fatbin" "$name.manifest.json" "$name.dumps/05-segments.txt" \
    "lib$name.so"; do
    [ -s "$out/$file" ] || fail "the build did not write $out/$file"
  done
  # SHARED_LIBRARY: the library exports the launch functions and needs the driver.
  nm -D --defined-only "$out/lib$name.so" | grep -q " ${name}__${name}_launch$" ||
    fail "lib$name.so does not export ${name}__${name}_launch"
  readelf -d "$out/lib$name.so" | grep -q "NEEDED.*libcuda.so.1" || fail "lib$name.so does not need libcuda.so.1"
done
grep -q "^// segments of row_softmax: 1" "$out/row_softmax.dumps/05-segments.txt" ||
  fail "row_softmax.dumps/05-segments.txt is not the segments dump"

step "run the programs (no GPU: they skip)"
for program in sgd_step softmax_rows; do
  output=$(LD_LIBRARY_PATH="$stub_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$build/$program" 2>&1) ||
    fail "$program exited with $?: $output"
  echo "$program: $output"
  grep -q "no CUDA device: skipped" <<<"$output" || fail "$program did not say it skipped"
done

# `ninja -n` lists what a build would run, without running it.
expect_no_work() {
  local plan
  plan=$("$ninja" -C "$build" -n)
  grep -q "ninja: no work to do." <<<"$plan" || fail "$1, ninja would still run:"$'\n'"$plan"
}

step "no-op rebuild"
expect_no_work "after a build"

step "touch sgd_update.fus"
touch "$work/src/sgd_update.fus"
plan=$("$ninja" -C "$build" -n)
grep -q "fuserc: sgd_update.fus -> " <<<"$plan" || fail "touching sgd_update.fus does not re-run fuserc:"$'\n'"$plan"
! grep -q "fuserc: row_softmax.fus -> " <<<"$plan" || fail "touching sgd_update.fus re-runs fuserc on row_softmax.fus"
"$ninja" -C "$build" >"$work/rebuild.log" 2>&1 || { cat "$work/rebuild.log"; fail "the rebuild failed"; }
grep -q "fuserc: sgd_update.fus -> " "$work/rebuild.log" || fail "the rebuild did not run fuserc"
expect_no_work "after the rebuild"

step "depfile"
# CMake hands fuserc's depfile to Ninja (a no-op rebuild above shows that
# Ninja accepts it: its first target is the command's first output).
grep -q "sgd_update.fatbin .*sgd_update.h .*sgd_update.manifest.json: .*/sgd_update.fus" \
  "$out/sgd_update.d" || fail "fuserc's depfile is not as expected: $(cat "$out/sgd_update.d")"

step "a changed fuserc re-runs every fusion"
touch "$prefix/bin/fuserc"
plan=$("$ninja" -C "$build" -n)
for name in sgd_update row_softmax; do
  grep -q "fuserc: $name.fus -> " <<<"$plan" || fail "a newer fuserc does not re-run $name.fus:"$'\n'"$plan"
done
echo "PASS"
