"""The C++ variables a loop carries, and how they are written without reading a value that was
already overwritten.

A loop-carried name is a mutable C++ variable (a tuple: one per run-time element). Python
assigns by reference, so other names may hold the same variable (`t = a`, or `a, b = b, a`
unpacked one element at a time): before a variable is written, those names are given a copy
(`snapshot_aliases`), and the writes at the end of an iteration happen as one parallel
assignment (`assign_in_parallel`), so `a, b = b, a` swaps as Python does."""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable

from ..emitter import Emitter
from ..ops.descriptors import TensorDescriptor
from ..ops.dot_ops import Accumulating
from ..ops.memory import BlockPointer
from ..values import Value, unwrap


def _identifier(var: str) -> str:
    """A regex matching `var` as a whole C++ identifier."""
    return rf"(?<![A-Za-z0-9_]){re.escape(var)}(?![A-Za-z0-9_])"


def _mentions(expr: str, var: str) -> bool:
    return re.search(_identifier(var), expr) is not None


def read_in_place(expr: str, var: str) -> str:
    """`expr`, about to be assigned to the carried variable `var`, with its reads of `var` made
    through a const reference. tl's lazy expressions copy a mutable block they read (a later
    write to it must not change them), which here would copy `var` once per write (`acc = acc +
    x` in a loop: a block copy per iteration; without it the layer norm tutorial ran at 0.75x
    its C++ port's speed, with it 0.93-0.96x). The assignment evaluates the expression at once,
    and every lazy tl expression is elementwise, reading element (i, j) of `var` only while
    writing (i, j) (the shapes are equal: the carry keeps its shape), so reading it in place
    gives the same values."""
    return re.sub(_identifier(var), f"std::as_const({var})", expr)


def dot_in_place(emit: Emitter, v: Value, var: str) -> list[str] | None:
    """The statements that write `v` to the carried variable `var` in place where `v` is a
    `tl.dot(a, b, acc)` written on the line just before (and used nowhere else): acc into var
    (nothing where acc is var), then tl::dot_into(var, a, b), which saves the block that
    `var = tl::dot(a, b, acc)` builds and then copies (the product is the same, bit for bit).
    Its line is taken back. None (and nothing taken back) where a or b reads var, which the
    first statement may overwrite before they are read."""
    payload = emit.payload(v.expr)
    if not isinstance(payload, Accumulating) or \
            _mentions(payload.a.expr, var) or _mentions(payload.b.expr, var):
        return None
    if emit.retract_last(v.expr) is None:
        return None
    # An accumulator computed just for this product (`acc = acc * alpha[:, None]` before it)
    # is evaluated into var in place, rather than into a block of its own that holds a copy of
    # var (tl's lazy expressions copy the mutable blocks they read).
    acc = payload.acc.expr
    if acc.isidentifier():
        acc = emit.take_binding(acc) or acc
    first = [] if acc == var else [f"{var} = {read_in_place(acc, var)};"]
    return first + [f"tl::dot_into({var}, {payload.a.expr}, {payload.b.expr});"]


def carry_leaves(emit: Emitter, name: str, v: Any, storage_type: Callable[[Value], str]) -> Any:
    """`v` (a tuple, possibly nested) with each run-time element moved into a fresh mutable
    variable; compile-time elements stay as they are (they must not change in the loop)."""
    if isinstance(v, tuple):
        return tuple(carry_leaves(emit, name, unwrap(x), storage_type) for x in v)
    if isinstance(v, TensorDescriptor):  # its run-time fields are carried
        return dataclasses.replace(
            v, base=carry_leaves(emit, name, v.base, storage_type),
            shape=carry_leaves(emit, name, v.shape, storage_type),
            strides=carry_leaves(emit, name, v.strides, storage_type))
    if isinstance(v, BlockPointer):
        var = emit.fresh(name)
        emit.line(f"auto {var} = {v.expr};")
        return BlockPointer(var, v.element, v.shape, v.roots)
    if isinstance(v, Value):
        var = emit.fresh(name)
        emit.line(f"{storage_type(v)} {var} = {v.expr};")
        return Value(var, v.dtype, v.shape, v.roots)
    return v


def leaf_writes(carried: Any, now: Any, mismatch: Callable[[str], Exception],
                check: Callable[[Any, Any], None]) -> list[tuple[str, str]]:
    """The (variable, new value) pairs that store `now` into the carried tuple `carried`;
    `check(carried_leaf, now_leaf)` checks each run-time leaf's type, `mismatch(why)` makes
    the error for a change of structure or of a compile-time element."""
    now = unwrap(now)
    if isinstance(carried, tuple):
        if not isinstance(now, tuple) or len(now) != len(carried):
            after = f"{len(now)} elements" if isinstance(now, tuple) else "not a tuple"
            raise mismatch(f"a tuple of {len(carried)} elements before, {after} after")
        pairs: list[tuple[str, str]] = []
        for c, n in zip(carried, now):
            pairs += leaf_writes(c, n, mismatch, check)
        return pairs
    if isinstance(carried, TensorDescriptor):
        if not isinstance(now, TensorDescriptor) or (now.block_shape, now.padding, now.dtype) != (
                carried.block_shape, carried.padding, carried.dtype):
            raise mismatch(f"{carried.type_text()} before, "
                           f"{now.type_text() if isinstance(now, TensorDescriptor) else repr(now)}"
                           " after")
        return leaf_writes((carried.base, carried.shape, carried.strides),
                           (now.base, now.shape, now.strides), mismatch, check)
    if isinstance(carried, (Value, BlockPointer)):
        if not isinstance(now, (Value, BlockPointer)):
            raise mismatch(f"an element becomes a compile-time value ({now!r})")
        check(carried, now)
        return [(carried.expr, now.expr)]
    if now != carried:
        raise mismatch(f"a compile-time element changes from {carried!r} to {now!r}")
    return []


def assign_in_parallel(emit: Emitter, writes: list[tuple[str, str]]) -> None:
    """var = expr for every pair, as if at once: an expression that reads a variable written
    before it is first bound to a copy."""
    writes = [(var, expr) for var, expr in writes if var != expr]
    targets = [var for var, _ in writes]
    for i, (var, expr) in enumerate(writes):
        if any(_mentions(expr, t) for t in targets[:i]):
            writes[i] = (var, emit.bind(var + "_next", expr))
    for var, expr in writes:
        emit.line(f"{var} = {read_in_place(expr, var)};")


def snapshot_aliases(emit: Emitter, scope: dict[str, Any], var: str, owner: str) -> None:
    """Before `var` (the variable of the loop-carried name `owner`) is overwritten in place:
    every other name whose value reads it gets a copy of that value."""

    def copied(name: str, v: Any) -> Any:
        """v, or a copy of it where it reads var (the same object when nothing does)."""
        if isinstance(v, tuple):
            items = tuple(copied(name, x) for x in v)
            return v if all(a is b for a, b in zip(items, v)) else items
        if isinstance(v, TensorDescriptor):
            fields = (copied(name, v.base), copied(name, v.shape), copied(name, v.strides))
            if fields[0] is v.base and fields[1] is v.shape and fields[2] is v.strides:
                return v
            return dataclasses.replace(v, base=fields[0], shape=fields[1], strides=fields[2])
        if isinstance(v, (Value, BlockPointer)) and _mentions(v.expr, var):
            bound = emit.bind(name, v.expr)
            if isinstance(v, BlockPointer):
                return BlockPointer(bound, v.element, v.shape, v.roots)
            return Value(bound, v.dtype, v.shape, v.roots)
        return v

    for name in list(scope):
        if name != owner:
            scope[name] = copied(name, scope[name])
