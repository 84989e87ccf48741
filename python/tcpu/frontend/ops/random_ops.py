"""Random numbers: Philox 4x32-10, bit-exact with Triton (tl/random.h)."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from ..values import Value
from . import op
from .context import OpContext


def _seed(cx: OpContext, seed: Any) -> str:
    s = cx.value(seed)
    if not s.dtype.is_int() or s.shape:
        raise cx.error(f"seed must be an integer scalar, got {s.type_text()}")
    # Triton widens the seed to 64 bits keeping its sign (a negative int32 sign-extends).
    return f"static_cast<uint64_t>({s.expr})"


def _offsets(cx: OpContext, offset: Any) -> Value:
    o = cx.value(offset)
    if not o.dtype.is_int():
        raise cx.error(f"offset must be integers, got {o.type_text()}")
    return o


def _n_rounds(cx: OpContext, n_rounds: Any) -> None:
    if cx.const(n_rounds, "n_rounds") != 10:
        raise cx.unsupported("Philox with n_rounds other than 10")


def _single(name: str, dtype: tl.dtype):
    def random(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> Value:
        _n_rounds(cx, n_rounds)
        o = _offsets(cx, offset)
        return cx.bind(name, f"tl::{name}({_seed(cx, seed)}, {o.expr})", dtype, o.shape)
    return random


op("randint")(_single("randint", tl.uint32))
op("rand")(_single("rand", tl.float32))
op("randn")(_single("randn", tl.float32))


@op("randint4x")
def randint4x(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    _n_rounds(cx, n_rounds)
    o = _offsets(cx, offset)
    words = cx.emit.bind("philox", f"tl::randint4x({_seed(cx, seed)}, {o.expr})")
    return tuple(Value(f"{words}.c{i}", tl.uint32, o.shape) for i in range(4))


@op("rand4x")
def rand4x(cx: OpContext, seed: Any, offsets: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    words = randint4x(cx, seed, offsets, n_rounds)
    return tuple(cx.bind("uniform", f"tl::uint_to_uniform_float({w.expr})", tl.float32, w.shape)
                 for w in words)


@op("randn4x")
def randn4x(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    u = rand4x(cx, seed, offset, n_rounds)
    pairs = []
    for a, b in ((u[0], u[1]), (u[2], u[3])):
        p = cx.emit.bind("normal", f"tl::pair_uniform_to_normal({a.expr}, {b.expr})")
        pairs += [Value(f"{p}.first", tl.float32, a.shape), Value(f"{p}.second", tl.float32, a.shape)]
    return tuple(pairs)
