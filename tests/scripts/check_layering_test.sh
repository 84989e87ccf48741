#!/usr/bin/env bash
# scripts/checks/check-layering.sh passes on the tree, and fails on a copy of it with one include
# that crosses the layering injected, for each kind of crossing it knows.
#   tests/scripts/check_layering_test.sh [source-dir]
set -euo pipefail
source_dir="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
check="$source_dir/scripts/checks/check-layering.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$check" "$source_dir"

# expect_failure <file> <include line> <text the report must hold>
failures=0
expect_failure() {
  local copy="$work/tree"
  rm -rf "$copy"
  mkdir -p "$copy/python"
  cp -R "$source_dir/runtime" "$source_dir/codegen" "$source_dir/kernels" "$source_dir/tools" "$copy/"
  cp -R "$source_dir/python/src" "$source_dir/python/tcpu" "$copy/python/"
  printf '%s\n' "$2" >>"$copy/$1"
  if "$check" "$copy" >"$work/out" 2>&1; then
    echo "FAIL: check-layering passed with '$2' in $1" >&2
    failures=$((failures + 1))
  elif ! grep -qF -- "$3" "$work/out"; then
    echo "FAIL: check-layering failed on '$2' in $1 without saying '$3':" >&2
    cat "$work/out" >&2
    failures=$((failures + 1))
  else
    echo "ok: '$2' in $1: $(grep -F -- "$3" "$work/out" | head -1)"
  fi
}

expect_failure runtime/src/state/stream.cpp '#include "tcpu/codegen.h"' 'runtime may not include codegen'
expect_failure runtime/src/launch/grid_runner.cpp '#include "formats/npy.hpp"' 'runtime may not include tools'
expect_failure codegen/src/jit/jit_engine.cpp '#include "cli/commands.hpp"' 'codegen may not include tools'
expect_failure codegen/src/support/debug_log.cpp '#include <arg_codes.hpp>' 'codegen may not include python'
expect_failure python/src/module.cpp '#include "run/runtime_session.hpp"' 'python may not include tools'
expect_failure kernels/include/tcpu/tl.h '#include "tcpu/codegen.h"' 'kernels may not include codegen'
expect_failure tools/src/formats/npy.cpp '#include "run/runtime_session.hpp"' 'tools/src/formats may not use run/'
expect_failure codegen/src/jit/jit_engine.cpp '#include "clang/source_compiler.hpp"' 'codegen/src/jit may not use clang/'
expect_failure runtime/src/state/stream.cpp '#include "api/context.hpp"' 'runtime/src/state may not use api/'
expect_failure tools/src/xcheck/xcheck_rule.cpp '#include "xcheck_rule.hpp"' 'name it by its path from tools/src'
# The Python package's floors (scripts/checks/check-python-layering.py), function-local imports
# included.
expect_failure python/tcpu/frontend/launcher.py 'from ..triton.runtime.jit import JITFunction' \
  'tcpu.frontend.launcher imports tcpu.triton.runtime.jit, a floor above it'
expect_failure python/tcpu/triton/language/core.py 'from ...frontend import kernel_def' \
  'tcpu.triton.language.core imports tcpu.frontend.kernel_def, a floor above it'
expect_failure python/tcpu/frontend/build/route.py '    from ..launcher import launch' \
  'tcpu.frontend.build.route imports tcpu.frontend.launcher, a floor of the front end above it'
expect_failure python/tcpu/frontend/ops/arith.py 'from ..generate import generate' \
  'tcpu.frontend.ops.arith imports tcpu.frontend.generate, a floor of the front end above it'
expect_failure python/tcpu/frontend/kernel_def.py 'from .foreign import to_tcpu' \
  'import circle: tcpu.frontend.foreign -> tcpu.frontend.kernel_def -> tcpu.frontend.foreign'

if [ "$failures" -ne 0 ]; then
  echo "check_layering_test: $failures injected include(s) not caught" >&2
  exit 1
fi
echo "check_layering_test: every injected include caught"
