"""The C++ text being written: lines at an indentation, fresh names, and buffers that
hold a branch's or a loop's lines until what goes around them is known."""

from __future__ import annotations

import contextlib
from typing import Iterator

from . import cpp


class Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 1
        self._counts: dict[str, int] = {}

    def fresh(self, hint: str) -> str:
        base = cpp.identifier(hint)
        n = self._counts.get(base, 0)
        self._counts[base] = n + 1
        return f"{base}_{n}"

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def bind(self, hint: str, expr: str) -> str:
        """`const auto <fresh> = expr;`: names a value, returns the name."""
        name = self.fresh(hint)
        self.line(f"const auto {name} = {expr};")
        return name

    @contextlib.contextmanager
    def capture(self, extra_depth: int = 1) -> Iterator[list[str]]:
        """Lines written inside go to the yielded list (indented one level deeper)."""
        saved, saved_depth = self.lines, self.depth
        self.lines = []
        self.depth = saved_depth + extra_depth
        try:
            yield self.lines  # the caller decides where the captured lines go
        finally:
            self.lines, self.depth = saved, saved_depth

    def extend(self, lines: list[str]) -> None:
        self.lines.extend(lines)
