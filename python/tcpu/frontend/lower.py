"""The lowering walk: one pass over a kernel's AST that resolves names and constexprs,
types every value by Triton's rules and writes typed tl C++.

Compile-time values are plain Python objects (folded as Triton folds constexprs);
run-time values are `Value`s. Each Python assignment names its value in C++ (SSA: a
rebinding is a new name), so tl's lazy expressions never see a name change under them.
Control flow follows Triton: an `if` on a compile-time condition lowers only the taken
branch; a run-time `if` merges the names both branches bind (same dtype and shape, or an
error at the `if`); loops carry the names their body rebinds, with types that may not
change. @jit helpers are inlined, specialized on their arguments."""

from __future__ import annotations

import ast
import builtins
import inspect
import types
from dataclasses import dataclass, field
from typing import Any, Callable

from ..triton.language import core as tlc
from . import cpp
from .emitter import Emitter
from .errors import CompilationError, UnsupportedError
from .foreign import to_tcpu
from .loop_state import (assign_in_parallel, carry_leaves, dot_in_place, leaf_writes,
                         read_in_place, snapshot_aliases)
from .ops import OPS, load_all
from .ops.arith import COMPARISONS, binary, convert, fold_any, unary
from .ops.context import OpContext
from .ops.descriptors import TensorDescriptor
from .ops.dot_ops import fuse_add
from .ops.memory import BlockPointer
from .ops.shape import expand
from .promotion import integer_promote, literal_dtype
from .source import KernelSource
from .values import Value, is_number, unwrap

load_all()

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
           ast.RShift: ">>", ast.Pow: "**"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
           ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_UNOPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
_RETURN = "<return>"

# Methods of blocks that forward to builtins (Triton's _tensor_member_fn).
_METHODS = set("""sum max min argmax argmin xor_sum reduce_or reduce associative_scan cumsum cumprod
sort flip reshape view ravel trans permute broadcast_to expand_dims split exp exp2 log log2 cos sin
sqrt rsqrt abs erf floor ceil sigmoid softmax histogram cdiv""".split())

_LOOP_NAMES = {"range", "static_range"}


def _is_constexpr_annotation(annotation: ast.AST | None) -> bool:
    return annotation is not None and ast.unparse(annotation).split(".")[-1] == "constexpr"


