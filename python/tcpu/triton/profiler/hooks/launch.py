"""LaunchHook: times each launch of a @triton.jit kernel and records it in the active sessions,
named by the kernel (or, in sessions started with hook="triton", by its `launch_metadata`
function's "name", with that function's flops and bytes as metrics)."""

from __future__ import annotations

import threading
from typing import Any

from ...compiler import LazyDict
from .._record import now_ns, recorder
from ..state import enter_state, exit_state
from .hook import Hook

COMPUTE_METADATA_SCOPE_NAME = "__proton_launch_metadata"


class LaunchHook(Hook):
    priority = 100
    _instance: "LaunchHook | None" = None
    flops_width = [8, 16, 32, 64]
    metrics = [f"flops{width}" for width in flops_width] + ["bytes"] + ["flops"]

    def __new__(cls) -> "LaunchHook":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._local = threading.local()
        return cls._instance

    def _stack(self) -> list[tuple[str, str, dict[str, Any], int]]:
        local = self._local  # type: ignore[attr-defined]
        if not hasattr(local, "stack"):
            local.stack = []
        return local.stack

    def enter(self, metadata: LazyDict) -> None:
        plain = str(metadata.data.get("name"))
        named, metrics = plain, {}
        if any(s.hook == "triton" for s in recorder.active()):
            enter_state(COMPUTE_METADATA_SCOPE_NAME)
            try:
                computed = metadata.get()
            finally:
                exit_state()
            named = str(computed.get("name", plain))
            metrics = {k: computed[k] for k in LaunchHook.metrics if k in computed}
        self._stack().append((plain, named, metrics, now_ns()))

    def exit(self, metadata: LazyDict) -> None:
        end = now_ns()
        plain, named, metrics, start = self._stack().pop()
        recorder.launch_timed(plain, named, start, end - start, metrics)
