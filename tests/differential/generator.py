"""Random small @triton.jit kernels from a seed, for differential testing (README.md).

`generate(seed)` returns a `Case`: the Python source of a module holding one kernel named
`kernel`, its launch arguments as numpy data, and the rule each output is compared by. The
same seed gives the same case in every process (only `random.Random(seed)` and numpy's
`default_rng(seed)` are used), so the two sides of a comparison regenerate it themselves.

The generator tracks each value's dtype by Triton's promotion rules (semantic.py's
`computation_type_impl`, `integer_promote_impl`, `to_tensor`) only to keep kernels away from
behaviour that Triton leaves undefined: the kernels themselves never depend on that tracking
being right, because every output is stored widened (`.to(tl.int64)` / `.to(tl.float64)`:
exact, and a wrong result type shows as a different value), and every guard below holds
whatever the operand types are:
  - integer `//` and `%`: the divisor goes through `tl.where((d == 0) | (d == -1), 3, d)`
    (no division by zero, no INT_MIN // -1);
  - shifts: the amount is `& 7`, below every integer width; int1 is never shifted;
  - float -> integer casts: NaN replaced by 0 and the value clamped into [-100, 100]
    ([0, 100] for unsigned) first (LLVM's fptosi/fptoui are poison out of range);
  - float -> integer bitcasts: NaN replaced by 0 first (a computed NaN's payload differs
    between hosts and GPUs);
  - float sums and scans: their operands are small integers or powers of two converted to
    the float type, so that every order of summation gives the same, exact result.
Signed overflow is not avoided: Triton wraps (two's complement) on every backend."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTS = SIGNED + UNSIGNED
FLOATS = ["float16", "bfloat16", "float32", "float64"]
ALL = INTS + FLOATS + ["int1"]
WIDTH = {"int1": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
         "uint32": 32, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32,
         "float64": 64}
FP_RANK = {"float16": 1, "bfloat16": 1, "float32": 2, "float64": 3}
MANTISSA = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52}
SAME_WIDTH = {8: ["int8", "uint8"], 16: ["int16", "uint16", "float16", "bfloat16"],
              32: ["int32", "uint32", "float32"], 64: ["int64", "uint64", "float64"]}


def kind(dtype: str) -> int:
    """Triton's dtype.kind(): bool < integral < floating."""
    return 0 if dtype == "int1" else 1 if dtype in INTS else 2


def is_unsigned(dtype: str) -> bool:
    return dtype in UNSIGNED


def int_promote(a: str, b: str) -> str:
    wa, wb = WIDTH[a], WIDTH[b]
    if is_unsigned(a) == is_unsigned(b):
        return a if wa > wb else b
    if is_unsigned(a):
        return a if wa >= wb else b
    return b if wb >= wa else a


def computation_type(a: str, a_scalar: bool, b: str, b_scalar: bool, div_or_mod: bool) -> str:
    if a_scalar != b_scalar:
        scalar, tensor = (a, b) if a_scalar else (b, a)
        if kind(scalar) <= kind(tensor):
            if div_or_mod and tensor in ("float16", "bfloat16"):
                return "float32"
            return tensor
    for wide in ("float64", "float32"):
        if wide in (a, b):
            return wide
    if "float16" in (a, b):
        return "float32" if div_or_mod else "float16"
    if a == b == "bfloat16":
        return "float32" if div_or_mod else "bfloat16"
    if "bfloat16" in (a, b):
        return "float32"
    return int_promote(a, b)


def literal_dtype(value: object) -> str:
    """to_tensor's type of a Python number."""
    if isinstance(value, bool):
        return "int1"
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return "int32"
        if value < 2**32 and value > 0:
            return "uint32"
        return "int64" if value < 2**63 else "uint64"
    magnitude = abs(value)
    if magnitude in (0.0, float("inf")) or 2**-126 <= magnitude <= (2 - 2**-23) * 2**127:
        return "float32"
    return "float64"


