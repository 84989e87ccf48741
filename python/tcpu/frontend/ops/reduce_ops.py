"""Reductions and scans: sum, max, min, argmax, argmin, xor_sum, reduce_or, reduce with a
@jit combine_fn, cumsum, cumprod, associative_scan, sort, histogram."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value, unwrap
from . import op
from .arith import convert
from .context import OpContext
from .rank_n import along_last, inverse, permute_nd

# sum's result dtype (Triton's _pick_sum_dtype): integers narrower than 32 bits widen to
# 32 bits of the same signedness (int1 counts as unsigned); everything else keeps its dtype.
SUM_WIDENS = {"int8": tl.int32, "int16": tl.int32, "int1": tl.uint32, "uint8": tl.uint32,
              "uint16": tl.uint32}


# cumsum's and cumprod's result dtypes (measured with Triton 3.6 on an H100,
# tests/python/lang/test_lang_reduce_scan.py::test_scan_result_dtypes): cumsum widens as sum does,
# and bf16 to fp32; cumprod keeps integers as they are and widens bf16 to fp32 (fp16 stays).
SCAN_WIDENS = {"cumsum": {**SUM_WIDENS, "bf16": tl.float32}, "cumprod": {"bf16": tl.float32}}


# max and min first widen (Triton's _promote_reduction_input): integers narrower than 32
# bits to int32 (unsigned ones too), fp16 and bf16 to fp32 (measured on an H100).
MINMAX_WIDENS = {"int1": tl.int32, "int8": tl.int32, "int16": tl.int32, "uint8": tl.int32,
                 "uint16": tl.int32, "fp16": tl.float32, "bf16": tl.float32}


def _axis(cx: OpContext, v: Value, axis: Any) -> int | None:
    a = cx.const(axis, "axis")
    if a is None:
        return None
    rank = len(v.shape)
    if not isinstance(a, int) or not -rank <= a < rank:
        raise cx.error(f"axis {a!r} is out of range for a block of shape {list(v.shape)}")
    return a % rank


def _result_shape(v: Value, axis: int | None) -> tuple[int, ...]:
    if axis is None:
        return ()
    return tuple(d for i, d in enumerate(v.shape) if i != axis)


def _tl_axis(v: Value, axis: int | None) -> int:
    """tl's axis argument: -1 reduces everything (as does axis 0 of a rank-1 block)."""
    return -1 if axis is None or len(v.shape) == 1 else axis


def _along(v: Value, axis: int | None) -> tuple[str, int]:
    """The tl operand and axis that reduce or scan v along `axis` (None: everything). A block
    of rank 3 or more is permuted to have `axis` last, the columns of its tl form; the result
    then has one row per element of the other dimensions, in their order."""
    if len(v.shape) >= 3 and axis is not None:
        return along_last(v, axis)[0].expr, 1
    return v.expr, _tl_axis(v, axis)


def _scan_along(v: Value, axis: int) -> tuple[str, int]:
    return _along(v, axis) if len(v.shape) >= 3 else (v.expr, axis)


def _shaped(expr: str, v: Value, shape: tuple[int, ...]) -> str:
    """A reduction's tl result as the tl block of Triton's result `shape`."""
    return f"tl::reshape<{cpp.block_dims(shape)}>({expr})" if len(v.shape) >= 3 and shape else expr


def _unpermuted(v: Value, axis: int, scanned: Value) -> Value:
    """A scan's tl result (of _along's operand) in v's own order."""
    if len(v.shape) < 3 or axis == len(v.shape) - 1:
        return scanned
    order = along_last(v, axis)[1]
    return permute_nd(Value(scanned.expr, scanned.dtype, tuple(v.shape[k] for k in order)),
                    inverse(order))


def keep(cx: OpContext, r: Value, v: Value, axis: int | None) -> Value:
    """keep_dims: the reduced dimension (or all of them) stays, with size 1."""
    ct = cpp.ctype(r.dtype)
    if axis is None or len(v.shape) == 1:
        ones = (1,) * len(v.shape)
        return Value(f"tl::full<{ct}, {cpp.block_dims(ones)}>({r.expr})", r.dtype, ones)
    if len(v.shape) >= 3:
        shape = v.shape[:axis] + (1,) + v.shape[axis + 1:]
        return Value(f"tl::reshape<{cpp.block_dims(shape)}>({r.expr})", r.dtype, shape)
    if axis == 0:
        return Value(f"tl::row({r.expr})", r.dtype, (1, v.shape[1]))
    return Value(f"tl::col({r.expr})", r.dtype, (v.shape[0], 1))


def _block(cx: OpContext, x: Any, what: str) -> Value:
    v = cx.computable(cx.value(x), what)
    if not v.shape:
        raise cx.error(f"{what} needs a block, got a scalar {v.type_text()}")
    return v


