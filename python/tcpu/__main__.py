"""`python3 -m tcpu script.py [args]`: runs an unmodified Triton script on the CPU
(`import triton` inside it is tcpu's)."""

from __future__ import annotations

import runpy
import sys


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python3 -m tcpu script.py [args...]\n"
              "       python3 -m tcpu -m module [args...]\n"
              "Runs a Triton script with `import triton` resolved to tcpu (kernels on the CPU).\n"
              "With TRITON_INTERPRET=1, a real Triton installed beside tcpu runs them in its\n"
              "interpreter instead (refused where none is installed).")
        return 0 if argv else 2
    from . import aliases
    try:
        aliases.route_triton("python3 -m tcpu")
    except aliases.InterpreterUnavailable as error:
        print(error, file=sys.stderr)
        return 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print("python3 -m tcpu -m: a module name is required", file=sys.stderr)
            return 2
        sys.argv = argv[1:]
        # `triton.x` is run as the module it is aliased to (`-m triton.profiler.viewer`): runpy
        # runs a module's code from its own file, which the alias does not have.
        module = argv[1]
        if module == "triton" or module.startswith("triton."):
            module = "tcpu." + module
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        return 0
    sys.argv = list(argv)
    runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
