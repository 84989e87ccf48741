"""Makes `import triton` (and every `triton.*` submodule) resolve to tcpu's `tcpu.triton`,
even where a real Triton is installed: `python3 -m tcpu` means the CPU."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType
from typing import Any, Sequence

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
