"""Operators, casts, where, maximum/minimum: Triton's typing (promotion.py), emitted so
that C++'s own promotion never decides a dtype (operands are converted first; results
of narrow types are converted back, as C++ widens them to int)."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..promotion import computation_type, literal_dtype
from ..values import Value, is_number, unwrap
from . import op
from .context import OpContext
from .rank_n import fit_all

# Result dtypes C++ would widen: an operation on them is converted back explicitly.
_NARROW = {"int1", "int8", "int16", "uint8", "uint16", "fp16", "bf16"}
_DIV_MOD = {"/", "//", "%"}
_BITWISE = {"&", "|", "^", "<<", ">>"}
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}


def broadcast_shapes(cx: OpContext, a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's broadcasting, as Triton's broadcast_impl_shape."""
    rank = max(len(a), len(b))
    a2 = (1,) * (rank - len(a)) + tuple(a)
    b2 = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x != y and x != 1 and y != 1:
            raise cx.error(f"cannot broadcast shapes {list(a)} and {list(b)}: dimension {x} vs {y}")
        out.append(max(x, y))
    return tuple(out)


def convert(v: Value, dtype: tl.dtype) -> Value:
    """v converted to dtype (a lazy map for blocks, static_cast for scalars)."""
    if v.dtype == dtype:
        return v
    ct = cpp.ctype(dtype)
    if v.is_block or dtype.name == "bf16" or dtype.is_fp8() or v.dtype.is_fp8():
        # tl::cast rounds to bf16 exactly (subnormals kept), which static_cast may not, and
        # converts fp8 (a storage type in C++).
        return Value(f"tl::cast<{ct}>({v.expr})", dtype, v.shape)
    return Value(f"static_cast<{ct}>({v.expr})", dtype, v.shape)


def convert_checked(cx: OpContext, v: Value, dtype: tl.dtype) -> Value:
    """convert(v, dtype) where the program asked for it implicitly (operands, stored values, a
    load's `other`): a conversion Triton refuses for fp8 is an error at the line, as in cast."""
    if (v.dtype.is_fp8() or dtype.is_fp8()) and v.dtype != dtype:
        _check_fp8_conversion(cx, v, dtype, None)
    return convert(v, dtype)


def narrow_back(expr: str, dtype: tl.dtype, shape: tuple[int, ...]) -> str:
    if dtype.name not in _NARROW:
        return expr
    ct = cpp.ctype(dtype)
    if shape or dtype.name == "bf16":
        return f"tl::cast<{ct}>({expr})"
    return f"static_cast<{ct}>({expr})"


def _operand(cx: OpContext, x: Any, dtype: tl.dtype) -> Value:
    """A literal as a constant of dtype (range-checked as Triton does), a value converted."""
    x = unwrap(x)
    if is_number(x):
        if dtype.is_int() and not isinstance(x, bool):
            bits = dtype.primitive_bitwidth
            if dtype.is_int_signed():
                lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
            else:
                lo, hi = 0, 2**bits - 1
            if dtype.name == "int1":
                lo, hi = 0, 1
            if not lo <= x <= hi:
                if x < 0 and dtype.is_int_unsigned():
                    raise cx.error("cannot combine an unsigned tensor with a negative scalar "
                                   f"({x}); cast one of them explicitly")
                raise cx.error(f"scalar {x} is out of range for type {dtype}")
        cx.check_constant(x, dtype)
        return Value(cpp.literal(x, dtype), dtype)
    return convert_checked(cx, x, dtype)


def _pointer_arith(cx: OpContext, opname: str, a: Any, b: Any) -> Value:
    a_v, b_v = cx.value(a), cx.value(b)
    if opname == "+" and b_v.dtype.is_ptr() and not a_v.dtype.is_ptr():
        a_v, b_v = b_v, a_v
    if not a_v.dtype.is_ptr() or b_v.dtype.is_ptr() or opname not in ("+", "-"):
        if opname in COMPARISONS and a_v.dtype == b_v.dtype:
            shape = broadcast_shapes(cx, a_v.shape, b_v.shape)
            a_v, b_v = fit_all(shape, a_v, b_v)
            return Value(f"({a_v.expr} {opname} {b_v.expr})", tl.int1, shape)
        raise cx.error(f"invalid operands of type {a_v.type_text()} and {b_v.type_text()} "
                       f"for '{opname}'")
    if not b_v.dtype.is_int():
        raise cx.error(f"a pointer offset must be an integer, got {b_v.type_text()}")
    if b_v.dtype.is_int_unsigned() and b_v.dtype.primitive_bitwidth < 64:
        b_v = convert(b_v, tl.int64)  # Triton zero-extends unsigned offsets
    shape = broadcast_shapes(cx, a_v.shape, b_v.shape)
    a_v, b_v = fit_all(shape, a_v, b_v)
    return Value(f"({a_v.expr} {opname} {b_v.expr})", a_v.dtype, shape, a_v.roots)


