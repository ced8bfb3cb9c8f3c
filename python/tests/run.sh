#!/usr/bin/env bash
# ctest python_package: the Python package as a user gets it. Installs
# python/ into a virtual environment (scripts/common.sh, fuserc_python_venv;
# made once), builds its wheel, then runs python/tests/test_*.py against the
# installed copy with FUSERC (the fuserc under test) and the toolkit's driver
# stub as libcuda.so.1, so the generated libraries load without a GPU.
#
# usage: run.sh FUSERC CUDA_DRIVER_STUB WORK VENV
set -euo pipefail
fuserc=$1 stub=$2 work=$3 venv=$4
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/common.sh"
fuserc_python_venv "$venv"

rm -rf "$work" && mkdir -p "$work/stub"
ln -s "$stub" "$work/stub/libcuda.so.1"
# A copy, so that setuptools' build files stay out of the source tree.
cp -R "$here/.." "$work/src"
rm -rf "$work/src/tests"
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install --no-index --no-build-isolation --no-deps --force-reinstall "$work/src"
"${pip[@]}" wheel --no-index --no-build-isolation --no-deps -w "$work/wheel" "$work/src"
test -s "$work/wheel/fuserc-0.1.0-py3-none-any.whl"
cd "$work"
"$venv/bin/python" -c "import fuserc, sys; assert fuserc.__file__.startswith(sys.prefix), fuserc.__file__"
# fuserc.testing links its libraries against the stub too (test_testing.py).
FUSERC=$fuserc FUSERC_CUDA_STUBS=$(dirname "$stub") LD_LIBRARY_PATH="$work/stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  XDG_CACHE_HOME="$work/cache" "$venv/bin/python" -m unittest discover -s "$here" -p "test_*.py" -v
