"""`triton.compiler.errors`: a kernel the front end rejects raises CompilationError (tcpu's, which
names the kernel's file, line and column); a failed tl.static_assert under autotuning is
CompileTimeAssertionFailure."""

from ...frontend.errors import CompilationError
from ..runtime.errors import CompileTimeAssertionFailure

__all__ = ["CompilationError", "CompileTimeAssertionFailure"]
