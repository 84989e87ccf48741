"""PyTorch 2.x's CPU dtypes as kernel arguments: fp8 tensors (torch.float8_e5m2,
torch.float8_e4m3fn) as pointers to tl.float8e5 / tl.float8e4nv, and uint16/32/64 tensors as
pointers to Triton's unsigned types. torch's own conversions are the reference (written apart
from tcpu); on torch 1.13, which has none of these dtypes, the tests are skipped
(test_lang_fp8.py passes fp8 data as uint8 there)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl

FP8 = [getattr(torch, name) for name in ("float8_e5m2", "float8_e4m3fn") if hasattr(torch, name)]
UINTS = [getattr(torch, name) for name in ("uint16", "uint32", "uint64") if hasattr(torch, name)]
needs = pytest.mark.skipif(not FP8 or not UINTS, reason=f"torch {torch.__version__} has no "
                           "fp8 or uint16/32/64 tensors")


@triton.jit
def _widen(X, OUT, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(OUT + offs, tl.load(X + offs).to(tl.float32))


@triton.jit
def _narrow(X, OUT, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(OUT + offs, tl.load(X + offs).to(OUT.dtype.element_ty))


@needs
@pytest.mark.parametrize("dtype", FP8, ids=str)
def test_fp8_tensor_widens_every_pattern_as_torch_does(dtype):
    x = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dtype)
    out = torch.empty(256, dtype=torch.float32)
    _widen[(2,)](x, out, BLOCK=128)
    expected = x.float()
    nan = torch.isnan(expected)
    assert torch.equal(torch.isnan(out), nan)
    assert torch.equal(out[~nan], expected[~nan])


@needs
@pytest.mark.parametrize("dtype", FP8, ids=str)
def test_fp8_tensor_stores_rounded_values_as_torch_rounds_them(dtype):
    # Every value in range, and the midpoints between neighbours (ties to even): torch and
    # Triton round alike there (they differ past the largest value: Triton saturates).
    finite = torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dtype).float()
    finite = torch.unique(finite[torch.isfinite(finite)])
    mids = (finite[:-1] + finite[1:]) / 2
    values = torch.cat([finite, mids])
    values = torch.cat([values, torch.zeros((-values.numel()) % 128)])
    out = torch.empty(values.numel(), dtype=dtype)
    _narrow[(values.numel() // 128,)](values, out, BLOCK=128)
    assert torch.equal(out.view(torch.uint8), values.to(dtype).view(torch.uint8))


@triton.jit
def _unsigned_ops(X, OUT, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    # Unsigned: wraps at the top, shifts in zeros, compares without sign.
    tl.store(OUT + offs, tl.where(x > 3, (x + 1) >> 1, x * 2))


@needs
@pytest.mark.parametrize("dtype", UINTS, ids=str)
def test_unsigned_tensors(dtype):
    bits = torch.iinfo(dtype).bits
    numpy_type = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    top = np.iinfo(numpy_type).max
    values = np.array([0, 1, 3, 4, 5, top // 2, top // 2 + 1, top - 1, top] * 16,
                      dtype=numpy_type)[:128]
    x = torch.from_numpy(values.copy())
    assert x.dtype == dtype
    out = torch.empty_like(x)
    _unsigned_ops[(1,)](x, out, BLOCK=128)
    with np.errstate(over="ignore"):
        expected = np.where(values > 3, (values + numpy_type(1)) >> numpy_type(1),
                            values * numpy_type(2))
    np.testing.assert_array_equal(out.numpy(), expected.astype(numpy_type))
