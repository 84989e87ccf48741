"""tl.dot_scaled: the product of two blocks in microscaling formats, as Triton lowers it on GPUs
without MX instructions (DecomposeScaledBlocked): each operand widened to the compute type (fp16
where either format is fp16, else bf16; e2m1 unpacked from two per byte), multiplied by its e8m0
scales (uint8, one per 32 elements along K; the rhs's given [N, K // 32]), NaN where a scale is
0xff unless fast_math, then tl.dot accumulating in fp32. The typing follows Triton's
semantic.dot_scaled; tl/mx.h does the element work."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value, unwrap
from . import OPS, op
from .arith import cast, convert
from .context import OpContext

# A format's dtype, and the unsigned integer type that may hold it instead (bitcast).
_FORMATS: dict[str, tuple[tl.dtype | None, tl.dtype]] = {
    "e2m1": (None, tl.uint8), "e4m3": (tl.float8e4nv, tl.uint8), "e5m2": (tl.float8e5, tl.uint8),
    "bf16": (tl.bfloat16, tl.uint16), "fp16": (tl.float16, tl.uint16)}
_KNOWN_ELSEWHERE = {"e2m3", "e3m2"}  # Triton's other ScaleDotElemType names (no lowering here)


def _format(cx: OpContext, fmt: Any, side: str) -> str:
    f = cx.const(fmt, f"{side}_format")
    if f in _KNOWN_ELSEWHERE:
        raise cx.error(f"NYI: {side}_format {f}")
    if f not in _FORMATS:
        raise cx.error(f"Invalid float format: {f}.")
    return f


def _typed(cx: OpContext, v: Value, fmt: str) -> Value:
    """v as its format's dtype (bitcast from the unsigned type that holds it); e2m1 stays uint8."""
    dtype, storage = _FORMATS[fmt]
    if dtype is None:
        if v.dtype != tl.uint8:
            raise cx.error(f"e2m1 format must be packed as uint8. Got {v.dtype}")
        return v
    if v.dtype == dtype:
        return v
    if v.dtype != storage:
        raise cx.error(f"Unexpected dtype for {fmt}. Got {v.dtype}")
    return cast(cx, v, dtype, bitcast=True)


def _block(cx: OpContext, v: Value) -> Value:
    """v held in a named tl::Block (mx.h's functions take blocks, not lazy expressions)."""
    block = f"tl::Block<{cpp.ctype(v.dtype)}, {cpp.block_dims(v.shape)}>"
    return cx.bind("mx", f"{block}({v.expr})", v.dtype, v.shape)


def _widened(cx: OpContext, v: Value, fmt: str, compute: tl.dtype, packed_axis: int) -> Value:
    """The operand in the compute type; e2m1 unpacked along its packed axis (-1 or -2)."""
    if fmt != "e2m1":
        return _block(cx, convert(v, compute))
    shape = list(v.shape)
    shape[packed_axis] *= 2
    # tl holds rank 3 [B, X, Y] as [B * X, Y]: the last axis is its columns, the other its rows.
    tl_axis = 1 if packed_axis == -1 else 0
    return cx.bind("mx", f"tl::unpack_e2m1<{cpp.ctype(compute)}, {tl_axis}>("
                   f"{_block(cx, v).expr})", compute, tuple(shape))