def reduce_named(cx: OpContext, name: str, x: Any, axis: Any, keep_dims: Any = False,
                 dtype: tl.dtype | None = None) -> Value:
    v = _block(cx, x, f"tl.{name}")
    a = _axis(cx, v, axis)
    if name == "sum":
        out = dtype or SUM_WIDENS.get(v.dtype.name, v.dtype)
        if dtype is not None:
            v = convert(v, dtype)
    elif name in ("argmax", "argmin"):
        out = tl.int32
    elif name in ("max", "min"):
        out = MINMAX_WIDENS.get(v.dtype.name, v.dtype)
        v = convert(v, out)
    else:
        out = v.dtype
    shape = _result_shape(v, a)
    # tl computes in its own accumulator type (sum_t); the result takes Triton's dtype. A sum
    # in int1 (dtype=tl.int1) adds in int1 in Triton, where addition wraps: the parity, which
    # is xor_sum (tl would count the trues in int32 and make any count but 0 true).
    tl_name = "xor_sum" if name == "sum" and out.name == "int1" else name
    operand, tl_axis = _along(v, a)
    raw = _shaped(f"tl::{tl_name}<{tl_axis}>({operand})", v, shape)
    ct = cpp.ctype(out)
    expr = f"tl::cast<{ct}>({raw})" if shape else f"static_cast<{ct}>({raw})"
    r = cx.bind(name, expr, out, shape)
    return keep(cx, r, v, a) if cx.const(keep_dims, "keep_dims") else r


@op("sum")
def sum_(cx: OpContext, input: Any, axis: Any = None, keep_dims: Any = False,
         dtype: Any = None) -> Value:
    d = cx.const(dtype, "dtype")
    return reduce_named(cx, "sum", input, axis, keep_dims, d)


def _max_min(name: str):
    def reduce_op(cx: OpContext, input: Any, axis: Any = None, return_indices: Any = False,
                  return_indices_tie_break_left: Any = True, keep_dims: Any = False) -> Any:
        if cx.const(return_indices, "return_indices"):
            values = reduce_named(cx, name, input, axis, keep_dims)
            indices = reduce_named(cx, "arg" + name, input, axis, keep_dims)
            return (values, indices)
        return reduce_named(cx, name, input, axis, keep_dims)
    return reduce_op


op("max")(_max_min("max"))
op("min")(_max_min("min"))


def _arg(name: str):
    def reduce_op(cx: OpContext, input: Any, axis: Any, tie_break_left: Any = True,
                  keep_dims: Any = False) -> Value:
        if not cx.const(tie_break_left, "tie_break_left"):
            raise cx.unsupported(f"{name}(tie_break_left=False)")
        return reduce_named(cx, name, input, axis, keep_dims)
    return reduce_op


op("argmax")(_arg("argmax"))
op("argmin")(_arg("argmin"))


def _bitwise(name: str):
    def reduce_op(cx: OpContext, input: Any, axis: Any = None, keep_dims: Any = False) -> Value:
        v = _block(cx, input, f"tl.{name}")
        if not v.dtype.is_int():
            raise cx.error(f"{name} needs an integer block, got {v.type_text()}")
        return reduce_named(cx, name, v, axis, keep_dims)
    return reduce_op


op("xor_sum")(_bitwise("xor_sum"))
op("reduce_or")(_bitwise("reduce_or"))


@op("reduce")
def reduce(cx: OpContext, input: Any, axis: Any, combine_fn: Any, keep_dims: Any = False) -> Any:
    inputs = input if isinstance(input, tuple) else (input,)
    vals = [_block(cx, x, "tl.reduce") for x in inputs]
    a = _axis(cx, vals[0], axis)
    shape = _result_shape(vals[0], a)
    lam, outs = cx.lowerer.combine_lambda(cx.node, combine_fn, [v.dtype for v in vals] * 2)
    operands = [_along(v, a) for v in vals]
    tl_axis = operands[0][1]
    if len(vals) == 1:
        r = cx.bind("reduce", _shaped(f"tl::reduce<{tl_axis}>({operands[0][0]}, {lam})",
                                      vals[0], shape), outs[0], shape)
        r = keep(cx, r, vals[0], a) if cx.const(keep_dims, "keep_dims") else r
        return (r,) if isinstance(input, tuple) else r  # a 1-tuple in, a 1-tuple out
    if len(vals) == 2:
        pair = cx.emit.bind("reduce", f"tl::reduce2<{tl_axis}>("
                            f"{operands[0][0]}, {operands[1][0]}, {lam})")
        rs = tuple(Value(_shaped(f"{pair}.{h}", vals[0], shape), d, shape)
                   for h, d in (("first", outs[0]), ("second", outs[1])))
        if cx.const(keep_dims, "keep_dims"):
            rs = tuple(keep(cx, r, vals[0], a) for r in rs)
        return rs
    # Three or more operands (Welford's mean, m2 and weight): a std::tuple of results.
    together = cx.emit.bind("reduce", f"tl::reduceN<{tl_axis}>({lam}, "
                            f"{', '.join(o[0] for o in operands)})")
    rs = tuple(Value(_shaped(f"std::get<{k}>({together})", vals[0], shape), d, shape)
               for k, d in enumerate(outs))
    if cx.const(keep_dims, "keep_dims"):
        rs = tuple(keep(cx, r, vals[0], a) for r in rs)
    return rs


