"""A kernel's definition, as the front end knows it: the Python function, its options and its
compiled specializations.

`triton.jit` makes a `JITFunction` (tcpu/triton/runtime/jit.py), which is a KernelDef with
Triton's host API on top; a kernel decorated by a real Triton gets a KernelDef of its own
(foreign.py). Everything below the façade (lowering, the cache key, the launch) sees only
KernelDef, so nothing in the front end imports the `triton` package it serves."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from .. import _environment as environment
from ..triton.language import core as tlc
from .real_triton import is_constexpr_annotation, is_real_triton


def _is_const_annotation(annotation: Any) -> bool:
    """`tl.const` (tcpu's, a real Triton's, or its name in a string annotation)."""
    if isinstance(annotation, str):
        return annotation.strip().split(".")[-1] == "const"
    return (annotation is tlc.const or isinstance(annotation, type)
            and annotation.__name__ == "const" and is_real_triton(annotation))


def _is_constexpr_annotation(annotation: Any) -> bool:
    if annotation is tlc.constexpr:
        return True
    if isinstance(annotation, str):
        return annotation.split(".")[-1] == "constexpr"
    return is_constexpr_annotation(annotation)  # a real Triton's tl.constexpr


def capture_scope(fn: Callable[..., Any]) -> dict[str, Any]:
    """The names a @jit function's body reads, as Triton's get_capture_scope: its module's
    globals and, for a function defined inside another, the enclosing function's variables it
    uses (a @jit helper defined beside the kernel in a test function)."""
    cells = fn.__closure__
    if not cells:
        return fn.__globals__
    scope = dict(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, cells):
        try:
            scope[name] = cell.cell_contents
        except ValueError:  # not bound yet (a name the enclosing function assigns later)
            pass
    return scope


# Triton's short type names in annotations ("fp16", "u8", "i32"), by dtype name.
_SHORT_NAMES = {"i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                "fp16": "fp16", "bf16": "bf16", "fp32": "fp32", "fp64": "fp64"}
_SCALAR_DTYPES = frozenset(_SHORT_NAMES.values())


def annotation_dtype(annotation: Any) -> str | None:
    """The scalar dtype a parameter's annotation names (tl.float16, "tl.uint8", "fp16"), as
    Triton types an argument by it; None for other annotations (tensors, constexpr, none)."""
    if isinstance(annotation, tlc.dtype):
        name = annotation.name
    elif isinstance(annotation, str):
        text = annotation.strip().removeprefix("triton.language.").removeprefix("tl.")
        dtype = getattr(tlc, text, None) if text.isidentifier() else None
        name = dtype.name if isinstance(dtype, tlc.dtype) else _SHORT_NAMES.get(text)
    else:
        return None
    return name if name in _SCALAR_DTYPES else None


class KernelDef:
    """One @jit function: what it is (its function, parameters and constexprs), how it
    specializes (`do_not_specialize*`), how it compiles (`debug`), and the specializations
    compiled so far in this process (`specializations`, keyed as launcher.py keys them)."""

    def __init__(self, fn: Callable[..., Any], do_not_specialize: Any = None,
                 do_not_specialize_on_alignment: Any = None, debug: bool | None = None,
                 noinline: bool | None = None, foreign: bool = False) -> None:
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.signature = inspect.signature(fn)
        self.params = list(self.signature.parameters.values())
        self.arg_names = [p.name for p in self.params]
        self.arg_set = frozenset(self.arg_names)
        self.constexpr_names = {p.name for p in self.params
                                if _is_constexpr_annotation(p.annotation)}
        # Pointer parameters annotated `tl.const`: their type is a const pointer, through which
        # Triton refuses to store.
        self.const_names = {p.name for p in self.params if _is_const_annotation(p.annotation)}
        # Parameters whose annotation names a scalar dtype: Triton passes the argument as that
        # type (a float annotated tl.float16 is an fp16 in the kernel), by index.
        self.annotated_dtypes = {i: d for i, p in enumerate(self.params)
                                 if (d := annotation_dtype(p.annotation)) is not None}
        self.defaults = {p.name: p.default for p in self.params
                         if p.default is not inspect.Parameter.empty}
        self.debug = debug
        self.noinline = noinline
        # Argument indices whose value (ints) or alignment (pointers) is not specialized on.
        self.no_specialize = self._indices(do_not_specialize)
        self.no_specialize_alignment = self._indices(do_not_specialize_on_alignment)
        # Decorated by a real Triton: its constexpr values may be real Triton objects.
        self.foreign = foreign
        self.specializations: dict[Any, Any] = {}
        self._source: Any = None
        # The text that replaced the function's own (_unsafe_update_src), or None.
        self.updated_src: str | None = None

    def capture_scope(self) -> dict[str, Any]:
        """The names the kernel reads from outside, as Triton's get_capture_scope: its module's
        globals, and the variables of the enclosing functions it closes over (a kernel defined
        inside a test reads the test's locals), the latter first."""
        return capture_scope(self.fn)

    def _indices(self, names: Any) -> set[int]:
        out = set()
        for n in names or ():
            out.add(n if isinstance(n, int) else self.arg_names.index(n))
        return out

    def source(self) -> Any:
        """The parsed source (source.KernelSource), read at the first compile."""
        if self._source is None:
            from .source import read_source
            self._source = read_source(self.fn, self.updated_src)
        return self._source

    @property
    def src(self) -> str:
        """The kernel's source text as Triton's JITFunction.src: dedented, from `def` on;
        the updated text after `_unsafe_update_src`. Read-only, as in Triton."""
        if self.updated_src is not None:
            return self.updated_src
        from .source import definition_text
        return definition_text(self.fn)

    @src.setter
    def src(self, value: str) -> None:
        raise AttributeError("cannot set 'src' directly: use _unsafe_update_src(new_src)")

    def _unsafe_update_src(self, new_src: str) -> None:
        """Replaces the kernel's source text (what Triton's test_core does to patch a template
        kernel): later launches compile `new_src`. This kernel's compiled specializations are
        dropped, and the disk cache keys it by the new text (build/cache_key.py). As in Triton,
        @jit functions that call this one and were already compiled keep their code."""
        self.updated_src = new_src
        self._source = None
        self.specializations.clear()

    def bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        """Every parameter's value, in order, from a launch's arguments and the defaults."""
        n = len(self.arg_names)
        if len(args) > n:
            raise TypeError(f"{self.__name__}() takes {n} arguments but {len(args)} were given")
        values = list(args) + [inspect.Parameter.empty] * (n - len(args))
        for k, v in kwargs.items():
            i = self.arg_names.index(k)
            if values[i] is not inspect.Parameter.empty:
                raise TypeError(f"{self.__name__}() got multiple values for argument '{k}'")
            values[i] = v
        for i, name in enumerate(self.arg_names):
            if values[i] is inspect.Parameter.empty:
                if name not in self.defaults:
                    raise TypeError(f"{self.__name__}() missing required argument '{name}'")
                values[i] = self.defaults[name]
        return values

    def before_compile(self, kinds: list[Any], debug: bool, fp_contract: bool,
                       options: dict[str, Any], warmup: bool) -> bool:
        """Called before a specialization not compiled yet in this process is built; True
        declines the build (the launch then runs nothing). JITFunction calls Triton's
        jit_cache_hook here."""
        return False

    def after_compile(self, kinds: list[Any], debug: bool, fp_contract: bool,
                      options: dict[str, Any], warmup: bool) -> None:
        """Called once a specialization is built (Triton's jit_post_compile_hook)."""

    def debug_enabled(self, options: dict[str, Any]) -> bool:
        """Whether a launch with these options compiles in debug mode: the launch's `debug`,
        else the decorator's, else TRITON_DEBUG."""
        if "debug" in options and options["debug"] is not None:
            return bool(options["debug"])
        if self.debug is not None:
            return bool(self.debug)
        return self.env_debug()

    @staticmethod
    def env_debug() -> bool:
        return environment.triton_flag("TRITON_DEBUG")

    def __repr__(self) -> str:
        return f"KernelDef({self.module}:{self.__qualname__})"
