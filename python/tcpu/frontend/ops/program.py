"""Programs and hints: program_id, num_programs, cdiv, swizzle2d, the hints that only help a
GPU compiler (multiple_of, max_contiguous, max_constancy, assume, debug_barrier), and the refusal
of tl.extra.cuda's builtins that ask about CUDA's threads, warps and clocks."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from ..values import Value, unwrap
from . import OPS, op
from .arith import binary
from .context import OpContext


def _axis(cx: OpContext, axis: Any, what: str) -> int:
    a = cx.const(axis, "axis")
    if a not in (0, 1, 2):
        raise cx.error(f"{what} axis must be 0, 1, or 2 but got {a!r}")
    return a


@op("program_id")
def program_id(cx: OpContext, axis: Any) -> Value:
    return Value(f"program_id({_axis(cx, axis, 'program_id')})", tl.int32)


@op("num_programs")
def num_programs(cx: OpContext, axis: Any) -> Value:
    return Value(f"num_programs({_axis(cx, axis, 'num_programs')})", tl.int32)


@op("cdiv")
def cdiv(cx: OpContext, x: Any, div: Any) -> Any:
    # Triton's cdiv is written in Triton: (x + div - 1) // div, with its promotion.
    return binary(cx, "//", binary(cx, "-", binary(cx, "+", x, div), 1), div)


@op("swizzle2d")
def swizzle2d(cx: OpContext, i: Any, j: Any, size_i: Any, size_j: Any, size_g: Any) -> tuple:
    # Triton's swizzle2d is written in Triton too: row-major (i, j) of a size_i x size_j matrix
    # to column-major order within each group of size_g rows (the last group may be shorter).
    ij = binary(cx, "+", binary(cx, "*", i, size_j), j)
    size_gj = binary(cx, "*", size_g, size_j)
    off_i = binary(cx, "*", binary(cx, "//", ij, size_gj), size_g)
    size_g = OPS["minimum"](cx, binary(cx, "-", size_i, off_i), size_g)
    ij = binary(cx, "%", ij, size_gj)
    return binary(cx, "+", off_i, binary(cx, "%", ij, size_g)), binary(cx, "//", ij, size_g)


@op("multiple_of", "max_contiguous", "max_constancy")
def hint(cx: OpContext, input: Any, values: Any = None) -> Any:
    # Alignment and contiguity hints feed the GPU's axis analysis; tl's index types carry
    # contiguity themselves, so the value passes through unchanged.
    return input


@op("assume")
def assume(cx: OpContext, cond: Any) -> None:
    c = unwrap(cond)
    if isinstance(c, Value) and not c.shape:
        cx.emit.line(f"__builtin_assume({c.expr});")
    return None


@op("debug_barrier")
def debug_barrier(cx: OpContext) -> None:
    # One program runs on one thread, in order: there is nothing to wait for.
    return None


@op("condition")
def condition(cx: OpContext, arg1: Any, disable_licm: Any = False) -> Any:
    # `while tl.condition(c, disable_licm)`: the flag asks the GPU compiler not to hoist
    # loop-invariant code (a register-pressure hint); the condition's value is `c` itself.
    cx.const(disable_licm, "disable_licm")
    return arg1


def _refuse_cuda_only(name: str, why: str) -> None:
    @op("cuda." + name)
    def refuse(cx: OpContext, *args: Any, **kwargs: Any) -> Any:
        raise cx.unsupported(f"tl.extra.cuda.{name}() {why}")


_THREADS = ("asks about CUDA's threads per program (num_warps x 32); a program on the CPU runs "
            "on one thread and has no warps, and tcpu compiles a kernel once whatever num_warps "
            "is. Triton's interpreter (TRITON_INTERPRET=1) refuses it too. Pass the count as a "
            "tl.constexpr parameter instead")
for _name, _why in (("num_threads", _THREADS), ("num_warps", _THREADS.replace("threads per "
                    "program (num_warps x 32)", "warps per program"))):
    _refuse_cuda_only(_name, _why)
for _name in ("globaltimer", "smid", "convert_custom_float8_sm70", "convert_custom_float8_sm80",
              "gdc_launch_dependents", "gdc_wait"):
    _refuse_cuda_only(_name, "is specific to NVIDIA GPUs (a clock, an SM id, an sm_70/sm_80 "
                      "conversion or grid dependency control): there is no CPU meaning")
