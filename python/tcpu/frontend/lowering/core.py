"""The lowering's core: the state one walk over a kernel keeps (the frames of the functions being
lowered, the loops entered, the pointer parameters and which of them are written), errors at a
node's position, `#line` directives, the entry point `lower_function`, and the dispatch of each
statement and expression to the `_stmt_<Node>` / `_expr_<Node>` method that lowers it (those
methods live in the sibling modules by job; `Lowerer` in __init__.py composes them)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ...triton.language import core as tlc
from .. import cpp
from ..emitter import Emitter
from ..errors import CompilationError, UnsupportedError
from ..ops import load_all
from ..ops.context import OpContext
from ..source import KernelSource
from ..values import Value, unwrap

if TYPE_CHECKING:
    from .loops import Carry

load_all()

# The scope key under which an inlined helper's `return` leaves its value.
RETURN = "<return>"


@dataclass
class Frame:
    """One function being lowered: the kernel, or an inlined @jit helper."""

    source: KernelSource
    globals: dict[str, Any]
    scope: dict[str, Any]
    is_kernel: bool
    constexpr_names: set[str] = field(default_factory=set)
    # Loops entered before this frame (a helper inlined in a loop body): they are the caller's,
    # so a `return` here is not inside them and their carried names are not this frame's.
    loop_base: int = 0


class IgnoredReads:
    """Where the globals lowering reads are recorded when nothing keeps them (no disk cache)."""

    def record(self, fn: Any, path: str, value: Any) -> None:
        pass


IGNORED_READS = IgnoredReads()


class LowererCore:
    """What every part of the lowering shares; `Lowerer` adds the parts."""

    def __init__(self, emitter: Emitter, debug: bool) -> None:
        self.emit = emitter
        self.debug = debug
        self.written_roots: set[str] = set()
        self.frames: list[Frame] = []
        self.pointer_params: dict[str, tlc.pointer_type] = {}
        self._loops: list[dict[str, Carry]] = []
        self._last_line: tuple[str, int] | None = None
        self._depth = 0
        self._loop_depth: list[int] = []
        # The globals read, for the disk cache's check (a build.cache_key.Reads), or nowhere.
        self.reads: Any = IGNORED_READS
        # Calls made as statements (their value dropped), by id of the ast.Call.
        self.unused_calls: set[int] = set()

    # --- errors and positions -------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def error(self, node: ast.AST, message: str,
              cls: type[CompilationError] = CompilationError) -> CompilationError:
        return self.frame.source.error(node, message, cls)

    def _line(self, node: ast.AST) -> None:
        loc = self.frame.source.location(node)
        key = (loc.filename, loc.line)
        if key != self._last_line:
            self._last_line = key
            self.emit.lines.append(f"#line {loc.line} {cpp.string(loc.filename)}")

    def cx(self, node: ast.AST) -> OpContext:
        return OpContext(self.emit, node, self.error, self)

    def describe(self, v: Any) -> str:
        v = unwrap(v)
        if isinstance(v, Value):
            return v.type_text()
        return repr(v) if not isinstance(v, str) else v

    # --- entry points ---------------------------------------------------------------------
    def lower_function(self, source: KernelSource, globals_: dict[str, Any],
                       bindings: dict[str, Any], is_kernel: bool) -> Any:
        """Lowers `source`'s body with its parameters bound; returns what it returns."""
        if len(self.frames) > 64:
            raise self.error(source.tree, "@jit calls nest more than 64 deep (recursion?)")
        self.frames.append(Frame(source, globals_, dict(bindings), is_kernel,
                                 loop_base=len(self._loops)))
        saved_line = self._last_line
        try:
            self._stmts(source.tree.body)
            return self.frame.scope.get(RETURN)
        finally:
            self.frames.pop()
            self._last_line = saved_line

    # --- dispatch -------------------------------------------------------------------------
    def _stmts(self, body: list[ast.stmt]) -> bool:
        """Lowers statements; True when the list ended in a return."""
        for i, stmt in enumerate(body):
            if (isinstance(stmt, ast.If) and not self.frame.is_kernel and not stmt.orelse
                    and self._ends_in_return(stmt.body) and i + 1 < len(body)):
                test = self._expr(stmt.test)
                if isinstance(unwrap(test), Value):
                    # `if c: ...; return a` then more: the rest is the else branch.
                    rewritten = ast.If(test=stmt.test, body=stmt.body, orelse=body[i + 1:])
                    ast.copy_location(rewritten, stmt)
                    return self._if(rewritten, test)
            if self._stmt(stmt):
                return True
        return False

    @staticmethod
    def _ends_in_return(body: list[ast.stmt]) -> bool:
        return bool(body) and isinstance(body[-1], ast.Return)

    def _stmt(self, node: ast.stmt) -> bool:
        self._line(node)
        method: Callable[[Any], Any] | None = getattr(self, "_stmt_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"unsupported AST node type: {type(node).__name__} "
                             "(Triton kernels do not allow it)", UnsupportedError)
        try:
            return bool(method(node))
        except CompilationError as e:
            if e.location is not None:
                raise
            # Raised away from any node (a dtype's C++ type): at the statement, caused by it.
            raise self.error(node, e.error_message, type(e)) from e

    def _expr(self, node: ast.expr) -> Any:
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"unsupported AST node type: {type(node).__name__}",
                             UnsupportedError)
        return method(node)

    # --- C++ types of mutable variables (merged names, carried names) ---------------------
    def _pointer_ctype(self, v: Value) -> str:
        """A pointer's C++ type, whose const-ness is decided only when the kernel is done:
        through the alias of the parameter it derives from."""
        roots = set(v.roots)
        if len(roots) == 1:
            root = next(iter(roots))
            if root in self.pointer_params:
                return f"{root}_t"
        if roots and not roots <= {"*"}:
            # Derived from several parameters: written-through makes them all mutable.
            self.written_roots |= roots
        return cpp.ctype(v.dtype)

    def _storage_type(self, v: Value) -> str:
        """A type that can hold any value of v's dtype and shape (a mutable variable)."""
        elem = self._pointer_ctype(v) if v.dtype.is_ptr() else cpp.ctype(v.dtype)
        if not v.shape:
            return elem
        return f"tl::Block<{elem}, {cpp.block_dims(v.shape)}>"
