"""tcpu: Triton's @triton.jit kernels on the CPU.

    from tcpu import triton            # or: python3 -m tcpu script.py (import triton works)
    import tcpu.triton.language as tl

Importing costs little: the compiler loads at a kernel's first launch."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # `tcpu.triton` without importing it at `import tcpu` (the extension stays unloaded
    # until a kernel launches).
    if name == "triton":
        import importlib
        return importlib.import_module("tcpu.triton")
    raise AttributeError(f"module 'tcpu' has no attribute {name!r}")
