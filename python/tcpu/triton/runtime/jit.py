"""`@triton.jit` on tcpu: JITFunction, Triton's host API over the front end's KernelDef.

A JITFunction is a KernelDef (tcpu/frontend/kernel_def.py: the function, its options and its
compiled specializations) with what Triton's users call on it: ``fn[grid](...)``, ``run``,
``warmup``. Decorating costs nothing: the source is read and compiled at the first launch
(tcpu/frontend/launcher.py), and across processes the front end's disk cache holds
compiled specializations as shared objects, so a warm process neither lowers nor loads LLVM."""

from __future__ import annotations

import inspect
from typing import Any, Callable

from ...frontend.foreign import definition_options, follow_src
from ...frontend.kernel_def import KernelDef
from ...frontend.fast_launch import fast_launcher
from ...frontend.launcher import launch
from .interface import KernelInterface
from .. import knobs
from .jit_hooks import DeviceCaches, call_compile_hook, preload
from .jit_hooks import JitFunctionInfo  # noqa: F401  (Triton's name in triton.runtime.jit)
from .launch_hooks import hooks_wanted, launch_with_hooks

# Launch options of Triton's backends: accepted at launch and ignored on the CPU (they shape
# GPU code), except enable_fp_fusion (FMA contraction, the launcher's fp_contract),
# num_threads / num_cpu_threads (the worker count) and debug.
_GPU_OPTIONS = {
    "num_warps", "num_stages", "num_ctas", "maxnreg", "cluster_dims", "ptx_version",
    "enable_fp_fusion", "launch_cooperative_grid", "launch_pdl", "supported_fp8_dtypes",
    "deprecated_fp8_dtypes", "default_dot_input_precision", "allowed_dot_input_precisions",
    "max_num_imprecise_acc_default", "extern_libs", "backend_name", "sanitize_overflow", "arch",
    "instrumentation_mode", "num_buffers_warp_spec", "num_consumer_groups",
    "reg_dec_producer", "reg_inc_consumer", "waves_per_eu", "matrix_instr_nonkdim", "kpack",
    "stream", "device",
}
_CPU_OPTIONS = ("num_threads", "num_cpu_threads", "debug")


def _hooked() -> bool:
    """Whether a launch hook is set (knobs.runtime is looked up at each launch: fresh_knobs
    replaces it)."""
    hooks = knobs.runtime
    try:  # the common case, checked without a call: two empty chains
        return bool(hooks.launch_enter_hook.calls or hooks.launch_exit_hook.calls)
    except AttributeError:  # a plain function (or None) assigned in place of a chain
        return hooks_wanted()


def _check_gpu_options(options: dict[str, Any]) -> None:
    """What Triton's backends refuse although the CPU ignores it: a kernel tuned or tested on
    tcpu must launch on the GPU too. Their options class asserts, so this is an AssertionError,
    raised before anything compiles."""
    warps = options.get("num_warps")
    if warps is not None and not (isinstance(warps, int) and warps > 0
                                  and warps & (warps - 1) == 0):
        raise AssertionError(f"num_warps must be a power of 2, got num_warps={warps!r}")