def argument_dtype(value: object) -> str:
    """The type of a run-time scalar argument (Triton's specialization of Python numbers)."""
    if isinstance(value, bool):
        return "int1"
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return "int32"
        return "int64" if -2**63 <= value < 2**63 else "uint64"
    return "float32"


def broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """numpy's (and Triton's) broadcast of two shapes; () is a scalar."""
    return tuple(np.broadcast_shapes(a, b))


@dataclass
class Value:
    name: str
    dtype: str
    shape: tuple[int, ...]


@dataclass
class Argument:
    """One launch argument: a tensor (numpy data, loaded or stored) or a Python scalar."""

    name: str
    data: object  # np.ndarray for tensors, a Python number for scalars
    dtype: str = ""  # tensors: the element dtype (bfloat16 travels as its uint16 bits)
    output: bool = False
    rule: str = "exact"  # outputs: "exact" or "ulp:<n>"


@dataclass
class Case:
    seed: int
    source: str
    arguments: list[Argument] = field(default_factory=list)
    constexprs: dict[str, int] = field(default_factory=dict)

    @property
    def outputs(self) -> list[Argument]:
        return [a for a in self.arguments if a.output]


def random_data(rng: np.random.Generator, dtype: str, size: int) -> np.ndarray:
    """Values that reach the interesting edges: extremes, zero, -1, small numbers, and for
    floats infinities, NaN, -0.0 and subnormals."""
    if dtype == "int1":
        return rng.integers(0, 2, size).astype(np.bool_)
    if dtype in INTS:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1]
                        + ([-1, -2, -128] if info.min < 0 else [2, 255]), dtype=dtype)
        small = rng.integers(max(info.min, -20), min(info.max, 20), size, endpoint=True)
        full = rng.integers(info.min, info.max, size, endpoint=True, dtype=dtype)
        choice = rng.integers(0, 10, size)
        out = np.where(choice < 5, small.astype(dtype), full)
        return np.where(choice == 9, rng.choice(pool, size), out).astype(dtype)
    work = np.float32 if dtype == "bfloat16" else dtype
    specials = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, 1e-40 if dtype != "float64"
                         else 1e-310, 65504.0, -3.0], dtype=np.float64)
    normal = rng.standard_normal(size) * 10.0 ** rng.integers(-3, 4, size)
    small = rng.integers(-8, 9, size).astype(np.float64)
    choice = rng.integers(0, 20, size)
    values = np.where(choice < 8, small, normal)
    values = np.where(choice == 19, rng.choice(specials, size), values)
    data = values.astype(work)
    if dtype == "bfloat16":  # round to nearest even into bfloat16's 16 high bits
        # No subnormals: the interpreter's bfloat16 -> fp32 conversion flushes them to zero
        # (docs/conformance/differential-testing.md).
        data = np.where(np.abs(data) < np.float32(2.0**-126), np.float32(0.0), data)
        bits = data.view(np.uint32).astype(np.uint64)
        rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
        nan = np.isnan(data)
        return np.where(nan, np.uint16(0x7FC0), rounded).astype(np.uint16)
    return data


