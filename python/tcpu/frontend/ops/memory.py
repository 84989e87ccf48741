"""Memory: load and store through pointers, blocks of pointers and block pointers
(make_block_ptr / advance). Cache and eviction hints are accepted and ignored (a CPU's
caches take no hints from a kernel)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value, unwrap
from . import op
from .arith import broadcast_shapes, convert, convert_checked
from .context import OpContext
from .rank_n import fit, fit_all
from .shape import broadcast_value

_CACHE = {"", ".ca", ".cg", ".cv"}
_STORE_CACHE = {"", ".wb", ".cg", ".cs", ".wt"}
_EVICTION = {"", "evict_last", "evict_first", "evict_normal"}


@dataclass(frozen=True)
class BlockPointer:
    """The value of make_block_ptr: a tl::BlockPtr named `expr`."""

    expr: str
    element: tl.dtype
    shape: tuple[int, ...]
    roots: frozenset[str]

    def type_text(self) -> str:
        return f"block_ptr<{self.element}>[{', '.join(map(str, self.shape))}]"


def _check_hint(cx: OpContext, value: Any, allowed: set[str], what: str) -> None:
    v = cx.const(value, what)
    if v not in allowed:
        raise cx.error(f"{what} must be one of {sorted(allowed)}, got {v!r}")


def _pointer(cx: OpContext, pointer: Any, what: str) -> Value:
    p = cx.value(pointer)
    if not p.dtype.is_ptr():
        raise cx.error(f"{what}: the pointer argument must be a pointer or a block of pointers, "
                       f"got {p.type_text()}")
    return p


def _mask(cx: OpContext, mask: Any, shape: tuple[int, ...]) -> Value | None:
    m = unwrap(mask)
    if m is None:
        return None
    if isinstance(m, bool):
        m = Value("true" if m else "false", tl.int1)
    m = cx.value(m)
    if m.dtype != tl.int1:
        raise cx.error(f"mask must have boolean scalar type, got {m.type_text()}")
    fits(cx, m, shape, "mask")
    if shape and not m.shape:
        # One mask for the whole block (a Python bool too): Triton splats it to the pointers'
        # shape; tl takes a block mask only.
        m = broadcast_value(cx, m, shape)
    return m


def fits(cx: OpContext, v: Value, shape: tuple[int, ...], what: str) -> None:
    """v must broadcast to the pointer block's `shape` without widening it, as Triton's
    broadcast_impl_shape(v, ptr.shape) requires."""
    if broadcast_shapes(cx, shape, v.shape) != shape:
        raise cx.error(f"{what} of shape {list(v.shape)} cannot be broadcast to the pointers' "
                       f"shape {list(shape)}")


def _boundary(cx: OpContext, boundary_check: Any, rank: int) -> int:
    dims = cx.const(boundary_check, "boundary_check")
    dims = tuple(unwrap(d) for d in (dims if isinstance(dims, (tuple, list)) else (dims,)))
    bits = 0
    for d in dims:
        if not isinstance(d, int) or not 0 <= d < rank:
            raise cx.error(f"boundary_check: dimension {d!r} is out of range for rank {rank}")
        bits |= 1 << d
    return bits


def _padding(cx: OpContext, padding_option: Any) -> str:
    p = cx.const(padding_option, "padding_option")
    if p in ("", None, "zero"):
        return "tl::Padding::zero"
    if p == "nan":
        return "tl::Padding::nan"
    raise cx.error(f"padding_option must be 'zero' or 'nan', got {p!r}")


@op("load")
def load(cx: OpContext, pointer: Any, mask: Any = None, other: Any = None, boundary_check: Any = (),
         padding_option: Any = "", cache_modifier: Any = "", eviction_policy: Any = "",
         volatile: Any = False) -> Value:
    _check_hint(cx, cache_modifier, _CACHE, "cache_modifier")
    _check_hint(cx, eviction_policy, _EVICTION, "eviction_policy")
    cx.const(volatile, "volatile")
    ptr = unwrap(pointer)
    if isinstance(ptr, BlockPointer):
        if unwrap(mask) is not None or unwrap(other) is not None:
            raise cx.error("load through a block pointer takes boundary_check and "
                           "padding_option, not mask and other")
        bits = _boundary(cx, boundary_check, len(ptr.shape))
        expr = f"tl::load({ptr.expr}, {bits}, {_padding(cx, padding_option)})"
        return cx.bind("load", expr, ptr.element, ptr.shape)
    if cx.const(boundary_check, "boundary_check") not in ((), None, []):
        raise cx.error("boundary_check is only for block pointers (tl.make_block_ptr)")
    p = _pointer(cx, ptr, "load")
    elem = p.dtype.element_ty
    m = _mask(cx, mask, p.shape)
    o = unwrap(other)
    if o is not None and m is None:
        raise cx.error("`other` cannot be provided without `mask`")
    shape = p.shape
    if m is None:
        return cx.bind("load", f"tl::load({p.expr})", elem, shape)
    m = fit(m, shape)
    if o is None:
        o_expr = cpp.literal(0, elem)
    elif isinstance(o, Value):
        if o.shape:
            # A block `other`: lanes the mask turns off take it, lane by lane.
            if broadcast_shapes(cx, shape, o.shape) != shape:
                raise cx.error(f"`other` of shape {list(o.shape)} does not fit the loaded block "
                               f"{list(shape)}")
            o = fit(o, shape)
            loaded = cx.bind("load", f"tl::load({p.expr}, {m.expr}, {cpp.literal(0, elem)})",
                             elem, shape)
            return cx.bind("load", f"tl::where({m.expr}, {loaded.expr}, "
                           f"{convert_checked(cx, o, elem).expr})", elem, shape)
        o_expr = convert_checked(cx, o, elem).expr
    elif elem.is_fp8():
        # Triton converts the number (a conversion keeps -0.0's sign; an fp8 constant would not).
        o_expr = f"tl::cast<{cpp.ctype(elem)}>({cpp.literal(float(o), tl.float32)})"
    else:
        o_expr = cpp.literal(o, elem)
    if not shape:
        return cx.bind("load", f"({m.expr} ? tl::load({p.expr}) : {o_expr})", elem)
    return cx.bind("load", f"tl::load({p.expr}, {m.expr}, {o_expr})", elem, shape)


def note_write(cx: OpContext, roots: frozenset[str]) -> None:
    cx.lowerer.written_roots |= roots


@op("store")
def store(cx: OpContext, pointer: Any, value: Any, mask: Any = None, boundary_check: Any = (),
          cache_modifier: Any = "", eviction_policy: Any = "") -> None:
    _check_hint(cx, cache_modifier, _STORE_CACHE, "cache_modifier")
    _check_hint(cx, eviction_policy, _EVICTION, "eviction_policy")
    ptr = unwrap(pointer)
    if isinstance(ptr, BlockPointer):
        v = cx.value(value, ptr.element)
        fits(cx, v, ptr.shape, "the stored value")
        bits = _boundary(cx, boundary_check, len(ptr.shape))
        note_write(cx, ptr.roots)
        stored = fit(convert_checked(cx, v, ptr.element), ptr.shape)
        cx.emit.line(f"tl::store({ptr.expr}, {stored.expr}, {bits});")
        return None
    p = _pointer(cx, ptr, "store")
    if p.dtype.is_const():  # a `tl.const` parameter, or a pointer derived from one
        raise cx.error("Cannot store to a constant pointer")
    elem = p.dtype.element_ty
    v = cx.value(value, elem)
    if v.dtype.is_ptr() != elem.is_ptr():
        raise cx.error(f"cannot store a {v.type_text()} through a pointer to {elem}")
    if broadcast_shapes(cx, p.shape, v.shape) != p.shape:
        raise cx.error(f"cannot store a value of shape {list(v.shape)} through pointers of "
                       f"shape {list(p.shape)}")
    m = _mask(cx, mask, p.shape)
    note_write(cx, p.roots)
    v, m = fit_all(p.shape, convert_checked(cx, v, elem), m)
    if not p.shape:
        text = f"tl::store({p.expr}, {v.expr});"
        cx.emit.line(text if m is None else f"if ({m.expr}) {text}")
    elif m is None:
        cx.emit.line(f"tl::store({p.expr}, {v.expr});")
    else:
        cx.emit.line(f"tl::store({p.expr}, {v.expr}, {m.expr});")
    return None


def block_ptr_maker(dims: tuple[int, ...]) -> str:
    """tl's make_block_ptr for a block of shape `dims` (rank 3 and more: tl/rank_n.h's)."""
    return "make_block_ptr_nd" if len(dims) >= 3 else "make_block_ptr"


@op("make_block_ptr")
def make_block_ptr(cx: OpContext, base: Any, shape: Any, strides: Any, offsets: Any,
                   block_shape: Any, order: Any) -> BlockPointer:
    b = _pointer(cx, base, "make_block_ptr")
    if b.shape:
        raise cx.error("make_block_ptr's base must be a scalar pointer")
    dims = tuple(unwrap(d) for d in cx.const(block_shape, "block_shape"))
    rank = len(dims)
    if rank == 0:
        raise cx.error("make_block_ptr's block_shape must have at least one dimension")

    def ints(xs: Any, what: str, dtype: tl.dtype) -> str:
        items = list(unwrap(xs)) if isinstance(unwrap(xs), (tuple, list)) else [xs]
        if len(items) != rank:
            raise cx.error(f"make_block_ptr: {what} has {len(items)} entries, block_shape {rank}")
        return "{" + ", ".join(convert(cx.value(x), dtype).expr for x in items) + "}"

    cx.const(order, "order")
    expr = (f"tl::{block_ptr_maker(dims)}<{', '.join(map(str, dims))}>({b.expr}, "
            f"{ints(shape, 'shape', tl.int64)}, {ints(strides, 'strides', tl.int64)}, "
            f"{ints(offsets, 'offsets', tl.int32)})")
    name = cx.emit.fresh("block_ptr")
    cx.emit.line(f"auto {name} = {expr};")
    return BlockPointer(name, b.dtype.element_ty, dims, b.roots)


@op("advance")
def advance(cx: OpContext, base: Any, offsets: Any) -> BlockPointer:
    bp = unwrap(base)
    if not isinstance(bp, BlockPointer):
        raise cx.error("advance takes a block pointer (tl.make_block_ptr)")
    items = list(unwrap(offsets)) if isinstance(unwrap(offsets), (tuple, list)) else [offsets]
    if len(items) != len(bp.shape):
        raise cx.error(f"advance: {len(items)} offsets for a block pointer of rank {len(bp.shape)}")
    args = ", ".join(convert(cx.value(x), tl.int32).expr for x in items)
    name = cx.emit.fresh("block_ptr")
    cx.emit.line(f"auto {name} = tl::advance({bp.expr}, {args});")
    return BlockPointer(name, bp.element, bp.shape, bp.roots)
