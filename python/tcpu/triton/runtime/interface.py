"""The launch protocol every launchable kernel object follows (JITFunction, Autotuner,
Heuristics): ``kernel[grid](*args, **kwargs)`` is ``kernel.run(*args, grid=grid,
warmup=False, **kwargs)``, as in Triton, so wrappers stack in any order."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class KernelInterface(Generic[T]):
    """Subclasses define ``run(*args, grid, warmup, **kwargs)`` and ``arg_names``."""

    run: Callable[..., T]
    arg_names: list[str]

    def __getitem__(self, grid: Any) -> Callable[..., T]:
        """``kernel[grid]``: grid is a tuple of 1-3 ints or a callable of the bound
        arguments (a dict of name → value, launch-time meta-parameters included)."""
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)