def as_tensor(cx: OpContext, x: Any) -> Any:
    """Triton's to_tensor: a Python number as a scalar of its own type (int32 / uint32 / int64
    / uint64 by magnitude, fp32 or fp64, int1), anything else as it is. Triton's comparison
    operators and tl.maximum / tl.minimum call it before promoting, so there a number takes
    part in promotion like a scalar tensor (`int8_block == 300` compares in int32,
    `fp16_block < 0.1` in fp32) instead of taking the block's type."""
    if not is_number(x):
        return x
    try:
        dtype = literal_dtype(x)
    except ValueError as e:
        raise cx.error(str(e)) from None
    cx.check_constant(x, dtype)
    return Value(cpp.literal(x, dtype), dtype)


def _dtypes(cx: OpContext, a: Any, b: Any) -> tuple[tl.dtype, bool, tl.dtype, bool]:
    """Each operand's dtype, and whether it is a Python number (which promotes differently)."""
    a_lit, b_lit = is_number(a), is_number(b)
    a_dt = literal_dtype(a) if a_lit else cx.value(a).dtype
    b_dt = literal_dtype(b) if b_lit else cx.value(b).dtype
    return a_dt, a_lit, b_dt, b_lit


def _computation(cx: OpContext, a_dt: tl.dtype, a_lit: bool, b_dt: tl.dtype, b_lit: bool,
                 div_or_mod: bool, what: str, selects: bool = False) -> tl.dtype:
    try:
        comp = computation_type(a_dt, a_lit, b_dt, b_lit, div_or_mod)
    except TypeError as e:
        raise cx.error(f"{what}: {e}") from None
    if comp.is_fp8() and not selects:  # a select moves fp8 values; anything else computes
        cx.check_computes(comp, what)
    return comp


def binary(cx: OpContext, opname: str, a: Any, b: Any) -> Any:
    """`a <op> b` for Python operators, with Triton's typing."""
    a_u, b_u = unwrap(a), unwrap(b)
    if is_number(a_u) and is_number(b_u):
        return _fold(cx, opname, a_u, b_u)
    if opname in COMPARISONS:
        a_u, b_u = as_tensor(cx, a_u), as_tensor(cx, b_u)
    a_dt, a_lit, b_dt, b_lit = _dtypes(cx, a_u, b_u)
    if a_dt.is_ptr() or b_dt.is_ptr():
        return _pointer_arith(cx, opname, a_u, b_u)
    comp = _computation(cx, a_dt, a_lit, b_dt, b_lit, opname in _DIV_MOD, f"'{opname}'")
    if opname == "/" and comp.is_int():
        # Triton checks a Python number against the integer type first, then divides in fp32.
        for x in (a_u, b_u):
            if is_number(x):
                _operand(cx, x, comp)
        comp = tl.float32
    if opname == "//" and not comp.is_int():
        raise cx.error(f"'//' needs integer operands (got {a_dt} and {b_dt})")
    if opname in _BITWISE and not comp.is_int():
        # Triton's words (IncompatibleTypeErrorImpl, after promoting both operands to `comp`):
        # its tests match them.
        raise cx.error(f"invalid operands of type {comp!r} and {comp!r} for '{opname}' "
                       f"(integer operands needed, got {a_dt} and {b_dt})")
    x, y = _operand(cx, a_u, comp), _operand(cx, b_u, comp)
    shape = broadcast_shapes(cx, x.shape, y.shape)
    x, y = fit_all(shape, x, y)
    if opname in COMPARISONS:
        return Value(f"({x.expr} {opname} {y.expr})", tl.int1, shape)
    if opname == "%" and comp.is_floating():
        return Value(narrow_back(f"tl::fmod({x.expr}, {y.expr})", comp, shape), comp, shape)
    c_op = "/" if opname == "//" else opname
    if comp.name == "bf16":
        # bf16 arithmetic: in fp32, rounded once to bf16 (as on the GPU).
        x, y = convert(x, tl.float32), convert(y, tl.float32)
        return convert(Value(f"({x.expr} {c_op} {y.expr})", tl.float32, shape), comp)
    if opname == ">>":
        return _shift_right(x, y, (b_dt if a_lit else a_dt).is_int_signed(), comp, shape)
    if opname == "<<":  # the GPU's value for amounts of the width or more (kernels' integer_ops.h)
        return Value(narrow_back(f"tl::shift_left({x.expr}, {y.expr})", comp, shape), comp, shape)
    if comp.is_int() and opname in ("//", "%"):
        # The GPU's values where C++'s division is undefined or traps (kernels' integer_ops.h).
        fn = "tl::int_div" if opname == "//" else "tl::int_rem"
        return Value(narrow_back(f"{fn}({x.expr}, {y.expr})", comp, shape), comp, shape)
    if comp.name == "int1" and opname in ("&", "|", "^"):
        expr = f"({x.expr} {c_op} {y.expr})"
        return Value(expr if shape else f"static_cast<bool>{expr}", comp, shape)
    return Value(narrow_back(f"({x.expr} {c_op} {y.expr})", comp, shape), comp, shape)


