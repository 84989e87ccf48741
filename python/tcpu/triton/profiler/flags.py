"""The profiler's process-wide switches, as Triton's `triton.profiler.flags`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ProfilerFlags:
    # A session is open: scopes and launches are recorded.
    profiling_on: bool = False
    # Triton's in-kernel instrumentation: never on in tcpu (it is refused).
    instrumentation_on: bool = False
    # The script runs under the `proton` command (triton.profiler.proton), which owns session 0.
    command_line: bool = False


flags = ProfilerFlags()
