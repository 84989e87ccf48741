"""Profiling modes of Triton's GPU backends (`start(mode=...)`): PC sampling (CUPTI) and the
instrumentation modes. They can be written down on tcpu, and start() refuses them: tcpu's
backend has no modes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Optimize(Enum):
    TIMESHIFT = "time_shift"
    SCHED_STORES = "sched_stores"
    SCHED_BARRIERS = "sched_barriers"
    CLOCK32 = "clock32"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class BaseMode:
    name: str


@dataclass(frozen=True)
class PCSampling(BaseMode):
    name: str = field(default="pcsampling", init=False)
    interval: int = 1000

    def __post_init__(self) -> None:
        if self.interval <= 0:
            raise ValueError("Interval must be a positive integer.")

    def __str__(self) -> str:
        return f"{self.name}:interval={self.interval}"


class InstrumentationMode(BaseMode):
    """Triton's instrumentation modes set how a kernel's GPU code records clocks (buffers in
    shared memory, warps sampled); tcpu's kernels are CPU code: refused by name."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise NotImplementedError(
            f"triton.profiler.mode.{type(self).__name__}: instrumentation modes shape a "
            "kernel's GPU code; tcpu's profiler times each launch on the CPU and has no modes")


class Default(InstrumentationMode):
    pass


class MMA(InstrumentationMode):
    pass
