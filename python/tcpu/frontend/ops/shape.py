"""Shapes: broadcast_to, expand_dims, reshape/view, permute/trans, ravel, cat, join, split,
interleave, flip, gather (tl's shape.h), any rank.

A block of rank 3 or more [A, ..., Y, Z] is held as tl's [A * ... * Y, Z] (cpp.block_dims,
tl/rank_n.h): reshapes and what acts along the last dimension need nothing more; the rest goes
through rank_n.py."""

from __future__ import annotations

from typing import Any

from .. import cpp
from ..values import Value, unwrap
from . import op
from .arith import broadcast_shapes
from .context import OpContext
from .creation import shape_arg
from .rank_n import along_last, broadcast_nd, inverse, permute_nd


_dims = cpp.block_dims


def broadcast_value(cx: OpContext, v: Value, shape: tuple[int, ...]) -> Value:
    if v.shape == shape:
        return v
    if broadcast_shapes(cx, v.shape, shape) != shape:
        raise cx.error(f"cannot broadcast a block of shape {list(v.shape)} to {list(shape)}")
    if len(shape) >= 3:
        return broadcast_nd(v, shape)
    return Value(f"tl::broadcast_to<{_dims(shape)}>({v.expr})", v.dtype, shape, v.roots)


@op("broadcast_to")
def broadcast_to(cx: OpContext, input: Any, *shape: Any) -> Value:
    s = shape[0] if len(shape) == 1 and isinstance(unwrap(shape[0]), (tuple, list)) else shape
    return broadcast_value(cx, cx.value(input), shape_arg(cx, s))


@op("broadcast")
def broadcast(cx: OpContext, input: Any, other: Any) -> tuple[Value, Value]:
    a, b = cx.value(input), cx.value(other)
    shape = broadcast_shapes(cx, a.shape, b.shape)
    return broadcast_value(cx, a, shape), broadcast_value(cx, b, shape)


def expand(cx: OpContext, v: Value, axis: int) -> Value:
    rank = len(v.shape)
    if not -(rank + 1) <= axis <= rank:
        raise cx.error(f"expand_dims: axis {axis} is out of range for rank {rank}")
    axis %= rank + 1
    if rank == 0:
        return Value(f"tl::full<{_ctype(v)}, 1>({v.expr})", v.dtype, (1,), v.roots)
    if rank >= 2:
        shape = v.shape[:axis] + (1,) + v.shape[axis:]
        # A 1 before the last dimension keeps the tl form ([A, B] holds [1, A, B] and
        # [A, 1, B]); one after it ([A, B, 1], held as [A * B, 1]) is a reshape.
        if _dims(shape) == _dims(v.shape):
            return Value(v.expr, v.dtype, shape, v.roots)
        return Value(f"tl::reshape<{_dims(shape)}>({v.expr})", v.dtype, shape, v.roots)
    shape = (1, v.shape[0]) if axis == 0 else (v.shape[0], 1)
    fn = "row" if axis == 0 else "col"
    return Value(f"tl::{fn}({v.expr})", v.dtype, shape, v.roots)


def _ctype(v: Value) -> str:
    return cpp.ctype(v.dtype)


@op("expand_dims")
def expand_dims(cx: OpContext, input: Any, axis: Any) -> Value:
    v = cx.value(input)
    axes = cx.const(axis, "axis")
    axes = [unwrap(a) for a in (axes if isinstance(axes, (tuple, list)) else (axes,))]
    # Triton's order: every axis wrapped against the result's rank, then inserted in order.
    ndim = len(v.shape) + len(axes)
    for a in axes:
        if not isinstance(a, int) or not -ndim <= a < ndim:
            raise cx.error(f"expand_dims: invalid axis {a!r}, expected {-ndim} <= axis < {ndim}")
    wrapped = [a % ndim for a in axes]
    if len(set(wrapped)) != len(wrapped):
        raise cx.error(f"expand_dims received duplicate axes, normalized axes = {wrapped}")
    for a in sorted(wrapped):
        v = expand(cx, v, a)
    return v


