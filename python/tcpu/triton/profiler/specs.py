"""Peak FLOP/s and memory bandwidth of a device, which Triton's viewer divides by for its
`util` metric. Triton tabulates NVIDIA and AMD GPUs; tcpu knows no CPU's peaks, so both
functions refuse, saying so (and the viewer's `util` with them)."""

from __future__ import annotations


def max_flops(device_type: str, arch: str, width: int, num_sms: int, clock_rate: float
              ) -> float:
    raise ValueError(f"Unsupported device type: {device_type} (tcpu's profiler knows no "
                     "peak FLOP/s: it profiles CPUs, whose peak depends on the SIMD width, "
                     "cores and clocks it does not measure)")


def max_bps(device_type: str, arch: str, bus_width: int, memory_clock_rate: float) -> float:
    raise ValueError(f"Unsupported device type: {device_type} (tcpu's profiler knows no "
                     "peak memory bandwidth of a CPU)")
