"""Expressions other than names, attributes and calls: constants, tuples, f-strings (of
compile-time values), `:=`, tuple comprehensions, arithmetic, comparisons, `and`/`or`,
conditional expressions and subscripts. On compile-time operands they fold as Python does; on run-time ones each operator's
typing is its op's (ops/arith.py), and `acc + tl.dot(a, b)` becomes tl.dot(a, b, acc)."""

from __future__ import annotations

import ast
from typing import Any

from ...triton.language import core as tlc
from ..ops.arith import COMPARISONS, binary, convert, fold_any, unary
from ..ops.dot_ops import fuse_add
from ..ops.memory import BlockPointer
from ..ops.shape import expand
from ..values import Value, is_number, unwrap
from .core import LowererCore

BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
          ast.RShift: ">>", ast.Pow: "**"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
           ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_UNOPS = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}


class Expressions(LowererCore):
    """The `_expr_<Node>` methods of the expressions above, and `_binop`."""

    def _expr_Constant(self, node: ast.Constant) -> Any:
        return node.value

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

    def _expr_ListComp(self, node: ast.ListComp) -> tuple:
        """`[f(v) for v in t]` over a compile-time tuple: a tuple, as Triton's (its only
        comprehension); the target stays bound afterwards, as Triton's does."""
        if len(node.generators) != 1:
            raise self.error(node, "nested comprehensions are not supported")
        comp = node.generators[0]
        if comp.ifs or comp.is_async:
            # Triton ignores the condition; refusing it keeps a kernel from a silent difference.
            raise self.error(node, "a comprehension in a kernel takes no 'if' clause")
        items = unwrap(self._expr(comp.iter))
        if not isinstance(items, tuple):
            raise self.error(comp.iter, "only tuple comprehensions are supported")
        results = []
        for item in items:
            self._assign(comp.target, item, node)  # type: ignore[arg-type]
            results.append(self._expr(node.elt))
        return tuple(results)

    def _expr_Lambda(self, node: ast.Lambda) -> None:
        raise self.error(node, "lambda is not supported in Triton kernels")

    def _expr_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self._expr(node.left), self._expr(node.right)
        if isinstance(node.op, ast.Add):
            fused = self._dot_add(a, node.left, b, node) or self._dot_add(b, node.right, a, node)
            if fused is not None:
                return fused
        return self._binop(BINOPS[type(node.op)], a, b, node)

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
            if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                # As Triton: the identity of the objects, a run-time value's too (a tensor
                # argument `is not None`), known at compile time.
                return tlc.constexpr((a is b) == isinstance(node.ops[0], ast.Is))
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
        # Each side is evaluated in its own branch, as in Triton (an scf.if): the other side's
        # loads and stores do not run (a load it guards may be out of bounds).
        var = self.emit.fresh("select")
        with self.emit.capture() as then_lines:
            a = unwrap(self._expr(node.body))
            av = None if a is None else self.cx(node).value(a)
            if av is not None:
                self.emit.line(f"{var} = {av.expr};")
        with self.emit.capture() as else_lines:
            b = unwrap(self._expr(node.orelse))
            bv = None if b is None else self.cx(node).value(b)
            if bv is not None:
                self.emit.line(f"{var} = {bv.expr};")
        if (av is None) != (bv is None) or (av is not None and bv is not None and (
                av.dtype != bv.dtype or av.shape != bv.shape)):
            def text(v: Value | None) -> str:
                return "void" if v is None else v.type_text()
            raise self.error(node, "Ternary expression with dynamic condition has inconsistent "
                             f"types {text(av)} and {text(bv)}")  # Triton's words
        if av is not None:
            self.emit.line(f"{self._storage_type(av)} {var};")
        self.emit.line(f"if ({convert(test, tlc.int1).expr}) {{")
        self.emit.extend(then_lines)
        self.emit.line("} else {")
        self.emit.extend(else_lines)
        self.emit.line("}")
        if av is None or bv is None:
            return None  # both sides void (stores): Triton's if with no result
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
            # As Triton: None inserts a dimension, a slice whose bounds are all None (written
            # or not: `None:`, `:None`, a constexpr None) keeps one; the parts are evaluated.
            if isinstance(item, ast.Slice):
                bounds = [b for b in (item.lower, item.upper, item.step) if b is not None]
                if all(unwrap(self._expr(b)) is None for b in bounds):
                    dim += 1
                    continue
            elif unwrap(self._expr(item)) is None:
                out = expand(self.cx(node), out, dim)
                dim += 1
                continue
            raise self.error(node, "unsupported tensor index: only None and ':' are allowed")
        return out
