"""Makes `import triton` (and every `triton.*` submodule) resolve to tcpu's `tcpu.triton`,
even where a real Triton is installed: `python3 -m tcpu` means the CPU.

Except where TRITON_INTERPRET asks for Triton's interpreter (`route_triton`, what `python3 -m
tcpu` and the pytest plugin call): that is a request for a real Triton's CPU interpreter, so a
real Triton installed beside tcpu keeps `import triton` (tcpu is not used, and a line on stderr
says so); with none installed the request is refused with a message. It is never ignored."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import sys
from types import ModuleType
from typing import Any, Sequence

from . import _environment as environment

_ALIAS, _TARGET = "triton", "tcpu.triton"


class _AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `triton[.x.y]` as the module `tcpu.triton[.x.y]` (the same module object)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: Any = None) -> Any:
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        real = _TARGET + fullname[len(_ALIAS):]
        if importlib.util.find_spec(real) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: Any) -> ModuleType:
        real = _TARGET + spec.name[len(_ALIAS):]
        return importlib.import_module(real)

    def exec_module(self, module: ModuleType) -> None:
        """The target module is already executed."""


def install() -> None:
    """Routes `triton` imports to tcpu (idempotent). Modules named `triton*` that were
    imported before are replaced."""
    if not any(isinstance(f, _AliasFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _AliasFinder())
    for name in [n for n in sys.modules if n == _ALIAS or n.startswith(_ALIAS + ".")]:
        del sys.modules[name]


class InterpreterUnavailable(RuntimeError):
    """TRITON_INTERPRET asks for Triton's interpreter, and no real Triton is installed."""


def interpreter_requested() -> bool:
    """Whether TRITON_INTERPRET asks for Triton's interpreter, as Triton reads it."""
    return environment.triton_flag("TRITON_INTERPRET")


def real_triton_version() -> str | None:
    """The version of a real Triton installed on sys.path (not tcpu's alias), else None.
    Nothing is imported."""
    if importlib.machinery.PathFinder.find_spec(_ALIAS) is None:
        return None
    try:
        return importlib.metadata.version(_ALIAS)
    except importlib.metadata.PackageNotFoundError:
        return "(unknown version)"


def route_triton(who: str) -> str | None:
    """What `import triton` means for `who` (`python3 -m tcpu`, the pytest plugin): tcpu's
    alias (installed here; returns None), or, when TRITON_INTERPRET asks for the interpreter and
    a real Triton is installed, that Triton (returns its version, and says so on stderr).
    Raises InterpreterUnavailable when the interpreter is asked for and no real Triton is
    installed."""
    if not interpreter_requested():
        install()
        _shim_old_torch()
        return None
    version = real_triton_version()
    if version is None:
        raise InterpreterUnavailable(
            f"{who}: TRITON_INTERPRET={os.environ['TRITON_INTERPRET']} asks for Triton's "
            "interpreter, and no Triton is installed beside tcpu (pip install triton); unset "
            "TRITON_INTERPRET to run the kernels on tcpu")
    print(f"{who}: TRITON_INTERPRET={os.environ['TRITON_INTERPRET']}: `import triton` is the "
          f"installed Triton {version}, whose interpreter runs the kernels (tcpu is not used); "
          "unset TRITON_INTERPRET to run them on tcpu", file=sys.stderr)
    return version


def _shim_old_torch() -> None:
    """On a torch older than 2.1 (Debian 12's 1.13), what its CPU build lacks and Triton scripts
    use (torch.cpu's streams; fp16/bf16 matmul, layer norm, ... for their references), added at
    once, so that it never depends on whether a script asked the driver for its device. Newer
    torch is not imported here (the version is read from its metadata)."""
    from .triton.runtime import torch_cpu_half
    try:
        version = importlib.metadata.version("torch")
    except importlib.metadata.PackageNotFoundError:
        return
    if not torch_cpu_half.older_than_2_1(version):
        return
    import torch

    from .triton.runtime import torch_cpu_streams
    torch_cpu_streams.ensure(torch)
    torch_cpu_half.ensure(torch)
