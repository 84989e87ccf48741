"""Tensor descriptors made in the kernel (`tl.make_tensor_descriptor`, Triton's TMA API) as
block pointers: `desc.load([i, j])` reads the block at element offsets (i, j), zero-filled (or
NaN-filled) outside the tensor's shape, and `desc.store([i, j], v)` writes only the lanes
inside it, as the GPU's TMA does. Ranks 1 to 3. `desc.gather(rows, col)` and
`desc.scatter(v, rows, col)` (Blackwell's TMA gather and scatter) move one row of the block
shape [1, N] per entry of `rows`, with the same bounds rules; `desc.atomic_add/min/max/and/or/xor`
update each element of the block inside the tensor atomically."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value, unwrap
from . import OPS, op
from .arith import convert, convert_checked
from .context import OpContext
from .memory import block_ptr_maker, note_write


@dataclass(frozen=True)
class TensorDescriptor:
    base: Value
    shape: tuple[Value, ...]
    strides: tuple[Value, ...]
    block_shape: tuple[int, ...]
    padding: str  # the tl::Padding spelling

    @property
    def dtype(self) -> tl.dtype:
        return self.base.dtype.element_ty

    def type_text(self) -> str:
        return f"tensor_descriptor<{self.dtype}>[{', '.join(map(str, self.block_shape))}]"


def _int_list(cx: OpContext, xs: Any, rank: int, what: str, dtype: tl.dtype) -> tuple[Value, ...]:
    items = list(unwrap(xs)) if isinstance(unwrap(xs), (tuple, list)) else [xs]
    if len(items) != rank:
        raise cx.error(f"{what} has {len(items)} entries; the block has rank {rank}")
    values = []
    for x in items:
        v = cx.value(x)
        if not v.dtype.is_int() or v.shape:
            raise cx.error(f"{what} must hold integer scalars, got {v.type_text()}")
        values.append(convert(v, dtype))
    return tuple(values)


@op("make_tensor_descriptor")
def make_tensor_descriptor(cx: OpContext, base: Any, shape: Any, strides: Any, block_shape: Any,
                           padding_option: Any = "zero") -> TensorDescriptor:
    b = cx.value(base)
    if not b.dtype.is_ptr() or b.shape:
        raise cx.error(f"make_tensor_descriptor's base must be a scalar pointer, got "
                       f"{b.type_text()}")
    dims = tuple(unwrap(d) for d in cx.const(block_shape, "block_shape"))
    if not 1 <= len(dims) <= 5:  # Triton's check (a TMA descriptor has 1 to 5 dimensions)
        raise cx.error(f"Expected 1 <= ndim <= 5 but got {len(dims)} dimensions")
    for d in dims:
        if not isinstance(d, int) or d <= 0 or d & (d - 1):
            raise cx.error(f"block_shape {list(dims)}: every dimension must be a power of two")
    # A GPU's TMA moves rows of at least 16 bytes: Triton refuses a narrower block.
    row_bytes = dims[-1] * b.dtype.element_ty.primitive_bitwidth // 8
    if row_bytes < 16:
        raise cx.error(f"Descriptor block shape must have at least 16 bytes in the last "
                       f"dimension: block_shape {list(dims)} of {b.dtype.element_ty} has "
                       f"{row_bytes}")
    last_stride = unwrap(list(unwrap(strides))[-1]) if isinstance(unwrap(strides), (tuple, list)) \
        else None
    if isinstance(last_stride, int) and last_stride != 1:
        raise cx.error(f"a tensor descriptor's last stride must be 1 (its rows contiguous), got "
                       f"strides {[unwrap(x) for x in unwrap(strides)]}")
    padding = cx.const(padding_option, "padding_option")
    if padding not in ("zero", "nan"):
        raise cx.error(f"padding_option must be 'zero' or 'nan', got {padding!r}")
    return TensorDescriptor(b, _int_list(cx, shape, len(dims), "shape", tl.int64),
                            _int_list(cx, strides, len(dims), "strides", tl.int64), dims,
                            f"tl::Padding::{padding}")


def _block_ptr(cx: OpContext, desc: Any, offsets: Any) -> tuple[TensorDescriptor, str]:
    d = unwrap(desc)
    if not isinstance(d, TensorDescriptor):
        raise cx.error(f"expected a tensor descriptor (tl.make_tensor_descriptor), got {d!r}")
    offs = _int_list(cx, offsets, len(d.block_shape), "offsets", tl.int32)

    def braced(vs: tuple[Value, ...]) -> str:
        return "{" + ", ".join(v.expr for v in vs) + "}"

    dims = ", ".join(map(str, d.block_shape))
    expr = (f"tl::{block_ptr_maker(d.block_shape)}<{dims}>({d.base.expr}, {braced(d.shape)}, "
            f"{braced(d.strides)}, {braced(offs)})")
    return d, expr


@op("load_tensor_descriptor", "descriptor.load")
def load_tensor_descriptor(cx: OpContext, desc: Any, offsets: Any) -> Value:
    d, ptr = _block_ptr(cx, desc, offsets)
    every_dim = (1 << len(d.block_shape)) - 1
    return cx.bind("tile", f"tl::load({ptr}, {every_dim}, {d.padding})", d.dtype, d.block_shape)


@op("store_tensor_descriptor", "descriptor.store")
def store_tensor_descriptor(cx: OpContext, desc: Any, offsets: Any, value: Any) -> None:
    d, ptr = _block_ptr(cx, desc, offsets)
    v = convert_checked(cx, cx.value(value, d.dtype), d.dtype)
    if v.shape not in ((), d.block_shape):
        raise cx.error(f"storing a block of shape {list(v.shape)} through a descriptor of "
                       f"block shape {list(d.block_shape)}")
    note_write(cx, d.base.roots)
    every_dim = (1 << len(d.block_shape)) - 1
    cx.emit.line(f"tl::store({ptr}, {v.expr}, {every_dim});")
    return None


def _arange64(start: Value, size: int) -> str:
    """start + arange(0, size) in 64 bits (row * stride may pass 2^31 in a large tensor)."""
    arange = Value(f"tl::arange<0, {size}>()", tl.int32, (size,))
    return f"({convert(start, tl.int64).expr} + {convert(arange, tl.int64).expr})"


def _elements(cx: OpContext, d: TensorDescriptor, coords: list[str],
              shape: tuple[int, ...]) -> tuple[Value, Value]:
    """The pointers to the elements at `coords` (one int64 index block per dimension, each shaped
    to broadcast to `shape`), and the mask of those inside the tensor: the bounds of a
    descriptor's load and store."""
    ptr = d.base.expr
    inside = []
    for coord, stride, bound in zip(coords, d.strides, d.shape):
        ptr = f"({ptr} + ({coord} * {stride.expr}))"
        inside.append(f"(({coord} >= 0) & ({coord} < {bound.expr}))")
    dims = ", ".join(map(str, shape))
    mask = " & ".join(inside)
    return (cx.bind("ptrs", f"tl::broadcast_to<{dims}>({ptr})", d.base.dtype, shape,
                    d.base.roots),
            cx.bind("inside", f"tl::broadcast_to<{dims}>({mask})", tl.int1, shape))


