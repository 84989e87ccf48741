"""`triton` on tcpu: the API of Triton 3.6 that kernels and their host code use, running
kernels on the CPU."""

from __future__ import annotations

import math

from . import compiler, knobs, language, runtime, testing, tools
from .compiler import compile
from .language.core import constexpr, must_use_result
from .runtime import Config, autotune, heuristics
from .runtime._allocation import set_allocator
from .runtime.errors import (CompileTimeAssertionFailure, InterpreterError, OutOfResources,
                             TritonError)
from .runtime.interface import KernelInterface
from .runtime.jit import JITFunction, MockTensor, TensorWrapper, jit, reinterpret
from ..frontend.errors import CompilationError

__version__ = "3.6.0+tcpu"

__all__ = ["autotune", "cdiv", "CompilationError", "Config", "constexpr", "heuristics", "jit",
           "JITFunction", "knobs", "language", "next_power_of_2", "OutOfResources", "runtime",
           "testing", "TritonError", "CompileTimeAssertionFailure", "MockTensor", "TensorWrapper",
           "reinterpret", "InterpreterError", "KernelInterface", "tools"]


def cdiv(x: int, y: int) -> int:
    """Ceiling division of ints (`triton.cdiv`)."""
    return (x + y - 1) // y


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


_ = math
