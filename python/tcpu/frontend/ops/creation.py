"""Creation: arange, full, zeros, zeros_like, tuple."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value, unwrap
from . import op
from .arith import convert_checked
from .context import OpContext


def shape_arg(cx: OpContext, shape: Any) -> tuple[int, ...]:
    s = cx.const(shape, "shape")
    s = tuple(unwrap(d) for d in (s if isinstance(s, (tuple, list)) else (s,)))
    for i, d in enumerate(s):
        if not isinstance(d, int):
            raise cx.error(f"shape {list(s)}: every dimension must be a tl.constexpr int")
        if d <= 0 or d & (d - 1):
            raise cx.error(f"Shape element {i} must be a power of 2")  # Triton's words
    return s


@op("arange")
def arange(cx: OpContext, start: Any, end: Any) -> Value:
    s, e = cx.const(start, "arange's start"), cx.const(end, "arange's end")
    if not isinstance(s, int) or not isinstance(e, int):
        raise cx.error("arange's arguments must be of type tl.constexpr")
    if (s >> 32) or (e >> 32):
        raise cx.error("arange must fit in int32")
    if e <= s:
        raise cx.error("arange's end argument must be greater than the start argument")
    n = e - s
    if n & (n - 1):
        raise cx.error("arange's range must be a power of 2")  # Triton's words
    return Value(f"tl::arange<{s}, {e}>()", tl.int32, (n,))


def full_value(cx: OpContext, shape: tuple[int, ...], value: Any, dtype: tl.dtype) -> Value:
    v = unwrap(value)
    if not isinstance(v, Value):
        cx.check_constant(v, dtype)
    scalar = convert_checked(cx, cx.value(v), dtype) if isinstance(v, Value) else Value(
        cpp.literal(v, dtype), dtype)
    if isinstance(v, Value) and v.shape:
        raise cx.error("full's value must be a scalar")
    if not shape:
        return scalar
    return Value(f"tl::full<{cpp.ctype(dtype)}, {cpp.block_dims(shape)}>({scalar.expr})", dtype,
                 shape)


@op("full")
def full(cx: OpContext, shape: Any, value: Any, dtype: Any) -> Value:
    return full_value(cx, shape_arg(cx, shape), value, cx.dtype_arg(dtype, "dtype"))


@op("zeros")
def zeros(cx: OpContext, shape: Any, dtype: Any) -> Value:
    s, d = shape_arg(cx, shape), cx.dtype_arg(dtype, "dtype")
    if not s:
        return Value(cpp.literal(0, d), d)
    return Value(f"tl::zeros<{cpp.ctype(d)}, {cpp.block_dims(s)}>()", d, s)


@op("zeros_like")
def zeros_like(cx: OpContext, input: Any) -> Value:
    v = cx.value(input)
    return zeros(cx, v.shape, v.dtype)


@op("tuple")
def make_tuple(cx: OpContext, args: Any, type: Any = None) -> tuple:
    """`tl.tuple(items)`: the items as a tuple (a kernel's tuples are Python tuples; Triton's
    `type` argument only restates their types)."""
    items = unwrap(args)
    if not isinstance(items, (tuple, list)):
        raise cx.error(f"tl.tuple takes a tuple or list, got {items!r}")
    return tuple(items)