def _shift_right(x: Value, y: Value, arithmetic: bool, comp: tl.dtype,
                 shape: tuple[int, ...]) -> Value:
    """`x >> y` in the computation type, shifting arithmetically when the shifted operand is
    signed: Triton's tensor.__rshift__ picks ashr or lshr by its own dtype (a Python number on
    the left leaves it to the right operand's __rrshift__), not by the promoted type, so
    int32 >> uint32 is a uint32 shifted arithmetically. Amounts of the width or more give the
    GPU's values (kernels' integer_ops.h)."""
    if arithmetic == comp.is_int_signed():
        return Value(narrow_back(f"tl::shift_right({x.expr}, {y.expr})", comp, shape), comp, shape)
    bits = comp.primitive_bitwidth
    as_dt = tl.DTYPES_BY_NAME[f"int{bits}" if arithmetic else f"uint{bits}"]
    shifted = f"tl::shift_right({convert(x, as_dt).expr}, {convert(y, as_dt).expr})"
    return convert(Value(narrow_back(shifted, as_dt, shape), as_dt, shape), comp)


_PY_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b, "**": lambda a, b: a**b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


def _fold(cx: OpContext, opname: str, a: Any, b: Any) -> Any:
    """Both operands known at compile time: Python's own semantics, as Triton's constexpr."""
    try:
        return _PY_OPS[opname](a, b)
    except (ArithmeticError, TypeError, ValueError) as e:
        raise cx.error(f"'{opname}' on compile-time values {a!r} and {b!r}: {e}") from None


def fold_any(cx: OpContext, opname: str, a: Any, b: Any) -> Any:
    """Compile-time operators on any Python values (dtypes, strings, None, tuples)."""
    if opname == "is":
        return a is b
    if opname == "is not":
        return a is not b
    if opname == "in":
        return a in b
    if opname == "not in":
        return a not in b
    return _fold(cx, opname, a, b)


def unary(cx: OpContext, opname: str, a: Any) -> Any:
    a = unwrap(a)
    if isinstance(a, tuple):
        # Python would fold `not (0, 0)`; Triton refuses any unary operator on a tuple.
        raise cx.error(f"unary '{opname}' of a tuple {a!r} is not supported in Triton "
                       "kernels") from None
    if not isinstance(a, Value):
        try:
            return {"-": lambda x: -x, "+": lambda x: +x, "~": lambda x: ~x,
                    "not": lambda x: not x}[opname](a)
        except TypeError as e:
            raise cx.error(f"'{opname}' on {a!r}: {e}") from None
    if opname == "+":
        return a
    if a.dtype.is_ptr():
        raise cx.error(f"wrong type argument to unary '{opname}' ({a.type_text()})")
    if opname == "-":
        # Triton's minus is `0 - x`: -(+0.0) is +0.0 (not -0.0), integers wrap.
        return binary(cx, "-", 0.0 if a.dtype.is_floating() else 0, a)
    if opname == "~":
        if a.dtype.is_floating():
            raise cx.error(f"wrong type argument to unary '~' ({a.type_text()})")
        if a.dtype.name == "int1":
            return Value(f"(!{a.expr})", a.dtype, a.shape)
        return Value(narrow_back(f"(~{a.expr})", a.dtype, a.shape), a.dtype, a.shape)
    # `not`: Triton's not_ bitcasts to int1 then inverts.
    return Value(f"(!{convert(a, tl.int1).expr})", tl.int1, a.shape)


