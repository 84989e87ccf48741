"""`@triton.jit` on tcpu: JITFunction binds a launch's arguments, finds (or compiles) the
specialization they need and launches it over the grid through the extension.

Decorating costs nothing: the source is read and compiled at the first launch. Compiled
specializations are kept per process in a dict keyed like Triton's (specialize.py);
across processes the front end's disk cache holds them as shared objects
(frontend/disk_cache.py), so a warm process neither lowers nor loads LLVM."""

from __future__ import annotations

import inspect
import os
from typing import Any, Callable

from ..language import core as tlc
from .interface import KernelInterface

# Launch options of Triton's backends: accepted at launch and ignored on the CPU (they shape
# GPU code), except num_threads / num_cpu_threads (the worker count) and debug.
_GPU_OPTIONS = {
    "num_warps", "num_stages", "num_ctas", "maxnreg", "cluster_dims", "ptx_version",
    "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl", "supported_fp8_dtypes",
    "deprecated_fp8_dtypes", "default_dot_input_precision", "allowed_dot_input_precisions",
    "max_num_imprecise_acc_default", "extern_libs", "backend_name", "sanitize_overflow", "arch",
    "instrumentation_mode", "num_buffers_warp_spec", "num_consumer_groups",
    "reg_dec_producer", "reg_inc_consumer", "waves_per_eu", "matrix_instr_nonkdim", "kpack",
    "stream", "device",
}


def _is_constexpr_annotation(annotation: Any) -> bool:
    if annotation is tlc.constexpr:
        return True
    if isinstance(annotation, str):
        return annotation.split(".")[-1] == "constexpr"
    from ...frontend.foreign import is_constexpr_annotation  # a real Triton's tl.constexpr
    return is_constexpr_annotation(annotation)


class JITFunction(KernelInterface):
    """A @triton.jit function: launchable as ``fn[grid](*args)``, callable from other
    @jit functions (inlined), never from plain Python."""

    def __init__(self, fn: Callable[..., Any], version: Any = None,
                 do_not_specialize: Any = None, do_not_specialize_on_alignment: Any = None,
                 debug: bool | None = None, noinline: bool | None = None, repr: Any = None,
                 launch_metadata: Any = None) -> None:
        self.fn = fn
        self.module = fn.__module__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__globals__ = fn.__globals__
        self.signature = inspect.signature(fn)
        self.params = list(self.signature.parameters.values())
        self.arg_names = [p.name for p in self.params]
        self._arg_set = frozenset(self.arg_names)
        self.constexpr_names = {p.name for p in self.params
                                if _is_constexpr_annotation(p.annotation)}
        self.debug = debug
        self.noinline = noinline
        self._no_spec = self._indices(do_not_specialize)
        self._no_align = self._indices(do_not_specialize_on_alignment)
        self._foreign = False  # set by frontend.foreign.tcpu_jit for a real Triton's kernel
        self._source: Any = None
        self._kernels: dict[Any, Any] = {}
        self._defaults = {p.name: p.default for p in self.params
                          if p.default is not inspect.Parameter.empty}

    def _indices(self, names: Any) -> set[int]:
        out = set()
        for n in names or ():
            out.add(n if isinstance(n, int) else self.arg_names.index(n))
        return out

    def source(self) -> Any:
        if self._source is None:
            from ...frontend.source import read_source
            self._source = read_source(self.fn)
        return self._source

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"cannot call @triton.jit'd function {self.__name__} outside of a "
                           "kernel: launch it with {0}[grid](...)".format(self.__name__))

    def __repr__(self) -> str:
        return f"JITFunction({self.module}:{self.__qualname__})"

    # --- launch ---------------------------------------------------------------------------
    def _bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
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
                if name not in self._defaults:
                    raise TypeError(f"{self.__name__}() missing required argument '{name}'")
                values[i] = self._defaults[name]
        return values

    def run(self, *args: Any, grid: Any, warmup: bool = False, **kwargs: Any) -> Any:
        from ...frontend.launcher import launch
        if not kwargs and len(args) == len(self.arg_names):
            return launch(self, list(args), grid, {}, warmup)  # the common, fast case
        options = {k: kwargs.pop(k) for k in list(kwargs) if k not in self._arg_set
                   and (k in _GPU_OPTIONS or k in ("num_threads", "num_cpu_threads", "debug"))}
        for k in kwargs:
            if k not in self._arg_set:
                raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{k}'")
        values = self._bind(args, kwargs)
        return launch(self, values, grid, options, warmup)

    def warmup(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def debug_enabled(self, options: dict[str, Any]) -> bool:
        if "debug" in options and options["debug"] is not None:
            return bool(options["debug"])
        if self.debug is not None:
            return bool(self.debug)
        return self.env_debug()

    @staticmethod
    def env_debug() -> bool:
        return os.environ.get("TRITON_DEBUG", "0") not in ("", "0")


def jit(fn: Callable[..., Any] | None = None, *, version: Any = None, repr: Any = None,
        launch_metadata: Any = None, do_not_specialize: Any = None,
        do_not_specialize_on_alignment: Any = None, debug: bool | None = None,
        noinline: bool | None = None) -> Any:
    """``@triton.jit`` / ``@triton.jit(debug=True, do_not_specialize=[...])``."""

    def decorate(f: Callable[..., Any]) -> JITFunction:
        return JITFunction(f, version=version, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, repr=repr,
                           launch_metadata=launch_metadata)

    return decorate(fn) if fn is not None else decorate


class MockTensor:
    """Triton's stand-in tensor for warmup without data: a dtype and a zero address."""

    def __init__(self, dtype: Any, shape: Any = None) -> None:
        self.dtype = dtype
        self.shape = shape or [1]

    def data_ptr(self) -> int:
        return 0


class TensorWrapper:
    """A tensor's memory seen as another dtype by kernels (triton.reinterpret): how Triton
    programs pass fp8 data held in uint8 tensors."""

    def __init__(self, base: Any, dtype: Any) -> None:
        self.base = base
        self.dtype = dtype
        self.device = getattr(base, "device", None)
        self.shape = getattr(base, "shape", None)

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def numel(self) -> int:
        return self.base.numel()

    def element_size(self) -> int:
        return self.dtype.primitive_bitwidth // 8

    def is_contiguous(self) -> bool:
        return self.base.is_contiguous()

    def __str__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor: Any, dtype: Any) -> Any:
    """`tensor`'s memory as `dtype` (a triton.language dtype), as Triton's reinterpret:
    reinterpreting a wrapper to its base's own dtype gives the base back."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"Cannot reinterpret a {type(tensor)}.")
