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
    # The position as Triton's errors give it ("at 2:4:"): the line within the function's
    # source (its `def` line is 1) and the 0-based column in that dedented source.
    in_function: tuple[int, int] | None = None

    def head(self) -> str:
        return f'File "{self.filename}", line {self.line}, column {self.col + 1}'

    def excerpt(self) -> str:
        if not self.source_line:
            return ""
        return f"    {self.source_line.rstrip()}\n    {' ' * self.col}^"

    def describe(self) -> str:
        excerpt = self.excerpt()
        return self.head() + (f"\n{excerpt}" if excerpt else "")


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
        loc = self.location
        if loc is None:
            return f"{self.error_message} {where}".strip()
        # Triton's layout: "at <line>:<col>:" (within the function), the source, then what is
        # wrong as the last line (tests and tools read it there); the file position added.
        at = f"at {loc.in_function[0]}:{loc.in_function[1]}: " if loc.in_function else ""
        head = f"{at}{loc.head()}" + (f", {where}" if where else "") + ":"
        excerpt = loc.excerpt()
        return "\n".join(part for part in (head, excerpt, self.error_message) if part)

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
                  col_offset: int, def_line: int | None = None) -> Location:
    """The user-file location of `node`, parsed from dedented source starting at line
    `line_offset + 1` and indented by `col_offset` columns; `def_line` is the line of the
    function's `def` in that source (for the position within the function)."""
    lineno = getattr(node, "lineno", 1)
    line = lineno + line_offset
    col = getattr(node, "col_offset", 0) + col_offset
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    in_function = None
    if def_line is not None:
        in_function = (lineno - def_line + 1, getattr(node, "col_offset", 0))
    return Location(filename, line, col, text, in_function)
