"""``triton.runtime.driver`` for the CPU: ``driver.active`` answers what Triton's GPU
drivers answer (device, target, properties, a cache-clearing buffer for benchmarks) with
values that mean something for this host.

Nothing here needs the C++ extension: scripts read device properties before any kernel
is compiled, and they must work where only the host API is installed. Only
``get_current_target()`` asks the extension (for LLVM's name of this CPU) and falls back
to the machine name without it."""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

_SYSFS_CPU = Path("/sys/devices/system/cpu")


@dataclass(frozen=True)
class GPUTarget:
    """What ``get_current_target()`` returns; Triton's name is kept because scripts
    test ``target.backend`` and ``target.arch`` on it."""

    backend: str
    arch: str | int
    warp_size: int


# --- host facts, read once ------------------------------------------------------------


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def num_worker_threads() -> int:
    """The thread count a launch uses by default, decided as the runtime decides it
    (runtime/src/state/settings.cpp): TCPU_NUM_THREADS, else the first entry of
    OMP_NUM_THREADS, else every core this process may run on. Read on every call, since
    tests and scripts change the environment."""
    for variable in ("TCPU_NUM_THREADS", "OMP_NUM_THREADS"):
        text = os.environ.get(variable, "").split(",")[0].strip()
        if text.isdigit() and int(text) > 0:
            return int(text)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # macOS has no affinity masks
        return os.cpu_count() or 1


@functools.cache
def _clock_khz() -> int:
    """Best-effort core clock in kHz (CUDA reports sm_clock_rate in kHz): the cpufreq
    maximum where the kernel exposes it, else /proc/cpuinfo's current MHz (VMs), else 0."""
    maximum = _read(_SYSFS_CPU / "cpu0/cpufreq/cpuinfo_max_freq")
    if maximum and maximum.isdigit():
        return int(maximum)
    for line in (_read(Path("/proc/cpuinfo")) or "").splitlines():
        if line.startswith("cpu MHz"):
            try:
                return int(float(line.split(":", 1)[1]) * 1000)
            except ValueError:
                break
    return 0


def _parse_size(text: str) -> int | None:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper()
    if text and text[-1] in units and text[:-1].isdigit():
        return int(text[:-1]) * units[text[-1]]
    return int(text) if text.isdigit() else None


@functools.cache
def last_level_cache_bytes() -> int | None:
    """Size of the largest data cache cpu0 sees (one L3 instance), from sysfs. Not
    sysconf: glibc's _SC_LEVEL3_CACHE_SIZE reports the whole host's L3 inside VMs."""
    best = None
    for index in sorted(_SYSFS_CPU.glob("cpu0/cache/index*")):
        if _read(index / "type") == "Instruction":
            continue
        size = _parse_size(_read(index / "size") or "")
        if size and (best is None or size > best):
            best = size
    return best


def benchmark_cache_bytes() -> int:
    """Bytes swept between timed runs. Triton sweeps 256 MB, far more than any GPU's L2,
    and it costs a GPU ~0.1 ms. A CPU sweeps at ~25 GB/s per thread, so 256 MB would cost
    ~10 ms per run and leave fast kernels a handful of samples in do_bench's 100 ms.
    Twice the last-level cache evicts everything a run left behind (2 x 32 MB = 64 MB on
    a 2-core Zen 4 VM, ~2.5 ms), clamped to [16 MB, 256 MB]; 64 MB where sysfs is silent."""
    llc = last_level_cache_bytes()
    if llc is None:
        return 64 << 20
    return min(max(2 * llc, 16 << 20), 256 << 20)


# --- the driver -----------------------------------------------------------------------


class _Utils:
    """``driver.active.utils``: Triton's compiled helper module; here only the query."""

    @staticmethod
    def get_device_properties(device: int | None = 0) -> dict[str, int]:
        # ``device`` is usually torch.device("cpu").index, i.e. None: there is one device.
        return {
            "multiprocessor_count": num_worker_threads(),
            # A CPU program has no fixed on-chip scratchpad (an H100 has 228 KB): tl
            # blocks live in registers, the stack and the caches, so no size stops a
            # kernel the way SMEM does. Scripts still divide by this and compare configs
            # against it to prune them, so it must be a finite int big enough never to
            # reject a config that would run: 1 GiB. (The runtime's 64 MiB cap on
            # sharedMemBytes concerns C launches; Python launches pass no scratch size.)
            "max_shared_mem": 1 << 30,
            # Scripts size persistent grids with NUM_REGS // (n_regs * warpSize * num_warps)
            # programs per "SM" (Triton's tutorial 02). Registers never limit how many
            # programs a CPU thread runs, and on the CPU one program per row is fastest
            # (kernels/README.md), so the budget is an SM's (64K) over a compiled kernel's
            # n_regs of 1: the occupancy comes out large, the grid as many rows as there are.
            "max_num_regs": 65536,
            "warpSize": 1,  # a program is one thread using SIMD
            "sm_clock_rate": _clock_khz(),
            "mem_clock_rate": 0,  # not knowable without privileges (DMI tables)
            "mem_bus_width": 0,
        }


