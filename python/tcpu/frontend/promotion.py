"""Triton's type rules for binary operators, kept as data (semantic.py's
computation_type_impl and integer_promote_impl, as of Triton 3.6): a wrong dtype is
fixed here, in one table.

  kinds: bool < integer < float (Triton's dtype.kind(): signed and unsigned integers are
  one kind). A Python number beside a block or scalar of the same or a higher kind does
  not take part in promotion (PyTorch's rule): uint8 * 3 stays uint8 (measured on an H100).
  floats: fp64 > fp32 > fp16 > bf16 (fp16 with bf16 gives fp32) > fp8 (two fp8 kinds give
  fp16); / and % of 16-bit floats compute in fp32. integers: the usual C conversions (the wider wins; with equal widths
  the unsigned wins); / and % between signed and unsigned integers are an error."""

from __future__ import annotations

from ..triton.language import core as tl

# Kind ranks: bool < integer < float.
KIND = {"int1": 0, "uint8": 1, "uint16": 1, "uint32": 1, "uint64": 1,
        "int8": 1, "int16": 1, "int32": 1, "int64": 1,
        "fp16": 2, "bf16": 2, "fp32": 2, "fp64": 2,
        "fp8e5": 2, "fp8e4nv": 2, "fp8e4b15": 2, "fp8e4b8": 2, "fp8e5b16": 2}

# Floating results, by the pair of floating (or one floating and one integer) operands:
# the first rule in this list that names one of the operands decides.
FLOAT_RULES: list[tuple[str, str]] = [
    ("fp64", "fp64"),  # either operand fp64 -> fp64
    ("fp32", "fp32"),  # either fp32 -> fp32
    ("fp16", "fp16"),  # either fp16 -> fp16 (fp16 with bf16 too)
]
# 16-bit floats are computed in fp32 by / and %.
DIV_MOD_WIDENS = {"fp16", "bf16"}


def literal_dtype(value: bool | int | float) -> tl.dtype:
    """The dtype Triton gives a Python number (to_tensor_type)."""
    if isinstance(value, bool):
        return tl.int1
    if isinstance(value, int):
        for lo, hi, dtype in ((-2**31, 2**31, tl.int32), (2**31, 2**32, tl.uint32),
                              (-2**63, 2**63, tl.int64), (2**63, 2**64, tl.uint64)):
            if lo <= value < hi:
                return dtype
        raise ValueError(f"integer {value} does not fit 64 bits")
    magnitude = abs(value)
    fp32_normal = 2**-126 <= magnitude <= (2 - 2**-23) * 2**127
    if magnitude in (0.0, float("inf")) or value != value or fp32_normal:
        return tl.float32
    return tl.float64


def integer_promote(a: tl.dtype, b: tl.dtype) -> tl.dtype:
    """C's usual arithmetic conversions between two integer dtypes."""
    a_signed, b_signed = a.is_int_signed(), b.is_int_signed()
    if a_signed == b_signed:
        return a if a.primitive_bitwidth > b.primitive_bitwidth else b
    unsigned, signed = (b, a) if a_signed else (a, b)
    return unsigned if unsigned.primitive_bitwidth >= signed.primitive_bitwidth else signed


def computation_type(a: tl.dtype, a_is_literal: bool, b: tl.dtype, b_is_literal: bool,
                     div_or_mod: bool) -> tl.dtype:
    """The dtype both operands of an arithmetic operator are converted to."""
    if a_is_literal != b_is_literal:
        literal, other = (a, b) if a_is_literal else (b, a)
        if KIND[literal.name] <= KIND[other.name]:
            if div_or_mod and other.name in DIV_MOD_WIDENS:
                return tl.float32
            return other
    names = {a.name, b.name}
    for trigger, result in FLOAT_RULES:
        if trigger in names:
            if div_or_mod and result in DIV_MOD_WIDENS:
                return tl.float32
            return tl.DTYPES_BY_NAME[result]
    if names == {"bf16"}:
        return tl.float32 if div_or_mod else tl.bfloat16
    if "bf16" in names:
        return tl.float32
    if a.is_fp8() and b.is_fp8():
        # One fp8 kind stays itself (Triton then cannot compile the operation: the operators
        # refuse it); two kinds meet in fp16.
        return a if a == b else tl.float16
    if not (a.is_int() and b.is_int()):
        raise TypeError(f"unexpected operand types {a} and {b}")
    if div_or_mod and a.is_int_signed() != b.is_int_signed():
        # Worded as Triton's refusal, which tests match ("Cannot use .* because they have
        # different signedness", test_core's test_bin_op).
        raise TypeError(f"Cannot use /, // or % with {a} and {b} because they have different "
                        "signedness (cast one of them)")
    return integer_promote(a, b)