def cast(cx: OpContext, x: Any, dtype: tl.dtype, bitcast: bool = False,
         fp_downcast_rounding: Any = None) -> Value:
    v = cx.value(x)
    if bitcast:
        if v.dtype.primitive_bitwidth != dtype.primitive_bitwidth:
            raise cx.error(f"cannot bitcast {v.dtype} to {dtype}: they differ in width "
                           f"({v.dtype.primitive_bitwidth} vs {dtype.primitive_bitwidth} bits)")
        if v.dtype == dtype:
            return v
        return Value(f"tl::bitcast<{cpp.ctype(dtype)}>({v.expr})", dtype, v.shape)
    rounding = unwrap(fp_downcast_rounding)
    if rounding not in (None, "rtne", "rtz"):
        raise cx.error(f"fp_downcast_rounding must be 'rtne' or 'rtz', got {rounding!r}")
    if dtype.is_ptr():
        if v.dtype.is_ptr() or v.dtype.name in ("int64", "uint64"):
            # A pointer from an integer may point anywhere ("*"); a recast pointer still
            # derives from its parameters.
            roots = v.roots if v.dtype.is_ptr() else frozenset({"*"})
            return Value(f"tl::cast_pointer<{cpp.ctype(dtype)}>({v.expr})", dtype, v.shape,
                         roots)
        raise cx.error(f"cannot cast {v.type_text()} to {dtype}")
    if v.dtype.is_ptr():
        if dtype.name in ("int64", "uint64"):
            return Value(f"tl::cast_pointer<{cpp.ctype(dtype)}>({v.expr})", dtype, v.shape)
        raise cx.error(f"cannot cast {v.type_text()} to {dtype}")
    narrowing = dtype.primitive_bitwidth < v.dtype.primitive_bitwidth
    if (v.dtype.is_fp8() or dtype.is_fp8()) and v.dtype != dtype:
        _check_fp8_conversion(cx, v, dtype, rounding)
    if rounding == "rtz" and v.dtype.is_floating() and narrowing and dtype.name != "fp8e4b15":
        return Value(f"tl::cast_rtz<{cpp.ctype(dtype)}>({v.expr})", dtype, v.shape)
    return convert(v, dtype)


def _check_fp8_conversion(cx: OpContext, v: Value, dtype: tl.dtype, rounding: Any) -> None:
    """Triton 3.6 converts fp8 only to and from floats (an integer is "cannot cast"), and its
    NVIDIA backend compiles neither fp64 <-> fp8 nor a round-toward-zero fp8 other than fp32 ->
    float8e5 (measured on an H200); its AMD backend, the one for float8e4b8 and float8e5b16,
    has no fp64 conversion of them either and rounds to them to nearest even only (its table
    of conversions). Each is refused here with the way around it."""
    other = dtype if v.dtype.is_fp8() else v.dtype
    if not other.is_floating():
        raise cx.error(f"cannot cast {v.type_text()} to {dtype}: fp8 converts to and from "
                       "floating types only (go through tl.float32)")
    if other.name == "fp64":
        raise cx.error(f"cannot convert {v.dtype} to {dtype}: Triton cannot compile fp8 <-> "
                       "fp64 conversions for GPUs; go through tl.float32")
    if "fp8e4b15" in (v.dtype.name, dtype.name):
        # Converted in software (Triton's convert_custom_float8, GPUs before sm_90): fp16 and
        # fp32 only; the rounding asked for is not read (fp32 goes to fp16 toward zero, then
        # rounds half up to fp8).
        if other.name not in ("fp16", "fp32"):
            raise cx.error(f"cannot convert {v.dtype} to {dtype}: Triton converts float8e4b15 "
                           "to and from fp16 and fp32 only; go through tl.float32")
        return
    if rounding == "rtz" and dtype.name in ("fp8e4b8", "fp8e5b16"):
        raise cx.error(f"fp_downcast_rounding='rtz' from {v.dtype} to {dtype}: Triton's AMD "
                       "backend converts to its fp8 formats rounding to nearest even only")
    if rounding == "rtz" and dtype.is_fp8() and (v.dtype.name, dtype.name) != ("fp32", "fp8e5"):
        raise cx.error(f"fp_downcast_rounding='rtz' from {v.dtype} to {dtype}: Triton's NVIDIA "
                       "backend rounds toward zero to fp8 only from fp32 to float8e5")


