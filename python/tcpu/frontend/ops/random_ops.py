"""Random numbers: Philox 4x32, bit-exact with Triton 3.6 (tl/random.h; 64-bit offsets give
the counter's second word, as Triton 3.6 does), and tl.philox's Philox 4x64 for 64-bit
counters (measured on an H100: tests/goldens/triton_ops/philox64)."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from .. import cpp
from ..values import Value
from . import op
from .arith import broadcast_shapes, convert
from .context import OpContext
from .rank_n import fit_all


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
        ct = cpp.ctype(w.dtype)
        return cx.bind("uniform", f"tl::uint_to_uniform_float(tl::full<{ct}, 1>({w.expr})).v[0]",
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


def _philox_words(cx: OpContext, counters: list[Value], what: str) -> tuple[tl.dtype, list[Value]]:
    """The counters' word type (by c0's width, as Triton 3.6's philox decides) and the counters
    as that type (Triton bitcasts them, so every counter must have c0's width)."""
    for c in counters:
        if not c.dtype.is_int():
            raise cx.error(f"{what}: counters must be integers, got {c.type_text()}")
    bits = counters[0].dtype.primitive_bitwidth
    if bits not in (32, 64):
        raise cx.error(f"{what}: counters of {bits} bits (Triton supports 32 and 64)")
    word = tl.uint32 if bits == 32 else tl.uint64
    for c in counters[1:]:
        if c.dtype.primitive_bitwidth != bits:
            raise cx.error(f"{what}: every counter must have c0's width ({counters[0].dtype}); "
                           f"cannot bitcast {c.dtype} to {word}")
    return word, [convert(c, word) for c in counters]


@op("philox")
def philox(cx: OpContext, seed: Any, c0: Any, c1: Any, c2: Any, c3: Any,
           n_rounds: Any = 10) -> tuple[Value, ...]:
    rounds = _rounds(cx, n_rounds)
    word, counters = _philox_words(cx, [cx.value(c) for c in (c0, c1, c2, c3)], "tl.philox")
    # Triton 3.6's 64-bit key is (seed, a [1] block of 0): results are blocks of at least [1].
    # (With scalar counters a word becomes [1] only once the key has reached it: c2 after
    # round 1, c0 and c1 after round 2, c3 after round 3; tcpu gives all four [1] blocks, which
    # is Triton's answer from 3 rounds on.)
    if word == tl.uint64 and rounds < 3 and not any(c.shape for c in counters):
        raise cx.unsupported("tl.philox with 64-bit scalar counters and fewer than 3 rounds")
    shape: tuple[int, ...] = () if word == tl.uint32 else (1,)
    for c in counters:
        shape = broadcast_shapes(cx, shape, c.shape)
    args = ", ".join(c.expr for c in fit_all(shape, *counters))
    fn = "philox_blocks" if word == tl.uint32 else "philox64_blocks"
    words = cx.emit.bind("philox", f"tl::{fn}<{rounds}>({_seed(cx, seed)}, {args})")
    if not shape:  # scalar counters
        return tuple(Value(f"{words}.c{i}.v[0]", word) for i in range(4))
    return tuple(Value(f"{words}.c{i}", word, shape) for i in range(4))


@op("uint_to_uniform_float")
def uint_to_uniform_float(cx: OpContext, x: Any) -> Value:
    v = cx.value(x)
    if v.dtype.name not in ("int32", "uint32", "int64", "uint64"):
        raise cx.error(f"uint_to_uniform_float needs 32- or 64-bit integers, got {v.type_text()}")
    return _uniform(cx, v)
