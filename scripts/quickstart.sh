#!/usr/bin/env bash
# Quick start: installs what is missing, builds fuserc, and runs it on an
# example fusion (printing the IR it parsed).
set -euo pipefail
source "$(dirname "$0")/common.sh"
fuserc_install_dependencies
fuserc_build
echo "== fuserc examples/softmax.fus --dump=parsed"
"$FUSERC_BUILD/cli/fuserc" "$FUSERC_ROOT/examples/softmax.fus" --dump=parsed
