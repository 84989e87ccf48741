"""A @jit function's source: read, dedented and parsed, positions mapped to the user's file."""

from __future__ import annotations

import ast
import hashlib
import inspect
import linecache
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import CompilationError, Location, node_location


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
                             self.col_offset)

    def error(self, node: ast.AST, message: str, cls: type[CompilationError] = CompilationError
              ) -> CompilationError:
        return cls(message, self.location(node), self.name, self.text, node)


def read_source(fn: Callable[..., Any]) -> KernelSource:
    """Parses `fn`'s source as Triton does (Python's ast), keeping file positions."""
    filename = inspect.getsourcefile(fn) or "<unknown>"
    try:
        lines, first_line = inspect.getsourcelines(fn)
    except OSError as e:
        raise CompilationError(f"cannot read the source of {fn.__qualname__}: {e} (@triton.jit "
                               "needs a function defined in a file)") from e
    raw = "".join(lines)
    text = textwrap.dedent(raw)
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    # Drop decorators: the tree's first line is `def`; keep line numbers by blanking them.
    module = ast.parse(text)
    fdef = next((n for n in module.body if isinstance(n, ast.FunctionDef)), None)
    if fdef is None:
        raise CompilationError(f"{fn.__qualname__} is not a plain function definition")
    fdef.decorator_list = []
    file_lines = linecache.getlines(filename) or raw.splitlines(keepends=True)
    return KernelSource(fn=fn, name=fn.__name__, filename=filename, text=text, tree=fdef,
                        file_lines=file_lines, line_offset=first_line - 1, col_offset=indent)
