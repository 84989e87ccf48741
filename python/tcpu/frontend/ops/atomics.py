"""Atomics: add, and, or, xor, xchg, min, max, cas; each returns the old value(s).
sem and scope are accepted: every tl atomic is acq_rel per element (made under a lock of
its address's stripe, kernels/include/tcpu/tl/platform.h), which is at least as strong as any
of Triton's semantics, and process-wide, which is any scope's."""

from __future__ import annotations

from typing import Any

from ...triton.language import core as tl
from ..values import Value, unwrap
from . import op
from .arith import broadcast_shapes, convert
from .context import OpContext
from .memory import fits, note_write
from .rank_n import fit_all

_SEMS = {None, "acquire", "release", "acq_rel", "relaxed"}
_SCOPES = {None, "gpu", "cta", "sys"}


def _pointer(cx: OpContext, name: str, pointer: Any, sem: Any, scope: Any) -> Value:
    """The pointer operand of atomic `name`, with its sem and scope checked."""
    if cx.const(sem, "sem") not in _SEMS:
        raise cx.error("sem must be one of acquire, release, acq_rel, relaxed; got "
                       f"{unwrap(sem)!r}")
    if cx.const(scope, "scope") not in _SCOPES:
        raise cx.error(f"scope must be one of gpu, cta, sys; got {unwrap(scope)!r}")
    p = cx.value(pointer)
    if not p.dtype.is_ptr():
        raise cx.error(f"{name}: pointer must be a pointer, got {p.type_text()}")
    cx.check_computes(p.dtype.element_ty, f"tl.{name}")
    return p


def _check_rmw_dtype(cx: OpContext, name: str, elem: tl.dtype) -> None:
    """Triton's read-modify-write atomics take 32- and 64-bit values, and 16-bit floats for
    atomic_add only (its atom_red_typechecking_impl)."""
    if elem in (tl.float16, tl.bfloat16):
        if name != "atomic_add":
            raise cx.error(f"{name} does not support {elem} (only atomic_add does)")
    elif elem.is_ptr() or elem.primitive_bitwidth < 32:
        raise cx.error(f"{name} does not support {elem}: its values must be 32 or 64 bits wide")


def _rmw(name: str):
    def atomic(cx: OpContext, pointer: Any, val: Any, mask: Any = None, sem: Any = None,
               scope: Any = None) -> Value:
        p = _pointer(cx, name, pointer, sem, scope)
        elem = p.dtype.element_ty
        _check_rmw_dtype(cx, name, elem)
        if name in ("atomic_and", "atomic_or", "atomic_xor") and not elem.is_int():
            raise cx.error(f"{name} needs an integer pointer, got {p.dtype}")
        v = convert(cx.value(val, elem), elem)
        shape = broadcast_shapes(cx, p.shape, v.shape)
        m = unwrap(mask)
        note_write(cx, p.roots)
        if not shape:
            call = f"tl::{name}({p.expr}, {v.expr})"
            if m is None:
                return cx.bind("old", call, elem)
            mv = cx.value(m)
            return cx.bind("old", f"({mv.expr} ? {call} : {convert(Value('0', elem), elem).expr})",
                           elem)
        if shape != p.shape:
            raise cx.error(f"{name}: a value of shape {list(v.shape)} cannot be broadcast to "
                           f"the pointers' shape {list(p.shape)}")
        mv = None if m is None else cx.value(m)
        if mv is not None:
            fits(cx, mv, shape, f"{name}'s mask")
        v, mv = fit_all(shape, v, mv)
        args = f"{p.expr}, {v.expr}" + ("" if mv is None else f", {mv.expr}")
        return cx.bind("old", f"tl::{name}({args})", elem, shape)
    return atomic


for _name in ("atomic_add", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg",
              "atomic_min", "atomic_max"):
    op(_name)(_rmw(_name))


@op("atomic_cas")
def atomic_cas(cx: OpContext, pointer: Any, cmp: Any, val: Any, sem: Any = None,
               scope: Any = None) -> Value:
    p = _pointer(cx, "atomic_cas", pointer, sem, scope)
    elem = p.dtype.element_ty
    if elem.is_ptr() or elem.primitive_bitwidth not in (16, 32, 64):
        raise cx.error(f"atomic_cas does not support {elem}: its values must be 16, 32 or 64 "
                       "bits wide")
    c = convert(cx.value(cmp, elem), elem)
    v = convert(cx.value(val, elem), elem)
    note_write(cx, p.roots)
    fits(cx, c, p.shape, "atomic_cas's cmp")
    fits(cx, v, p.shape, "atomic_cas's val")
    c, v = fit_all(p.shape, c, v)
    return cx.bind("old", f"tl::atomic_cas({p.expr}, {c.expr}, {v.expr})", elem, p.shape)
