"""Statements other than loops: expression statements, assignment (plain, annotated and
augmented; SSA names, and the in-place write of a loop-carried name), `return` (a helper's value
bound to a variable), `assert`, and `if`: a compile-time condition lowers only the taken branch;
a run-time one lowers both and merges the names they bind (one dtype and shape, or an error at
the `if`). What Triton refuses (`break`, `continue`, nested functions, `with`) is refused here."""

from __future__ import annotations

import ast
import dataclasses
import warnings
from typing import Any

from ...triton.language import core as tlc
from .. import cpp
from ..errors import UnsupportedError
from ..ops import OPS
from ..ops.arith import convert
from ..ops.descriptors import TensorDescriptor
from ..ops.memory import BlockPointer
from ..promotion import literal_dtype
from ..values import Value, is_number, retuple, unwrap
from .core import RETURN, LowererCore
from .expressions import BINOPS
from .loop_state import dot_in_place, read_in_place, snapshot_aliases


def _is_constexpr_annotation(annotation: ast.AST | None) -> bool:
    return annotation is not None and ast.unparse(annotation).split(".")[-1] == "constexpr"


def _numbers_to_scalars(v: Any) -> Any:
    if isinstance(v, tuple):
        items = tuple(_numbers_to_scalars(unwrap(x)) for x in v)
        return v if all(a is b for a, b in zip(items, v)) else retuple(v, items)
    if is_number(v):
        d = literal_dtype(v)
        return Value(cpp.literal(v, d), d)
    return v


