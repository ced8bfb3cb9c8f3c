# Shared by the quick-start scripts: installs what is missing and builds.
# Sourced, not run.

FUSERC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FUSERC_BUILD="${FUSERC_BUILD:-$FUSERC_ROOT/build}"
FUSERC_PACKAGES=(cmake ninja-build g++ python3 llvm-14-dev llvm-14-tools libcli11-dev
                 libyaml-cpp-dev libgtest-dev libdlpack-dev zlib1g-dev libtinfo-dev libz3-dev)

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
