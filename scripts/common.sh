# Shared by the quick-start scripts: installs what is missing and builds.
# Sourced, not run.

FUSERC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUSERC_BUILD="${FUSERC_BUILD:-$FUSERC_ROOT/build}"
FUSERC_PACKAGES=(cmake ninja-build g++ python3 python3-venv llvm-14-dev llvm-14-tools libcli11-dev
                 libyaml-cpp-dev libgtest-dev libdlpack-dev zlib1g-dev libtinfo-dev libz3-dev
                 clang-14 libclang-rt-14-dev)
# The sanitizer and fuzzing build (scripts/sanitize-and-fuzz.sh, fuzz-long.sh).
FUSERC_SANITIZE_BUILD="${FUSERC_SANITIZE_BUILD:-$FUSERC_ROOT/build-sanitize}"

# Installs the Debian packages fuserc builds with, if any is missing.
fuserc_install_dependencies() {
  local missing=()
  for p in "${FUSERC_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  fi
  if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "error: the CUDA toolkit is not installed (expected /usr/local/cuda)" >&2
    return 1
  fi
}

# The virtual environment the Python package's tests install it into
# (python/tests/run.sh): made once, with a setuptools that builds wheels,
# so installing ./python then needs no network.
fuserc_python_venv() {
  local venv=$1
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import setuptools.command.bdist_wheel" \
    2>/dev/null && return 0
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip --disable-pip-version-check -q install "setuptools>=70.1"
}

# Configures (once) and builds every target.
fuserc_build() {
  local cuda_root=/usr/local/cuda
  command -v nvcc >/dev/null && cuda_root="$(dirname "$(dirname "$(command -v nvcc)")")"
  if [ ! -f "$FUSERC_BUILD/build.ninja" ]; then
    cmake -S "$FUSERC_ROOT" -B "$FUSERC_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCUDAToolkit_ROOT="$cuda_root"
  fi
  cmake --build "$FUSERC_BUILD"
}

# Configures (once) and builds, with Clang, ASan and UBSan, what the
# sanitized tests and the fuzzers need: fuserc and the tools and plugins the
# lit tests run, the unit tests, and the fuzz targets. -O1 keeps it fast
# enough to fuzz; assertions stay on.
fuserc_build_sanitized() {
  if [ ! -f "$FUSERC_SANITIZE_BUILD/build.ninja" ]; then
    cmake -S "$FUSERC_ROOT" -B "$FUSERC_SANITIZE_BUILD" -G Ninja \
      -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
      -DFUSERC_SANITIZE=address,undefined -DFUSERC_FUZZ=ON
  fi
  cmake --build "$FUSERC_SANITIZE_BUILD" --target fuserc_test_deps fuserc_unit_tests fuserc_fuzzers
}

# Sanitizer options for everything run from the sanitized build. Reports
# abort (a signal, not exit 1), so `not` and `%expect-exit 1` in the lit
# tests cannot mistake one for an expected input error. LeakSanitizer skips
# the leaks of uninstrumented third-party libraries listed in lsan.supp.
fuserc_sanitizer_env() {
  export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
  export LSAN_OPTIONS="suppressions=$FUSERC_ROOT/tests/sanitizers/lsan.supp:print_suppressions=0"
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-14/bin/llvm-symbolizer
}
