"""triton._internal_testing as Triton's test suites import it, with tcpu's meaning: the
device is the CPU (no GPU predicate holds, tcpu is not the interpreter), to_triton and
to_numpy round-trip every dtype list's data through tensors a kernel takes, and fresh_knobs
restores knobs and their environment variables."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from triton import _internal_testing as it

GPU_PREDICATES = ["is_cuda", "is_hip", "is_xpu", "is_interpreter", "is_ampere_or_newer",
                  "is_hopper_or_newer", "is_hopper", "is_blackwell", "is_sm12x", "is_hip_cdna",
                  "is_hip_cdna2", "is_hip_cdna3", "is_hip_cdna4", "is_hip_gfx11",
                  "is_hip_gfx12", "is_hip_gfx1250"]


@pytest.mark.parametrize("name", GPU_PREDICATES)
def test_no_gpu_predicate_holds_on_the_cpu(name: str) -> None:
    assert getattr(it, name)() is False


def test_the_target_is_the_cpu() -> None:
    assert it.get_current_target().backend == "cpu"
    assert it.get_arch() == str(it.get_current_target().arch)
    assert it.supports_tma() and it.supports_ws()


@triton.jit
def plus_one(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)


@pytest.mark.parametrize("dtype_str", it.dtypes_with_bfloat16)
def test_to_triton_gives_kernel_arguments_and_to_numpy_reads_them(dtype_str: str) -> None:
    x = it.numpy_random((16,), dtype_str, low=-50, high=50)
    assert np.array_equal(x, it.numpy_random((16,), dtype_str, low=-50, high=50))  # seeded
    if dtype_str in it.integral_dtypes:
        assert (x != 0).all()
    x_tri = it.to_triton(x, device="cpu", dst_type=dtype_str)
    out_tri = it.to_triton(np.zeros_like(x), device="cpu", dst_type=dtype_str)
    plus_one[(1,)](x_tri, out_tri, BLOCK=16)
    expected = x.astype(np.float64) + 1
    if dtype_str in it.uint_dtypes:
        assert isinstance(x_tri, triton.TensorWrapper) and x_tri.dtype == getattr(tl, dtype_str)
    if dtype_str == "bfloat16":
        assert x_tri.dtype is torch.bfloat16
    got = it.to_numpy(out_tri)
    assert got.dtype == (np.float32 if dtype_str == "bfloat16" else x.dtype)
    tolerance = 0.05 if dtype_str in ("bfloat16", "float16") else 1e-6
    assert np.allclose(got.astype(np.float64), expected, rtol=tolerance)


def test_dtype_names() -> None:
    assert it.str_to_triton_dtype("float8_e4m3fn") == tl.float8e4nv
    assert it.str_to_triton_dtype("bool") == tl.int1
    assert it.str_to_triton_dtype("bfloat16") == tl.bfloat16
    assert it.torch_dtype_name(torch.int64) == "int64"
    assert it.torch_dtype_name(tl.float32) == "fp32"
    with pytest.raises(TypeError):
        it.torch_dtype_name("int64")


def test_fp8_data_is_bytes_reinterpreted() -> None:
    x = it.numpy_random((8,), "float8_e5m2")
    assert x.dtype == np.int8 and ((20 <= x) & (x < 40)).all()
    wrapped = it.to_triton(x, device="cpu", dst_type="float8_e5m2")
    assert isinstance(wrapped, triton.TensorWrapper) and wrapped.dtype == tl.float8e5
    assert it.unwrap_tensor(wrapped) is wrapped.base


def test_fresh_knobs_resets_and_restores(monkeypatch) -> None:
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    monkeypatch.setenv("TRITON_CACHE_AUTOTUNING", "0")  # restored by monkeypatch at the end
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    before = triton.knobs.autotuning
    before.cache = True
    fresh, reset = it._fresh_knobs_impl()
    knobs = fresh()
    assert knobs.autotuning is not before
    assert knobs.autotuning.print is False and knobs.autotuning.cache is False
    assert "TRITON_PRINT_AUTOTUNING" not in os.environ
    knobs.runtime.debug = True
    assert os.environ["TRITON_DEBUG"] == "1"
    reset()
    assert triton.knobs.autotuning is before and before.cache is True
    assert os.environ["TRITON_PRINT_AUTOTUNING"] == "1"
    assert os.environ.get("TRITON_DEBUG") != "1"
    del before.cache


def test_allocator_as_triton_test_fixtures_set_it() -> None:
    # Triton's conftest (with_allocator) sets default_alloc_fn, then a NullAllocator back.
    from triton.runtime import _allocation
    assert isinstance(_allocation.get_allocator(), _allocation.NullAllocator)
    with pytest.raises(RuntimeError, match="triton.set_allocator"):
        _allocation.get_allocator()(16, 16, None)
    triton.set_allocator(it.default_alloc_fn)
    try:
        assert _allocation.get_allocator() is it.default_alloc_fn
        assert it.default_alloc_fn(64, 16, None).numel() >= 64
    finally:
        triton.set_allocator(_allocation.NullAllocator())
