#!/usr/bin/env bash
# Fails when a C/C++ file differs from .clang-format (clang-format 19), or when a tracked shell
# script lost its executable bit (a rewrite can drop it, and run-tests.sh would then fail only when
# it reaches that stage, half an hour in).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
format="$(command -v clang-format-19 || true)"
[ -z "$format" ] && [ "$(uname -s)" = Darwin ] && format="$(brew --prefix llvm@19)/bin/clang-format"
[ -x "$format" ] || { echo "check-format: clang-format 19 not found" >&2; exit 1; }
not_executable=$(git ls-files -s '*.sh' | awk '$1 != "100755" { print $4 }')
if [ -n "$not_executable" ]; then
  echo "check-format: tracked without the executable bit (git update-index --chmod=+x):" >&2
  echo "$not_executable" >&2
  exit 1
fi
files=$(git ls-files '*.c' '*.cpp' '*.h' '*.hpp')
if ! "$format" --dry-run -Werror $files; then
  echo "check-format: run '$format -i' on the files above" >&2
  exit 1
fi
echo "check-format: $(echo "$files" | wc -w | tr -d ' ') files formatted"
