"""Errors the runtime and the autotuner share (``triton.runtime.errors``).

The autotuner treats a config that raises ``OutOfResources`` or
``CompileTimeAssertionFailure`` while it is being benchmarked as infinitely slow and
moves on, so the front end raises these for "this config cannot run here" and any other
exception for real bugs (which the autotuner lets through)."""

from __future__ import annotations

# Defined with the front end's errors, which raises them (the floor below this one).
from ...frontend.errors import CompileTimeAssertionFailure, OutOfResources, TritonError

__all__ = [
    "AutotunerError", "CompileTimeAssertionFailure", "InterpreterError", "OutOfResources",
    "TritonError"
]


class AutotunerError(TritonError):
    """The autotuner was set up so that no config is left to run."""


class InterpreterError(TritonError):
    """What Triton's interpreter (TRITON_INTERPRET=1) raises where the compiler raises a
    CompilationError. tcpu never interprets, so it never raises this; the name exists because
    tests import it beside the compiler's class (and pick one by `is_interpreter()`)."""

    def __init__(self, error_message: str | None = None) -> None:
        super().__init__(error_message)
        self.error_message = error_message

    def __str__(self) -> str:
        return self.error_message or ""