def _scan_axis(cx: OpContext, v: Value, axis: Any) -> int:
    a = _axis(cx, v, axis)
    return 0 if a is None else a


def _cumulative(name: str):
    def scan(cx: OpContext, input: Any, axis: Any = 0, reverse: Any = False,
             dtype: Any = None) -> Value:
        v = _block(cx, input, f"tl.{name}")
        d = cx.const(dtype, "dtype")
        out = d or SCAN_WIDENS[name].get(v.dtype.name, v.dtype)
        v = convert(v, out)
        a = _scan_axis(cx, v, axis)
        rev = "true" if cx.const(reverse, "reverse") else "false"
        operand, tl_axis = _scan_along(v, a)
        scanned = Value(f"tl::{name}<{tl_axis}, {rev}>({operand})", out)
        expr = _unpermuted(v, a, scanned).expr
        if name == "cumsum" and out.name == "int1":
            # tl counts bools in int32; Triton adds in int1, which wraps: the running parity.
            expr = f"tl::cast<bool>({expr} & 1)"
        return cx.bind(name, expr, out, v.shape)
    return scan


op("cumsum")(_cumulative("cumsum"))
op("cumprod")(_cumulative("cumprod"))


@op("associative_scan")
def associative_scan(cx: OpContext, input: Any, axis: Any, combine_fn: Any,
                     reverse: Any = False) -> Any:
    inputs = input if isinstance(input, tuple) else (input,)
    vals = [_block(cx, x, "tl.associative_scan") for x in inputs]
    a = _scan_axis(cx, vals[0], axis)
    rev = "true" if cx.const(reverse, "reverse") else "false"
    lam, outs = cx.lowerer.combine_lambda(cx.node, combine_fn, [v.dtype for v in vals] * 2)
    operands = [_scan_along(v, a) for v in vals]
    tl_axis, shape = operands[0][1], vals[0].shape
    if len(vals) == 1:
        scanned = Value(f"tl::associative_scan<{tl_axis}, {rev}>({operands[0][0]}, {lam})",
                        outs[0])
        r = cx.bind("scan", _unpermuted(vals[0], a, scanned).expr, outs[0], shape)
        return (r,) if isinstance(input, tuple) else r  # a 1-tuple in, a 1-tuple out
    if len(vals) == 2:
        pair = cx.emit.bind("scan", f"tl::associative_scan2<{tl_axis}, {rev}>({operands[0][0]}, "
                            f"{operands[1][0]}, {lam})")
        return tuple(cx.bind("scan", _unpermuted(vals[0], a, Value(f"{pair}.{h}", d)).expr, d,
                             shape) for h, d in (("first", outs[0]), ("second", outs[1])))
    together = cx.emit.bind("scan", f"tl::associative_scanN<{tl_axis}, {rev}>({lam}, "
                            f"{', '.join(o[0] for o in operands)})")
    return tuple(cx.bind("scan", _unpermuted(vals[0], a, Value(f"std::get<{k}>({together})",
                                                                d)).expr, d, shape)
                 for k, d in enumerate(outs))


@op("sort")
def sort(cx: OpContext, x: Any, dim: Any = None, descending: Any = False) -> Value:
    v = _block(cx, x, "tl.sort")
    d = cx.const(dim, "dim")
    if d not in (None, -1, len(v.shape) - 1):
        raise cx.unsupported("tl.sort along a dimension other than the last")
    desc = "true" if cx.const(descending, "descending") else "false"
    return cx.bind("sorted", f"tl::sort<-1, {desc}>({v.expr})", v.dtype, v.shape)


@op("topk")
def topk(cx: OpContext, x: Any, k: Any, dim: Any = None) -> Value:
    v = _block(cx, x, "tl.topk")
    kk = cx.const(k, "k")
    shape = v.shape[:-1] + (kk,)
    return cx.bind("topk", f"tl::topk<{kk}, -1>({v.expr})", v.dtype, shape)


@op("histogram")
def histogram(cx: OpContext, input: Any, num_bins: Any, mask: Any = None) -> Value:
    v = _block(cx, input, "tl.histogram")
    if len(v.shape) != 1:  # Triton asserts it
        raise cx.error(f"tl.histogram takes a 1-D block, got {v.type_text()}")
    n = cx.const(num_bins, "num_bins")
    m = unwrap(mask)
    args = v.expr if m is None else f"{v.expr}, {cx.value(m).expr}"
    return cx.bind("histogram", f"tl::histogram<{n}>({args})", tl.int32, (n,))