class _Builder:
    """One kernel's body, written line by line, with the values in scope."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.two_d = self.r.random() < 0.5
        self.m = self.r.choice([2, 4, 8])
        self.n = self.r.choice([4, 8, 16])
        self.lines: list[str] = []
        self.params: list[str] = []
        self.arguments: list[Argument] = []
        self.values: list[Value] = []
        self.counter = 0

    # -- names and shapes --------------------------------------------------------------
    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    @property
    def full(self) -> tuple[int, ...]:
        return (self.m, self.n) if self.two_d else (self.n,)

    def offsets(self, shape: tuple[int, ...]) -> str:
        """The offsets expression that loads a block of `shape` (full, a column, a row)."""
        if shape == self.full:
            return "offs"
        if self.two_d:
            return "offs_m" if shape == (self.m, 1) else "offs_n"
        return "offs_one"

    def emit(self, line: str) -> None:
        self.lines.append("    " + line)

    def add(self, expr: str, dtype: str, shape: tuple[int, ...]) -> Value:
        value = Value(self.fresh(), dtype, shape)
        self.emit(f"{value.name} = {expr}")
        self.values.append(value)
        return value

    # -- inputs ------------------------------------------------------------------------
    def load(self) -> Value:
        dtype = self.r.choice(ALL)
        shapes = [self.full, self.full] + ([(self.m, 1), (1, self.n)] if self.two_d
                                           else [(1,)])
        shape = self.r.choice(shapes)
        name = self.fresh("in")
        size = int(np.prod(shape))
        self.params.append(name)
        self.arguments.append(Argument(name, random_data(self.rng, dtype, size), dtype))
        pointer = f"{name} + {self.offsets(shape)}"
        if shape == self.full and self.r.random() < 0.4:
            # Always an `other`: Triton leaves masked-off lanes undefined without one.
            other = self.r.choice([", other=0", ", other=1", ", other=-1", ", other=2.5",
                                   ", other=True"])
            if kind(dtype) < kind(literal_dtype(eval(other.split("=")[1]))):
                other = ", other=0"  # a float `other` on an int pointer: a float->int cast
            if other == ", other=-1" and is_unsigned(dtype):
                other = ", other=1"
            if dtype == "bfloat16":  # the interpreter converts only fp32 to bfloat16
                other = self.r.choice([", other=2.5", ", other=0.0"])
            return self.add(f"tl.load({pointer}, mask=offs < n_valid{other})", dtype, shape)
        return self.add(f"tl.load({pointer})", dtype, shape)

    def scalar_argument(self) -> Value:
        """An integer run-time argument. Not 1, not a float, not a bool: the interpreter
        does not specialize 1 into a constant, keeps a float a Python float (so it promotes
        as a Python number, not as the fp32 scalar it is compiled as) and fails on a bool
        (docs/conformance/differential-testing.md)."""
        value = self.r.choice([
            self.r.randint(2, 20), self.r.randint(-20, 0), 16, self.r.randint(-2**31, 2**31 - 1),
            self.r.choice([2**33 + 5, -2**40, 2**63 + 7])])
        name = self.fresh("s")
        self.params.append(name)
        self.arguments.append(Argument(name, value))
        value_obj = Value(name, argument_dtype(value), ())
        self.values.append(value_obj)
        return value_obj

    def literal(self, want_kind: int | None = None) -> tuple[str, str]:
        choices = [self.r.randint(-9, 9), self.r.randint(0, 200), 2**31 + 3, 2**35, -2**33,
                   self.r.choice([0.5, -1.5, 3.0, 1e-3, 1e300, 2.0**-130]),
                   self.r.choice([True, False])]
        value = self.r.choice(choices)
        if want_kind is not None:
            value = {0: self.r.choice([True, False]), 1: self.r.randint(-9, 9),
                     2: self.r.choice([0.5, -1.5, 3.0])}[want_kind]
        return repr(value), literal_dtype(value)

    # -- operations --------------------------------------------------------------------
    def pick(self, predicate=lambda v: True) -> Value | None:
        """A value in scope for `predicate`; never a bfloat16 one: the interpreter holds
        bfloat16 as uint16 bits and computes on those (README.md), so bfloat16 values are
        only loaded, converted to and from float32, bitcast and stored."""
        candidates = [v for v in self.values if predicate(v) and v.dtype != "bfloat16"]
        return self.r.choice(candidates) if candidates else None

    def operand(self, predicate=lambda v: True, literal_ok: bool = True
                ) -> tuple[str, str, bool, str]:
        """(text, dtype, is_python_scalar, shape)."""
        if literal_ok and self.r.random() < 0.25:
            text, dtype = self.literal()
            if predicate(Value(text, dtype, ())):
                return text, dtype, True, ()
        value = self.pick(predicate) or self.pick()
        if value is None:  # only bfloat16 values in scope
            text, dtype = self.literal()
            return text, dtype, True, ()
        return value.name, value.dtype, False, value.shape

    def binary(self) -> None:
        op = self.r.choice(["+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>", "==",
                            "!=", "<", "<=", ">", ">=", "maximum", "minimum"])
        bitwise = op in ("&", "|", "^", "<<", ">>")
        not_float = (lambda v: kind(v.dtype) < 2) if bitwise or op == "//" else (lambda v: True)
        if op in ("<<", ">>", "//", "%", "/"):
            predicate = lambda v: not_float(v) and v.dtype != "int1"
        else:
            predicate = not_float
        if self.pick(predicate) is None:
            return
        a_text, a_ty, a_lit, a_shape = self.operand(predicate, literal_ok=False)
        b_text, b_ty, b_lit, b_shape = self.operand(predicate)
        if not predicate(Value(b_text, b_ty, b_shape)):
            return
        if self.r.random() < 0.5:
            a_text, a_ty, a_lit, a_shape, b_text, b_ty, b_lit, b_shape = (
                b_text, b_ty, b_lit, b_shape, a_text, a_ty, a_lit, a_shape)
        div_or_mod = op in ("/", "//", "%")
        # Comparisons and tl.maximum / tl.minimum make a Python number a tensor first
        # (tensor.__lt__ etc. and tl.maximum call to_tensor), so it takes part in promotion.
        tensorized = op in ("==", "!=", "<", "<=", ">", ">=", "maximum", "minimum")
        ty = computation_type(a_ty, a_lit and not tensorized, b_ty, b_lit and not tensorized,
                              div_or_mod)
        shape = broadcast(a_shape, b_shape)
        if op in ("<<", ">>"):
            if kind(a_ty) == 2 or kind(b_ty) == 2 or "int1" in (a_ty, b_ty):
                return
            b_text = f"({b_text} & 7)" if not b_lit else str(abs(int(eval(b_text))) & 7)
            expr = f"{a_text} {op} {b_text}"
        elif op in ("//", "%") and kind(ty) == 1:
            if b_lit:
                b_value = eval(b_text)
                b_text = repr(3 if b_value in (0, -1) else b_value)
            else:
                b_text = f"tl.where(({b_text} == 0) | ({b_text} == -1), 3, {b_text})" \
                    if not is_unsigned(b_ty) else f"tl.where({b_text} == 0, 3, {b_text})"
            expr = f"{a_text} {op} {b_text}"
        elif op in ("maximum", "minimum") and kind(ty) == 2:
            # PropagateNan.NONE (the default) leaves NaN's outcome to the hardware's min/max
            # (the GPU returns the other operand, the interpreter NaN): ALL is defined.
            expr = f"tl.{op}({a_text}, {b_text}, propagate_nan=tl.PropagateNan.ALL)"
        elif op in ("maximum", "minimum"):
            expr = f"tl.{op}({a_text}, {b_text})"
        else:
            expr = f"{a_text} {op} {b_text}"
        if a_lit and b_lit:
            return
        if op in ("==", "!=", "<", "<=", ">", ">="):
            ty = "int1"
        elif op == "/" and kind(ty) == 1:
            ty = "float32"
        elif op == "/":
            ty = a_ty if MANTISSA.get(a_ty, 0) > MANTISSA.get(b_ty, 0) else b_ty
            ty = ty if kind(ty) == 2 else "float32"
        self.add(expr, ty, shape)

    def from_bfloat16(self) -> None:
        """A bfloat16 value into computation: to float32 or bitcast (what the interpreter
        handles)."""
        values = [v for v in self.values if v.dtype == "bfloat16"]
        if values:
            value = self.r.choice(values)
            target = self.r.choice(["float32", "float32", "int16", "uint16", "float16"])
            bitcast = ", bitcast=True" if target != "float32" else ""
            self.add(f"{value.name}.to(tl.{target}{bitcast})", target, value.shape)

    def unary(self) -> None:
        value = self.pick()
        if value is None:
            return
        op = self.r.choice(["-", "~", "abs", "where", "where", "cast", "cast", "bitcast",
                            "not"])
        if op == "-" and value.dtype != "int1":
            self.add(f"-{value.name}", value.dtype, value.shape)
        elif op == "~" and kind(value.dtype) < 2:
            self.add(f"~{value.name}", value.dtype, value.shape)
        elif op == "abs" and value.dtype != "int1":
            self.add(f"tl.abs({value.name})", value.dtype, value.shape)
        elif op == "where":
            cond = self.pick(lambda v: v.dtype == "int1") or value
            cond_text = cond.name if cond.dtype == "int1" else f"{cond.name} != 0"
            a_text, a_ty, a_lit, a_shape = self.operand()
            b_text, b_ty, b_lit, b_shape = self.operand()
            if a_lit and b_lit:
                return
            ty = computation_type(a_ty, a_lit, b_ty, b_lit, False)
            shape = broadcast(cond.shape, broadcast(a_shape, b_shape))
            self.add(f"tl.where({cond_text}, {a_text}, {b_text})", ty, shape)
        elif op == "cast":
            target = self.r.choice(ALL)
            if target == "bfloat16" and value.dtype != "float32":
                target = "float32"  # the interpreter converts bfloat16 to and from fp32 only
            text = value.name
            if kind(value.dtype) == 2 and kind(target) == 1:
                low = 0 if is_unsigned(target) else -100
                text = (f"tl.minimum(tl.maximum(tl.where({text} != {text}, 0, {text}), {low}),"
                        " 100)")
            self.add(f"({text}).to(tl.{target})", target, value.shape)
        elif op == "bitcast" and value.dtype != "int1":
            target = self.r.choice(SAME_WIDTH[WIDTH[value.dtype]])
            text = value.name
            if kind(value.dtype) == 2:
                text = f"tl.where({text} != {text}, 0, {text})"
            self.add(f"({text}).to(tl.{target}, bitcast=True)", target, value.shape)
        elif op == "not":
            cond = self.pick(lambda v: v.dtype == "int1")
            if cond is not None:
                self.add(f"~{cond.name}" if self.r.random() < 0.5 else f"{cond.name} == 0",
                         "int1", cond.shape)

    def library(self) -> None:
        """tl.cdiv, tl.umulhi, tl.clamp, rounding modes of fp32 -> fp16/bf16, tl.sum with
        dtype=, tl.flip."""
        op = self.r.choice(["cdiv", "umulhi", "clamp", "rounding", "sum_dtype", "flip"])
        ints = lambda v: kind(v.dtype) == 1  # noqa: E731
        if op == "cdiv" and (value := self.pick(ints)):
            self.add(f"tl.cdiv({value.name}, {self.r.randint(1, 7)})", value.dtype, value.shape)
        elif op == "umulhi":
            a = self.pick(lambda v: v.dtype in ("int32", "uint32"))
            if a is not None:
                b = self.pick(lambda v: v.dtype == a.dtype) or a
                self.add(f"tl.umulhi({a.name}, {b.name})", a.dtype, broadcast(a.shape, b.shape))
        elif op == "clamp" and (value := self.pick(lambda v: kind(v.dtype) == 2)):
            low = self.r.choice([-2.5, 0.0, -100.0])
            text = f"tl.where({value.name} != {value.name}, 0, {value.name})"
            self.add(f"tl.clamp({text}, {low}, {low + self.r.choice([1.0, 3.5, 1e6])})",
                     value.dtype, value.shape)
        elif op == "rounding" and (value := self.pick(lambda v: v.dtype == "float32")):
            target = self.r.choice(["float16", "bfloat16"])
            mode = self.r.choice(["rtz", "rtne"])
            self.add(f"{value.name}.to(tl.{target}, fp_downcast_rounding='{mode}')", target,
                     value.shape)
        elif op == "sum_dtype" and (value := self.pick(lambda v: ints(v) and v.shape != ())):
            axis = self.r.choice(range(len(value.shape)))
            wide = self.r.choice(["int64", "int32", "uint64"])
            shape = tuple(1 if i == axis else d for i, d in enumerate(value.shape))
            expand = ("[None, :]" if axis == 0 else "[:, None]") if len(shape) == 2 else ""
            if not expand:
                shape = ()
            self.add(f"tl.sum({value.name}, axis={axis}, dtype=tl.{wide}){expand}", wide, shape)
        elif op == "flip" and (value := self.pick(lambda v: v.shape == self.full)):
            axis = self.r.choice(range(len(value.shape)))
            self.add(f"tl.flip({value.name}, {axis})", value.dtype, value.shape)

    def reduction(self) -> None:
        value = self.pick(lambda v: v.shape != ())
        if value is None:
            return
        op = self.r.choice(["sum", "max", "min", "argmax", "argmin", "xor_sum"])
        text = value.name
        if op == "xor_sum" and kind(value.dtype) == 2:
            return
        if op == "sum" and kind(value.dtype) == 2:
            text = self._small_float(value)  # exact under any summation order
        elif op in ("max", "min") and kind(value.dtype) == 2:
            # A NaN's outcome is the hardware's (as for tl.maximum above): no NaN.
            text = f"tl.where({text} != {text}, 0, {text})"
        rank = len(value.shape)
        axis = self.r.choice([None] + list(range(rank)))
        if op in ("argmax", "argmin") and axis is None:
            axis = 0
        keep = self.r.random() < 0.4
        call = f"tl.{op}({text}, axis={axis}" + (", keep_dims=True)" if keep else ")")
        if axis is None:
            shape = (1,) * rank if keep else ()
        else:
            shape = tuple(1 if i == axis else d for i, d in enumerate(value.shape))
            if not keep and rank == 2:  # back to rank 2, to broadcast with the rest
                call += "[None, :]" if axis == 0 else "[:, None]"
            elif not keep:
                shape = ()
        # standard.py: max/min widen what is narrower than 32 bits to int32 / fp32, sum to
        # int32 / uint32 by signedness.
        if op in ("argmax", "argmin"):
            ty = "int32"
        elif op in ("max", "min") and WIDTH[value.dtype] < 32:
            ty = "float32" if kind(value.dtype) == 2 else "int32"
        elif op == "sum" and value.dtype in ("int1", "int8", "int16"):
            ty = "int32"
        elif op == "sum" and value.dtype in ("uint8", "uint16"):
            ty = "uint32"
        else:
            ty = value.dtype
        self.add(call, ty, shape)

    def _small_float(self, value: Value) -> str:
        """`value` as small integers of its float type: exact under any summation order."""
        v = value.name
        return (f"tl.minimum(tl.maximum(tl.where({v} != {v}, 0, {v}), -8), 8)"
                f".to(tl.int8).to(tl.{value.dtype})")

    def scan(self) -> None:
        value = self.pick(lambda v: v.shape == self.full)
        if value is None:
            return
        op = self.r.choice(["cumsum", "cumprod"])
        text = value.name
        if kind(value.dtype) == 2:
            v = value.name
            text = self._small_float(value) if op == "cumsum" else (
                f"tl.where({v} > 0, tl.where({v} > 4, 0.5, 1.0), tl.where({v} < -4, -0.5, -1.0))"
                f".to(tl.{value.dtype})")
        axis = self.r.choice([0, 1] if self.two_d else [0])
        reverse = ", reverse=True" if self.r.random() < 0.3 else ""
        ty = value.dtype  # cumprod keeps it; cumsum widens as sum does
        if op == "cumsum" and ty in ("int1", "int8", "int16"):
            ty = "int32"
        elif op == "cumsum" and ty in ("uint8", "uint16"):
            ty = "uint32"
        self.add(f"tl.{op}({text}, axis={axis}{reverse})", ty, self.full)

    # -- outputs -----------------------------------------------------------------------
    def store(self, value: Value, transcendental: bool) -> None:
        name = self.fresh("out")
        self.params.append(name)
        text = value.name
        rule = "exact"
        if transcendental and kind(value.dtype) == 2 and value.dtype in ("float32", "float64"):
            fn = self.r.choice(["exp", "log", "sqrt", "sin", "cos", "exp2", "log2"])
            text = f"tl.{fn}({text})"
            rule = "ulp:4" if value.dtype == "float32" else "ulp:2"
        wide = "float64" if kind(value.dtype) == 2 else "int64"
        if value.dtype == "bfloat16":
            text = f"{text}.to(tl.float32)"
        if value.shape != self.full:
            text = f"tl.broadcast_to({text}, {'(M, N)' if self.two_d else '(N,)'})"
        size = int(np.prod(self.full))
        sentinel = np.full(size, -7 if wide == "int64" else -7.5, dtype=wide)
        self.arguments.append(Argument(name, sentinel, wide, output=True, rule=rule))
        mask = ", mask=offs < n_store" if self.r.random() < 0.3 else ""
        self.emit(f"tl.store({name} + offs, ({text}).to(tl.{wide}){mask})")

    def build(self) -> Case:
        for _ in range(self.r.randint(1, 3)):
            self.load()
        if self.r.random() < 0.5:
            self.scalar_argument()
        steps = self.r.randint(2, 8)
        for _ in range(steps):
            roll = self.r.random()
            if roll < 0.5:
                self.binary()
            elif roll < 0.75:
                self.unary()
            elif roll < 0.88:
                self.reduction()
            elif roll < 0.93:
                self.scan()
            elif roll < 0.96:
                self.from_bfloat16()
            elif roll < 0.985:
                self.library()
            else:
                self.load()
        tensors = [v for v in self.values if v.shape != ()] or self.values
        stored = self.r.sample(tensors, min(len(tensors), self.r.randint(1, 3)))
        if self.values[-1] not in stored:
            stored.append(self.values[-1])
        for value in stored:
            self.store(value, transcendental=False)
        floats = [v for v in self.values if v.dtype in ("float32", "float64")]
        if floats and self.r.random() < 0.3:
            self.store(self.r.choice(floats), transcendental=True)
        return self.finish()

    def finish(self) -> Case:
        size = int(np.prod(self.full))
        n_valid = self.r.choice([size, size, size - 1, size // 2, 1])
        n_store = self.r.choice([size, size - 3, 2])
        params = self.params + ["n_valid", "n_store", "M: tl.constexpr", "N: tl.constexpr"]
        self.arguments += [Argument("n_valid", n_valid), Argument("n_store", n_store)]
        if self.two_d:
            head = ["    offs_m = tl.arange(0, M)[:, None]",
                    "    offs_n = tl.arange(0, N)[None, :]",
                    "    offs = offs_m * N + offs_n"]
        else:
            head = ["    offs = tl.arange(0, N)", "    offs_one = tl.arange(0, 1)"]
        source = "\n".join(["import triton", "import triton.language as tl", "", "",
                            "@triton.jit", f"def kernel({', '.join(params)}):"]
                           + head + self.lines) + "\n"
        return Case(self.seed, source, self.arguments,
                    {"M": self.m if self.two_d else 1, "N": self.n})


def generate(seed: int) -> Case:
    return _Builder(seed).build()
