"""Triton's JIT internals that projects use to watch and warm a kernel's compiled
specializations, with Triton's meaning on the CPU:

- `knobs.runtime.jit_cache_hook` is called before a specialization not compiled yet in this
  process is built (from the disk cache or by compiling), with Triton's arguments, its
  `specialization_data` among them; a truthy return declines the build, and the launch then
  runs nothing, as in Triton. `knobs.runtime.jit_post_compile_hook` is called after the build.
- `JITFunction.preload(specialization_data)` builds the specialization that text describes,
  without arguments, so that later launches find it compiled (specialization_data.py).
- `JITFunction.device_caches[device]` is Triton's tuple (kernel cache, key cache, target,
  backend, binder); its kernel cache is the kernel's compiled specializations (the CPU is one
  device: every device names the same cache), which a test clears to see a hook called again.
  tcpu has no backend object nor generated binder: those two entries are None."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...frontend.kernel_def import KernelDef
from ...frontend.launcher import fp_fusion, specialization_key, specialize
from ...frontend.specialize import triton_type
from . import specialization_data

# What Triton's CUDA backend reports when a launch does not say: these options shape GPU code
# and change nothing on tcpu, but hooks read them.
_GPU_DEFAULTS = {"num_warps": 4, "num_ctas": 1, "num_stages": 3,
                 "launch_cooperative_grid": False, "extern_libs": None}


@dataclass
class JitFunctionInfo:
    """The `fn` a compile hook gets: the kernel's module name, qualified name and itself."""

    module: str
    name: str
    jit_function: Any


def hook_options(debug: bool, fp_contract: bool, options: dict[str, Any]) -> dict[str, Any]:
    """A specialization's options under Triton's names (its options.__dict__ in the hooks and
    the specialization data)."""
    named = {k: options.get(k, default) for k, default in _GPU_DEFAULTS.items()}
    named.update(enable_fp_fusion=fp_contract, debug=debug)
    return named


def call_compile_hook(jit: KernelDef, hook: Any, kinds: list[Any], debug: bool,
                      fp_contract: bool, options: dict[str, Any], warmup: bool) -> Any:
    """Calls `hook` (jit_cache_hook or jit_post_compile_hook) as Triton's JITFunction does, for
    the specialization `kinds` of `jit`; returns what the hook returns."""
    named = hook_options(debug, fp_contract, options)
    key = str(specialization_key(kinds, debug, fp_contract))
    signature = {name: triton_type(kind) for name, kind in zip(jit.arg_names, kinds)}
    constants, attrs = specialization_data.by_path(kinds)
    data = specialization_data.serialize(jit, kinds, named, key)
    args = ", ".join(f"{name}: {ty}" for name, ty in signature.items())
    description = (f"{jit.__qualname__}[num_warps={named['num_warps']}, "
                   f"num_ctas={named['num_ctas']}, num_stages={named['num_stages']}, "
                   f"enable_fp_fusion={fp_contract}, "
                   f"launch_cooperative_grid={named['launch_cooperative_grid']}]({args})")
    compile_args = {"key": key, "signature": signature, "device": 0, "constants": constants,
                    **{k: named[k] for k in _GPU_DEFAULTS}, "enable_fp_fusion": fp_contract,
                    "configs": [attrs], "specialization_data": data,
                    "is_warmup": warmup}
    return hook(key=key, repr=description, fn=JitFunctionInfo(jit.module, jit.__qualname__, jit),
                compile=compile_args, is_manual_warmup=warmup, already_compiled=False)


def preload(jit: KernelDef, text: str) -> Any:
    """Builds the specialization `text` (specialization data) describes and keeps it where a
    launch with such arguments finds it; None if the cache hook declines it."""
    kinds, options = specialization_data.kinds_of(jit, text)
    debug = bool(options["debug"]) if options.get("debug") is not None else jit.debug_enabled({})
    fp_contract = fp_fusion(options)
    key = specialization_key(kinds, debug, fp_contract)
    return specialize(jit, key, kinds, debug, False, fp_contract, options, True)


class DeviceCaches(dict):
    """`JITFunction.device_caches`: Triton's per-device tuple, made on first use."""

    def __init__(self, jit: KernelDef) -> None:
        super().__init__()
        self.jit = jit

    def __missing__(self, device: Any) -> tuple[Any, ...]:
        from .driver import driver
        entry = (self.jit.specializations, {}, driver.active.get_current_target(), None, None)
        self[device] = entry
        return entry