class JITFunction(KernelDef, KernelInterface):
    """A @triton.jit function: launchable as ``fn[grid](*args)``, callable from other
    @jit functions (inlined), never from plain Python."""

    def __init__(self, fn: Callable[..., Any], version: Any = None,
                 do_not_specialize: Any = None, do_not_specialize_on_alignment: Any = None,
                 debug: bool | None = None, noinline: bool | None = None, repr: Any = None,
                 launch_metadata: Any = None, foreign: bool = False) -> None:
        KernelDef.__init__(self, fn, do_not_specialize=do_not_specialize,
                           do_not_specialize_on_alignment=do_not_specialize_on_alignment,
                           debug=debug, noinline=noinline, foreign=foreign)
        self.repr = repr  # names each specialization (CompiledKernel.name), as in Triton
        # Triton's attributes of the decorator's arguments, as given.
        self.version = version
        self.do_not_specialize = do_not_specialize or []
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment or []
        self.constexprs = [i for i, n in enumerate(self.arg_names) if n in self.constexpr_names]
        self.kernel = None  # Triton's field, never set by its launcher either
        # Called with a launch's arguments before it runs (add_pre_run_hook), as in Triton.
        self.pre_run_hooks: list[Callable[..., Any]] = []
        # Called with (grid, compiled kernel's metadata, {parameter: value}) when a launch hook
        # (triton.profiler's) asks for the launch's metadata: its name, flops, bytes.
        self.launch_metadata = launch_metadata
        # Triton's per-device caches; the CPU's is this kernel's specializations (jit_hooks.py).
        self.device_caches = DeviceCaches(self)

    @classmethod
    def of_triton(cls, kernel: Any) -> JITFunction:
        """tcpu's JITFunction for a kernel decorated by a real Triton (the same one for each
        call), so that it launches on the CPU."""
        known = getattr(kernel, "_tcpu_jit", None)
        if known is None:
            known = cls(kernel.fn, **definition_options(kernel), foreign=True)
            kernel._tcpu_jit = known
        return follow_src(kernel, known)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"cannot call @triton.jit'd function {self.__name__} outside of a "
                           "kernel: launch it with {0}[grid](...)".format(self.__name__))

    def __repr__(self) -> str:
        return f"JITFunction({self.module}:{self.__qualname__})"

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        """``fn[grid](*args, **kwargs)``, as ``run``; every argument given by position and no
        launch hook set (the common case) goes straight to fast_launch.py's path."""
        if type(self).run is not JITFunction.run:  # a subclass's own run
            return KernelInterface.__getitem__(self, grid)
        fast = fast_launcher(self)
        count = len(self.arg_names)

        def launch_on_grid(*args: Any, **kwargs: Any) -> Any:
            if kwargs or len(args) != count or self.pre_run_hooks or _hooked():
                return self.run(*args, grid=grid, warmup=False, **kwargs)
            return fast(grid, *args)

        return launch_on_grid

    def is_gluon(self) -> bool:
        return False

    def get_capture_scope(self) -> dict[str, Any]:
        return self.capture_scope()

    @property
    def raw_src(self) -> list[str]:
        """The function's source lines as written (Triton's inspect.getsourcelines)."""
        return inspect.getsourcelines(self.fn)[0]

    @property
    def starting_line_number(self) -> int:
        return inspect.getsourcelines(self.fn)[1]

    def add_pre_run_hook(self, hook: Callable[..., Any]) -> None:
        """`hook(*args, **kwargs)` is called with each launch's arguments before it runs."""
        assert callable(hook)
        self.pre_run_hooks.append(hook)

    def run(self, *args: Any, grid: Any, warmup: bool = False, **kwargs: Any) -> Any:
        for pre_run in self.pre_run_hooks:  # none, mostly: an empty loop
            pre_run(*args, **kwargs)
        hooked = _hooked() and not warmup
        if not hooked and not warmup:  # the common cases, fast
            if not kwargs and len(args) == len(self.arg_names):
                return fast_launcher(self)(grid, *args)
            if self.arg_set.issuperset(kwargs):  # arguments by name (BLOCK=...), no option
                return fast_launcher(self)(grid, *self.bind(args, kwargs))
        if not kwargs and len(args) == len(self.arg_names) and not hooked:
            return launch(self, list(args), grid, {}, warmup)
        options = {k: kwargs.pop(k) for k in list(kwargs) if k not in self.arg_set
                   and (k in _GPU_OPTIONS or k in _CPU_OPTIONS)}
        for k in kwargs:
            if k not in self.arg_set:
                raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{k}'")
        _check_gpu_options(options)
        values = self.bind(args, kwargs)
        if hooked:
            return launch_with_hooks(self, values, grid, options, self.launch_metadata)
        return launch(self, values, grid, options, warmup)

    def warmup(self, *args: Any, grid: Any, **kwargs: Any) -> Any:
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def preload(self, specialization_data: str) -> Any:
        """Compiles the specialization that `specialization_data` (what a compile hook got)
        describes, ahead of the launches that will use it (jit_hooks.py)."""
        return preload(self, specialization_data)

    def before_compile(self, kinds: list[Any], debug: bool, fp_contract: bool,
                       options: dict[str, Any], warmup: bool) -> bool:
        hook = knobs.runtime.jit_cache_hook
        return bool(hook and call_compile_hook(self, hook, kinds, debug, fp_contract, options,
                                               warmup))

    def after_compile(self, kinds: list[Any], debug: bool, fp_contract: bool,
                      options: dict[str, Any], warmup: bool) -> None:
        hook = knobs.runtime.jit_post_compile_hook
        if hook:
            call_compile_hook(self, hook, kinds, debug, fp_contract, options, warmup)


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
        self.data = getattr(base, "data", None)

    def data_ptr(self) -> int:
        return self.base.data_ptr()

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def numel(self) -> int:
        return self.base.numel()

    def element_size(self) -> int:
        # The base's, as Triton's: numel() * element_size() is the memory's extent in bytes
        # whatever the dtype it is seen as (a torch dtype, as test_conversions passes, too).
        return self.base.element_size()

    def is_contiguous(self) -> bool:
        return self.base.is_contiguous()

    # Triton's host methods, each on the base and wrapped again with the same dtype.
    def cpu(self) -> TensorWrapper:
        return TensorWrapper(self.base.cpu(), self.dtype)

    def copy_(self, other: TensorWrapper) -> None:
        self.base.copy_(other.base)

    def clone(self) -> TensorWrapper:
        return TensorWrapper(self.base.clone(), self.dtype)

    def to(self, device: Any) -> TensorWrapper:
        return TensorWrapper(self.base.to(device), self.dtype)

    def new_empty(self, sizes: Any) -> TensorWrapper:
        return TensorWrapper(self.base.new_empty(sizes), self.dtype)

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
