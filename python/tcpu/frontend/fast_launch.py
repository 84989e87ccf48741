"""The launch path's common case in one function generated per kernel, as Triton generates its
binder: each parameter's classification written out for its position (constexpr or not,
specialized or not), CPU torch tensors and int32 ints tested inline, and the compiled
specialization launched straight through the extension.

What it does not handle it hands, with the same arguments, to launcher.launch, which handles
everything: arguments of other types go through arguments.py's classifiers (and their errors
come from launcher.launch, which names the kernel), a specialization not compiled yet, or one
launched with checks (bounds, TCPU_MEM_GUARD), with tuple or descriptor arguments, or with a
pointer it reads overlapping one it writes (then a variant that reads at the load is launched).
Nothing is decided differently: the key is built by launcher.launch's own functions
(specialization_key, fp_fusion, KernelDef.debug_enabled), TRITON_DEBUG and
TRITON_DEFAULT_FP_FUSION read at each launch as there. An empty kernel's launch took about
4 us of CPU time before this path and its environment reads, 2 us after (bench/RESULTS.md)."""

from __future__ import annotations

import sys
from typing import Any, Callable

from .arguments import _TORCH_DTYPE_NAMES, as_annotated, classify, grid_dims
from .foreign import to_tcpu
from .kernel_def import KernelDef
from .launcher import fp_fusion, launch, specialization_key

FastLaunch = Callable[..., Any]  # (grid, *every argument in order) -> the compiled kernel


def fast_launcher(jit: KernelDef) -> FastLaunch:
    """`jit`'s generated launch function (made at its first launch, then kept)."""
    fast = jit.__dict__.get("_fast_launch")
    if fast is None:
        fast = jit._fast_launch = _generate(jit)
    return fast


def _classify_annotated(value: Any, name: str, specialize: bool, align: bool, dtype: str
                        ) -> tuple[Any, Any]:
    return as_annotated(*classify(value, name, specialize, align), dtype, name)


class _NoTensor:
    """Stands for torch.Tensor where torch was not imported when the kernel first launched:
    tensors then take the classifiers' path."""


def _parameter_lines(jit: KernelDef, i: int) -> list[str]:
    """Code setting k{i} (the key part) and v{i} (the launch value) from a{i}."""
    name = jit.arg_names[i]
    a, k, v = f"a{i}", f"k{i}", f"v{i}"
    if name in jit.constexpr_names:
        unwrapped = f"{a}.value if type({a}).__name__ == 'constexpr' else {a}"
        value = f"_to_tcpu({unwrapped})" if jit.foreign else f"({unwrapped})"
        return [f"    {k} = ('c', {value})", f"    {v} = None"]
    specialize = i not in jit.no_specialize
    align = i not in jit.no_specialize_alignment
    if i in jit.annotated_dtypes:
        dtype = jit.annotated_dtypes[i]
        return [f"    {k}, {v} = _classify_annotated({a}, {name!r}, {specialize}, {align}, "
                f"{dtype!r})"]
    aligned = f"{v} % 16 == 0" if align else "False"
    divisible = f"{a} % 16 == 0" if specialize else "False"
    not_one = f" and {a} != 1" if specialize else ""
    return [
        f"    if type({a}) is _Tensor and (d := _dtypes.get({a}.dtype)) is not None "
        f"and {a}.is_cpu:",
        f"        {v} = {a}.data_ptr()",
        f"        {k} = ('P', d, {aligned})",
        f"    elif type({a}) is int and -2147483648 <= {a} < 2147483648{not_one}:",
        f"        {v} = {a}",
        f"        {k} = ('i', 'int32', {divisible})",
        "    else:",
        f"        {k}, {v} = _classify({a}, {name!r}, {specialize}, {align})",
    ]


def _generate(jit: KernelDef) -> FastLaunch:
    n = len(jit.arg_names)
    args = ", ".join(f"a{i}" for i in range(n))
    listed = f"[{args}]"
    keys = "".join(f"k{i}, " for i in range(n))
    values = "".join(f"v{i}, " for i in range(n))
    lines = [f"def fast_launch(grid, {args}):", "    try:"]
    for i in range(n):
        lines += ["    " + line for line in _parameter_lines(jit, i)]
    lines += [
        # The launcher's own key, debug mode and FMA rule, with no launch options.
        f"        key = _key(({keys}), jit.debug_enabled(_NO_OPTIONS), _fp_fusion(None))",
        "        kernel = specializations.get(key)",
        "    except TypeError:  # an argument refused, an unhashable constexpr: named there",
        "        kernel = None",
        "    if kernel is None or not kernel.plain or kernel.check_aliasing and "
        f"kernel.reads_overlap_writes({listed}, ({values})):",
        f"        return launch(jit, {listed}, grid, {{}}, False)",
        "    if type(grid) is tuple and len(grid) == 1 and type(gx := grid[0]) is int "
        "and 0 < gx < 2147483648:",
        "        gy = gz = 1",
        "    else:",
        f"        gx, gy, gz = grid_dims(grid, names, {listed}, {{}})",
        "        if gx * gy * gz == 0:",
        "            return kernel",
        f"    kernel.handle.launch(gx, gy, gz, 0, kernel.codes, kernel.select(({values})))",
        "    return kernel",
    ]
    torch = sys.modules.get("torch")
    scope = {
        "jit": jit, "specializations": jit.specializations, "names": jit.arg_names,
        "launch": launch, "grid_dims": grid_dims, "_key": specialization_key,
        "_fp_fusion": fp_fusion, "_NO_OPTIONS": {},
        "_classify": classify, "_classify_annotated": _classify_annotated,
        "_to_tcpu": to_tcpu, "_dtypes": _TORCH_DTYPE_NAMES,
        "_Tensor": torch.Tensor if torch is not None else _NoTensor,
    }
    exec(compile("\n".join(lines) + "\n", f"<tcpu launch of {jit.__qualname__}>", "exec"), scope)
    return scope["fast_launch"]
