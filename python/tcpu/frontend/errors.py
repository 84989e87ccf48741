"""The errors the front end raises: Triton's classes (`triton.runtime.errors` re-exports them),
and compilation errors that point at the user's kernel: file, line, column and the source line."""

from __future__ import annotations

import ast
from dataclasses import dataclass


class TritonError(Exception):
    """Base class of the errors this package raises on purpose."""


class OutOfResources(TritonError):
    """A kernel needs more of a resource than the machine allows (e.g. per-program
    scratch beyond the limit in ``get_device_properties()['max_shared_mem']``)."""

    def __init__(self, required: int, limit: int, name: str) -> None:
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(required, limit, name)

    def __str__(self) -> str:
        return (f"out of resource: {self.name} (required {self.required}, limit {self.limit}); "
                "smaller blocks may fit")

    def __reduce__(self):
        # Exceptions pickle their args; ours has three named ones (for multiprocessing).
        return (type(self), (self.required, self.limit, self.name))


@dataclass(frozen=True)
class Location:
    """A position in a user's source file (1-based line, 0-based column)."""

    filename: str
    line: int
    col: int
    source_line: str = ""

    def describe(self) -> str:
        text = f'File "{self.filename}", line {self.line}, column {self.col + 1}'
        if self.source_line:
            text += f"\n    {self.source_line.rstrip()}\n    {' ' * self.col}^"
        return text


class CompilationError(TritonError):
    """A kernel tcpu (like Triton) rejects: names the kernel, where, and what is wrong.

    A ``triton.TritonError`` as Triton's is, with the attributes Triton's carries: ``src`` (the
    kernel's source), ``node`` (the AST node at fault), ``error_message`` (what is wrong) and
    ``message`` (the whole text). Errors raised by a builtin also carry what is wrong as their
    ``__cause__``, where Triton keeps the builtin's own exception (tests read it there)."""

    def __init__(self, message: str, location: Location | None = None, kernel: str = "",
                 src: str | None = None, node: ast.AST | None = None) -> None:
        self.error_message = message
        self.location = location
        self.kernel = kernel
        self.src = src
        self.node = node
        self.message = self._text()
        super().__init__(self.message)

    def _text(self) -> str:
        where = f"in kernel '{self.kernel}'" if self.kernel else ""
        if self.location is None:
            return f"{self.error_message} {where}".strip()
        return (f"{self.location.describe()}\n{self.error_message}"
                + (f"\n({where})" if where else ""))

    def __reduce__(self):
        # Pickled whole (multiprocessing), not as the one formatted argument Exception keeps.
        return (type(self), (self.error_message, self.location, self.kernel, self.src, self.node))


class CompileTimeAssertionFailure(CompilationError):
    """A ``tl.static_assert`` failed for one specialization (one autotuning config); a
    CompilationError, as Triton's is."""


class UnsupportedError(CompilationError):
    """Valid Triton that tcpu does not support yet; the message names the feature."""


class InternalError(RuntimeError):
    """tcpu produced C++ that clang rejected: a bug in tcpu, never the user's fault. Not a
    TritonError (nor a CompilationError): an `except` or `pytest.raises` written for what
    Triton refuses must not take a tcpu bug for a refusal."""

    def __init__(self, message: str, kernel: str = "") -> None:
        self.kernel = kernel
        super().__init__(message)


# The stages of Triton's GPU compilers that `kernel.asm` holds there.
GPU_STAGES = ("ttir", "ttgir", "llir", "ptx", "cubin", "amdgcn", "hsaco", "source_ttir")


class GPUStageUnavailable(KeyError):
    """`kernel.asm[stage]` for one of Triton's GPU compiler stages (TTIR, TTGIR, its LLVM IR,
    PTX, ...): tcpu compiles through C++, so no such text exists (`asm["source"]` is tcpu's).
    A KeyError, as for any stage a backend lacks; `pytest -p tcpu.pytest_plugin` reports a test
    that reads one as skipped, with this reason."""

    def __init__(self, stage: str) -> None:
        self.stage = stage
        super().__init__(stage)

    def __str__(self) -> str:
        return (f"kernel.asm[{self.stage!r}]: Triton's GPU compiler stage {self.stage!r} does not "
                "exist on the CPU (tcpu compiles through C++: kernel.asm['source'])")


def node_location(node: ast.AST, filename: str, lines: list[str], line_offset: int,
                  col_offset: int) -> Location:
    """The user-file location of `node`, parsed from dedented source starting at line
    `line_offset + 1` and indented by `col_offset` columns."""
    line = getattr(node, "lineno", 1) + line_offset
    col = getattr(node, "col_offset", 0) + col_offset
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return Location(filename, line, col, text)
