"""`triton.compiler` on tcpu: the error types that kernels' tests catch
(`from triton.compiler.errors import CompilationError`, as Triton's own tests write it), and
`compile(ASTSource(...))`, which compiles a kernel without launching it."""

from .compiler import ASTSource, compile
from .errors import CompilationError, CompileTimeAssertionFailure

__all__ = ["ASTSource", "CompilationError", "CompileTimeAssertionFailure", "compile"]