@op("reshape", "view")
def reshape(cx: OpContext, input: Any, *shape: Any, can_reorder: Any = False) -> Value:
    v = cx.value(input)
    s = shape[0] if len(shape) == 1 and isinstance(unwrap(shape[0]), (tuple, list)) else shape
    dims = tuple(unwrap(d) for d in cx.const(tuple(s), "shape"))
    n = 1
    for d in dims:
        n *= d
    if n != v.numel:
        raise cx.error(f"reshape cannot change the number of elements ({list(v.shape)} -> "
                       f"{list(dims)})")
    if dims == v.shape:
        return v
    if not dims:
        return cx.bind("scalar", f"tl::eval({v.expr}).v[0]", v.dtype)
    if _dims(dims) == _dims(v.shape):
        return Value(v.expr, v.dtype, dims, v.roots)  # the same tl block
    return Value(f"tl::reshape<{_dims(dims)}>({v.expr})", v.dtype, dims, v.roots)


@op("item")
def item(cx: OpContext, input: Any) -> Value:
    """A one-element block as a scalar (a scalar stays itself), as Triton's tensor.item."""
    v = cx.value(input)
    if v.numel != 1:
        raise cx.error(f"item() needs a single-element block, got shape {list(v.shape)}")
    return reshape(cx, v, ())


@op("ravel")
def ravel(cx: OpContext, x: Any, can_reorder: Any = False) -> Value:
    v = cx.value(x)
    return reshape(cx, v, (v.numel,))


@op("permute")
def permute(cx: OpContext, input: Any, *dims: Any) -> Value:
    v = cx.value(input)
    d = dims[0] if len(dims) == 1 and isinstance(unwrap(dims[0]), (tuple, list)) else dims
    order = tuple(unwrap(x) for x in cx.const(tuple(d), "dims"))
    if sorted(order) != list(range(len(v.shape))):
        raise cx.error(f"permute: {list(order)} is not a permutation of the {len(v.shape)} dims")
    if order == tuple(range(len(v.shape))):
        return v
    if len(v.shape) >= 3:
        return cx.bind("permuted", permute_nd(v, order).expr, v.dtype,
                       tuple(v.shape[k] for k in order))
    return cx.bind("trans", f"tl::trans({v.expr})", v.dtype, (v.shape[1], v.shape[0]))


@op("trans")
def trans(cx: OpContext, input: Any, *dims: Any) -> Value:
    v = cx.value(input)
    if dims:
        return permute(cx, v, *dims)
    if len(v.shape) == 1:
        return v
    if len(v.shape) < 2:
        raise cx.error(f"trans needs a block of rank 2 or more, got {v.type_text()}")
    # Triton's default: the last two dimensions swap (a batched transpose).
    n = len(v.shape)
    return permute(cx, v, tuple(range(n - 2)) + (n - 1, n - 2))


@op("cat")
def cat(cx: OpContext, input: Any, other: Any, can_reorder: Any = False, dim: Any = 0) -> Value:
    a, b = cx.value(input), cx.value(other)
    # Triton's semantic.cat asserts both (tl::cat keeps the order, and joins 2-D blocks too).
    if not cx.const(can_reorder, "can_reorder"):
        raise cx.error("the current implementation of cat always may reorder elements: pass "
                       "can_reorder=True")
    if len(a.shape) != 1 or len(b.shape) != 1:
        raise cx.error(f"cat takes 1-D blocks, got {a.type_text()} and {b.type_text()}")
    if a.dtype != b.dtype or a.shape[1:] != b.shape[1:]:
        raise cx.error(f"cat: incompatible blocks {a.type_text()} and {b.type_text()}")
    shape = (a.shape[0] + b.shape[0],) + a.shape[1:]
    return cx.bind("cat", f"tl::cat({a.expr}, {b.expr})", a.dtype, shape)


@op("join")
def join(cx: OpContext, a: Any, b: Any) -> Value:
    x, y = cx.value(a), cx.value(b)
    if x.dtype != y.dtype or x.shape != y.shape:
        raise cx.error(f"join: both blocks must have one dtype and shape, got {x.type_text()} "
                       f"and {y.type_text()}")
    if len(x.shape) >= 2:  # [..., Z] and [..., Z] as [numel, 2], the tl form of [..., Z, 2]
        return cx.bind("joined", f"tl::join(tl::ravel({x.expr}), tl::ravel({y.expr}))", x.dtype,
                       x.shape + (2,))
    if not x.shape:
        return cx.bind("joined", f"tl::join(tl::full<{_ctype(x)}, 1>({x.expr}), "
                       f"tl::full<{_ctype(y)}, 1>({y.expr}))", x.dtype, (2,))
    return cx.bind("joined", f"tl::join({x.expr}, {y.expr})", x.dtype, (x.shape[0], 2))