def _rows(cx: OpContext, desc: Any, x_offsets: Any, y_offset: Any,
          what: str) -> tuple[TensorDescriptor, Value, Value]:
    """For gather/scatter: the descriptor, and the pointers and mask of the rows moved (one row
    of the block per x offset). Triton's checks (semantic.descriptor_gather/_scatter), then the
    same bounds as a descriptor's load/store."""
    d = unwrap(desc)
    if not isinstance(d, TensorDescriptor):
        raise cx.error(f"expected a tensor descriptor (tl.make_tensor_descriptor), got {d!r}")
    if len(d.block_shape) != 2:
        raise cx.error(f"descriptor must be 2D, but got {list(d.block_shape)}")
    if d.block_shape[0] != 1:
        raise cx.error(f"descriptor block must have 1 row, but got {list(d.block_shape)}")
    x = cx.value(x_offsets)
    if len(x.shape) != 1 or not x.dtype.is_int():
        raise cx.error(f"x offsets must be a 1D block of integers, but got {x.type_text()}")
    if x.shape[0] < 8:
        raise cx.error(f"descriptor {what} must have at least 8 rows, but got {list(x.shape)}")
    min_cols = 32 // d.dtype.primitive_bitwidth * 8
    if d.block_shape[1] < min_cols:
        raise cx.error(f"descriptor {what} of {d.dtype} must have at least {min_cols} columns, "
                       f"but got {d.block_shape[1]}")
    y = cx.value(y_offset)
    if y.shape or not y.dtype.is_int():
        raise cx.error(f"the y offset must be an integer scalar, got {y.type_text()}")
    width = d.block_shape[1]
    rows = f"tl::col({convert(x, tl.int64).expr})"
    cols = f"tl::row({_arange64(y, width)})"
    ptrs, mask = _elements(cx, d, [rows, cols], (x.shape[0], width))
    return d, ptrs, mask


