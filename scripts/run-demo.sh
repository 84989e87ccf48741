#!/usr/bin/env bash
# Installs what is missing, builds, and runs the demo.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh" clang "$here/build"
"$here/build/examples/demo/tcpu_demo"
