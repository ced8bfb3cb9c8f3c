#!/usr/bin/env bash
# fuserc built inside another project (ctest package_add_subdirectory):
# configures examples/cmake-consumer with FUSERC_SOURCE_DIR, so that it
# add_subdirectory()s fuserc's source tree, and checks the build plan
# without building it (that would compile all of fuserc, minutes): the
# fuserc_add_kernels() runs use the in-tree fuserc (fuserc::fuserc), which
# the plan links first, and fuserc's tests are left out.
#
# usage: subdirectory_test.sh WORK CONSUMER_SOURCE FUSERC_SOURCE [CMAKE_ARG...]
set -euo pipefail
# The CMake and Ninja to use (ctest passes those of the fuserc build).
cmake=${CMAKE:-cmake}
ninja=${NINJA:-ninja}
work=$1 consumer=$2 fuserc_source=$3
shift 3

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
"$cmake" -S "$consumer" -B "$work" -G Ninja -DFUSERC_SOURCE_DIR="$fuserc_source" "$@" \
  >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configuring failed"; }
# Every command that building the two programs takes, in a valid order
# (`ninja -n` would stop at re-checking fuserc's CONFIGURE_DEPENDS globs).
plan=$("$ninja" -C "$work" -t commands sgd_step softmax_rows)
fuserc="$work/fuserc/cli/fuserc"
link_line=$(grep -n -m1 -- " -o fuserc/cli/fuserc " <<<"$plan" | cut -d: -f1) ||
  fail "the plan does not link fuserc:"$'\n'"$plan"
for name in sgd_update row_softmax; do
  run_line=$(grep -n -m1 -F "$fuserc $consumer/$name.fus -o " <<<"$plan" | cut -d: -f1) ||
    fail "the plan does not run the in-tree fuserc on $name.fus:"$'\n'"$plan"
  [ "$run_line" -gt "$link_line" ] || fail "the plan runs fuserc on $name.fus before linking it"
done
# fuserc's own tests are not part of a project that includes it.
[ ! -e "$work/fuserc/tests" ] || fail "fuserc's tests are configured in a project that includes it"
echo "PASS"
