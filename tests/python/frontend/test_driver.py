"""triton.runtime.driver.active on the CPU (python/tcpu/triton/runtime/driver.py)."""

import importlib
import os
import platform
import subprocess
import sys

import numpy as np
import pytest

import tcpu
from tcpu.triton import testing

# The module: the package's attribute `driver` is the DriverConfig it holds.
drivers = importlib.import_module("tcpu.triton.runtime.driver")


def _usable_cpus() -> int:
    """The CPUs this process may run on (Linux's affinity; macOS has none: all of them)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@pytest.fixture
def active():
    return drivers.CPUDriver()


@pytest.fixture
def no_thread_env(monkeypatch):
    monkeypatch.delenv("TCPU_NUM_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)


def test_device_properties_have_triton_keys_and_cpu_values(active, no_thread_env):
    props = active.utils.get_device_properties(0)
    assert set(props) == {"multiprocessor_count", "max_shared_mem", "max_num_regs", "warpSize",
                          "sm_clock_rate", "mem_clock_rate", "mem_bus_width"}
    assert all(isinstance(v, int) for v in props.values())
    assert props["multiprocessor_count"] == _usable_cpus()
    assert props["max_shared_mem"] == 1 << 30
    assert props["warpSize"] == 1
    assert props["max_num_regs"] == 65536
    assert props["sm_clock_rate"] >= 0 and props["mem_clock_rate"] == 0
    # Tutorials pass torch.device("cpu").index, which is None.
    assert active.utils.get_device_properties(None) == props


def test_worker_threads_follow_the_runtimes_environment(active, monkeypatch, no_thread_env):
    get = active.utils.get_device_properties
    monkeypatch.setenv("OMP_NUM_THREADS", "3,2")  # nested levels: the first is ours
    assert get(0)["multiprocessor_count"] == 3
    monkeypatch.setenv("TCPU_NUM_THREADS", "5")  # wins over OMP_NUM_THREADS
    assert get(0)["multiprocessor_count"] == 5
    monkeypatch.setenv("TCPU_NUM_THREADS", "zero")  # not a count: the next source decides
    assert get(0)["multiprocessor_count"] == 3
    monkeypatch.setenv("OMP_NUM_THREADS", "0")
    assert get(0)["multiprocessor_count"] == _usable_cpus()


def test_target_is_the_cpu(active):
    target = active.get_current_target()
    assert target.backend == "cpu"
    assert target.warp_size == 1
    assert isinstance(target.arch, str) and target.arch
    assert active.get_current_target() is target


def test_nothing_needs_the_extension(active, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "tcpu._tcpu", None)  # makes `from tcpu import _tcpu` fail
    # An empty cache: no CPU name kept there from an earlier process (disk_cache.host_llvm_cpu).
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path))
    import tcpu  # ...also when another test imported it first (the package holds it then)
    monkeypatch.delattr(tcpu, "_tcpu", raising=False)
    assert active.get_current_target().arch == platform.machine()
    assert active.utils.get_device_properties(0)["warpSize"] == 1


def test_properties_do_not_import_torch():
    # The directory the tests import tcpu from (not resolved: in a build tree the package
    # files are links into the sources).
    root = os.path.dirname(os.path.dirname(os.path.abspath(tcpu.__file__)))
    code = (
        "import sys\n"
        f"sys.path.insert(0, {root!r})\n"
        "from tcpu.triton.runtime.driver import driver\n"
        "driver.active.utils.get_device_properties(0)\n"
        "driver.active.get_current_target()\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_torch_device_is_cpu(active):
    torch = pytest.importorskip("torch")
    assert active.get_active_torch_device() == torch.device("cpu")


def test_device_stream_and_interface(active):
    assert active.get_current_device() == 0
    active.set_current_device(0)
    with pytest.raises(ValueError):
        active.set_current_device(1)
    assert active.get_current_stream() == 0 and active.get_current_stream(0) == 0
    interface = active.get_device_interface()
    interface.synchronize()
    assert interface.current_device() == 0 and interface.device_count() == 1
    start, end = interface.Event(enable_timing=True), interface.Event(enable_timing=True)
    start.record()
    sum(range(10000))
    end.record()
    assert start.elapsed_time(end) > 0
    with pytest.raises(RuntimeError):
        interface.Event().elapsed_time(end)


def test_benchmarker_is_do_bench(active):
    assert active.get_benchmarker() is testing.do_bench


def test_benchmark_cache_buffer(active):
    cache = active.get_empty_cache_for_benchmark()
    assert isinstance(cache, np.ndarray)
    assert cache.nbytes == drivers.benchmark_cache_bytes()
    assert 16 << 20 <= cache.nbytes <= 256 << 20
    llc = drivers.last_level_cache_bytes()
    if llc is not None:
        assert cache.nbytes == min(max(2 * llc, 16 << 20), 256 << 20)
    assert active.get_empty_cache_for_benchmark() is cache  # kept, not reallocated
    assert int(cache.min()) == 1  # every page written, so a sweep reads real memory
    before = cache[:1000].copy()
    active.clear_cache(cache)  # a read sweep leaves the buffer as it was
    assert np.array_equal(cache[:1000], before)


def test_clear_cache_zeroes_a_torch_buffer(active):
    torch = pytest.importorskip("torch")
    buffer = torch.ones(1024, dtype=torch.int32)
    active.clear_cache(buffer)
    assert int(buffer.abs().sum()) == 0


def test_cache_size_rules(monkeypatch):
    monkeypatch.setattr(drivers, "last_level_cache_bytes", lambda: 32 << 20)
    assert drivers.benchmark_cache_bytes() == 64 << 20
    monkeypatch.setattr(drivers, "last_level_cache_bytes", lambda: 1 << 20)
    assert drivers.benchmark_cache_bytes() == 16 << 20
    monkeypatch.setattr(drivers, "last_level_cache_bytes", lambda: 1 << 30)
    assert drivers.benchmark_cache_bytes() == 256 << 20
    monkeypatch.setattr(drivers, "last_level_cache_bytes", lambda: None)
    assert drivers.benchmark_cache_bytes() == 64 << 20


def test_driver_config_swaps_the_active_driver():
    config = drivers.DriverConfig()
    default = config.active
    assert isinstance(default, drivers.CPUDriver) and config.default is default
    other = object()
    config.set_active(other)
    assert config.active is other
    config.reset_active()
    assert config.active is default
    assert isinstance(drivers.driver.active, drivers.CPUDriver)


def test_torch_cpu_has_streams_after_asking_for_the_device(active):
    torch = pytest.importorskip("torch")
    dev = active.get_active_torch_device()
    stream = getattr(torch, dev.type).Stream()  # tutorial 02's benchmark
    getattr(torch, dev.type).set_stream(stream)
    from tcpu.triton.runtime import torch_cpu_streams
    if torch.cpu.Stream is not torch_cpu_streams.Stream:
        return  # PyTorch >= 2.1 has its own (left untouched)
    assert torch.cpu.current_stream() is stream
    with torch.cpu.stream(torch.cpu.Stream()):
        assert torch.cpu.current_stream() is not stream
    assert torch.cpu.current_stream() is stream
