"""triton.language's values as users see them outside a kernel: dtypes, constexpr, and the
names of the builtins. Inside a @jit function the front end (tcpu.frontend) gives every
builtin its meaning; called from plain Python, a builtin raises."""

from __future__ import annotations

from typing import Any, Callable


class dtype:
    """A scalar element type (``tl.float32``) or, as a subclass, a pointer type."""

    SINT_TYPES = ("int8", "int16", "int32", "int64")
    UINT_TYPES = ("int1", "uint8", "uint16", "uint32", "uint64")
    FP_TYPES = ("fp8e4nv", "fp8e5", "fp8e4b15", "fp8e4b8", "fp8e5b16", "fp16", "bf16", "fp32",
                "fp64")

    _BITS = {
        "int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
        "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
        "fp8e4nv": 8, "fp8e5": 8, "fp8e4b15": 8, "fp8e4b8": 8, "fp8e5b16": 8,
        "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64, "void": 0,
    }

    def __init__(self, name: str) -> None:
        if name not in self._BITS:
            raise ValueError(f"dtype: unknown name {name!r}")
        self.name = name
        self.primitive_bitwidth = self._BITS[name]

    # Kind queries, named as Triton names them.
    def is_floating(self) -> bool:
        return self.name in self.FP_TYPES

    def is_fp8(self) -> bool:
        return self.name.startswith("fp8")

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_int(self) -> bool:
        return self.name in self.SINT_TYPES or self.name in self.UINT_TYPES

    def is_int1(self) -> bool:
        return self.name == "int1"

    def is_bool(self) -> bool:
        return self.is_int1()

    def is_int_signed(self) -> bool:
        return self.name in self.SINT_TYPES

    def is_int_unsigned(self) -> bool:
        return self.name in self.UINT_TYPES

    def is_ptr(self) -> bool:
        return False

    def is_block(self) -> bool:
        return False

    def is_void(self) -> bool:
        return self.name == "void"

    @property
    def int_bitwidth(self) -> int:
        return self.primitive_bitwidth

    @property
    def fp_mantissa_width(self) -> int:
        return {"fp16": 10, "bf16": 7, "fp32": 23, "fp64": 52}.get(self.name, 3)

    @property
    def scalar(self) -> "dtype":
        return self

    def to_int_type(self) -> "dtype":
        names = {1: "int1", 8: "int8", 16: "int16", 32: "int32", 64: "int64"}
        return dtype(names[self.primitive_bitwidth])

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, dtype) and type(other) is type(self)
                and self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self.name,)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"triton.language.{self.name}"

    # Triton lets kernels write `x.dtype.element_ty` etc.; codegen-relevant helpers only.
    def to(self, *_args: Any, **_kwargs: Any) -> Any:
        raise TypeError("dtype.to() is not a thing; did you mean tensor.to(dtype)?")


class pointer_type(dtype):
    """``tl.pointer_type(tl.float32)``: a pointer to elements of a scalar dtype."""

    def __init__(self, element_ty: dtype, address_space: int = 1, const: bool = False) -> None:
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type: element_ty must be a dtype, got {element_ty!r}")
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = f"pointer<{element_ty}>"
        self.primitive_bitwidth = 64

    def is_ptr(self) -> bool:
        return True

    def is_floating(self) -> bool:
        return False

    def is_int(self) -> bool:
        return False

    def is_int_signed(self) -> bool:
        return False

    def is_int_unsigned(self) -> bool:
        return False

    def _key(self) -> tuple:
        return ("ptr", self.element_ty._key())

    def __str__(self) -> str:
        return f"pointer<{self.element_ty}>"

    __repr__ = __str__


class block_type(dtype):
    """The type of a block: an element dtype and a shape."""

    def __init__(self, element_ty: dtype, shape: list[int]) -> None:
        self.element_ty = element_ty
        self.shape = tuple(shape)
        self.name = f"<{self.shape}, {element_ty}>"
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    def is_block(self) -> bool:
        return True

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    def _key(self) -> tuple:
        return ("block", self.element_ty._key(), self.shape)

    def __str__(self) -> str:
        return self.name


int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e4nv = dtype("fp8e4nv")
float8e5 = dtype("fp8e5")
float8e4b15 = dtype("fp8e4b15")
float8e4b8 = dtype("fp8e4b8")
float8e5b16 = dtype("fp8e5b16")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
void = dtype("void")
pi32_t = pointer_type(int32)

DTYPES_BY_NAME = {
    d.name: d
    for d in (int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float8e4nv, float8e5,
              float8e4b15, float8e4b8, float8e5b16, float16, bfloat16, float32, float64, void)
}


class constexpr:
    """A compile-time value: the annotation of constexpr parameters (``BLOCK: tl.constexpr``)
    and a wrapper for globals a kernel may read (``SIZE = tl.constexpr(128)``)."""

    def __init__(self, value: Any) -> None:
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"

    def __hash__(self) -> int:
        return hash(("constexpr", self.value))

    def __eq__(self, other: object) -> bool:
        other_value = other.value if isinstance(other, constexpr) else other
        return self.value == other_value

    def __bool__(self) -> bool:
        return bool(self.value)

    def __index__(self) -> int:
        return int(self.value)

    def __int__(self) -> int:
        return int(self.value)

    def __float__(self) -> float:
        return float(self.value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.value(*args, **kwargs)


class tensor:
    """The class of kernel values (for ``isinstance`` checks in users' code); kernels never
    hold an instance outside the front end."""


BUILTIN_ATTR = "__tcpu_builtin__"


def builtin(name: str, module: str = "triton.language") -> Callable[..., Any]:
    """A builtin named `name`: a function that raises when called outside a @jit function
    and that the front end recognises by its `__tcpu_builtin__` attribute."""

    def outside_kernel(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError(
            f"{module}.{name}() can only be called inside a @triton.jit function "
            "(tcpu compiles kernels; their bodies do not run as Python)")

    outside_kernel.__name__ = name
    outside_kernel.__qualname__ = name
    outside_kernel.__module__ = module
    setattr(outside_kernel, BUILTIN_ATTR, name)
    return outside_kernel


def builtins_named(names: str, module: str, namespace: dict[str, Any], prefix: str = "") -> None:
    """Defines builtin `prefix + name` for each whitespace-separated name in `names`."""
    for name in names.split():
        namespace[name] = builtin(prefix + name, module)


class tensor_descriptor:
    """The class of tensor descriptors (for ``isinstance`` checks in kernels; Triton's TMA)."""
