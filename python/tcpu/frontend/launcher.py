"""The launch path: arguments -> specialization key -> compiled kernel -> grid -> launch.
Runs on every launch, so it does only what the key needs, once per argument."""

from __future__ import annotations

from typing import Any

from .compiler import CompiledKernel, compile_specialization
from .errors import CompilationError
from .specialize import ArgumentError, arg_key, pointer_of


def _grid(grid: Any, jit: Any, values: list[Any], options: dict[str, Any]) -> tuple[int, int, int]:
    if callable(grid):
        meta = dict(zip(jit.arg_names, values))
        meta.update(options)
        grid = grid(meta)
    if isinstance(grid, int):
        grid = (grid,)
    if not isinstance(grid, (tuple, list)) or not 1 <= len(grid) <= 3:
        raise ValueError(f"grid must be a tuple of 1 to 3 ints (or a callable returning one), "
                         f"got {grid!r}")
    dims = []
    for i, g in enumerate(grid):
        try:
            g = int(g.__index__()) if not isinstance(g, int) else g
        except AttributeError:
            raise ValueError(f"grid[{i}] must be an int, got {g!r}") from None
        if g < 0 or g >= 2**31:
            raise ValueError(f"grid[{i}] = {g} is out of range [0, 2**31)")
        dims.append(g)
    while len(dims) < 3:
        dims.append(1)
    return dims[0], dims[1], dims[2]


def _overlaps(kernel: CompiledKernel, args: list[Any], values: list[Any]) -> bool:
    """Whether a pointer the kernel only reads overlaps one it writes (then the lazy reads
    of const pointers could see the kernel's own stores: compile with every pointer
    mutable, which reads at the load as Triton does)."""
    spans = []
    for i in kernel.readonly_pointers + kernel.written_pointers:
        p = pointer_of(values[kernel.params[i].index], kernel.params[i].name)
        assert p is not None
        spans.append((p.address, p.nbytes, i in kernel.written_pointers))
    for a, an, aw in spans:
        for b, bn, bw in spans:
            if aw and not bw:
                if an == 0 or bn == 0:
                    if a == b:
                        return True
                    continue
                if a < b + bn and b < a + an:
                    return True
    return False


def launch(jit: Any, values: list[Any], grid: Any, options: dict[str, Any], warmup: bool) -> Any:
    names = jit.arg_names
    constexprs: dict[str, Any] = {}
    kinds = []
    for i, (name, v) in enumerate(zip(names, values)):
        if name in jit.constexpr_names:
            v = v.value if hasattr(v, "value") and type(v).__name__ == "constexpr" else v
            try:
                hash(v)
            except TypeError:
                raise TypeError(f"constexpr argument '{name}' must be hashable, got "
                                f"{type(v).__name__}") from None
            constexprs[name] = v
            kinds.append(("c", v))
            continue
        try:
            kind = arg_key(v, name, i not in jit._no_spec, i not in jit._no_align)
        except ArgumentError as e:
            raise TypeError(f"{jit.__name__}: {e}") from None
        if kind[0] == "c":
            constexprs[name] = kind[1]
        kinds.append(kind)
    debug = jit.debug_enabled(options)
    key = (tuple(kinds), debug)
    kernel = jit._kernels.get(key)
    if kernel is None:
        kernel = compile_specialization(jit, kinds, constexprs, debug, all_mutable=False)
        jit._kernels[key] = kernel
    args = []
    for p in kernel.params:
        v = values[p.index]
        if p.dtype.is_ptr():
            ptr = pointer_of(v, p.name)
            args.append(ptr.address if ptr is not None else 0)
        else:
            args.append(v)
    if kernel.readonly_pointers and kernel.written_pointers and _overlaps(kernel, args, values):
        alias_key = key + ("aliased",)
        kernel = jit._kernels.get(alias_key)
        if kernel is None:
            kernel = compile_specialization(jit, kinds, constexprs, debug, all_mutable=True)
            jit._kernels[alias_key] = kernel
    if warmup:
        return kernel
    gx, gy, gz = _grid(grid, jit, values, options)
    if gx * gy * gz == 0:
        return kernel
    threads = options.get("num_threads") or options.get("num_cpu_threads") or 0
    kernel.handle.launch(gx, gy, gz, threads, kernel.codes, tuple(args))
    return kernel


def launch_compiled(kernel: CompiledKernel, grid: Any, values: list[Any]) -> None:
    """Launches a compiled specialization with all of the function's arguments."""
    if kernel.params and max(p.index for p in kernel.params) >= len(values):
        raise TypeError(f"{kernel.name}: expected every argument of the function in order, got "
                        f"{len(values)}")
    args = []
    for p in kernel.params:
        v = values[p.index]
        if p.dtype.is_ptr():
            ptr = pointer_of(v, p.name)
            args.append(ptr.address if ptr is not None else 0)
        else:
            args.append(v)
    if isinstance(grid, int):
        grid = (grid,)
    dims = (list(grid) + [1, 1])[:3]
    if dims[0] * dims[1] * dims[2] == 0:
        return
    kernel.handle.launch(dims[0], dims[1], dims[2], 0, kernel.codes, tuple(args))


__all__ = ["launch", "launch_compiled", "CompilationError"]