def _scaled(cx: OpContext, v: Value, scale: Any, rows: int, k: int, batch: int | None,
            k_axis: int, fast_math: bool, side: str) -> Value:
    """v times its scales (None: v as it is)."""
    scale = unwrap(scale)
    if scale is None:
        return v
    if batch:
        # Triton 3.6 types a scale as [rows, K // 32] whatever the operands' rank, and its
        # decomposition expects scales of the operands' rank: batched scaled operands have no
        # meaning to follow yet.
        raise cx.unsupported(f"dot_scaled of rank-3 operands with a {side}_scale")
    s = cx.value(scale)
    if s.dtype == tl.float8e4nv:
        raise cx.unsupported(f"{side}_scale in float8e4nv (scales of 16 elements, NVFP4): only "
                             "e8m0 scales (uint8) are supported")
    if s.dtype != tl.uint8:
        raise cx.error(f"{side}_scale must hold e8m0 values as uint8, got {s.dtype}")
    expected = [rows, k // 32]
    if k % 32 or list(s.shape) != expected:
        # Triton's message shows the shape's items as it holds them (constexprs: ['32', '4']).
        raise cx.error(f"{side}_scale must be a tensor of shape {expected}. Got "
                       f"{[str(d) for d in s.shape]}")
    fast = "true" if fast_math else "false"
    return cx.bind("mx", f"tl::apply_mx_scale<{k_axis}, {fast}>("
                   f"{v.expr}, {_block(cx, s).expr})", v.dtype, v.shape)


@op("dot_scaled")
def dot_scaled(cx: OpContext, lhs: Any, lhs_scale: Any, lhs_format: Any, rhs: Any, rhs_scale: Any,
               rhs_format: Any, acc: Any = None, fast_math: Any = False, lhs_k_pack: Any = True,
               rhs_k_pack: Any = True, out_dtype: Any = tl.float32) -> Value:
    if cx.dtype_arg(out_dtype, "out_dtype") != tl.float32:
        raise cx.error("Only float32 is supported for out_dtype at the moment")
    a, b = cx.value(lhs), cx.value(rhs)
    if not (len(a.shape) == len(b.shape) and len(a.shape) in (2, 3)):
        raise cx.error(f"Both inputs must be either 2D or 3D; (lhs: {list(a.shape)} vs rhs: "
                       f"{list(b.shape)})")
    fa, fb = _format(cx, lhs_format, "lhs"), _format(cx, rhs_format, "rhs")
    a, b = _typed(cx, a, fa), _typed(cx, b, fb)
    a_k_pack, b_k_pack = cx.const(lhs_k_pack, "lhs_k_pack"), cx.const(rhs_k_pack, "rhs_k_pack")
    for k_pack, fmt in ((a_k_pack, fa), (b_k_pack, fb)):
        if not k_pack and fmt != "e2m1":
            raise cx.error("only mxfp4 inputs can be packed along a dimension different than K")
    if a.shape[:-2] != b.shape[:-2]:
        raise cx.error(f"dot_scaled: the batch dimensions differ ({list(a.shape)} x "
                       f"{list(b.shape)})")
    m, k_lhs = a.shape[-2:]
    k_rhs, n = b.shape[-2:]
    per_a, per_b = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)
    k_a = per_a * k_lhs if a_k_pack else k_lhs
    k_b = per_b * k_rhs if b_k_pack else k_rhs
    if k_a != k_b:
        raise cx.error("Reduction dimension should pack the same number of elements; (lhs: "
                       f"{list(a.shape)} vs rhs: {list(b.shape)})")
    m, n = (m if a_k_pack else m * per_a), (n if b_k_pack else n * per_b)
    batch = a.shape[0] if len(a.shape) == 3 else None
    compute = tl.float16 if "fp16" in (fa, fb) else tl.bfloat16
    fast = bool(cx.const(fast_math, "fast_math"))
    a_wide = _widened(cx, a, fa, compute, -1 if a_k_pack else -2)
    b_wide = _widened(cx, b, fb, compute, -2 if b_k_pack else -1)
    a_wide = _scaled(cx, a_wide, lhs_scale, m, k_a, batch, 1, fast, "lhs")
    b_wide = _scaled(cx, b_wide, rhs_scale, n, k_a, batch, 0, fast, "rhs")
    acc = unwrap(acc)
    if acc is not None:
        c = cx.value(acc)
        shape = list(a_wide.shape[:-1]) + [n]
        if list(c.shape) != shape or c.dtype != tl.float32:
            raise cx.error(f"dot_scaled: acc must be a float32 tensor of shape {shape}, got "
                           f"{c.type_text()}")
    return OPS["dot"](cx, a_wide, b_wide, acc)
