"""Triton's serialized specializations (`specialization_data`): the JSON text that
`knobs.runtime.jit_cache_hook` and `jit_post_compile_hook` receive when a kernel compiles, and
from which `JITFunction.preload` compiles that specialization again without its arguments (a
cache warmed ahead of the first launch from what an earlier run recorded).

The text has Triton's fields: the kernel's full name, each parameter's Triton type (a list of
types for a tuple argument), the compile-time values and the divisibility attributes, each by
its path (a parameter's index, then indices into its tuple), the options and the key. It is
written from the front end's key kinds (frontend/arguments.py) and read back into the same
kinds, so that a preloaded specialization is the one a launch with such arguments finds. What
Triton's format has no field for is an attribute of the argument's path: a host descriptor's
NaN padding (["tcpu.padding", "nan"]). A NamedTuple argument comes back as a plain tuple, as
in Triton, whose signatures do not name the class."""

from __future__ import annotations

import json
import re
from typing import Any

from ...frontend.kernel_def import KernelDef
from ...frontend.specialize import SIGNATURE_DTYPES, signature_kind, triton_type
from ..language import core as tl

_DIVISIBLE = ["tt.divisibility", 16]
_NAN_PADDING = ["tcpu.padding", "nan"]
_DESCRIPTOR = re.compile(r"tensordesc<([^\[>]*)\[([^\]]*)\]>")
_FLOAT_ANNOTATIONS = ("fp16", "bf16", "fp32", "fp64")


def full_name(jit: KernelDef) -> str:
    """The name Triton gives a kernel in its specialization data: module and qualified name."""
    return f"{jit.module}.{jit.__qualname__}"


def _walk(kind: tuple[Any, ...], path: tuple[int, ...], constants: dict[Any, Any],
          attrs: dict[Any, Any]) -> None:
    """Collects the compile-time values and attributes of one argument (of its leaves)."""
    tag = kind[0]
    if tag == "T":
        for k, leaf in enumerate(kind[2]):
            _walk(leaf, path + (k,), constants, attrs)
    elif tag == "c":
        constants[path] = kind[1]
    elif tag in ("P", "i"):
        attrs[path] = [_DIVISIBLE] if kind[2] else []
    elif tag == "D" and kind[3] == "nan":
        attrs[path] = [_NAN_PADDING]


def _json_constant(value: Any) -> Any:
    """A compile-time value as Triton writes it: a dtype by its name, a tl.constexpr as
    {"constexpr": value}, anything else as itself."""
    if isinstance(value, tl.dtype) and not value.is_ptr():
        return str(value)
    if isinstance(value, tl.constexpr):
        return {"constexpr": value.value}
    return value


def _unserializable(value: Any) -> Any:
    # A value JSON cannot hold (a @jit function passed as a constexpr): Triton's json.dumps
    # would raise at the hook; here the hook gets the text, and preload says what is missing.
    return {"unserializable": repr(value)}


def by_path(kinds: list[tuple[Any, ...]]) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """The compile-time values and the attributes of a specialization's arguments, each by its
    path, as Triton's `constants` and `attrs`."""
    constants: dict[Any, Any] = {}
    attrs: dict[Any, Any] = {}
    for i, kind in enumerate(kinds):
        _walk(kind, (i,), constants, attrs)
    return constants, attrs


def serialize(jit: KernelDef, kinds: list[tuple[Any, ...]], options: dict[str, Any],
              key: str) -> str:
    """The specialization data of `jit` compiled for `kinds` with `options` (Triton's names:
    debug, enable_fp_fusion, num_warps, ...)."""
    signature = {name: triton_type(kind) for name, kind in zip(jit.arg_names, kinds)}
    constants, attrs = by_path(kinds)
    data = {"name": full_name(jit), "signature": signature,
            "constant_keys": [list(k) for k in constants],
            "constant_vals": [_json_constant(v) for v in constants.values()],
            "attrs_keys": [list(k) for k in attrs], "attrs_vals": list(attrs.values()),
            "options": options, "key": key}
    return json.dumps(data, default=_unserializable)


def _constant(value: Any, name: str) -> Any:
    """A compile-time value read back: a dtype's name is the dtype (as in Triton's preload),
    {"constexpr": v} is v (tcpu compiles a tl.constexpr's value in)."""
    if isinstance(value, str) and tl.dtype.is_dtype(value):
        return tl.dtype(value)
    if isinstance(value, dict):
        if "constexpr" in value:
            return value["constexpr"]
        if "unserializable" in value:
            raise ValueError(f"preload: the compile-time value of '{name}' "
                             f"({value['unserializable']}) could not be recorded in the "
                             "specialization data; launch the kernel to compile it")
    if isinstance(value, list):  # JSON has no tuples; Triton's kernels take no lists
        return tuple(_constant(v, name) for v in value)
    return value


class _Reader:
    """Rebuilds one kernel's key kinds from parsed specialization data."""

    def __init__(self, jit: KernelDef, data: dict[str, Any]) -> None:
        self.jit = jit
        self.constants = {tuple(k): v for k, v in zip(data["constant_keys"],
                                                       data["constant_vals"])}
        self.attrs = {tuple(k): v for k, v in zip(data["attrs_keys"], data["attrs_vals"])}

    def kind(self, name: str, path: tuple[int, ...], entry: Any) -> tuple[Any, ...]:
        if isinstance(entry, list):
            return ("T", tuple, tuple(self.kind(f"{name}[{k}]", path + (k,), e)
                                      for k, e in enumerate(entry)))
        if entry == "constexpr":
            if path not in self.constants:
                raise ValueError(f"preload: no compile-time value for '{name}'")
            return ("c", _constant(self.constants[path], name))
        attrs = self.attrs.get(path, [])
        descriptor = _DESCRIPTOR.fullmatch(entry)
        if descriptor is not None:
            dtype = SIGNATURE_DTYPES.get(descriptor[1]) or descriptor[1]
            block = tuple(int(b) for b in descriptor[2].split(","))
            return ("D", dtype, block, "nan" if _NAN_PADDING in attrs else "zero")
        annotated = self.jit.annotated_dtypes.get(path[0]) if len(path) == 1 else None
        if annotated in _FLOAT_ANNOTATIONS:  # as arguments.as_annotated types it
            return ("s", annotated)
        kind = signature_kind(name, entry)
        if kind[0] in ("P", "i"):
            return (kind[0], kind[1], _DIVISIBLE in attrs)
        return kind


def kinds_of(jit: KernelDef, text: str) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """The key kinds and the options recorded in `text`, the specialization data of `jit`
    (RuntimeError if it is another kernel's, as in Triton)."""
    data = json.loads(text)
    if data["name"] != full_name(jit):
        raise RuntimeError(f"Specialization data is for {data['name']} but trying to preload "
                           f"for {full_name(jit)}")
    reader = _Reader(jit, data)
    signature = data["signature"]
    kinds = []
    for i, name in enumerate(jit.arg_names):
        if name not in signature:
            raise ValueError(f"preload: the specialization data has no type for '{name}'")
        kinds.append(reader.kind(name, (i,), signature[name]))
    return kinds, data.get("options") or {}
