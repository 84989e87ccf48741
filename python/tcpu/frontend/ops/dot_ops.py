"""tl.dot: [M, K] x [K, N] (+ acc) on same-dtype operands, and batched [..., M, K] x
[..., K, N] over any number of batch dimensions.
fp32/fp16/bf16 accumulate in fp32 (int8 in int32). input_precision is accepted: the CPU
computes fp32 products exactly (Triton's "ieee"), so "tf32"/"tf32x3" give results at least as
accurate as the GPU's.

`d + tl.dot(a, b)` (and `acc += tl.dot(a, b)`) is `tl.dot(a, b, d)`, as Triton's combine pass
makes it (AddFOp/AddIOp of a single-use dot with a zero accumulator): the products are then
added to d one k at a time instead of summed apart and added once, which changes the rounding.
Tutorial 08's check (fp16 outputs within 1e-2 of torch.matmul) depends on it: summed apart,
541 of 1M outputs rounded to the neighbouring fp16 value."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ...triton.language import core as tl
from ..promotion import computation_type
from ..values import Value, unwrap
from . import op
from .arith import convert
from .context import OpContext

_PRECISIONS = {None, "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"}


@dataclasses.dataclass(frozen=True)
class Accumulating:
    """What a rank-2 `tl.dot(a, b, acc)` of the natural accumulator type keeps with its line:
    written straight back to a loop-carried variable (`acc = tl.dot(a, b, acc)`), it becomes
    tl::dot_into on that variable (loop_state.dot_in_place)."""
    a: Value
    b: Value
    acc: Value


def _call(a: Value, b: Value, acc: Value | None = None) -> str:
    """tl's dot of a and b (+ acc): tl::dot, or for rank 3 and more the batched tl::dot3 over
    the product of the batch dimensions (Triton's tl.dot reshapes them into one)."""
    fn = "tl::dot" if len(a.shape) == 2 else f"tl::dot3<{math.prod(a.shape[:-2])}>"
    return f"{fn}({a.expr}, {b.expr}{'' if acc is None else ', ' + acc.expr})"


@op("dot")
def dot(cx: OpContext, input: Any, other: Any, acc: Any = None, input_precision: Any = None,
        allow_tf32: Any = None, max_num_imprecise_acc: Any = None, out_dtype: Any = tl.float32
        ) -> Value:
    a, b = cx.value(input), cx.value(other)
    precision = cx.const(input_precision, "input_precision")
    if precision not in _PRECISIONS:
        raise cx.error(f"input_precision must be one of {sorted(p for p in _PRECISIONS if p)}, "
                       f"got {precision!r}")
    if len(a.shape) < 2 or len(b.shape) != len(a.shape):
        raise cx.error(f"dot needs two blocks of one rank, 2 or more (the leading dimensions "
                       f"batch), got {list(a.shape)} and {list(b.shape)}")
    if a.shape[-1] != b.shape[-2]:
        raise cx.error(f"dot: the inner dimensions differ ({list(a.shape)} x {list(b.shape)})")
    if a.shape[:-2] != b.shape[:-2]:
        raise cx.error(f"dot: the batch dimensions differ ({list(a.shape)} x {list(b.shape)})")
    if a.dtype.is_fp8() and b.dtype.is_fp8():
        imprecise = cx.const(max_num_imprecise_acc, "max_num_imprecise_acc")
        if imprecise is not None and imprecise > a.shape[-1]:  # Triton's check (its sm_90 knob)
            raise cx.error(f"max_num_imprecise_acc ({imprecise}) must be <= K ({a.shape[-1]})")
        # fp8 x fp8 (either kind, mixed too): as sm_90 does (its PTX converts the operands to
        # fp16 and multiplies in fp16 with fp32 accumulation), an exact widening to fp16,
        # then tl's fp16 dot.
        a, b = convert(a, tl.float16), convert(b, tl.float16)
    if a.dtype != b.dtype:
        raise cx.error(f"dot: both operands must have one dtype, got {a.dtype} and {b.dtype}")
    if a.dtype.is_int():
        if a.dtype.name not in ("int8", "uint8"):
            raise cx.error(f"dot supports integer operands of 8 bits, got {a.dtype}")
        natural = tl.int32
    elif a.dtype.name in ("fp16", "bf16", "fp32"):
        natural = tl.float32
    elif a.dtype.name == "fp64":
        natural = tl.float64
    else:
        raise cx.unsupported(f"dot of {a.dtype} operands")
    shape = a.shape[:-1] + (b.shape[-1],)
    acc_v = unwrap(acc)
    # out_dtype applies to 16/32-bit float operands; integers give int32, fp64 gives fp64.
    out = cx.dtype_arg(out_dtype, "out_dtype") if natural == tl.float32 else natural
    if acc_v is None:
        if out != natural:
            return convert(cx.bind("dot", _call(a, b), natural, shape), out)
        name = cx.emit.bind_retractable("dot", _call(a, b), (a, b))
        return Value(name, natural, shape)
    c = cx.value(acc_v)
    if c.shape != shape:
        raise cx.error(f"dot: acc has shape {list(c.shape)}, the product {list(shape)}")
    # The product accumulates in the natural type, then takes the accumulator's dtype.
    c_nat = convert(c, natural)
    if c.dtype == natural and len(shape) == 2:
        name = cx.emit.bind_retractable("dot", _call(a, b, c_nat), Accumulating(a, b, c_nat))
        return Value(name, natural, shape)
    r = cx.bind("dot", _call(a, b, c_nat), natural, shape)
    return convert(r, c.dtype) if c.dtype != natural else r


def fuse_add(cx: OpContext, product: Value, addend: Any) -> Value | None:
    """`addend + product` as tl.dot(a, b, addend) when `product` is a dot without an
    accumulator used nowhere else (the caller knows: it is a call's result, an operand of this
    `+` only) and the sum keeps the product's dtype and shape; None otherwise."""
    addend = unwrap(addend)
    if not isinstance(cx.emit.payload(product.expr), tuple):
        return None  # not a dot without an accumulator
    if not isinstance(addend, Value) or addend.shape != product.shape or addend.dtype.is_ptr():
        return None
    if computation_type(addend.dtype, False, product.dtype, False, False) != product.dtype:
        return None
    operands = cx.emit.retract(product.expr)
    if operands is None:
        return None
    a, b = operands
    d = convert(addend, product.dtype)
    return cx.bind("dot", _call(a, b, d), product.dtype, product.shape)