@op("cast")
def _cast_op(cx: OpContext, input: Any, dtype: Any, fp_downcast_rounding: Any = None,
             bitcast: Any = False) -> Value:
    return cast(cx, input, cx.dtype_arg(dtype, "dtype"), cx.const(bitcast, "bitcast"),
                fp_downcast_rounding)


def promote_pair(cx: OpContext, a: Any, b: Any, what: str,
                 selects: bool = False) -> tuple[Value, Value, tl.dtype]:
    """Both operands converted to their computation type (binary_op_type_checking)."""
    a_u, b_u = unwrap(a), unwrap(b)
    a_dt, a_lit, b_dt, b_lit = _dtypes(cx, a_u, b_u)
    if a_dt.is_ptr() or b_dt.is_ptr():
        if a_dt == b_dt:
            return cx.value(a_u), cx.value(b_u), a_dt
        raise cx.error(f"{what}: incompatible operands {a_dt} and {b_dt}")
    comp = _computation(cx, a_dt, a_lit, b_dt, b_lit, False, what, selects)
    return _operand(cx, a_u, comp), _operand(cx, b_u, comp), comp


@op("where")
def where(cx: OpContext, condition: Any, x: Any, y: Any) -> Value:
    c = cx.value(condition)
    if c.dtype != tl.int1:
        # Triton deprecates it (a future release refuses it) and warns; the value is c != 0.
        cx.warn(f"tl.where's condition should be boolean (int1), got {c.dtype}: Triton "
                "deprecates other conditions and a future release will refuse them")
        c = convert(c, tl.int1)
    xv, yv, dt = promote_pair(cx, x, y, "where", selects=True)
    shape = broadcast_shapes(cx, broadcast_shapes(cx, c.shape, xv.shape), yv.shape)
    c, xv, yv = fit_all(shape, c, xv, yv)
    if not shape:
        return Value(f"({c.expr} ? {xv.expr} : {yv.expr})", dt, shape)
    return Value(f"tl::where({c.expr}, {xv.expr}, {yv.expr})", dt, shape,
                 xv.roots | yv.roots)


def _nan_arg(cx: OpContext, propagate_nan: Any) -> str:
    p = cx.const(propagate_nan, "propagate_nan")
    p = getattr(p, "value", p)
    if p in (0, None):
        return ""
    if p == 0xFFFF:
        return ", tl::PropagateNan::all"
    raise cx.error(f"propagate_nan must be tl.PropagateNan.NONE or ALL, got {p!r}")


def _make_extreme(name: str):
    def extreme(cx: OpContext, x: Any, y: Any, propagate_nan: Any = 0) -> Value:
        xv, yv, dt = promote_pair(cx, as_tensor(cx, unwrap(x)), as_tensor(cx, unwrap(y)), name)
        shape = broadcast_shapes(cx, xv.shape, yv.shape)
        xv, yv = fit_all(shape, xv, yv)
        return Value(f"tl::{name}({xv.expr}, {yv.expr}{_nan_arg(cx, propagate_nan)})", dt, shape)
    return extreme


op("maximum")(_make_extreme("maximum"))
op("minimum")(_make_extreme("minimum"))


@op("clamp")
def clamp(cx: OpContext, x: Any, min: Any, max: Any, propagate_nan: Any = 0) -> Value:
    lo, hi, _ = promote_pair(cx, min, max, "clamp")
    xv, lo, dt = promote_pair(cx, x, lo, "clamp")
    xv, hi, dt = promote_pair(cx, xv, hi, "clamp")
    if not dt.is_floating():
        raise cx.error(f"clamp supports only floating dtypes, got {dt}")
    shape = broadcast_shapes(cx, broadcast_shapes(cx, xv.shape, lo.shape), hi.shape)
    xv, lo, hi = fit_all(shape, xv, lo, hi)
    return Value(f"tl::clamp({xv.expr}, {lo.expr}, {hi.expr}{_nan_arg(cx, propagate_nan)})",
                 dt, shape)


def _named_binary(opname: str):
    def fn(cx: OpContext, x: Any, y: Any, sanitize_overflow: Any = True) -> Any:
        # sanitize_overflow adds overflow checks to Triton's debug builds; tcpu's integer
        # arithmetic wraps as Triton's does without them.
        cx.const(sanitize_overflow, "sanitize_overflow")
        return binary(cx, opname, x, y)
    return fn


op("add")(_named_binary("+"))
op("sub")(_named_binary("-"))
op("mul")(_named_binary("*"))
