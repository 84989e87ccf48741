"""Kernels decorated by a real Triton, run by tcpu: one kernel definition for both.

A kernel module that imported the real `triton` holds real Triton objects: its @triton.jit
functions, the `triton.language` module (`tl`), dtypes, `tl.constexpr` values and
annotations. The front end reads the kernel's source and resolves every global it names; this
module gives each real Triton object its tcpu counterpart by name (a module by its dotted name
under `tcpu.`, a dtype by its name, a JITFunction by a KernelDef of its Python function), so that
resolution, specialization and lowering see only tcpu's objects. tcpu's own objects, and
everything that is not Triton's, pass through unchanged."""

from __future__ import annotations

import importlib
import types
from typing import Any

from ..triton.language import core as tl
from .kernel_def import KernelDef
from .real_triton import is_real_triton


def _tcpu_module(name: str) -> Any:
    try:
        return importlib.import_module("tcpu." + name)
    except ImportError:
        raise ImportError(f"the kernel uses {name}, which tcpu does not provide") from None


def definition_options(kernel: Any) -> dict[str, Any]:
    """A real Triton JITFunction's options, as KernelDef (and JITFunction) take them."""
    return {"do_not_specialize": getattr(kernel, "do_not_specialize", None),
            "do_not_specialize_on_alignment": getattr(kernel, "do_not_specialize_on_alignment",
                                                      None),
            "debug": getattr(kernel, "debug", None), "noinline": getattr(kernel, "noinline", None)}


def follow_src(kernel: Any, known: KernelDef) -> KernelDef:
    """`known` (tcpu's KernelDef of the real JITFunction `kernel`) after the real kernel's
    text was replaced by its `_unsafe_update_src`: it compiles the same text."""
    text = getattr(kernel, "_src", None)
    seen = known.__dict__.get("_foreign_src")
    if seen is None:
        known._foreign_src = text  # the real kernel's own text, at the first conversion
    elif text is not seen and text is not None:
        known._foreign_src = text
        known._unsafe_update_src(text)
    return known


def kernel_def(kernel: Any) -> KernelDef:
    """The front end's KernelDef for a real Triton JITFunction (the same one for each call)."""
    known = getattr(kernel, "_tcpu_kernel_def", None)  # converted once, kept on the real kernel
    if known is None:
        known = KernelDef(kernel.fn, **definition_options(kernel), foreign=True)
        kernel._tcpu_kernel_def = known
    return follow_src(kernel, known)


def to_tcpu(obj: Any) -> Any:
    """The tcpu counterpart of a real Triton object; anything else unchanged."""
    if isinstance(obj, types.ModuleType):
        return _tcpu_module(obj.__name__) if is_real_triton(obj) else obj
    if not is_real_triton(obj):
        return obj
    kind = type(obj).__name__
    if kind == "JITFunction":
        return kernel_def(obj)
    if kind == "constexpr":
        return tl.constexpr(to_tcpu(obj.value))

    if kind == "pointer_type":
        return tl.pointer_type(to_tcpu(obj.element_ty), const=bool(getattr(obj, "const", False)))
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
