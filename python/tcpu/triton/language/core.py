"""triton.language's values as users see them outside a kernel: dtypes, constexpr, and the
names of the builtins. Inside a @jit function the front end (tcpu.frontend) gives every
builtin its meaning; called from plain Python, a builtin raises."""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable


class dtype:
    """A scalar element type (``tl.float32``) or, as a subclass, a pointer type."""

    # Lists, in Triton's order: tests concatenate them with their own lists.
    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16", "fp16", "bf16", "fp32",
                "fp64"]
    STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    class SIGNEDNESS(Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(Enum):
        """Ordered as promotion orders kinds: bool < integer < floating point."""
        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    _BITS = {
        "int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
        "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
        "fp8e4nv": 8, "fp8e5": 8, "fp8e4b15": 8, "fp8e4b8": 8, "fp8e5b16": 8,
        "fp16": 16, "bf16": 16, "fp32": 32, "fp64": 64, "void": 0,
    }
    # (mantissa bits, exponent bias) of each floating-point type.
    _FP_LAYOUT = {
        "fp8e4b15": (3, 15), "fp8e4nv": (3, 7), "fp8e4b8": (3, 8), "fp8e5": (2, 15),
        "fp8e5b16": (2, 16), "fp16": (10, 15), "bf16": (7, 127), "fp32": (23, 127),
        "fp64": (52, 1023),
    }

    def __init__(self, name: str) -> None:
        if name not in self._BITS:
            raise ValueError(f"dtype: unknown name {name!r}")
        self.name = name
        self.primitive_bitwidth = self._BITS[name]
        self.itemsize = self.primitive_bitwidth // 8
        # Triton sets these per kind: an fp dtype has no int_signedness, an int one no
        # exponent_bias (hasattr tells the kind apart in users' code).
        if name in self.SINT_TYPES or name in self.UINT_TYPES:
            self.int_signedness = (dtype.SIGNEDNESS.SIGNED if name in self.SINT_TYPES
                                   else dtype.SIGNEDNESS.UNSIGNED)
            self.int_bitwidth = self.primitive_bitwidth
        elif name in self._FP_LAYOUT:
            self.fp_mantissa_width, self.exponent_bias = self._FP_LAYOUT[name]

    # Kind queries, named as Triton names them.
    def is_floating(self) -> bool:
        return self.name in self.FP_TYPES

    def is_fp8(self) -> bool:
        return self.name.startswith("fp8")

    def is_fp8e4nv(self) -> bool:
        return self.name == "fp8e4nv"

    def is_fp8e4b8(self) -> bool:
        return self.name == "fp8e4b8"

    def is_fp8e4b15(self) -> bool:
        return self.name == "fp8e4b15"

    def is_fp8e5(self) -> bool:
        return self.name == "fp8e5"

    def is_fp8e5b16(self) -> bool:
        return self.name == "fp8e5b16"

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

    def is_int8(self) -> bool:
        return self.name == "int8"

    def is_int16(self) -> bool:
        return self.name == "int16"

    def is_int32(self) -> bool:
        return self.name == "int32"

    def is_int64(self) -> bool:
        return self.name == "int64"

    def is_uint8(self) -> bool:
        return self.name == "uint8"

    def is_uint16(self) -> bool:
        return self.name == "uint16"

    def is_uint32(self) -> bool:
        return self.name == "uint32"

    def is_uint64(self) -> bool:
        return self.name == "uint64"

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

    def is_standard_floating(self) -> bool:
        return self.name in self.STANDARD_FP_TYPES

    @staticmethod
    def is_const() -> bool:
        return False

    @staticmethod
    def is_dtype(type_str: str) -> bool:
        """Whether `type_str` names a scalar dtype ("fp32", "uint8", "void")."""
        return type_str in dtype._BITS

    def kind(self) -> "dtype.KIND":
        if self.is_bool():
            return dtype.KIND.BOOLEAN
        if self.is_int():
            return dtype.KIND.INTEGRAL
        if not self.is_floating():
            raise TypeError(f"{self} has no kind (only bool, integer and floating types do)")
        return dtype.KIND.FLOATING

    def get_int_max_value(self) -> int:
        if not self.is_int():
            raise TypeError(f"get_int_max_value: {self} is not an integer type")
        bits = self.int_bitwidth - (1 if self.is_int_signed() else 0)
        return 2**bits - 1

    def get_int_min_value(self) -> int:
        if not self.is_int():
            raise TypeError(f"get_int_min_value: {self} is not an integer type")
        return -2**(self.int_bitwidth - 1) if self.is_int_signed() else 0

    def codegen_name(self) -> str:
        """The name of the tl attribute: fp16 -> float16, bf16 -> bfloat16."""
        if self.name.startswith("fp"):
            return "float" + self.name[2:]
        if self.name.startswith("bf"):
            return "bfloat" + self.name[2:]
        return self.name

    @property
    def cache_key_part(self) -> str:
        return self.name

    def mangle(self) -> str:
        """The short name of the type in mangled function names: i32, u8, fp16, V."""
        if self.is_int():
            return ("i" if self.is_int_signed() else "u") + str(self.int_bitwidth)
        if self.is_floating():
            return self.name
        if self.is_void():
            return "V"
        raise TypeError(f"mangle: {self} has no mangled name")

    def with_element_ty(self, element_ty: "dtype") -> "dtype":
        """A scalar's type with its element type replaced: the element type itself."""
        return element_ty

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
        # An expression that evaluates to this dtype, as Triton's: triton.language.float16.
        return f"triton.language.{self.codegen_name()}"

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
        # As Triton names them: a pointer to read-only data (`tl.const`) is another type.
        self.name = f"const_pointer<{element_ty}>" if const else f"pointer<{element_ty}>"
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

    def is_const(self) -> bool:
        return self.const

    def _key(self) -> tuple:
        return ("ptr", self.element_ty._key(), self.const)

    def __str__(self) -> str:
        return self.name

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


class constexpr_type:
    """The type of a compile-time value (``x.type`` of a constexpr): Triton tells constexprs
    apart by their value, so two are one type when their values are equal."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"constexpr_type[{self.value}]"


class constexpr:
    """A compile-time value: the annotation of constexpr parameters (``BLOCK: tl.constexpr``)
    and a wrapper for globals a kernel may read (``SIZE = tl.constexpr(128)``)."""

    def __init__(self, value: Any) -> None:
        self.value = value.value if isinstance(value, constexpr) else value
        self.type = constexpr_type(self.value)

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


def must_use_result(fn: Any, note: Any = True) -> Any:
    """Triton's `must_use_result`: a kernel that calls `fn` and drops the result fails to
    compile (the front end checks calls made as statements); `note`, a string, is added to
    the message. `@must_use_result("note")` decorates with a note."""
    if isinstance(fn, str):
        return lambda f: must_use_result(f, fn)
    fn._must_use_result = note
    return fn


def builtins_named(names: str, module: str, namespace: dict[str, Any], prefix: str = "") -> None:
    """Defines builtin `prefix + name` for each whitespace-separated name in `names`."""
    for name in names.split():
        namespace[name] = builtin(prefix + name, module)


class tensor_descriptor:
    """The class of tensor descriptors (for ``isinstance`` checks in kernels; Triton's TMA)."""


class const:
    """``tl.const``: the annotation of a parameter that points to read-only data (as in
    Triton, a marker class; nothing is an instance of it)."""


# The short type names of kernel signatures (`"*fp32"`, `"i32"`), as Triton's str_to_ty reads
# them: fp names as dtypes name themselves, integers as i<bits>/u<bits>, "B" a bool.
_SIGNATURE_NAMES = {
    **{n: DTYPES_BY_NAME[n] for n in dtype.FP_TYPES},
    "i1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "u1": int1, "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64, "B": int1,
}


def str_to_ty(name: str, c: Any = None) -> dtype:
    """The dtype a signature string names: "fp16", "i32", "*fp32" (a pointer), "*kfp32" (a
    pointer to const data). `c` is the constexpr value Triton pairs with "constexpr"."""
    if isinstance(name, tuple):
        raise NotImplementedError("str_to_ty of a tuple signature: tcpu has no tuple types")
    if name.startswith("*"):
        name = name[1:]
        read_only = name.startswith("k")
        return pointer_type(str_to_ty(name[1:] if read_only else name, c), const=read_only)
    if name.startswith(("constexpr", "tensordesc")):
        raise NotImplementedError(f"str_to_ty({name!r}): tcpu has no type object for "
                                  f"{name.split('<')[0]} signatures")
    try:
        return _SIGNATURE_NAMES[name]
    except KeyError:
        raise KeyError(f"str_to_ty: unknown type name {name!r}") from None
