"""Launches that Triton's launch hooks (`knobs.runtime.launch_enter_hook` / `launch_exit_hook`)
watch: the hooks are called right before and right after the grid runs, with the launch's
metadata (a LazyDict: the kernel's name, then what the kernel's `launch_metadata(grid,
metadata, args)` function returns), as Triton's launcher calls them. The kernel is compiled
before the enter hook, so that a profiler timing between the two hooks times the run alone, as
it does on a GPU."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from ...frontend.arguments import grid_dims
from ...frontend.kernel_def import KernelDef
from ...frontend.launcher import launch
from .. import knobs
from ..knobs import HookChain



class LazyDict:
    """A dict whose extra entries are computed only when `get()` is called: a launch's metadata
    (its kernel's name, then what the kernel's `launch_metadata` function returns), which a
    launch hook that wants it pays for, and no other launch does."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.extras: list[tuple[Callable[..., dict[str, Any]], tuple[Any, ...]]] = []

    def get(self) -> dict[str, Any]:
        for func, args in self.extras:
            self.data = self.data | func(*args)
        self.extras.clear()
        return self.data

    def add(self, func: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
        self.extras.append((func, args))


def hooks_wanted() -> bool:
    """Whether a launch hook is set: a chain with hooks in it, or a plain function."""
    enter = knobs.runtime.launch_enter_hook
    exit_ = knobs.runtime.launch_exit_hook
    return _set(enter) or _set(exit_)


def _set(hook: Any) -> bool:
    if hook is None:
        return False
    return bool(hook.calls) if type(hook) is HookChain else True


def launch_with_hooks(jit: KernelDef, values: list[Any], grid: Any, options: dict[str, Any],
                      launch_metadata: Callable[..., dict[str, Any]] | None) -> Any:
    """Compiles `jit` for `values`, then runs it over `grid` between the launch hooks."""
    dims = grid_dims(grid, jit.arg_names, values, options)
    kernel = launch(jit, values, dims, options, True)  # compiled (or found), not run
    if kernel is None:  # the jit_cache_hook declined the compile: nothing runs
        return None
    name = jit.__name__
    metadata = LazyDict({"name": name, "function": kernel, "stream": 0})
    if launch_metadata is not None:
        compiled = SimpleNamespace(name=name, **{k: v for k, v in options.items()
                                                 if k not in ("name", "stream")})
        metadata.add(launch_metadata, (dims, compiled, dict(zip(jit.arg_names, values))))
    enter, exit_ = knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook
    if enter is not None:
        enter(metadata)
    launch(jit, values, dims, options, False)
    if exit_ is not None:
        exit_(metadata)
    return kernel