def _assigned_names(nodes: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for stmt in nodes:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                names.add(n.target.id)
    return names


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


@dataclass
class Carry:
    """A name a loop carries: its C++ variable, dtype and shape."""

    name: str
    var: str
    value: Any  # a Value, or a BlockPointer
    direct_stmt: ast.stmt | None  # the body's last top-level assignment, written in place


def _numbers_to_scalars(v: Any) -> Any:
    if isinstance(v, tuple):
        items = tuple(_numbers_to_scalars(unwrap(x)) for x in v)
        return v if all(a is b for a, b in zip(items, v)) else items
    if is_number(v):
        d = literal_dtype(v)
        return Value(cpp.literal(v, d), d)
    return v


class Lowerer:
    def __init__(self, emitter: Emitter, debug: bool, jit_type: type) -> None:
        self.emit = emitter
        self.debug = debug
        self.jit_type = jit_type
        self.written_roots: set[str] = set()
        self.frames: list[Frame] = []
        self.pointer_params: dict[str, tlc.pointer_type] = {}
        self._loops: list[dict[str, Carry]] = []
        self._last_line: tuple[str, int] | None = None
        self._depth = 0
        self._loop_depth: list[int] = []
        self.reads: Any = None  # a cache_key.Reads: the globals read, for the disk cache's check

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
            return self.frame.scope.get(_RETURN)
        finally:
            self.frames.pop()
            self._last_line = saved_line

    # --- statements -----------------------------------------------------------------------
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
        return bool(method(node))

    def _stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a docstring
        self._expr(node.value)
        return None

    def _stmt_Pass(self, node: ast.Pass) -> None:
        return None

    def _stmt_Break(self, node: ast.Break) -> None:
        raise self.error(node, "'break' is not supported in Triton kernels", UnsupportedError)

    def _stmt_Continue(self, node: ast.Continue) -> None:
        raise self.error(node, "'continue' is not supported in Triton kernels", UnsupportedError)

    def _stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        raise self.error(node, "nested function definitions are not supported in Triton kernels")

    def _stmt_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            raise self.error(node, "chained assignment (a = b = c) is not supported")
        value = self._expr(node.value)
        self._assign(node.targets[0], value, node)
        return None

    def _stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None:
            return None
        value = self._expr(node.value)
        if _is_constexpr_annotation(node.annotation):
            if isinstance(unwrap(value), Value):
                raise self.error(node, f"'{ast.unparse(node.target)}' is annotated tl.constexpr "
                                 "but its value is only known at run time")
            if not isinstance(node.target, ast.Name):
                raise self.error(node, "a tl.constexpr annotation needs a plain name")
            self._check_not_carried(node.target.id, node)
            self.frame.scope[node.target.id] = unwrap(value)
            self.frame.constexpr_names.add(node.target.id)
            return None
        self._assign(node.target, value, node)
        return None

    def _stmt_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "augmented assignment to a subscript or attribute is not "
                             "supported in Triton kernels")
        current = self._name(node.target.id, node.target)
        rhs = self._expr(node.value)
        result = None
        if isinstance(node.op, ast.Add):
            result = self._dot_add(rhs, node.value, current, node)
        if result is None:
            result = self._binop(_BINOPS[type(node.op)], current, rhs, node)
        self._assign(node.target, result, node)
        return None

    def _stmt_Return(self, node: ast.Return) -> bool:
        if self._in_loop_depth() > 0:
            raise self.error(node, "return inside a loop is not supported (Triton allows an early "
                             "return only under a top-level if)")
        value = self._expr(node.value) if node.value is not None else None
        if self.frame.is_kernel:
            if value is not None and unwrap(value) is not None:
                raise self.error(node, "a kernel cannot return a value")
            self.emit.line("return;")
            return True
        self.frame.scope[_RETURN] = self._materialize_return(value, node)
        return True

    def _materialize_return(self, value: Any, node: ast.AST) -> Any:
        v = unwrap(value)
        if isinstance(v, Value) and not v.expr.isidentifier():
            return Value(self.emit.bind("ret", v.expr), v.dtype, v.shape, v.roots)
        if isinstance(v, tuple):
            return tuple(self._materialize_return(x, node) for x in v)
        return v

    def _stmt_Assert(self, node: ast.Assert) -> None:
        test = self._expr(node.test)
        msg = self._expr(node.msg) if node.msg is not None else ""
        OPS["device_assert"](self.cx(node), test, msg if not isinstance(msg, Value) else "")
        return None

    def _stmt_If(self, node: ast.If) -> bool:
        test = self._expr(node.test)
        return self._if(node, test)

    def _stmt_For(self, node: ast.For) -> None:
        if node.orelse:
            raise self.error(node, "'else' on a loop is not supported in Triton kernels")
        if not isinstance(node.iter, ast.Call):
            raise self.error(node.iter, "a for loop must iterate over range, tl.range or "
                             "tl.static_range")
        fn = unwrap(self._expr(node.iter.func))
        kind = getattr(fn, tlc.BUILTIN_ATTR, None) if fn is not builtins.range else "range"
        if kind not in _LOOP_NAMES:
            raise self.error(node.iter, "a for loop must iterate over range, tl.range or "
                             "tl.static_range")
        args = [self._expr(a) for a in node.iter.args]
        kwargs = {k.arg: self._expr(k.value) for k in node.iter.keywords}
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "a for loop's target must be a plain name")
        if kind == "static_range":
            return self._static_for(node, args)
        return self._runtime_for(node, args, kwargs)

    def _stmt_While(self, node: ast.While) -> None:
        if node.orelse:
            raise self.error(node, "'else' on a loop is not supported in Triton kernels")
        before = dict(self.frame.scope)
        carries = self._begin_loop(node, node.body + [ast.Expr(node.test)])
        self.emit.line("for (;;) {")
        self.emit.depth += 1
        test = self._expr(node.test)
        tv = unwrap(test)
        if not isinstance(tv, Value):
            if not tv:
                self.emit.line("break;")
            else:
                pass
        else:
            if tv.shape:
                raise self.error(node.test, "a while condition must be a scalar")
            self.emit.line(f"if (!({convert(tv, tlc.int1).expr})) break;")
        self._stmts(node.body)
        self._end_loop(node, carries)
        self._loop_scope_restore(before, carries)
        return None

    def _stmt_With(self, node: ast.With) -> None:
        raise self.error(node, "'with' blocks are not supported on the CPU", UnsupportedError)

    # --- assignment -----------------------------------------------------------------------
    def _check_not_carried(self, name: str, node: ast.AST) -> None:
        for loop in self._frame_loops():
            if name in loop and name in self.frame.constexpr_names:
                raise self.error(node, f"cannot reassign constexpr '{name}' in a loop")

    def _assign(self, target: ast.expr, value: Any, node: ast.stmt) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            items = unwrap(value)
            if not isinstance(items, (tuple, list)) or len(items) != len(target.elts):
                raise self.error(node, f"cannot unpack {self.describe(value)} into "
                                 f"{len(target.elts)} names")
            for t, v in zip(target.elts, items):
                self._assign(t, v, node)
            return
        if not isinstance(target, ast.Name):
            raise self.error(node, "assignment to a subscript or an attribute is not supported in "
                             "Triton kernels (store through tl.store instead)")
        name = target.id
        if name in self.frame.constexpr_names:
            if any(name in loop for loop in self._frame_loops()):
                raise self.error(node, f"cannot reassign constexpr '{name}' in a loop")
            self.frame.constexpr_names.discard(name)
        # Triton turns a number assigned to a name into a run-time scalar, in a tuple too
        # (code_generator's _sanitize_value: constexprs included).
        v = _numbers_to_scalars(unwrap(value))
        carry = self._carry_of(name)
        if isinstance(v, (Value, BlockPointer)) and carry is not None and \
                carry.direct_stmt is node:
            self._check_carry(carry, v, node)
            writes = (dot_in_place(self.emit, v, carry.var) if isinstance(v, Value) else None) \
                or [f"{carry.var} = {read_in_place(v.expr, carry.var)};"]
            snapshot_aliases(self.emit, self.frame.scope, carry.var, name)
            for text in writes:
                self.emit.line(text)
            self.frame.scope[name] = carry.value
            return
        if isinstance(v, Value) and not v.expr.isidentifier():
            v = Value(self.emit.bind(name, v.expr), v.dtype, v.shape, v.roots)
        self.frame.scope[name] = v

    def _carry_of(self, name: str) -> Carry | None:
        if not self._frame_loops() or self._depth != self._loop_depth[-1]:
            return None
        return self._loops[-1].get(name)

    # --- control flow: if -----------------------------------------------------------------
    def _if(self, node: ast.If, test: Any) -> bool:
        t = unwrap(test)
        if not isinstance(t, Value):
            return self._stmts(node.body if t else node.orelse)
        if t.numel != 1:
            raise self.error(node.test, f"an if condition must be a scalar, got a block "
                             f"{t.type_text()}")
        cond = convert(t, tlc.int1).expr
        before = dict(self.frame.scope)
        self._depth += 1
        with self.emit.capture() as then_lines:
            self.frame.scope = dict(before)
            then_ret = self._stmts(node.body)
            then_scope = self.frame.scope
        with self.emit.capture() as else_lines:
            self.frame.scope = dict(before)
            else_ret = self._stmts(node.orelse)
            else_scope = self.frame.scope
        self._depth -= 1
        self.frame.scope = dict(before)
        if self.frame.is_kernel:
            # A kernel's `return` leaves the program: nothing merges from that branch.
            then_scope.pop(_RETURN, None)
            else_scope.pop(_RETURN, None)
        assigns_then: list[str] = []
        assigns_else: list[str] = []
        declarations: list[str] = []
        names = [n for n in dict.fromkeys(list(then_scope) + list(else_scope))]
        for name in names:
            a, b, old = then_scope.get(name), else_scope.get(name), before.get(name)
            if a is old and b is old:
                continue
            if then_ret and self.frame.is_kernel:
                a = b
            if else_ret and self.frame.is_kernel:
                b = a
            if a is None or b is None:
                continue  # bound in one branch only: not visible after the if
            merged = self._merge(name, a, b, node, declarations, assigns_then, assigns_else)
            self.frame.scope[name] = merged
        for d in declarations:
            self.emit.line(d)
        self.emit.line(f"if ({cond}) {{")
        self.emit.extend(then_lines)
        for a in assigns_then:
            self.emit.line("  " + a)
        if else_lines or assigns_else:
            self.emit.line("} else {")
            self.emit.extend(else_lines)
            for a in assigns_else:
                self.emit.line("  " + a)
        self.emit.line("}")
        return then_ret and else_ret

    def _merge(self, name: str, a: Any, b: Any, node: ast.AST, decls: list[str],
               then_assigns: list[str], else_assigns: list[str]) -> Any:
        a, b = unwrap(a), unwrap(b)
        shown = "the return value" if name == _RETURN else f"'{name}'"
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            return tuple(self._merge(f"{name}[{i}]", x, y, node, decls, then_assigns,
                                     else_assigns) for i, (x, y) in enumerate(zip(a, b)))
        if not isinstance(a, Value) or not isinstance(b, Value):
            if not isinstance(a, Value) and not isinstance(b, Value) and a == b:
                return a
            raise self.error(node, f"{shown} is {self.describe(a)} after the then-branch but "
                             f"{self.describe(b)} after the else-branch; both branches must "
                             "give it one type")
        if a.dtype != b.dtype or a.shape != b.shape:
            raise self.error(node, f"mismatched type for {shown} between the then-branch "
                             f"({a.type_text()}) and the else-branch ({b.type_text()})")
        var = self.emit.fresh("merged" if name == _RETURN else name.split("[")[0])
        decls.append(f"{self._storage_type(a)} {var};")
        then_assigns.append(f"{var} = {a.expr};")
        else_assigns.append(f"{var} = {b.expr};")
        return Value(var, a.dtype, a.shape, a.roots | b.roots)

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

    # --- control flow: loops --------------------------------------------------------------
    def _frame_loops(self) -> list[dict[str, Carry]]:
        """The loops of the function being lowered (not those of the callers it is inlined in)."""
        return self._loops[self.frame.loop_base:]

    def _in_loop_depth(self) -> int:
        return len(self._frame_loops())

    def _begin_loop(self, node: ast.stmt, body: list[ast.stmt]) -> dict[str, Carry]:
        names = _assigned_names(body)
        carries: dict[str, Carry] = {}
        scope = self.frame.scope
        top_assigns = self._last_top_level_assignments(node, body)
        for name in sorted(names):
            if name not in scope:
                continue
            v = unwrap(scope[name])
            if name in self.frame.constexpr_names:
                raise self.error(node, f"cannot reassign constexpr '{name}' in a loop")
            if isinstance(v, BlockPointer):
                var = self.emit.fresh(name)
                self.emit.line(f"auto {var} = {v.expr};")
                bp = BlockPointer(var, v.element, v.shape, v.roots)
                scope[name] = bp
                carries[name] = Carry(name, var, bp, top_assigns.get(name))
                continue
            if isinstance(v, (tuple, TensorDescriptor)):
                leaves = carry_leaves(self.emit, name, v, self._storage_type)
                scope[name] = leaves
                carries[name] = Carry(name, "", leaves, None)
                continue
            if not isinstance(v, Value):
                # A compile-time value (a helper's literal argument, a static_range index, a
                # dtype, ...) cannot be carried: Triton refuses to reassign it in the loop.
                raise self.error(node, f"cannot reassign constexpr '{name}' in the loop (it "
                                 f"holds {self.describe(v)}, known at compile time)")
            var = self.emit.fresh(name)
            affine = self._affine_updates(body, name)
            if v.shape and (v.dtype.is_ptr() or v.dtype.is_int()) and affine:
                # Pointer and index blocks advanced by scalars keep tl's structured types
                # (contiguous rows), so loads stay vector loads.
                self.emit.line(f"auto {var} = tl::carried({v.expr});")
            else:
                self.emit.line(f"{self._storage_type(v)} {var} = {v.expr};")
            carried = Value(var, v.dtype, v.shape, v.roots)
            scope[name] = carried
            carries[name] = Carry(name, var, carried, top_assigns.get(name))
        self._loops.append(carries)
        self._loop_depth.append(self._depth + 1)
        self._depth += 1
        return carries

    @staticmethod
    def _last_top_level_assignments(node: ast.stmt, body: list[ast.stmt]) -> dict[str, ast.stmt]:
        """name -> the body's last top-level assignment of it, when no later statement
        rebinds it (that assignment can write the loop's variable in place)."""
        result: dict[str, ast.stmt] = {}
        for i, stmt in enumerate(body):
            targets: list[str] = []
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                    stmt.targets[0], ast.Name):
                targets = [stmt.targets[0].id]
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                targets = [stmt.target.id]
            for t in targets:
                if t not in _assigned_names(body[i + 1:]):
                    result[t] = stmt
        return result

    @staticmethod
    def _affine_updates(body: list[ast.stmt], name: str) -> bool:
        """Whether every rebinding of `name` in body is `name += e` / `name -= e` or
        `name = name + e` (e a scalar, checked when the update is lowered)."""
        found = False
        for n in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and \
                    n.target.id == name:
                if not isinstance(n.op, (ast.Add, ast.Sub)):
                    return False
                found = True
            elif isinstance(n, ast.Assign):
                for t in n.targets:
                    if any(isinstance(x, ast.Name) and x.id == name for x in ast.walk(t)):
                        v = n.value
                        if not (isinstance(t, ast.Name) and isinstance(v, ast.BinOp) and isinstance(
                                v.op, (ast.Add, ast.Sub)) and isinstance(v.left, ast.Name)
                                and v.left.id == name):
                            return False
                        found = True
            elif isinstance(n, (ast.AnnAssign, ast.NamedExpr, ast.For)):
                target = getattr(n, "target", None)
                if target is not None and any(isinstance(x, ast.Name) and x.id == name
                                              for x in ast.walk(target)):
                    return False
        return found

    def _check_carry(self, carry: Carry, v: Any, node: ast.AST) -> None:
        if isinstance(carry.value, BlockPointer) != isinstance(v, BlockPointer):
            raise self.error(node, f"loop-carried variable '{carry.name}' changes kind in the loop "
                             f"({carry.value.type_text()} before, {self.describe(v)} after)")
        if isinstance(v, BlockPointer):
            if (v.element, v.shape) != (carry.value.element, carry.value.shape):
                raise self.error(node, f"loop-carried block pointer '{carry.name}' changes type: "
                                 f"{carry.value.type_text()} before, {v.type_text()} after")
            return
        if v.dtype != carry.value.dtype or v.shape != carry.value.shape:
            raise self.error(node, f"loop-carried variable '{carry.name}' changes type in the "
                             f"loop: {carry.value.type_text()} before, {v.type_text()} after an "
                             "iteration (its type and shape may not change)")

    def _end_loop(self, node: ast.stmt, carries: dict[str, Carry]) -> None:
        scope = self.frame.scope
        writes: list[tuple[str, str]] = []
        for name, carry in carries.items():
            v = unwrap(scope.get(name))
            if isinstance(carry.value, (tuple, TensorDescriptor)):
                def mismatch(why: str, name: str = name) -> CompilationError:
                    return self.error(node, f"loop-carried tuple '{name}' changes in the loop: "
                                      f"{why} (its structure and types may not change)")

                def check(c: Any, n: Any, name: str = name) -> None:
                    self._check_carry(Carry(f"an element of '{name}'", c.expr, c, None), n, node)

                writes += leaf_writes(carry.value, v, mismatch, check)
                continue
            if not isinstance(v, (Value, BlockPointer)):
                raise self.error(node, f"loop-carried variable '{name}' becomes "
                                 f"{self.describe(v)} in the loop")
            self._check_carry(carry, v, node)
            writes.append((carry.var, v.expr))
        # One parallel assignment: `a, b = b, a` must not read the a it just wrote.
        assign_in_parallel(self.emit, writes)
        self.emit.depth -= 1
        self.emit.line("}")
        self._loops.pop()
        self._loop_depth.pop()
        self._depth -= 1

    def _loop_scope_restore(self, before: dict[str, Any], carries: dict[str, Carry]) -> None:
        """Names first bound in a loop are not visible after it; carried names hold the
        loop's variables."""
        scope = {k: v for k, v in before.items()}
        for name, carry in carries.items():
            scope[name] = carry.value
        self.frame.scope = scope

    def _runtime_for(self, node: ast.For, args: list[Any], kwargs: dict[str, Any]) -> None:
        if not 1 <= len(args) <= 3:
            raise self.error(node.iter, f"range takes 1 to 3 arguments, got {len(args)}")
        for k in kwargs:
            if k not in ("num_stages", "loop_unroll_factor", "disallow_acc_multi_buffer",
                         "flatten", "warp_specialize", "disable_licm", "step"):
                raise self.error(node.iter, f"tl.range got an unexpected keyword argument '{k}'")
        lb, ub, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(
            args) == 3 else unwrap(kwargs.get("step", 1)))
        lb, ub, step = unwrap(lb), unwrap(ub), unwrap(step)
        dtypes = []
        for x in (lb, ub, step):
            if isinstance(x, Value):
                if not x.dtype.is_int() or x.shape:
                    raise self.error(node.iter, f"loop bounds must be integer scalars, got "
                                     f"{x.type_text()}")
                dtypes.append(x.dtype)
            elif isinstance(x, int) and not isinstance(x, bool):
                dtypes.append(literal_dtype(x))
            else:
                raise self.error(node.iter, f"loop bounds must be integers, got {x!r}")
        iv_dtype = dtypes[0]
        for d in dtypes[1:]:
            iv_dtype = integer_promote(iv_dtype, d)
        if iv_dtype.primitive_bitwidth < 32:
            iv_dtype = tlc.int32
        ct = cpp.ctype(iv_dtype)
        cx = self.cx(node.iter)
        bounds = []
        for x, hint in ((lb, "lb"), (ub, "ub"), (step, "step")):
            v = convert(cx.value(x, iv_dtype), iv_dtype)
            bounds.append(v.expr if not isinstance(x, Value) else self.emit.bind(hint, v.expr))
        if isinstance(step, int) and step == 0:
            raise self.error(node.iter, "range's step must not be zero")
        if isinstance(step, int):
            cmp = "<" if step > 0 else ">"
            cond = f"{{iv}} {cmp} {bounds[1]}"
        else:
            cond = f"({bounds[2]} > 0 ? {{iv}} < {bounds[1]} : {{iv}} > {bounds[1]})"
        before = dict(self.frame.scope)
        carries = self._begin_loop(node, node.body)
        # _begin_loop wrote the carried variables; now the loop header.
        iv = self.emit.fresh(node.target.id)
        self.emit.line(f"for ({ct} {iv} = {bounds[0]}; {cond.format(iv=iv)}; "
                       f"{iv} += {bounds[2]}) {{")
        self.emit.depth += 1
        self.frame.scope[node.target.id] = Value(iv, iv_dtype)
        self._stmts(node.body)
        self._end_loop(node, carries)
        self._loop_scope_restore(before, carries)

    def _static_for(self, node: ast.For, args: list[Any]) -> None:
        values = [self.cx(node.iter).const(a, "tl.static_range's bounds") for a in args]
        try:
            items = builtins.range(*values)
        except TypeError as e:
            raise self.error(node.iter, f"tl.static_range{tuple(values)}: {e}") from None
        assert isinstance(node.target, ast.Name)
        for i in items:
            self.frame.scope[node.target.id] = i
            if self._stmts(node.body):
                raise self.error(node, "return inside a loop is not supported")
        return None

    # --- expressions ----------------------------------------------------------------------
    def _expr(self, node: ast.expr) -> Any:
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"unsupported AST node type: {type(node).__name__}",
                             UnsupportedError)
        return method(node)

    def _expr_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def _expr_Name(self, node: ast.Name) -> Any:
        return self._name(node.id, node)

    def _name(self, name: str, node: ast.AST) -> Any:
        frame = self.frame
        if name in frame.scope:
            return frame.scope[name]
        if name in frame.globals:
            value = frame.globals[name]
            if self.reads is not None:
                self.reads.record(frame.source.fn, name, value)
            return self._global(name, value, node)
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(node, f"name '{name}' is not defined")

    def _global(self, name: str, value: Any, node: ast.AST) -> Any:
        value = to_tcpu(value)  # a kernel of a real Triton's module: its objects as tcpu's
        if isinstance(value, tlc.constexpr):
            return value.value
        if isinstance(value, (types.ModuleType, tlc.dtype, self.jit_type)) or value is None:
            return value
        if callable(value) and (getattr(value, tlc.BUILTIN_ATTR, None) or isinstance(value, type)):
            return value
        if callable(value) and getattr(value, "__module__", "").startswith(("tcpu.", "triton")):
            return value
        if isinstance(value, (bool, int, float, str, tuple)) and name.isupper():
            # Triton 3.6 refuses non-constexpr globals; it tolerates none. We name the fix.
            raise self.error(node, f"cannot access global variable {name} from within a @jit "
                             "function: Triton kernels can only read globals that are "
                             f"tl.constexpr (write `{name} = tl.constexpr({value!r})`)")
        if callable(value):
            return value
        raise self.error(node, f"cannot access global variable {name} ({type(value).__name__}) "
                         "from within a @jit function: only tl.constexpr values, dtypes, "
                         "modules and @jit functions are allowed")

    def _expr_Tuple(self, node: ast.Tuple) -> tuple:
        return tuple(self._expr(e) for e in node.elts)

    _expr_List = _expr_Tuple

    def _expr_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                assert isinstance(v, ast.FormattedValue)
                x = unwrap(self._expr(v.value))
                if isinstance(x, Value):
                    raise self.error(v, "an f-string in a kernel may only hold compile-time values")
                spec = self._expr(v.format_spec) if v.format_spec is not None else ""
                conv = {115: str, 114: repr, 97: ascii}.get(v.conversion, None)
                parts.append(format(conv(x) if conv else x, spec))
        return "".join(parts)

    def _expr_NamedExpr(self, node: ast.NamedExpr) -> Any:
        value = self._expr(node.value)
        self._assign(node.target, value, node)  # type: ignore[arg-type]
        return self.frame.scope[node.target.id]

    def _expr_Lambda(self, node: ast.Lambda) -> None:
        raise self.error(node, "lambda is not supported in Triton kernels")

    def _expr_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self._expr(node.left), self._expr(node.right)
        if isinstance(node.op, ast.Add):
            fused = self._dot_add(a, node.left, b, node) or self._dot_add(b, node.right, a, node)
            if fused is not None:
                return fused
        return self._binop(_BINOPS[type(node.op)], a, b, node)

    def _dot_add(self, product: Any, product_node: ast.AST, addend: Any,
                 node: ast.AST) -> Value | None:
        """`addend + tl.dot(a, b)` as tl.dot(a, b, addend) (ops/dot_ops.py): only where the
        product is a call's result, which nothing else can use."""
        product = unwrap(product)
        if not isinstance(product_node, ast.Call) or not isinstance(product, Value):
            return None
        return fuse_add(self.cx(node), product, addend)

    def _binop(self, opname: str, a: Any, b: Any, node: ast.AST) -> Any:
        a_u, b_u = unwrap(a), unwrap(b)
        if not isinstance(a_u, Value) and not isinstance(b_u, Value):
            if opname == "**" or not (is_number(a_u) and is_number(b_u)):
                return fold_any(self.cx(node), opname, a_u, b_u)
        if opname == "**":
            raise self.error(node, "'**' on run-time values is not supported (use "
                             "libdevice.pow)")
        if isinstance(a_u, BlockPointer) or isinstance(b_u, BlockPointer):
            raise self.error(node, "arithmetic on a block pointer: use tl.advance")
        return binary(self.cx(node), opname, a_u, b_u)

    def _expr_UnaryOp(self, node: ast.UnaryOp) -> Any:
        return unary(self.cx(node), _UNOPS[type(node.op)], self._expr(node.operand))

    def _expr_Compare(self, node: ast.Compare) -> Any:
        if len(node.ops) != 1:
            raise self.error(node, "chained comparisons (a < b < c) are not supported; split them "
                             "with parentheses and &")
        opname = _CMPOPS[type(node.ops[0])]
        a, b = unwrap(self._expr(node.left)), unwrap(self._expr(node.comparators[0]))
        if isinstance(a, Value) or isinstance(b, Value):
            if opname not in COMPARISONS:
                raise self.error(node, f"'{opname}' needs compile-time operands")
            return binary(self.cx(node), opname, a, b)
        return fold_any(self.cx(node), opname, a, b)

    def _expr_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        result = self._expr(node.values[0])
        for operand in node.values[1:]:
            r = unwrap(result)
            if not isinstance(r, Value):
                # Compile-time: short-circuit as Python does.
                if (not r) if is_and else bool(r):
                    return r
                result = self._expr(operand)
                continue
            other = unwrap(self._expr(operand))
            if len(node.values) > 2:
                raise self.error(node, "chained boolean operators (A or B or C) are not supported; "
                                 "use parentheses to split the chain")
            cx = self.cx(node)
            lhs = convert(r, tlc.int1)
            rhs = convert(cx.value(other), tlc.int1)
            result = binary(cx, "&" if is_and else "|", lhs, rhs)
        return result

    def _expr_IfExp(self, node: ast.IfExp) -> Any:
        test = unwrap(self._expr(node.test))
        if not isinstance(test, Value):
            return self._expr(node.body if test else node.orelse)
        if test.shape:
            raise self.error(node, "a conditional expression's condition must be a scalar (use "
                             "tl.where for blocks)")
        a, b = unwrap(self._expr(node.body)), unwrap(self._expr(node.orelse))
        cx = self.cx(node)
        av, bv = cx.value(a), cx.value(b)
        if av.dtype != bv.dtype or av.shape != bv.shape:
            raise self.error(node, f"both sides of a conditional expression must have one type, "
                             f"got {av.type_text()} and {bv.type_text()}")
        var = self.emit.fresh("select")
        self.emit.line(f"{self._storage_type(av)} {var};")
        self.emit.line(f"if ({convert(test, tlc.int1).expr}) {var} = {av.expr}; "
                       f"else {var} = {bv.expr};")
        return Value(var, av.dtype, av.shape, av.roots | bv.roots)

    def _expr_Subscript(self, node: ast.Subscript) -> Any:
        base = unwrap(self._expr(node.value))
        if isinstance(base, Value):
            return self._index(base, node)
        index = unwrap(self._expr(node.slice))
        if isinstance(index, Value):
            raise self.error(node, "indexing a compile-time sequence with a run-time value")
        try:
            return base[index]
        except (IndexError, KeyError, TypeError) as e:
            raise self.error(node, f"cannot index {self.describe(base)} with {index!r}: {e}") \
                from None

    def _index(self, v: Value, node: ast.Subscript) -> Value:
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        out = v
        dim = 0
        for item in items:
            if isinstance(item, ast.Constant) and item.value is None:
                out = expand(self.cx(node), out, dim)
                dim += 1
            elif isinstance(item, ast.Slice) and item.lower is None and item.upper is None \
                    and item.step is None:
                dim += 1
            else:
                raise self.error(node, "unsupported tensor index: only None and ':' are allowed")
        return out

    def _expr_Attribute(self, node: ast.Attribute) -> Any:
        base = unwrap(self._expr(node.value))
        attr = node.attr
        if isinstance(base, Value):
            if attr == "dtype":
                return base.dtype
            if attr == "shape":
                return tuple(base.shape)
            if attr == "T":
                return OPS["trans"](self.cx(node), base)
            if attr == "type":
                return tlc.block_type(base.dtype, list(base.shape)) if base.shape else base.dtype
            if attr == "numel":
                return base.numel
            if attr == "to" or attr in _METHODS:
                return _BoundMethod(attr, base)
            raise self.error(node, f"a tensor has no attribute '{attr}'")
        if isinstance(base, BlockPointer):
            raise self.error(node, f"a block pointer has no attribute '{attr}'")
        if isinstance(base, TensorDescriptor):
            if attr in ("load", "store"):
                return _BoundMethod("descriptor." + attr, base)
            if attr in ("block_shape", "dtype"):
                return getattr(base, attr)
            raise self.error(node, f"a tensor descriptor has no attribute '{attr}' on the CPU")
        try:
            value = getattr(base, attr)
            if (self.reads is not None and isinstance(base, types.ModuleType)
                    and not base.__name__.startswith(("tcpu.", "triton"))):
                self.reads.record(self.frame.source.fn, f"module:{base.__name__}.{attr}", value)
            return to_tcpu(value)
        except AttributeError:
            raise self.error(node, f"{self.describe(base)} has no attribute '{attr}'") from None

    # --- calls ----------------------------------------------------------------------------
    def _expr_Call(self, node: ast.Call) -> Any:
        fn = unwrap(self._expr(node.func))
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                seq = unwrap(self._expr(a.value))
                if not isinstance(seq, (tuple, list)):
                    raise self.error(a, "only compile-time tuples can be unpacked with *")
                args.extend(seq)
            else:
                args.append(self._expr(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise self.error(node, "**kwargs in a call is not supported in kernels")
            kwargs[k.arg] = self._expr(k.value)
        return self.call(fn, args, kwargs, node)

    def call(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if isinstance(fn, _BoundMethod):
            name = "cast" if fn.name == "to" else fn.name
            return self._builtin(name, [fn.self_value, *args], kwargs, node)
        if isinstance(fn, self.jit_type):
            return self.inline(fn, args, kwargs, node)
        builtin_name = getattr(fn, tlc.BUILTIN_ATTR, None)
        if builtin_name is not None:
            return self._builtin(builtin_name, args, kwargs, node)
        if fn is builtins.print:
            return self._builtin("device_print", [str(args[0]) if args and isinstance(
                unwrap(args[0]), str) else "", *(args[1:] if args and isinstance(
                    unwrap(args[0]), str) else args)], {}, node)
        if fn in (builtins.min, builtins.max):
            return self._min_max(fn, args, node)
        if fn is tlc.constexpr:
            return unwrap(args[0]) if args else None
        if fn is builtins.isinstance and len(args) == 2 and isinstance(
                unwrap(args[0]), (Value, TensorDescriptor)):
            # A run-time value is a tl.tensor, a descriptor a tl.tensor_descriptor (and
            # nothing else a kernel can name).
            classes = unwrap(args[1])
            classes = classes if isinstance(classes, tuple) else (classes,)
            kind = tlc.tensor if isinstance(unwrap(args[0]), Value) else tlc.tensor_descriptor
            return any(c is kind for c in classes)
        if any(isinstance(unwrap(a), Value) for a in [*args, *kwargs.values()]):
            raise self.error(node, f"cannot call {getattr(fn, '__name__', fn)!r} with run-time "
                             "values (only @jit functions and triton.language builtins can be)")
        try:
            return fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
        except CompilationError:
            raise
        except Exception as e:  # a compile-time Python call failed: point at the kernel line
            raise self.error(node, f"{getattr(fn, '__name__', fn)}(...) raised "
                             f"{type(e).__name__}: {e}") from None

    def _min_max(self, fn: Any, args: list[Any], node: ast.AST) -> Any:
        vals = [unwrap(a) for a in args]
        if len(vals) == 1 and isinstance(vals[0], (tuple, list)):
            vals = list(vals[0])
        if not any(isinstance(v, Value) for v in vals):
            return fn(*vals)
        name = "minimum" if fn is builtins.min else "maximum"
        result = vals[0]
        for v in vals[1:]:
            result = self._builtin(name, [result, v], {}, node)
        return result

    def _builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        impl = OPS.get(name)
        if impl is None:
            what = name if "." in name else f"tl.{name}"
            raise self.error(node, f"{what} is not supported by tcpu yet", UnsupportedError)
        try:
            sig = inspect.signature(impl)
            sig.bind(None, *args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{name}(): {e}") from None
        return impl(self.cx(node), *args, **kwargs)

    # --- @jit helpers ---------------------------------------------------------------------
    def inline(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        source = fn.source()
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{fn.__name__}(): {e}") from None
        bound.apply_defaults()
        # A helper's `tl.constexpr` annotations decide nothing: as in Triton's call_JitFunction,
        # what is compile-time is what the caller passes (a tensor given to an annotated
        # parameter is a tensor there; tutorial 06 passes offs_m so).
        bindings = {k: unwrap(v) for k, v in bound.arguments.items()}
        result = self.lower_function(source, fn.fn.__globals__, bindings, is_kernel=False)
        return result

    def combine_lambda(self, node: ast.AST, fn: Any, dtypes: list[tlc.dtype]
                       ) -> tuple[str, list[tlc.dtype]]:
        """A @jit combine_fn as a C++ lambda over scalars of `dtypes`."""
        fn = unwrap(fn)
        if not isinstance(fn, self.jit_type):
            raise self.error(node, "combine_fn must be a @triton.jit function")
        params = [self.emit.fresh("arg") for _ in dtypes]
        values = [Value(p, d) for p, d in zip(params, dtypes)]
        with self.emit.capture() as lines:
            result = unwrap(self.inline(fn, values, {}, node))
            outs = result if isinstance(result, tuple) else (result,)
            outs = tuple(self.cx(node).value(o) for o in outs)
            for o in outs:
                if o.shape:
                    raise self.error(node, "combine_fn must return scalars")
            if len(outs) == 1:
                ret = convert(outs[0], dtypes[0]).expr
            else:
                ret = "std::make_pair(" + ", ".join(
                    convert(o, d).expr for o, d in zip(outs, dtypes)) + ")"
            self.emit.line(f"return {ret};")
        head = ", ".join(f"{cpp.ctype(d)} {p}" for p, d in zip(params, dtypes))
        body = "\n".join(l for l in lines)
        return f"[&]({head}) {{\n{body}\n{'  ' * self.emit.depth}}}", [o.dtype for o in outs]


@dataclass(frozen=True)
class _BoundMethod:
    """`x.sum` before the call: a builtin with its first argument bound."""

    name: str
    self_value: Any  # a Value, or a TensorDescriptor

