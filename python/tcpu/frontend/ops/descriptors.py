"""Tensor descriptors made in the kernel (`tl.make_tensor_descriptor`, Triton's TMA API) as
block pointers: `desc.load([i, j])` reads the block at element offsets (i, j), zero-filled (or
NaN-filled) outside the tensor's shape, and `desc.store([i, j], v)` writes only the lanes
inside it, as the GPU's TMA does. Ranks 1 and 2."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...triton.language import core as tl
from ..values import Value, unwrap
from . import op
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
