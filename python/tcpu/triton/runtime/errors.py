"""Errors the runtime and the autotuner share (``triton.runtime.errors``).

The autotuner treats a config that raises ``OutOfResources`` or
``CompileTimeAssertionFailure`` while it is being benchmarked as infinitely slow and
moves on, so the front end raises these for "this config cannot run here" and any other
exception for real bugs (which the autotuner lets through)."""

from __future__ import annotations


class TritonError(Exception):
    """Base class of the errors this package raises on purpose."""


class OutOfResources(TritonError):
    """A kernel needs more of a resource than the machine allows (e.g. per-program
    scratch beyond the limit in ``get_device_properties()['max_shared_mem']``)."""

    def __init__(self, required: int, limit: int, name: str) -> None:
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(required, limit, name)

    def __str__(self) -> str:
        return (f"out of resource: {self.name} (required {self.required}, limit {self.limit}); "
                "smaller blocks may fit")

    def __reduce__(self):
        # Exceptions pickle their args; ours has three named ones (for multiprocessing).
        return (type(self), (self.required, self.limit, self.name))


class CompileTimeAssertionFailure(TritonError):
    """A ``tl.static_assert`` failed for one specialization (one autotuning config)."""


class AutotunerError(TritonError):
    """The autotuner was set up so that no config is left to run."""
