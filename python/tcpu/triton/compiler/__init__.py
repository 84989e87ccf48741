"""`triton.compiler` on tcpu: the error types that kernels' tests catch
(`from triton.compiler.errors import CompilationError`, as Triton's own tests write it), and
LazyDict, the launch metadata handed to the launch hooks, and `compile(ASTSource(...))`, which
compiles a kernel without launching it into a CompiledKernel (what a warmup also returns)."""

from __future__ import annotations

from ...frontend.compiled import CompiledKernel
from ..runtime.launch_hooks import LazyDict  # defined on the floor that uses it
from .compiler import ASTSource, compile
from .errors import CompilationError, CompileTimeAssertionFailure

__all__ = ["ASTSource", "CompilationError", "CompiledKernel", "CompileTimeAssertionFailure",
           "LazyDict", "compile"]
