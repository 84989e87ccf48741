"""Errors the runtime and the autotuner share (``triton.runtime.errors``).

The autotuner treats a config that raises ``OutOfResources`` or
``CompileTimeAssertionFailure`` while it is being benchmarked as infinitely slow and
moves on, so the front end raises these for "this config cannot run here" and any other
exception for real bugs (which the autotuner lets through)."""

from __future__ import annotations

# Defined with the front end's errors, which raises them (the floor below this one).
from ...frontend.errors import CompileTimeAssertionFailure, OutOfResources, TritonError

__all__ = ["AutotunerError", "CompileTimeAssertionFailure", "OutOfResources", "TritonError"]


class AutotunerError(TritonError):
    """The autotuner was set up so that no config is left to run."""
