"""Random numbers: Philox 4x32, bit-exact with Triton 3.6 (tl/random.h; 64-bit offsets give
the counter's second word, as Triton 3.6 does)."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from ..values import Value
from . import op
from .arith import broadcast_shapes, convert
from .context import OpContext
from .rank3 import fit_all


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


def _rounds(cx: OpContext, n_rounds: Any) -> int:
    n = cx.const(n_rounds, "n_rounds")
    if not isinstance(n, int) or n <= 0:
        raise cx.error(f"n_rounds must be a positive int, got {n!r}")
    return n


def _words(cx: OpContext, seed: Any, offset: Any, n_rounds: Any) -> tuple[Value, ...]:
    rounds = _rounds(cx, n_rounds)
    o = _offsets(cx, offset)
    if not o.shape:
        o = Value(f"tl::full<{'int64_t' if o.dtype.primitive_bitwidth == 64 else 'int32_t'}, 1>"
                  f"({o.expr})", o.dtype, (1,))
        scalar = True
    else:
        scalar = False
    words = cx.emit.bind("philox", f"tl::randint4x_rounds<{rounds}>({_seed(cx, seed)}, {o.expr})")
    if scalar:
        return tuple(Value(f"{words}.c{i}.v[0]", tl.uint32) for i in range(4))
    return tuple(Value(f"{words}.c{i}", tl.uint32, o.shape) for i in range(4))


@op("randint4x")
def randint4x(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    return _words(cx, seed, offset, n_rounds)


@op("randint")
def randint(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> Value:
    return _words(cx, seed, offset, n_rounds)[0]


def _uniform(cx: OpContext, w: Value) -> Value:
    if not w.shape:
        return cx.bind("uniform",
                       f"tl::uint_to_uniform_float(tl::full<uint32_t, 1>({w.expr})).v[0]",
                       tl.float32)
    return cx.bind("uniform", f"tl::uint_to_uniform_float({w.expr})", tl.float32, w.shape)


@op("rand")
def rand(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> Value:
    return _uniform(cx, randint(cx, seed, offset, n_rounds))


@op("rand4x")
def rand4x(cx: OpContext, seed: Any, offsets: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    return tuple(_uniform(cx, w) for w in _words(cx, seed, offsets, n_rounds))


def _normal_pairs(cx: OpContext, u: tuple[Value, ...]) -> list[Value]:
    out = []
    for a, b in zip(u[0::2], u[1::2]):
        p = cx.emit.bind("normal", f"tl::pair_uniform_to_normal({a.expr}, {b.expr})")
        out += [Value(f"{p}.first", tl.float32, a.shape), Value(f"{p}.second", tl.float32, a.shape)]
    return out


@op("randn")
def randn(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> Value:
    words = _words(cx, seed, offset, n_rounds)
    return _normal_pairs(cx, (_uniform(cx, words[0]), _uniform(cx, words[1])))[0]


@op("randn4x")
def randn4x(cx: OpContext, seed: Any, offset: Any, n_rounds: Any = 10) -> tuple[Value, ...]:
    return tuple(_normal_pairs(cx, rand4x(cx, seed, offset, n_rounds)))


@op("philox")
def philox(cx: OpContext, seed: Any, c0: Any, c1: Any, c2: Any, c3: Any,
           n_rounds: Any = 10) -> tuple[Value, ...]:
    rounds = _rounds(cx, n_rounds)
    counters = [cx.value(c) for c in (c0, c1, c2, c3)]
    for c in counters:
        if not c.dtype.is_int() or c.dtype.primitive_bitwidth != 32:
            raise cx.unsupported(f"tl.philox with {c.dtype} counters (32-bit counters are "
                                 "supported)")
    shape: tuple[int, ...] = ()
    for c in counters:
        shape = broadcast_shapes(cx, shape, c.shape)
    args = ", ".join(convert(c, tl.uint32).expr if c.dtype != tl.uint32 else c.expr
                     for c in fit_all(shape, *counters))
    words = cx.emit.bind("philox", f"tl::philox_blocks<{rounds}>({_seed(cx, seed)}, {args})")
    return tuple(Value(f"{words}.c{i}", tl.uint32, shape) for i in range(4))