class Event:
    """A host timestamp with the shape of torch.cuda.Event, for scripts that time through
    ``get_device_interface().Event``; launches are synchronous, so wall time is the time."""

    def __init__(self, enable_timing: bool = True) -> None:
        self._t: float | None = None

    def record(self, stream: Any = None) -> None:
        self._t = time.perf_counter()

    def synchronize(self) -> None:
        pass

    def elapsed_time(self, end: "Event") -> float:
        """Milliseconds from this event to ``end``, as CUDA's."""
        if self._t is None or end._t is None:
            raise RuntimeError("both events must be recorded before elapsed_time")
        return (end._t - self._t) * 1e3


class _DeviceInterface:
    """What ``get_device_interface()`` returns (torch.cuda on Triton's NVIDIA driver)."""

    Event = Event

    def __init__(self, driver: "CPUDriver") -> None:
        self._driver = driver

    def synchronize(self, device: int | None = None) -> None:
        # Python launches return after the grid has run: nothing is in flight.
        pass

    def current_device(self) -> int:
        return self._driver.get_current_device()

    def set_device(self, device: int) -> None:
        self._driver.set_current_device(device)

    def device_count(self) -> int:
        return 1

    def is_available(self) -> bool:
        return True


class CPUDriver:
    """The one driver: the host CPU as device 0."""

    def __init__(self) -> None:
        self.utils = _Utils()
        self._device_interface = _DeviceInterface(self)
        self._bench_cache: Any = None
        self._target: GPUTarget | None = None

    @staticmethod
    def is_active() -> bool:
        return True

    def get_active_torch_device(self):
        import torch  # only scripts that use torch pay for importing it

        from . import torch_cpu_half, torch_cpu_streams, torch_cuda_device

        torch_cpu_streams.ensure(torch)  # torch.cpu.Stream & co. on PyTorch < 2.1
        torch_cuda_device.ensure(torch)  # torch.cuda.device(None) a no-op, as documented
        torch_cpu_half.ensure(torch)  # fp16/bf16 references where torch lacks CPU kernels
        return torch.device("cpu")

    def get_current_target(self) -> GPUTarget:
        if self._target is None:
            try:
                from tcpu.frontend.build.disk_cache import host_llvm_cpu

                arch = host_llvm_cpu()  # LLVM's name for this CPU, e.g. "znver4"
            except Exception:  # no extension (yet): still answer, with the ISA's name
                import platform

                arch = platform.machine()
            self._target = GPUTarget(backend="cpu", arch=arch, warp_size=1)
        return self._target

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device: int) -> None:
        if device != 0:
            raise ValueError(f"device {device} does not exist: the CPU is device 0")

    def get_current_stream(self, device: int | None = None) -> int:
        return 0  # the null stream: synchronous launches

    def get_device_interface(self) -> _DeviceInterface:
        return self._device_interface

    def get_benchmarker(self) -> Callable[..., Any]:
        from ..testing import do_bench

        return do_bench

    def get_empty_cache_for_benchmark(self):
        """A buffer ``clear_cache`` sweeps between timed runs (size: benchmark_cache_bytes).
        Kept and reused: each new one would cost its page faults (~20 ms for 64 MB) on
        every do_bench call, e.g. once per config while autotuning."""
        import numpy as np

        if self._bench_cache is None:
            # Written once so that every page is real memory: untouched pages all map
            # the kernel's one zero page, and reading them would evict nothing.
            self._bench_cache = np.ones(benchmark_cache_bytes() // 8, dtype=np.uint64)
        return self._bench_cache

    def clear_cache(self, cache: Any) -> None:
        """Evict the caches by reading the whole buffer. Reading, not zeroing as Triton
        does on GPUs: a large memset may use streaming stores that bypass the cache and
        leave the previous run's data in place, and a read leaves no dirty lines to be
        written back while the next run is timed. One thread sweeps, so this clears the
        L2 of the calling core and the L3 it shares; other cores' L2s keep their lines."""
        if hasattr(cache, "zero_"):  # a torch tensor someone made themselves
            cache.zero_()
            return
        import numpy as np

        np.bitwise_or.reduce(cache, axis=None)


class DriverConfig:
    """``triton.runtime.driver``: ``active`` is the driver in use (tests may swap it)."""

    def __init__(self) -> None:
        self._default: CPUDriver | None = None
        self._active: Any = None

    @property
    def default(self) -> CPUDriver:
        if self._default is None:
            self._default = CPUDriver()
        return self._default

    @property
    def active(self) -> Any:
        if self._active is None:
            self._active = self.default
        return self._active

    def set_active(self, driver: Any) -> None:
        self._active = driver

    def reset_active(self) -> None:
        self._active = self.default


driver = DriverConfig()
