"""`triton.compiler` on tcpu: the error types that kernels' tests catch
(`from triton.compiler.errors import CompilationError`, as Triton's own tests write it)."""

from .errors import CompilationError, CompileTimeAssertionFailure

__all__ = ["CompilationError", "CompileTimeAssertionFailure"]
