"""A @jit function's source: read, dedented and parsed, positions mapped to the user's file."""

from __future__ import annotations

import ast
import hashlib
import inspect
import linecache
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import CompilationError, Location, node_location

_DEF = re.compile(r"^\s*(async\s+)?def\s+\w+\s*\(")


@dataclass
class KernelSource:
    """The parsed function and what is needed to point into its file."""

    fn: Callable[..., Any]
    name: str
    filename: str
    text: str  # the dedented source of the function
    tree: ast.FunctionDef
    file_lines: list[str] = field(repr=False)
    line_offset: int = 0
    col_offset: int = 0

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def location(self, node: ast.AST) -> Location:
        return node_location(node, self.filename, self.file_lines, self.line_offset,
                             self.col_offset, self.tree.lineno)

    def error(self, node: ast.AST, message: str, cls: type[CompilationError] = CompilationError
              ) -> CompilationError:
        return cls(message, self.location(node), self.name, self.text, node)


def _definition_start(lines: list[str]) -> int:
    """The index of the `def` line among a function's source lines (after its decorators)."""
    for i, line in enumerate(lines):
        if _DEF.match(line):
            return i
    return 0


def definition_text(fn: Callable[..., Any]) -> str:
    """`fn`'s source as Triton's JITFunction.src has it: dedented, from `def` on (no
    decorators)."""
    lines, _ = _source_lines(fn)
    return textwrap.dedent("".join(lines[_definition_start(lines):]))


def _source_lines(fn: Callable[..., Any]) -> tuple[list[str], int]:
    try:
        return inspect.getsourcelines(fn)
    except OSError as e:
        raise CompilationError(f"cannot read the source of {fn.__qualname__}: {e} (@triton.jit "
                               "needs a function defined in a file)") from e


def _function_def(text: str, fn: Callable[..., Any]) -> ast.FunctionDef:
    module = ast.parse(text)
    fdef = next((n for n in module.body if isinstance(n, ast.FunctionDef)), None)
    if fdef is None:
        raise CompilationError(f"{fn.__qualname__} is not a plain function definition")
    fdef.decorator_list = []
    return fdef


def read_source(fn: Callable[..., Any], updated: str | None = None) -> KernelSource:
    """Parses `fn`'s source as Triton does (Python's ast), keeping file positions. `updated`
    is a text that replaces the function's (JITFunction._unsafe_update_src): it is parsed
    instead, placed where the function's `def` line is, and errors quote its lines."""
    filename = inspect.getsourcefile(fn) or "<unknown>"
    lines, first_line = _source_lines(fn)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    if updated is not None:
        text = textwrap.dedent(updated)
        line_offset = first_line - 1 + _definition_start(lines)
        # The file as the updated function would be there: errors point into its own lines.
        file_lines = [""] * line_offset + [" " * indent + line
                                           for line in text.splitlines(keepends=True)]
        return KernelSource(fn=fn, name=fn.__name__, filename=filename, text=text,
                            tree=_function_def(text, fn), file_lines=file_lines,
                            line_offset=line_offset, col_offset=indent)
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    # Drop decorators: the tree's first line is `def`; keep line numbers by blanking them.
    fdef = _function_def(text, fn)
    file_lines = linecache.getlines(filename) or raw.splitlines(keepends=True)
    return KernelSource(fn=fn, name=fn.__name__, filename=filename, text=text, tree=fdef,
                        file_lines=file_lines, line_offset=first_line - 1, col_offset=indent)
