#!/usr/bin/env bash
# Quick start: installs what is missing, builds fuserc, and runs the main job
# on an example fusion: `fuserc FILE -o DIR` writes the header, fatbin and
# manifest of its kernels (here into build/kernels/).
set -euo pipefail
source "$(dirname "$0")/common.sh"
fuserc_install_dependencies
fuserc_build
echo "== fuserc examples/sgd_update.fus -o $FUSERC_BUILD/kernels -v"
"$FUSERC_BUILD/cli/fuserc" "$FUSERC_ROOT/examples/sgd_update.fus" -o "$FUSERC_BUILD/kernels" -v
ls -l "$FUSERC_BUILD/kernels"