@op("split")
def split(cx: OpContext, a: Any) -> tuple[Value, Value]:
    v = cx.value(a)
    if not v.shape or v.shape[-1] != 2:
        raise cx.error(f"split needs a block whose last dimension is 2, got {list(v.shape)}")
    pair = cx.emit.bind("split", f"tl::split({v.expr})")
    shape = v.shape[:-1]
    if not shape:
        return (Value(f"{pair}.first", v.dtype), Value(f"{pair}.second", v.dtype))
    if len(shape) >= 2:  # tl splits [A * ... * Z, 2] into two [A * ... * Z]
        return tuple(cx.bind("half", f"tl::reshape<{_dims(shape)}>({pair}.{h})", v.dtype, shape)
                     for h in ("first", "second"))
    return (Value(f"{pair}.first", v.dtype, shape), Value(f"{pair}.second", v.dtype, shape))


@op("interleave")
def interleave(cx: OpContext, a: Any, b: Any) -> Value:
    x, y = cx.value(a), cx.value(b)
    if not x.shape and not y.shape:
        return join(cx, a, b)  # as Triton's: two scalars interleaved are their join, shape [2]
    if x.dtype != y.dtype or x.shape != y.shape:
        raise cx.error(f"interleave: both blocks must have one dtype and shape, got "
                       f"{x.type_text()} and {y.type_text()}")
    shape = x.shape[:-1] + (2 * x.shape[-1],)
    return cx.bind("interleaved", f"tl::interleave({x.expr}, {y.expr})", x.dtype, shape)


@op("flip")
def flip(cx: OpContext, x: Any, dim: Any = None) -> Value:
    v = cx.value(x)
    d = cx.const(dim, "dim")
    axis = -1 if d is None else d % len(v.shape)
    if axis == len(v.shape) - 1:
        axis = -1
    if len(v.shape) >= 3 and axis != -1:
        moved, order = along_last(v, axis)
        flipped = Value(f"tl::flip<-1>({moved.expr})", v.dtype, moved.shape)
        return cx.bind("flipped", permute_nd(flipped, inverse(order)).expr, v.dtype, v.shape)
    return cx.bind("flipped", f"tl::flip<{axis}>({v.expr})", v.dtype, v.shape)


@op("gather")
def gather(cx: OpContext, src: Any, index: Any, axis: Any) -> Value:
    s, i = cx.value(src), cx.value(index)
    rank = len(s.shape)
    a = cx.const(axis, "axis")
    # Triton's checks (semantic.gather): one rank, integer indices, equal sizes off the axis.
    if not s.shape or len(i.shape) != rank:
        raise cx.error(f"gather: source and index must be blocks of one rank, got "
                       f"{s.type_text()} and {i.type_text()}")
    if not i.dtype.is_int():
        raise cx.error(f"gather: the index must hold integers, got {i.type_text()}")
    if not isinstance(a, int) or not -rank <= a < rank:
        raise cx.error(f"gather: axis {a!r} is out of range for rank {rank}")
    a %= rank
    for d in range(rank):
        if d != a and s.shape[d] != i.shape[d]:
            raise cx.error(f"gather: index dimension {d} has size {i.shape[d]}, the source "
                           f"{s.shape[d]} (only the gather axis may differ)")
    if len(s.shape) >= 3:
        # Along the last dimension of the [A * ... * Y, Z] form each row gathers from its own row;
        # another axis is moved there first (source and index alike), then back.
        ms, order = along_last(s, a)
        mi, _ = along_last(i, a)
        gathered = Value(f"tl::gather<1>({ms.expr}, {mi.expr})", s.dtype, mi.shape)
        back = gathered if a == rank - 1 else permute_nd(gathered, inverse(order))
        return cx.bind("gathered", back.expr, s.dtype, i.shape)
    return cx.bind("gathered", f"tl::gather<{a}>({s.expr}, {i.expr})", s.dtype, i.shape)
