"""Debugging: static_print and static_assert (compile time), device_print, device_assert
(checked when the kernel is compiled with debug=True or TRITON_DEBUG=1, as in Triton)."""

from __future__ import annotations

from typing import Any

from .. import cpp
from ..errors import CompileTimeAssertionFailure
from ..values import Value, unwrap
from . import op
from .arith import broadcast_shapes
from .context import OpContext
from .rank_n import fit_all


@op("static_print")
def static_print(cx: OpContext, *values: Any, sep: str = " ", end: str = "\n",
                 file: Any = None, flush: bool = False) -> None:
    print(*(cx.lowerer.describe(v) for v in values), sep=sep, end=end, flush=True)


class StaticAssertionFailure(CompileTimeAssertionFailure):
    """A `tl.static_assert` failed: Triton's CompileTimeAssertionFailure, so that the
    autotuner skips the config that failed it (as Triton's does) instead of stopping."""


@op("static_assert")
def static_assert(cx: OpContext, cond: Any, msg: Any = "") -> None:
    c = cx.const(cond, "static_assert's condition")
    if not c:
        # No builtin's error behind it (Triton's has no cause): the message is the kernel's.
        raise cx.error(f"static_assert failed: {cx.const(msg, 'msg')}".rstrip(": "),
                       StaticAssertionFailure) from None


@op("device_print")
def device_print(cx: OpContext, prefix: Any, *args: Any, hex: Any = False) -> None:
    text = str(cx.const(prefix, "prefix"))
    h = "true" if cx.const(hex, "hex") else "false"
    if not args:
        cx.emit.line(f"device_print({cpp.string(text)}, 0);")
    for i, a in enumerate(args):
        v = unwrap(a)
        if not isinstance(v, Value):
            v = cx.value(v)
        label = text if len(args) == 1 else f"{text}({i})"
        cx.emit.line(f"device_print({cpp.string(label)}, {v.expr}, {h});")


@op("device_assert")
def device_assert(cx: OpContext, cond: Any, msg: Any = "", mask: Any = None) -> None:
    if not cx.lowerer.debug:
        return None
    c = unwrap(cond)
    message = str(cx.const(msg, "msg"))
    if not isinstance(c, Value):
        if not c:
            cx.emit.line(f"device_assert(false, {cpp.string(message)});")
        return None
    if unwrap(mask) is not None:
        m = cx.value(mask)
        shape = broadcast_shapes(cx, c.shape, m.shape)
        m, c = fit_all(shape, m, c)
        cx.emit.line(f"device_assert(tl::where({m.expr}, {c.expr}, true), {cpp.string(message)});")
    else:
        cx.emit.line(f"device_assert({c.expr}, {cpp.string(message)});")
    return None