@op("descriptor.gather")
def gather_tensor_descriptor(cx: OpContext, desc: Any, x_offsets: Any, y_offset: Any) -> Value:
    d, ptrs, mask = _rows(cx, desc, x_offsets, y_offset, "gather")
    fill = float("nan") if d.padding.endswith("nan") and d.dtype.is_floating() else 0
    return cx.bind("rows", f"tl::load({ptrs.expr}, {mask.expr}, {cpp.literal(fill, d.dtype)})",
                   d.dtype, ptrs.shape)


@op("descriptor.scatter")
def scatter_tensor_descriptor(cx: OpContext, desc: Any, value: Any, x_offsets: Any,
                              y_offset: Any) -> None:
    d, ptrs, mask = _rows(cx, desc, x_offsets, y_offset, "scatter")
    v = convert_checked(cx, cx.value(value, d.dtype), d.dtype)
    if v.shape != ptrs.shape:
        raise cx.error(f"scattering a block of shape {list(v.shape)}: the rows and the "
                       f"descriptor's block move {list(ptrs.shape)}")
    note_write(cx, d.base.roots)
    # Rows stored in order, so that of two equal x offsets the later row is kept (Triton's
    # interpreter stores row after row).
    cx.emit.line(f"tl::store({ptrs.expr}, {v.expr}, {mask.expr});")
    return None


# The dtypes a descriptor's atomic reduction takes without a GPU's TMA (Triton's fallback:
# semantic.descriptor_atomic_*; 16-bit float min/max need a native TMA).
_REDUCE_DTYPES = {
    "add": {tl.uint32, tl.int32, tl.uint64, tl.float32, tl.float16, tl.bfloat16},
    "min": {tl.uint32, tl.int32, tl.uint64, tl.int64},
    "max": {tl.uint32, tl.int32, tl.uint64, tl.int64},
    "and": {tl.uint32, tl.int32, tl.uint64, tl.int64},
    "or": {tl.uint32, tl.int32, tl.uint64, tl.int64},
    "xor": {tl.uint32, tl.int32, tl.uint64, tl.int64},
}


def _reduce(kind: str):
    def reduce(cx: OpContext, desc: Any, offsets: Any, value: Any) -> None:
        d = unwrap(desc)
        if not isinstance(d, TensorDescriptor):
            raise cx.error(f"expected a tensor descriptor, got {d!r}")
        if d.dtype not in _REDUCE_DTYPES[kind]:
            raise cx.error(f"descriptor atomic_{kind} does not support {d.dtype} (without a "
                           "GPU's TMA: " + ", ".join(sorted(map(str, _REDUCE_DTYPES[kind])))
                           + ")")
        if len(d.block_shape) > 2:
            raise cx.unsupported(f"descriptor atomic_{kind} on a block of rank "
                                 f"{len(d.block_shape)} (ranks 1 and 2 are supported)")
        v = cx.value(value, d.dtype)
        if v.shape != d.block_shape or v.dtype != d.dtype:
            raise cx.error(f"descriptor atomic_{kind}: the value must be a block of "
                           f"{list(d.block_shape)} {d.dtype}, got {v.type_text()}")
        offs = _int_list(cx, offsets, len(d.block_shape), "offsets", tl.int32)
        coords = [_arange64(o, n) for o, n in zip(offs, d.block_shape)]
        if len(coords) == 2:
            coords = [f"tl::col({coords[0]})", f"tl::row({coords[1]})"]
        ptrs, mask = _elements(cx, d, coords, d.block_shape)
        # An element-wise atomic of each element inside the tensor: what a TMA reduction does
        # (each element is updated atomically; the block as a whole is not).
        OPS[f"atomic_{kind}"](cx, ptrs, v, mask)
        return None
    return reduce


for _kind in _REDUCE_DTYPES:
    op(f"descriptor.atomic_{_kind}")(_reduce(_kind))
