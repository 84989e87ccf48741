"""Loops and the names they carry: `for` over range / tl.range (a C++ for loop) and
tl.static_range (the body lowered once per index), and `while`. `_begin_loop` gives each name
the body rebinds a mutable C++ variable (its type may not change in the loop; pointer and index
blocks advanced by scalars keep tl's structured types), `_end_loop` writes the iteration's values
back to them (loop_state.py: without reading a value already overwritten)."""

from __future__ import annotations

import ast
import builtins
import inspect
from dataclasses import dataclass
from typing import Any

from ...triton.language import core as tlc
from .. import cpp
from ..errors import CompilationError
from ..ops.arith import convert
from ..ops.descriptors import TensorDescriptor
from ..ops.memory import BlockPointer
from ..promotion import integer_promote, literal_dtype
from ..values import Value, unwrap
from .core import LowererCore
from .loop_state import assign_in_parallel, carry_leaves, leaf_writes

_LOOP_NAMES = {"range", "static_range"}


# The signatures of Triton 3.6's tl.range and tl.static_range (language/core.py): `step` may be
# a keyword, also beside a single bound (`tl.range(10, step=3)` counts 0, 3, 6, 9).
def _tl_range(arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None,
              disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False,
              disable_licm=False):
    pass


def _tl_static_range(arg1, arg2=None, step=None):
    pass


_SIGNATURES = {"range": inspect.signature(_tl_range),
               "static_range": inspect.signature(_tl_static_range)}


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
class Carry:
    """A name a loop carries: its C++ variable, dtype and shape."""

    name: str
    var: str
    value: Any  # a Value, or a BlockPointer
    direct_stmt: ast.stmt | None  # the body's last top-level assignment, written in place


class Loops(LowererCore):
    """The `_stmt_For` and `_stmt_While` methods, and the carried names of the loops entered."""

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
        lb, ub, step = self._range_bounds(node, fn is builtins.range, kind, args, kwargs)
        if kind == "static_range":
            return self._static_for(node, (lb, ub, step))
        return self._runtime_for(node, lb, ub, step)

    def _range_bounds(self, node: ast.For, python_range: bool, kind: str, args: list[Any],
                      kwargs: dict[str, Any]) -> tuple[Any, Any, Any]:
        """(start, end, step) of a range, tl.range or tl.static_range call, bound as Python
        binds the call's arguments to the signature."""
        if python_range:
            # Triton ignores keywords given to Python's range (range(0, 8, step=2) counts by
            # 1 there); Python refuses them, and so does tcpu rather than count wrongly.
            if kwargs:
                raise self.error(node.iter, "range() takes no keyword arguments (tl.range "
                                 "takes step=...)")
            if not 1 <= len(args) <= 3:
                raise self.error(node.iter, f"range takes 1 to 3 arguments, got {len(args)}")
            bound = dict(zip(("arg1", "arg2", "step"), args))
        else:
            try:
                bound = _SIGNATURES[kind].bind(*args, **kwargs).arguments
            except TypeError as e:
                raise self.error(node.iter, f"tl.{kind}: {e}") from None
        arg1, arg2, step = (unwrap(bound.get(k)) for k in ("arg1", "arg2", "step"))
        step = 1 if step is None else step
        return (0, arg1, step) if arg2 is None else (arg1, arg2, step)

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

    # --- the loops entered, and the names they carry --------------------------------------
    def _frame_loops(self) -> list[dict[str, Carry]]:
        """The loops of the function being lowered (not those of the callers it is inlined in)."""
        return self._loops[self.frame.loop_base:]

    def _in_loop_depth(self) -> int:
        return len(self._frame_loops())

    def _carry_of(self, name: str) -> Carry | None:
        if not self._frame_loops() or self._depth != self._loop_depth[-1]:
            return None
        return self._loops[-1].get(name)

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

    # --- the two kinds of for -------------------------------------------------------------
    def _runtime_for(self, node: ast.For, lb: Any, ub: Any, step: Any) -> None:
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

    def _static_for(self, node: ast.For, bounds: tuple[Any, Any, Any]) -> None:
        values = [self.cx(node.iter).const(a, "tl.static_range's bounds") for a in bounds]
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
