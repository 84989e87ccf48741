"""Elementwise math: tl.math, tl.<name> and libdevice names, as tl functions (SLEEF's
vector functions after codegen). The libdevice table is data: name -> (tl function,
operand count, result rule)."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from ..values import Value
from . import op
from .arith import binary, broadcast_shapes, cast, convert, promote_pair
from .context import OpContext
from .rank_n import fit_all

# tl.<name> / tl.math.<name> -> tl::<function>, one float operand, result of its dtype.
_UNARY_FLOAT = {
    "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "cos": "cos", "sin": "sin",
    "sqrt": "sqrt", "sqrt_rn": "sqrt_rn", "rsqrt": "rsqrt", "erf": "erf", "floor": "floor",
    "ceil": "ceil", "sigmoid": "sigmoid",
}

# libdevice.<name> -> (tl function, operands, rule). Rules: "float" (result has the
# operands' float dtype), "int32" (a predicate returned as int32, as libdevice does),
# "int64" (llrint/llround), "int" (integer operands: umulhi).
LIBDEVICE: dict[str, tuple[str, int, str]] = {
    **{n: (n, 1, "float") for n in (
        "acos acosh asin asinh atan atanh cbrt ceil cos cosh erf erfc exp exp10 exp2 expm1 floor "
        "lgamma log log10 log1p log2 nearbyint rint round rsqrt sin sinh sqrt tan tanh tgamma "
        "trunc j0 j1 y0 y1 cyl_bessel_i0 cyl_bessel_i1").split()},
    "fabs": ("abs", 1, "float"), "abs": ("abs", 1, "float"), "sqrt_rn": ("sqrt_rn", 1, "float"),
    "rsqrt_rn": ("rsqrt", 1, "float"), "fast_expf": ("exp", 1, "float"),
    "fast_logf": ("log", 1, "float"), "rcp": ("rcp", 1, "float"), "rcp_rn": ("rcp", 1, "float"),
    **{n: (n, 2, "float")
       for n in "atan2 copysign fdim fmax fmin fmod hypot pow remainder".split()},
    "div_rn": ("div_rn", 2, "float"), "fast_dividef": ("fdiv", 2, "float"),
    "add_rn": ("+", 2, "float"), "sub_rn": ("-", 2, "float"), "mul_rn": ("*", 2, "float"),
    "max": ("fmax", 2, "float"), "min": ("fmin", 2, "float"),
    "fma": ("fma", 3, "float"), "fma_rn": ("fma", 3, "float"),
    "isnan": ("isnan", 1, "int32"), "isinf": ("isinf", 1, "int32"),
    "isnand": ("isnan", 1, "int32"), "isinfd": ("isinf", 1, "int32"),
    "finitef": ("isfinite", 1, "int32"), "isfinited": ("isfinite", 1, "int32"),
    "signbit": ("signbit", 1, "int32"),
    "llrint": ("rint", 1, "int64"), "llround": ("round", 1, "int64"),
    "umulhi": ("umulhi", 2, "int"), "mulhi": ("umulhi", 2, "int"),
}


# Triton's math builtins and libdevice's functions take fp32 and fp64 only (math.py's
# _check_dtype; libdevice has no fp16 symbols): an fp16 operand is an error, as there.
FP32_FP64 = ("fp32", "fp64")


def _float_operand(cx: OpContext, x: Any, name: str, dtypes: tuple[str, ...] = FP32_FP64
                   ) -> Value:
    v = cx.value(x)
    if v.dtype.name not in dtypes:
        raise cx.error(f"{name}: expected dtype {list(dtypes)} but got {v.dtype}")
    return v


def _call(fn: str, args: list[Value], dtype: tl.dtype, shape: tuple[int, ...]) -> Value:
    args = list(fit_all(shape, *args))
    return Value(f"tl::{fn}({', '.join(a.expr for a in args)})", dtype, shape)


def _unary(name: str, fn: str):
    def unary(cx: OpContext, x: Any) -> Value:
        v = _float_operand(cx, x, f"tl.{name}", ("fp32",) if name == "sqrt_rn" else FP32_FP64)
        return _call(fn, [v], v.dtype, v.shape)
    return unary


for _name, _fn in _UNARY_FLOAT.items():
    op(_name)(_unary(_name, _fn))


@op("abs")
def abs_(cx: OpContext, x: Any) -> Value:
    v = cx.value(x)
    if v.dtype.is_fp8():
        # Triton lowers it for fp8 too: the sign bit cleared (fp8 is i8 to LLVM).
        bits = binary(cx, "&", cast(cx, v, tl.uint8, bitcast=True), 0x7F)
        return cast(cx, bits, v.dtype, bitcast=True)
    if v.dtype.is_int_unsigned():
        return v
    return _call("abs", [v], v.dtype, v.shape)


@op("fma")
def fma(cx: OpContext, x: Any, y: Any, z: Any) -> Value:
    a, b, dt = promote_pair(cx, x, y, "fma")
    a, c, dt = promote_pair(cx, a, z, "fma")
    b = convert(b, dt)
    shape = broadcast_shapes(cx, broadcast_shapes(cx, a.shape, b.shape), c.shape)
    return _call("fma", [a, b, c], dt, shape)


@op("fdiv")
def fdiv(cx: OpContext, x: Any, y: Any, ieee_rounding: Any = False) -> Value:
    a, b = cx.value(x), cx.value(y)
    if not a.dtype.is_floating() or not b.dtype.is_floating():
        raise cx.error("both operands of fdiv must have floating scalar type")
    return binary(cx, "/", a, b)


@op("div_rn")
def div_rn(cx: OpContext, x: Any, y: Any) -> Value:
    # fp32 only, as Triton's _check_dtype says; the CPU's division is always rounded to nearest.
    a = _float_operand(cx, x, "tl.div_rn", ("fp32",))
    b = _float_operand(cx, y, "tl.div_rn", ("fp32",))
    return binary(cx, "/", a, b)


@op("umulhi")
def umulhi(cx: OpContext, x: Any, y: Any) -> Value:
    a, b, dt = promote_pair(cx, x, y, "umulhi")
    if not dt.is_int():
        raise cx.error(f"umulhi expects integer operands, got {dt}")
    return _call("umulhi", [a, b], dt, broadcast_shapes(cx, a.shape, b.shape))


@op("softmax")
def softmax(cx: OpContext, x: Any, dim: Any = None, keep_dims: Any = False,
            ieee_rounding: Any = False) -> Value:
    from .reduce_ops import reduce_named
    v = _float_operand(cx, x, "tl.softmax", ("fp16", "bf16", "fp32", "fp64"))
    axis = cx.const(dim, "dim")
    z = binary(cx, "-", v, reduce_named(cx, "max", v, axis, keep_dims=True))
    num = cx.bind("softmax_num", f"tl::exp({z.expr})", z.dtype, z.shape)
    den = reduce_named(cx, "sum", num, axis, keep_dims=True)
    return binary(cx, "/", num, den)


def libdevice_op(name: str):
    fn, arity, rule = LIBDEVICE[name]

    def call(cx: OpContext, *args: Any) -> Value:
        if len(args) != arity:
            raise cx.error(f"libdevice.{name} takes {arity} argument(s), got {len(args)}")
        if fn in ("+", "-", "*"):
            return binary(cx, fn, args[0], args[1])
        if fn == "rcp":
            return binary(cx, "/", 1.0, _float_operand(cx, args[0], f"libdevice.{name}"))
        if rule == "int":
            return umulhi(cx, *args)
        vals = [_float_operand(cx, a, f"libdevice.{name}") for a in args]
        dt = vals[0].dtype
        for other in vals[1:]:
            if other.dtype != dt:
                raise cx.error(f"libdevice.{name}: operands differ in dtype ({dt} and "
                               f"{other.dtype})")
        shape: tuple[int, ...] = ()
        for v in vals:
            shape = broadcast_shapes(cx, shape, v.shape)
        if rule == "float":
            return _call(fn, vals, dt, shape)
        if rule == "int32":
            return convert(_call(fn, vals, tl.int1, shape), tl.int32)
        return convert(_call(fn, vals, dt, shape), tl.int64)
    return call


for _name in LIBDEVICE:
    op("libdevice." + _name)(libdevice_op(_name))


@op("inline_asm_elementwise")
def inline_asm_elementwise(cx: OpContext, asm: Any, constraints: Any, args: Any, dtype: Any,
                           is_pure: Any, pack: Any) -> Value:
    raise cx.unsupported("tl.inline_asm_elementwise: its assembly is the GPU's (PTX or AMDGCN), "
                         "which a CPU cannot run; write the operation in triton.language")
