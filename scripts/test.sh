#!/usr/bin/env bash
# Installs what is missing, builds fuserc, and runs every test (unit tests,
# lit golden/diagnostic tests, generated-docs check) through ctest; then the
# unit and lit tests again under ASan+UBSan, and each fuzz target briefly
# (scripts/sanitize-and-fuzz.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
fuserc_install_dependencies
fuserc_build
cd "$FUSERC_BUILD"
ctest --output-on-failure -j "$(nproc)"
"$FUSERC_ROOT/scripts/sanitize-and-fuzz.sh"
