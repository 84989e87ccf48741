"""Whether an object comes from a real Triton package (installed beside tcpu), not tcpu's own
`triton`: the one test foreign.py (conversion) and kernel_def.py (constexpr annotations) share."""

from __future__ import annotations

import types
from typing import Any


def is_real_triton(obj: Any) -> bool:
    """Whether `obj` (or its type) comes from a real Triton package, not tcpu's."""
    module = obj.__name__ if isinstance(obj, types.ModuleType) else (
        getattr(obj, "__module__", None) if isinstance(obj, type) else type(obj).__module__)
    return isinstance(module, str) and (module == "triton" or module.startswith("triton."))


def is_constexpr_annotation(annotation: Any) -> bool:
    """A real `tl.constexpr` class used as a parameter annotation."""
    return (isinstance(annotation, type) and annotation.__name__ == "constexpr"
            and is_real_triton(annotation))