class Statements(LowererCore):
    """The `_stmt_<Node>` methods of the statements above, assignment and the run-time `if`."""

    def _stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return None  # a docstring
        if isinstance(node.value, ast.Call):
            self.unused_calls.add(id(node.value))  # must_use_result's check (calls.py)
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
            result = self._binop(BINOPS[type(node.op)], current, rhs, node)
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
        self.frame.scope[RETURN] = self._materialize_return(value, node)
        return True

    def _materialize_return(self, value: Any, node: ast.AST) -> Any:
        v = unwrap(value)
        if isinstance(v, Value) and not v.expr.isidentifier():
            return Value(self.emit.bind("ret", v.expr), v.dtype, v.shape, v.roots)
        if isinstance(v, tuple):
            return retuple(v, [self._materialize_return(x, node) for x in v])
        return v

    def _stmt_Assert(self, node: ast.Assert) -> None:
        test = self._expr(node.test)
        msg = self._expr(node.msg) if node.msg is not None else ""
        OPS["device_assert"](self.cx(node), test, msg if not isinstance(msg, Value) else "")
        return None

    def _stmt_If(self, node: ast.If) -> bool:
        test = self._expr(node.test)
        return self._if(node, test)

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

    # --- control flow: if -----------------------------------------------------------------
    def _if(self, node: ast.If, test: Any) -> bool:
        t = unwrap(test)
        if not isinstance(t, Value):
            return self._stmts(node.body if t else node.orelse)
        if t.numel != 1:
            raise self.error(node.test, f"an if condition must be a scalar, got a block "
                             f"{t.type_text()}")
        if t.shape:
            # Triton takes a one-element block's element, with a warning.
            loc = self.frame.source.location(node.test)
            warnings.warn_explicit(f"if {ast.unparse(node.test)}: the condition is a block of "
                                   f"one element ({t.type_text()}), not a scalar; its element "
                                   "decides", UserWarning, loc.filename, loc.line)
            t = OPS["reshape"](self.cx(node.test), t, ())
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
            then_scope.pop(RETURN, None)
            else_scope.pop(RETURN, None)
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
            if (a is None) != (b is None) and name == RETURN and not self.frame.is_kernel:
                # A helper returns in one branch and falls off its end in the other: Triton
                # returns an undefined value (a poison) on that path, of the returned type.
                self.frame.scope[name] = self._poison_merge(
                    a if a is not None else b, node, declarations,
                    assigns_then if a is not None else assigns_else)
                continue
            if a is None or b is None:
                continue  # bound in one branch only: not visible after the if
            merged = self._merge(name, a, b, node, declarations, assigns_then, assigns_else)
            self.frame.scope[name] = merged
        if self.frame.is_kernel:
            # A branch that returns leaves the program: its names are not read after the if
            # (and the other branch's values are out of its scope).
            if then_ret:
                assigns_then.clear()
            if else_ret:
                assigns_else.clear()
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

    def _poison_merge(self, value: Any, node: ast.AST, decls: list[str],
                      assigns: list[str]) -> Any:
        v = unwrap(value)
        if isinstance(v, tuple):
            return retuple(v, [self._poison_merge(x, node, decls, assigns) for x in v])
        v = _numbers_to_scalars(v)
        if not isinstance(v, Value):
            raise self.error(node, f"the return value is {self.describe(v)} on one path and "
                             "nothing on the other; Triton returns a run-time value only")
        var = self.emit.fresh("merged")
        decls.append(f"{self._storage_type(v)} {var}{{}};")  # any value will do: zero
        assigns.append(f"{var} = {v.expr};")
        return Value(var, v.dtype, v.shape, v.roots)

    def _merge(self, name: str, a: Any, b: Any, node: ast.AST, decls: list[str],
               then_assigns: list[str], else_assigns: list[str]) -> Any:
        a, b = unwrap(a), unwrap(b)
        shown = "the return value" if name == RETURN else f"'{name}'"
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            return tuple(self._merge(f"{name}[{i}]", x, y, node, decls, then_assigns,
                                     else_assigns) for i, (x, y) in enumerate(zip(a, b)))
        if (isinstance(a, TensorDescriptor) and isinstance(b, TensorDescriptor)
                and a.block_shape == b.block_shape and a.padding == b.padding):
            # One descriptor type whichever branch made it: its run-time fields merge.
            fields = [self._merge(f"{name}.{f}", getattr(a, f), getattr(b, f), node, decls,
                                  then_assigns, else_assigns) for f in ("base", "shape", "strides")]
            return dataclasses.replace(a, base=fields[0], shape=fields[1], strides=fields[2])
        if name.startswith(RETURN) and (is_number(a) or is_number(b)) and not (
                is_number(a) and is_number(b) and a == b):
            # Triton's return makes a number a tensor (to_tensor): branches that return
            # different numbers return one run-time scalar of the numbers' dtype.
            a, b = (self.cx(node).value(x) if is_number(x) else x for x in (a, b))
        if not isinstance(a, Value) or not isinstance(b, Value):
            if not isinstance(a, Value) and not isinstance(b, Value) and a == b:
                return a
            raise self.error(node, f"{shown} is {self.describe(a)} after the then-branch but "
                             f"{self.describe(b)} after the else-branch; both branches must "
                             "give it one type")
        if a.dtype != b.dtype or a.shape != b.shape:
            if name.startswith(RETURN):
                # Triton decides a function's return type once its body is done: the error
                # points at the `def`, in Triton's words.
                raise self.error(self.frame.source.tree, f"Return type mismatch: "
                                 f"{a.type_text()} and {b.type_text()}")
            raise self.error(node, f"Mismatched type for {name} between the then-branch "
                             f"({a.type_text()}) and the else-branch ({b.type_text()})")
        if a.dtype.is_ptr() and a.roots != b.roots:
            # One variable holds either parameter: both must be of one C++ type, so neither may
            # be the const (read-only) kind; mutable pointers read at the load, as Triton does.
            self.written_roots.update(a.roots | b.roots)
        var = self.emit.fresh("merged" if name == RETURN else name.split("[")[0].split(".")[0])
        decls.append(f"{self._storage_type(a)} {var};")
        then_assigns.append(f"{var} = {a.expr};")
        else_assigns.append(f"{var} = {b.expr};")
        return Value(var, a.dtype, a.shape, a.roots | b.roots)
