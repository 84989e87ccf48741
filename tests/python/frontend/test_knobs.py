"""triton.knobs with tcpu's meaning: a knob reads its environment variable, an assignment
sets the variable tcpu reads (cache.dir is TCPU_CACHE_DIR, runtime.debug TRITON_DEBUG, which
compiles device_assert in), `env` and reset() forget assignments, scope() restores; the
GPU-only knobs keep their values."""

from __future__ import annotations

import os

import pytest
import torch

import triton
import triton.language as tl
from triton import knobs


def test_cache_dir_is_tcpus_compile_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path / "a"))
    assert knobs.cache.dir == str(tmp_path / "a")
    with knobs.cache.scope():
        knobs.cache.dir = str(tmp_path / "b")
        assert os.environ["TCPU_CACHE_DIR"] == str(tmp_path / "b")
        x = torch.arange(8, dtype=torch.float32)
        out = torch.empty_like(x)
        double[(1,)](x, out, BLOCK=8)  # compiled into the knob's directory
        assert torch.equal(out, x * 2)
        assert any((tmp_path / "b").rglob("*.json"))
    assert os.environ["TCPU_CACHE_DIR"] == str(tmp_path / "a")
    assert knobs.cache.dir == str(tmp_path / "a")


def test_cache_dir_defaults_to_where_tcpu_resolves_it(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("TCPU_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert knobs.cache.dir == str(tmp_path / "tcpu")


@triton.jit
def double(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)


@triton.jit
def assert_positive(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.device_assert(tl.load(x_ptr + offs) > 0, "not positive")


def test_runtime_debug_switches_device_assert(monkeypatch) -> None:
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = torch.zeros(8, dtype=torch.int32)
    with knobs.runtime.scope():
        assert knobs.runtime.debug is False
        assert_positive[(1,)](x, BLOCK=8)  # not compiled in
        knobs.runtime.debug = True
        assert os.environ["TRITON_DEBUG"] == "1"
        with pytest.raises(Exception, match="not positive"):
            assert_positive[(1,)](x, BLOCK=8)
    assert "TRITON_DEBUG" not in os.environ and knobs.runtime.debug is False


def test_assignments_and_env(monkeypatch) -> None:
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "0")
    with knobs.autotuning.scope():
        knobs.autotuning.print = True
        assert knobs.autotuning.print is True
        assert os.environ["TRITON_PRINT_AUTOTUNING"] == "1"
        os.environ["TRITON_PRINT_AUTOTUNING"] = "0"
        assert knobs.autotuning.print is True  # an assigned value wins over the variable
        knobs.autotuning.print = knobs.env
        assert knobs.autotuning.print is False
    assert os.environ["TRITON_PRINT_AUTOTUNING"] == "0"


def test_propagate_env_off_keeps_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("TRITON_HIP_USE_ASYNC_COPY", raising=False)
    monkeypatch.setattr(knobs, "propagate_env", False)
    with knobs.amd.scope():
        knobs.amd.use_async_copy = True
        assert knobs.amd.use_async_copy is True
        assert "TRITON_HIP_USE_ASYNC_COPY" not in os.environ


def test_knob_sets_list_their_knobs_and_reset() -> None:
    names = knobs.compilation.knob_descriptors
    assert {"always_compile", "dump_ir", "override"} <= set(names)
    assert names["dump_ir"].key == "TRITON_KERNEL_DUMP"
    assert knobs.nvidia.knobs.keys() == knobs.nvidia.knob_descriptors.keys()
    with knobs.compilation.scope():
        knobs.compilation.always_compile = True
        fresh = knobs.compilation.copy().reset()
        assert fresh.always_compile is True  # the variable the assignment set
        os.environ["TRITON_ALWAYS_COMPILE"] = "0"
        assert fresh.always_compile is False and knobs.compilation.always_compile is True
    assert "TRITON_ALWAYS_COMPILE" not in os.environ
    assert knobs.runtime.jit_cache_hook is None and knobs.runtime.interpret is False
