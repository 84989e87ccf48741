"""How dtypes and constants are spelled in the tl C++ the front end emits."""

from __future__ import annotations

import math
import re

from ..triton.language import core as tlc

_CTYPES = {
    "int1": "bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "fp16": "tl::float16", "bf16": "tl::bfloat16", "fp32": "float", "fp64": "double",
    "fp8e5": "tl::float8e5", "fp8e4nv": "tl::float8e4nv", "fp8e4b15": "tl::float8e4b15",
    "fp8e4b8": "tl::float8e4b8", "fp8e5b16": "tl::float8e5b16",
}


def ctype(dtype: tlc.dtype, const: bool = False) -> str:
    """The C++ type of a scalar of `dtype` (pointers: `T*`, or `const T*`)."""
    if isinstance(dtype, tlc.pointer_type):
        inner = ctype(dtype.element_ty)
        return f"const {inner}*" if const else f"{inner}*"
    try:
        return _CTYPES[dtype.name]
    except KeyError:
        from .errors import UnsupportedError
        raise UnsupportedError(f"dtype {dtype} is not supported on the CPU yet") from None


def block_dims(shape: tuple[int, ...]) -> str:
    """The template dimensions of the tl block that holds a block of Triton shape `shape`:
    rank 3 and more [A, ..., Y, Z] is held as tl's [A * ... * Y, Z] (the same elements in the
    same row-major order; tl/rank_n.h)."""
    if len(shape) >= 3:
        shape = (math.prod(shape[:-1]), shape[-1])
    return ", ".join(map(str, shape))


def literal(value: bool | int | float, dtype: tlc.dtype) -> str:
    """A C++ constant of `dtype` holding `value` (Triton has already checked the range)."""
    name = dtype.name
    if name == "int1":
        return "true" if value else "false"
    if dtype.is_int():
        v = int(value)
        if name == "int32":
            return str(v) if v != -2**31 else "(-2147483647 - 1)"
        if name == "int64":
            return f"int64_t({v}LL)" if v != -2**63 else "int64_t(-9223372036854775807LL - 1)"
        if name == "uint32":
            return f"{v}u"
        if name == "uint64":
            return f"uint64_t({v}ULL)"
        return f"{ctype(dtype)}({v})"
    v = float(value)
    if math.isnan(v):
        text = "NAN" if name != "fp64" else "double(NAN)"
    elif math.isinf(v):
        text = ("INFINITY" if v > 0 else "-INFINITY") if name != "fp64" else (
            "double(INFINITY)" if v > 0 else "double(-INFINITY)")
    else:
        text = repr(v)
        if "e" not in text and "." not in text:
            text += ".0"
        if name != "fp64":
            text += "f"
    if name in ("fp16", "bf16"):
        return f"{ctype(dtype)}({text})"
    if dtype.is_fp8():
        # Triton's only fp8 constant is the type's null value: +0, also for -0.0.
        return f"{ctype(dtype)}{{0}}" if v == 0 else f"tl::cast<{ctype(dtype)}>({text})"
    return text


def string(text: str) -> str:
    """A C++ string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


_IDENT = re.compile(r"[^A-Za-z0-9_]")


def identifier(hint: str) -> str:
    """A C++-safe identifier made from a Python name."""
    text = _IDENT.sub("_", hint) or "v"
    return text if not text[0].isdigit() else "v" + text
