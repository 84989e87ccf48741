"""The launch path: arguments -> specialization key -> compiled kernel -> grid -> launch.

It runs on every launch, so each argument is looked at once (arguments.py's classifiers); a
specialization not compiled yet in this process is built (build/route.py) and kept in the
kernel's KernelDef."""

from __future__ import annotations

from typing import Any

from .. import _environment as environment
from .arguments import CLASSIFIERS, as_annotated, classifier, grid_dims, is_hashable
from .build.route import BuildOptions, build
from .compiled import CompiledKernel
from .foreign import to_tcpu
from .kernel_def import KernelDef
from .specialize import ArgumentError, triton_specialization


def launch(jit: KernelDef, values: list[Any], grid: Any, options: dict[str, Any], warmup: bool
           ) -> Any:
    """Launches `jit` with every parameter's value (bound in order) over `grid`; with `warmup`,
    only compiles. Returns the compiled specialization."""
    names = jit.arg_names
    constexpr_names = jit.constexpr_names
    no_spec, no_align = jit.no_specialize, jit.no_specialize_alignment
    foreign = jit.foreign  # decorated by a real Triton: its constexprs may be real dtypes
    annotated = jit.annotated_dtypes
    kinds = []
    launch_values = []
    for i, v in enumerate(values):
        name = names[i]
        if name in constexpr_names:
            if type(v).__name__ == "constexpr":
                v = v.value
            if foreign:
                v = to_tcpu(v)
            kinds.append(("c", v))
            launch_values.append(None)
            continue
        classify = CLASSIFIERS.get(type(v)) or classifier(type(v))
        try:
            kind, lv = classify(v, name, i not in no_spec, i not in no_align)
            if annotated and i in annotated:
                kind, lv = as_annotated(kind, lv, annotated[i], name)
        except ArgumentError as e:
            error = OverflowError if isinstance(e, OverflowError) else TypeError
            raise error(f"{jit.__name__}: {e}") from None
        kinds.append(kind)
        launch_values.append(lv)
    # debug (TRITON_DEBUG) compiles every kernel bounds-checked, not only those that assert.
    debug = jit.debug_enabled(options)
    fp_contract = fp_fusion(options)
    key = specialization_key(kinds, debug, fp_contract)
    try:
        kernel = jit.specializations.get(key)
    except TypeError:
        bad = next(n for n, k in zip(names, kinds) if k[0] == "c" and not is_hashable(k[1]))
        raise TypeError(f"{jit.__name__}: constexpr argument '{bad}' must be hashable") from None
    if kernel is None:
        kernel = specialize(jit, key, kinds, debug, False, fp_contract, options, warmup)
        if kernel is None:  # a compile hook declined the compile: nothing runs, as in Triton
            return None
    if kernel.check_aliasing and kernel.reads_overlap_writes(values, launch_values):
        alias_key = key + ("aliased",)
        kernel = jit.specializations.get(alias_key) or specialize(
            jit, alias_key, kinds, debug, True, fp_contract, options, warmup)
        if kernel is None:
            return None
    if warmup:
        return kernel
    if type(grid) is tuple and len(grid) == 1 and type(grid[0]) is int and 0 <= grid[0] < 2**31:
        gx, gy, gz = grid[0], 1, 1
    else:
        gx, gy, gz = grid_dims(grid, jit.arg_names, values, options)
    if gx * gy * gz == 0:
        return kernel
    threads = (options.get("num_threads") or options.get("num_cpu_threads") or 0) if options else 0
    if kernel.check_bounds:
        kernel.launch_checked((gx, gy, gz, threads), values, launch_values)
    elif kernel.guard_arrays:
        kernel.launch_guarded((gx, gy, gz, threads), values, launch_values)
    else:
        kernel.handle.launch(gx, gy, gz, threads, kernel.codes, kernel.arguments(launch_values))
    return kernel


def specialization_key(kinds: list[Any], debug: bool, fp_contract: bool) -> tuple[Any, ...]:
    """A specialization's key in KernelDef.specializations (the aliased variant adds
    "aliased")."""
    return (tuple(kinds), debug) if fp_contract else (tuple(kinds), debug, "unfused")


def fp_fusion(options: dict[str, Any]) -> bool:
    """Whether a*b+c may become one FMA: the launch's `enable_fp_fusion`, else
    TRITON_DEFAULT_FP_FUSION (on unless set false), as Triton's backends decide."""
    if options and options.get("enable_fp_fusion") is not None:
        return bool(options["enable_fp_fusion"])
    if environment.get("TRITON_DEFAULT_FP_FUSION") is not None:
        return environment.triton_flag("TRITON_DEFAULT_FP_FUSION")
    return True


def specialize(jit: KernelDef, key: Any, kinds: list[Any], debug: bool, all_mutable: bool,
               fp_contract: bool, options: dict[str, Any], warmup: bool) -> CompiledKernel | None:
    """Builds the specialization `kinds` and keeps it under `key`; None when the kernel's
    compile hook (KernelDef.before_compile: Triton's jit_cache_hook) declines it."""
    if jit.before_compile(kinds, debug, fp_contract, options, warmup):
        return None
    kernel = build(jit, kinds, BuildOptions.of(debug, all_mutable, fp_contract))
    naming = getattr(jit, "repr", None)
    if naming is not None:  # @triton.jit(repr=f): the specialization's name, as Triton's
        kernel.name = naming(triton_specialization(jit.arg_names, kinds))
    jit.specializations[key] = kernel
    jit.after_compile(kinds, debug, fp_contract, options, warmup)
    return kernel
