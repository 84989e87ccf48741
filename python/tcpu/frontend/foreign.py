"""Kernels decorated by a real Triton, run by tcpu: one kernel definition for both.

A kernel module that imported the real `triton` holds real Triton objects: its @triton.jit
functions, the `triton.language` module (`tl`), dtypes, `tl.constexpr` values and
annotations. The front end reads the kernel's source and resolves every global it names; this
module gives each real Triton object its tcpu counterpart by name (a module by its dotted name
under `tcpu.`, a dtype by its name, a JITFunction by wrapping its Python function), so that
resolution, specialization and lowering see only tcpu's objects. tcpu's own objects, and
everything that is not Triton's, pass through unchanged."""

from __future__ import annotations

import importlib
import types
from typing import Any

def is_real_triton(obj: Any) -> bool:
    """Whether `obj` (or its type) comes from a real Triton package, not tcpu's."""
    module = obj.__name__ if isinstance(obj, types.ModuleType) else (
        getattr(obj, "__module__", None) if isinstance(obj, type) else type(obj).__module__)
    return isinstance(module, str) and (module == "triton" or module.startswith("triton."))


def _tcpu_module(name: str) -> Any:
    try:
        return importlib.import_module("tcpu." + name)
    except ImportError:
        raise ImportError(f"the kernel uses {name}, which tcpu does not provide") from None


def is_constexpr_annotation(annotation: Any) -> bool:
    """A real `tl.constexpr` class used as a parameter annotation."""
    return (isinstance(annotation, type) and annotation.__name__ == "constexpr"
            and is_real_triton(annotation))


def tcpu_jit(kernel: Any) -> Any:
    """tcpu's JITFunction for a real Triton one (the same for each call), or `kernel` itself."""
    if not (type(kernel).__name__ == "JITFunction" and is_real_triton(kernel)):
        return kernel
    known = getattr(kernel, "_tcpu_jit", None)  # converted once, kept on the real kernel
    if known is not None:
        return known
    from ..triton.runtime.jit import JITFunction

    converted = JITFunction(kernel.fn,
                            do_not_specialize=getattr(kernel, "do_not_specialize", None),
                            do_not_specialize_on_alignment=getattr(
                                kernel, "do_not_specialize_on_alignment", None),
                            debug=getattr(kernel, "debug", None),
                            noinline=getattr(kernel, "noinline", None))
    converted._foreign = True
    kernel._tcpu_jit = converted
    return converted


def to_tcpu(obj: Any) -> Any:
    """The tcpu counterpart of a real Triton object; anything else unchanged."""
    if isinstance(obj, types.ModuleType):
        return _tcpu_module(obj.__name__) if is_real_triton(obj) else obj
    if not is_real_triton(obj):
        return obj
    kind = type(obj).__name__
    if kind == "JITFunction":
        return tcpu_jit(obj)
    from ..triton.language import core as tl

    if kind == "constexpr":
        return tl.constexpr(to_tcpu(obj.value))

    if kind == "pointer_type":
        return tl.pointer_type(to_tcpu(obj.element_ty))
    if kind == "dtype" or isinstance(getattr(obj, "name", None), str) and hasattr(obj, "is_fp32"):
        return tl.DTYPES_BY_NAME[obj.name]
    if callable(obj) and hasattr(obj, "__name__"):  # a builtin such as tl.load
        for name in (getattr(obj, "__module__", ""), "triton.language"):
            try:
                module = _tcpu_module(name)
            except ImportError:
                continue
            if hasattr(module, obj.__name__):
                return getattr(module, obj.__name__)
    return obj
