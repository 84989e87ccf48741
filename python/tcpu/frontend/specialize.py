"""Specialization, as Triton does it: each argument's kind (pointer dtype, integer width by
value, fp32 for floats), ints equal to 1 made constexpr, divisibility by 16 of ints and
16-byte alignment of pointers, `do_not_specialize`. The key of an argument list is a tuple
of small tuples, cheap to build and hash on every launch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..triton.language import core as tl

# Element dtypes of torch and numpy arrays, by their names.
TORCH_DTYPES = {
    "torch.float32": "fp32", "torch.float16": "fp16", "torch.bfloat16": "bf16",
    "torch.float64": "fp64", "torch.int8": "int8", "torch.int16": "int16", "torch.int32": "int32",
    "torch.int64": "int64", "torch.uint8": "uint8", "torch.bool": "int1",
    "torch.uint16": "uint16", "torch.uint32": "uint32", "torch.uint64": "uint64",
    "torch.float8_e5m2": "fp8e5", "torch.float8_e4m3fn": "fp8e4nv",
}
NUMPY_DTYPES = {
    "float32": "fp32", "float16": "fp16", "float64": "fp64", "int8": "int8", "int16": "int16",
    "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
    "uint64": "uint64", "bool": "int1",
    "float8_e5m2": "fp8e5", "float8_e4m3fn": "fp8e4nv",  # ml_dtypes' NumPy dtypes
}
# Launch codes of the extension, by dtype name (python/README.md).
CODES = {"int1": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "l", "uint8": "B",
         "uint16": "H", "uint32": "I", "uint64": "L", "fp16": "e", "bf16": "E", "fp32": "f",
         "fp64": "d"}


# Triton's signature type names (triton.compile's ASTSource, tools/compile.py) -> dtype names.
SIGNATURE_DTYPES = {"i1": "int1", "u1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                    "fp16": "fp16", "bf16": "bf16", "fp32": "fp32", "fp64": "fp64"}


def signature_kind(name: str, entry: str) -> tuple[Any, ...]:
    """The key kind of a run-time argument given by its Triton signature type ("*fp32",
    "i32", "fp32", "i1"), unspecialized (no divisibility or alignment known)."""
    pointer = entry.startswith("*")
    dtype = SIGNATURE_DTYPES.get(entry.lstrip("*").removeprefix("k") if pointer else entry)
    if dtype is None:
        raise ArgumentError(f"argument '{name}': '{entry}' is not a type of Triton's signatures")
    if pointer:
        return ("P", dtype, False)
    if dtype == "int1":
        return ("b",)
    if dtype == "fp32":
        return ("f",)
    if dtype.startswith(("int", "uint")):
        return ("i", dtype, False)
    raise ArgumentError(f"argument '{name}': {dtype} scalar arguments are not supported yet "
                        "(Python floats are fp32 in Triton)")


class ArgumentError(TypeError):
    """A launch argument tcpu cannot pass (a CUDA tensor, an unsupported dtype, ...)."""


class IntegerOverflow(ArgumentError, OverflowError):
    """An int argument outside [-2**63, 2**64): Triton raises OverflowError for it."""


@dataclass(frozen=True)
class PointerArg:
    address: int
    dtype: str  # element dtype name
    nbytes: int  # extent from the address (for the aliasing check); 0 when unknown


def pointer_of(x: Any, name: str) -> PointerArg | None:
    """x as a pointer argument, or None if it is not array-like."""
    data_ptr = getattr(x, "data_ptr", None)
    if data_ptr is not None and hasattr(x, "dtype"):
        device = getattr(x, "device", None)
        if device is not None and getattr(device, "type", "cpu") != "cpu":
            raise ArgumentError(f"argument '{name}' is on device '{device}': tcpu runs kernels on "
                                "the CPU; move it with .cpu()")
        dtype = TORCH_DTYPES.get(str(x.dtype))
        if dtype is None and isinstance(x.dtype, tl.dtype):  # a triton.reinterpret wrapper
            dtype = x.dtype.name
        if dtype is None:
            raise ArgumentError(f"argument '{name}' has dtype {x.dtype}, which tcpu does not "
                                "support")
        return PointerArg(data_ptr(), dtype, x.numel() * x.element_size()
                          if x.is_contiguous() else 0)
    iface = getattr(x, "__array_interface__", None)
    if iface is not None:
        dtype = NUMPY_DTYPES.get(str(x.dtype))
        if dtype is None:
            raise ArgumentError(f"argument '{name}' has dtype {x.dtype}, which tcpu does not "
                                "support")
        if iface.get("data") is None or iface["data"][1]:
            raise ArgumentError(f"argument '{name}' is a read-only array; kernels take "
                                "writable arrays")
        return PointerArg(iface["data"][0], dtype, x.nbytes if x.flags.c_contiguous else 0)
    if hasattr(x, "__dlpack__"):
        import torch
        return pointer_of(torch.from_dlpack(x), name)
    return None


def int_kind(value: int, name: str) -> str:
    if -2**31 <= value < 2**31:
        return "int32"
    if -2**63 <= value < 2**63:
        return "int64"
    if 0 <= value < 2**64:
        return "uint64"
    raise IntegerOverflow(f"argument '{name}' = {value} does not fit 64 bits")


def arg_key(value: Any, name: str, specialize: bool, specialize_alignment: bool
            ) -> tuple[Any, ...]:
    """One argument's part of the specialization key:
    ("P", dtype, aligned16) pointers; ("i", dtype, div16) ints; ("c", value) constants
    (ints equal to 1, None); ("f",) floats; ("b",) bools."""
    if value is None:
        return ("c", None)
    if isinstance(value, bool):
        return ("b",)
    if isinstance(value, int):
        if specialize and value == 1:
            return ("c", 1)
        return ("i", int_kind(value, name), specialize and value % 16 == 0)
    if isinstance(value, float):
        return ("f",)
    if type(value).__module__ == "numpy" and type(value).__name__ != "ndarray":
        # A numpy scalar (np.int32(3), np.bool_): Triton refuses it at launch (only
        # np.float64, a float, passes); its 0-d array interface would otherwise make it a
        # pointer to a temporary.
        raise ArgumentError(f"failed to specialize argument '{name}' of type: "
                            f"numpy.{type(value).__name__} ({value!r}); pass int({name}) "
                            f"or float({name})")
    p = pointer_of(value, name)
    if p is not None:
        return ("P", p.dtype, specialize_alignment and p.address % 16 == 0)
    if hasattr(value, "__index__") and not isinstance(value, (tl.dtype,)):
        return arg_key(int(value.__index__()), name, specialize, specialize_alignment)
    if hasattr(value, "dtype") and hasattr(value, "item"):
        return arg_key(value.item(), name, specialize, specialize_alignment)
    raise ArgumentError(f"argument '{name}' is a {type(value).__name__} ({value!r}); kernels "
                        "take tensors and arrays (anything with data_ptr(), the array "
                        "interface or __dlpack__), ints, floats, bools and None")


def triton_type(kind: tuple[Any, ...]) -> Any:
    """An argument's type as Triton's signatures write it, from its key kind: i32, u64, fp32,
    u1 (a bool), *fp16, constexpr, tensordesc<fp32[16, 32]>, and a tuple of these for a tuple
    argument."""
    tag = kind[0]
    if tag == "c":
        return "constexpr"
    if tag in ("i", "s"):
        return tl.DTYPES_BY_NAME[kind[1]].mangle()
    if tag == "f":
        return "fp32"
    if tag == "b":
        return "u1"
    if tag == "P":
        return "*" + tl.DTYPES_BY_NAME[kind[1]].mangle()
    if tag == "D":
        return f"tensordesc<{tl.DTYPES_BY_NAME[kind[1]].mangle()}{list(kind[2])}>"
    if tag == "T":
        return tuple(triton_type(k) for k in kind[2])
    raise ValueError(f"triton_type: unknown key kind {kind!r}")


def triton_specialization(names: list[str], kinds: list[Any]) -> Any:
    """What Triton hands a `@triton.jit(repr=...)` function: `signature` (each parameter's type
    as Triton writes it, triton_type) and `constants` (the values of constexpr parameters and
    of ints specialized to 1)."""
    from types import SimpleNamespace

    signature = {name: triton_type(kind) for name, kind in zip(names, kinds)}
    constants = {name: kind[1] for name, kind in zip(names, kinds) if kind[0] == "c"}
    return SimpleNamespace(signature=signature, constants=constants)
