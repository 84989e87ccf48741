"""The `tcpu` and `tcpu-rt` commands of a pip-installed tcpu (pyproject.toml's entry points).

The tools are C++ executables installed inside the package (tcpu/bin) beside the libraries they
link (tcpu/lib, by run path) and the headers codegen compiles kernels with (tcpu/include, found
beside its own binary). An environment's bin/ gets these small launchers, which replace
themselves with the tool (exec): its exit status, signals and streams are the tool's own."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys


def tool_path(name: str) -> pathlib.Path:
    """The tool `name` of the tcpu whose extension modules are imported: <package>/bin/<name>
    when installed (pip, cmake --install beside the package), <build>/tools/<name> in a build
    tree (<build>/python/tcpu)."""
    spec = importlib.util.find_spec("tcpu._tcpu_rt")  # located, not loaded
    if spec is None or spec.origin is None:
        raise FileNotFoundError("tcpu's extension module _tcpu_rt is not installed")
    package = pathlib.Path(os.path.abspath(spec.origin)).parent
    candidates = [package / "bin" / name, package.parents[1] / "tools" / name]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"the {name} tool is not installed (looked for "
                            f"{' and '.join(str(c) for c in candidates)})")


def _run(name: str) -> int:
    try:
        tool = tool_path(name)
    except FileNotFoundError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 127
    os.execv(tool, [name, *sys.argv[1:]])
    return 0  # not reached: exec replaced the process


def main() -> int:
    return _run("tcpu")


def main_rt() -> int:
    return _run("tcpu-rt")
