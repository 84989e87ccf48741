"""The `proton` command: runs a script (or pytest) with a profiling session open around it,
as Triton's `python -m triton.profiler.proton [options] script.py [args]`; under tcpu:
`python -m tcpu -m triton.profiler.proton [options] script.py [args]`. The session is
session 0, which the script's own start() calls leave alone."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import Optional

from .flags import flags
from .profile import finalize, start


def parse_arguments(argv: Optional[list[str]] = None
                    ) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        description="Runs a script or pytest with triton.profiler recording.",
        usage="python -m tcpu -m triton.profiler.proton [options] script.py [args]\n"
              "       python -m tcpu -m triton.profiler.proton [options] pytest [args]")
    parser.add_argument("-n", "--name", type=str, help="the session's name (its file)")
    parser.add_argument("-b", "--backend", type=str, default=None)
    parser.add_argument("-c", "--context", type=str, default="shadow")
    parser.add_argument("-m", "--mode", type=str, default=None)
    parser.add_argument("-d", "--data", type=str, default="tree", choices=["tree", "trace"])
    parser.add_argument("-k", "--hook", type=str, default=None, choices=[None, "triton"])
    parser.add_argument("target_args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    return args, args.target_args


def is_pytest(script: str) -> bool:
    return os.path.basename(script) == "pytest"


def run_profiling(args: argparse.Namespace, target_args: list[str]) -> int:
    if not target_args:
        print("proton: a script (or pytest) to run is required", file=sys.stderr)
        return 2
    start(args.name, context=args.context, data=args.data, backend=args.backend,
          mode=args.mode, hook=args.hook)
    flags.command_line = True
    status = 0
    try:
        if is_pytest(target_args[0]):
            import pytest
            status = int(pytest.main(target_args[1:]))
        else:
            sys.argv = list(target_args)
            runpy.run_path(target_args[0], run_name="__main__")
    finally:
        flags.command_line = False
        finalize()
    return status


def main(argv: Optional[list[str]] = None) -> int:
    args, target_args = parse_arguments(argv)
    return run_profiling(args, target_args)


if __name__ == "__main__":
    sys.exit(main())
