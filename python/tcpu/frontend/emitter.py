"""The C++ text being written: lines at an indentation, fresh names, and buffers that
hold a branch's or a loop's lines until what goes around them is known."""

from __future__ import annotations

import contextlib
import re
from typing import Any, Iterator

from . import cpp


class Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 1
        self._counts: dict[str, int] = {}
        # Statements that a later one may take back: name -> (the list holding the line, the
        # line, what the binder keeps with it). tl.dot without an accumulator registers here,
        # so that `d + tl.dot(a, b)` becomes tl.dot(a, b, d) (ops/dot_ops.py says why).
        self._retractable: dict[str, tuple[list[str], str, Any]] = {}
        # What `bind` wrote: name -> (the list holding the line, the line, the expression).
        self._bound: dict[str, tuple[list[str], str, str]] = {}

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
        self._bound[name] = (self.lines, self.lines[-1], expr)
        return name

    def take_binding(self, name: str) -> str | None:
        """The expression `name` was bound to, its line removed, where nothing uses the name
        and nothing written since its line can have changed what the expression reads: every
        later line only binds a const name to a value (no atomic), or is a #line. So the
        expression may be evaluated here instead, in place of the name. None (the line kept)
        otherwise."""
        entry = self._bound.get(name)
        if entry is None or entry[0] is not self.lines or entry[1] not in self.lines:
            return None
        lines, line, expr = entry
        later = lines[lines.index(line) + 1:]
        used = re.compile(rf"\b{re.escape(name)}\b")
        if any(used.search(text) for text in later) or not all(
                text.lstrip().startswith(("const auto ", "#line ")) and "tl::atomic" not in text
                for text in later):
            return None
        lines.remove(line)
        del self._bound[name]
        return expr

    def bind_retractable(self, hint: str, expr: str, payload: Any) -> str:
        """As `bind`; `retract(name)` may remove the line later, the caller knowing that
        nothing used the name."""
        name = self.bind(hint, expr)
        self._retractable[name] = (self.lines, self.lines[-1], payload)
        return name

    def payload(self, name: str) -> Any:
        """What `bind_retractable` kept with `name`; None where it is not retractable."""
        entry = self._retractable.get(name)
        return None if entry is None else entry[2]

    def retract_last(self, name: str) -> Any:
        """As `retract`, only where `name`'s line is the last one written (so that what the
        caller writes in its place sees every variable as that line did)."""
        entry = self._retractable.get(name)
        if entry is None or entry[0] is not self.lines or not self.lines or \
                self.lines[-1] is not entry[1]:
            return None
        return self.retract(name)

    def retract(self, name: str) -> Any:
        """Removes the line that bound `name` by `bind_retractable` and returns its payload;
        None where there is no such line (any more)."""
        entry = self._retractable.pop(name, None)
        if entry is None or entry[1] not in entry[0]:
            return None
        lines, line, payload = entry
        # A use written since (an inlined helper may use its dot and return it) keeps the line.
        used = re.compile(rf"\b{re.escape(name)}\b")
        later = lines[lines.index(line) + 1:] + (self.lines if self.lines is not lines else [])
        if any(used.search(text) for text in later):
            return None
        lines.remove(line)
        return payload

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
