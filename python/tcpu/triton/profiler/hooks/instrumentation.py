"""Triton's instrumentation hook rewrites a kernel's GPU code to read clocks inside it; tcpu's
kernels are C++ compiled for the CPU, so it is refused by name."""

from __future__ import annotations

from typing import Any

from .hook import Hook


class InstrumentationHook(Hook):
    def __init__(self, mode: Any = None) -> None:
        raise NotImplementedError(
            "triton.profiler's instrumentation (backend='instrumentation') rewrites a kernel's "
            "GPU code; tcpu's kernels run on the CPU: use the default backend, which times "
            "each launch")
