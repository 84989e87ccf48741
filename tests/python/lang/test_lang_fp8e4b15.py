"""tl.float8e4b15: e4m3 with an exponent bias of 15 and no inf or NaN, which Triton converts in
software on GPUs before sm_90 (its NVIDIA backend's convert_custom_float8) and refuses on
sm_90 and newer. Converted to and from fp16 and fp32 only: up exactly (as Triton's interpreter
also does), down as that conversion does: fp32 to fp16 toward zero, then the magnitude clamped
to 1.75 (infinities and NaN too) and rounded half away from zero, the sign kept.

The references are NumPy, written apart from tcpu's C++: decoding from the format's fields,
encoding by searching the list of its values. Data travels as uint8 arrays; kernels view it
through pointer casts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl

from conftest import REAL_TRITON

if REAL_TRITON and torch.cuda.is_available() and torch.cuda.get_device_capability() >= (9, 0):
    pytest.skip("Triton refuses float8e4b15 on sm_90 and newer", allow_module_level=True)


def decode(bits: np.ndarray) -> np.ndarray:
    """float8e4b15 bit patterns as float64: (-1)^s 2^(e-15) 1.m, subnormals 2^-14 0.m."""
    bits = bits.astype(np.int64)
    exp, man = (bits >> 3) & 0xF, bits & 7
    mag = np.where(exp == 0, man * 2.0**-17, (1 + man / 8.0) * 2.0**(exp - 15))
    return np.where(bits & 0x80, -mag, mag)


def toward_zero_fp16(x: np.ndarray) -> np.ndarray:
    """x (float32) as the fp16 value next to it toward zero (fp16 overflow to its largest)."""
    with np.errstate(over="ignore", invalid="ignore"):
        h = x.astype(np.float16).astype(np.float64)
        x64 = x.astype(np.float64)
        step = np.nextafter(h.astype(np.float16), np.float16(0)).astype(np.float64)
    return np.where(np.isfinite(x64) & (np.abs(h) > np.abs(x64)), step, h)


def encode(x: np.ndarray) -> np.ndarray:
    """float32 values as Triton's sm_80 conversion makes them float8e4b15 (see the docstring):
    the nearest of the format's values up to 1.75 to the fp16 value toward zero, a tie going
    to the larger magnitude."""
    grid = decode(np.arange(128))
    keep = grid <= 1.75
    patterns, grid = np.arange(128)[keep], grid[keep]
    mags = np.abs(toward_zero_fp16(x.astype(np.float32)))
    out = np.empty(x.shape, dtype=np.uint8)
    for i, (m, v) in enumerate(zip(mags.ravel(), x.ravel())):
        m = 1.75 if np.isnan(m) else min(m, 1.75)
        distance = np.abs(grid - m)
        best = patterns[distance == distance.min()]
        out.flat[i] = best.max() | (0x80 if np.signbit(v) else 0)
    return out


def inputs() -> np.ndarray:
    """fp32 values at, between and next to every float8e4b15 value, past 1.75, and specials."""
    grid = np.unique(decode(np.arange(128)))
    mids = (grid[:-1] + grid[1:]) / 2
    vals = np.concatenate([grid, mids, 0.25 * grid[:-1] + 0.75 * grid[1:]]).astype(np.float32)
    vals = np.concatenate([vals, np.nextafter(vals, np.float32(0)),
                           np.nextafter(vals, np.float32(np.inf)),
                           np.float32([1.76, 1.875, 2.0, 3.0, 1e5, 1e30, np.inf, np.nan, 2**-30])])
    vals = np.concatenate([vals, -vals])
    return np.resize(vals, (vals.size + 255) // 256 * 256)


@triton.jit
def _to_b15_kernel(X, OUT, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(OUT.to(tl.pointer_type(tl.float8e4b15)) + offs, x.to(tl.float8e4b15))


@triton.jit
def _from_b15_kernel(B, OUT, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(B.to(tl.pointer_type(tl.float8e4b15)) + offs)
    tl.store(OUT + offs, x.to(OUT.dtype.element_ty))


@pytest.mark.parametrize("dst", [torch.float32, torch.float16])
def test_conversion_from_fp8e4b15_is_exact_for_every_pattern(dst, device):
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8).to(device)
    out = torch.zeros(256, dtype=dst, device=device)
    _from_b15_kernel[(1,)](bits, out, BLOCK=256)
    np.testing.assert_array_equal(out.cpu().double().numpy(), decode(np.arange(256)))


@pytest.mark.parametrize("src", ["fp32", "fp16"])
def test_conversion_to_fp8e4b15_rounds_half_away_and_clamps(src, device):
    vals = inputs()
    if src == "fp16":
        with np.errstate(over="ignore"):
            vals = vals.astype(np.float16)
    out = torch.zeros(vals.size, dtype=torch.uint8, device=device)
    _to_b15_kernel[(vals.size // 256,)](torch.from_numpy(vals).to(device), out, BLOCK=256)
    expected = encode(vals.astype(np.float32))
    got = out.cpu().numpy()
    bad = np.nonzero(got != expected)[0]
    assert bad.size == 0, [(float(vals[i]), hex(got[i]), hex(expected[i])) for i in bad[:8]]


@triton.jit
def _abs_dot_kernel(A, B, ABS, C):
    r = tl.arange(0, 16)
    a = tl.load(A.to(tl.pointer_type(tl.float8e4b15)) + r[:, None] * 16 + r[None, :])
    b = tl.load(B.to(tl.pointer_type(tl.float8e4b15)) + r[:, None] * 16 + r[None, :])
    tl.store(ABS.to(tl.pointer_type(tl.float8e4b15)) + r[:, None] * 16 + r[None, :], tl.abs(a))
    tl.store(C + r[:, None] * 16 + r[None, :], tl.dot(a, b))


def test_abs_clears_the_sign_and_dot_multiplies_exactly(device):
    gen = np.random.default_rng(7)
    # Values k/8 for small k: products and their sums are exact in fp32, in any order.
    a_bits = encode((gen.integers(-14, 15, (16, 16)) / 8.0).astype(np.float32))
    b_bits = encode((gen.integers(-14, 15, (16, 16)) / 8.0).astype(np.float32))
    a, b = decode(a_bits), decode(b_bits)
    absolute = torch.zeros(256, dtype=torch.uint8, device=device)
    c = torch.zeros((16, 16), dtype=torch.float32, device=device)
    _abs_dot_kernel[(1,)](torch.from_numpy(a_bits).to(device), torch.from_numpy(b_bits).to(device),
                          absolute, c)
    np.testing.assert_array_equal(absolute.cpu().numpy(), a_bits.ravel() & 0x7F)
    np.testing.assert_array_equal(c.cpu().numpy(), (a @ b).astype(np.float32))


@triton.jit
def _convert_kernel(B, OUT, DT: tl.constexpr):
    x = tl.load(B.to(tl.pointer_type(tl.float8e4b15)) + tl.arange(0, 16))
    tl.store(OUT + tl.arange(0, 16), x.to(DT).to(tl.float32))


@pytest.mark.skipif(REAL_TRITON, reason="tcpu's refusals (Triton's GPU conversion asserts)")
@pytest.mark.parametrize("dt", [tl.bfloat16, tl.float64, tl.int32, tl.float8e5])
def test_conversions_other_than_fp16_and_fp32_are_refused(dt, device):
    bits = torch.zeros(16, dtype=torch.uint8, device=device)
    out = torch.zeros(16, dtype=torch.float32, device=device)
    with pytest.raises(triton.CompilationError, match="float8e4b15|cannot cast|fp64"):
        _convert_kernel[(1,)](bits, out, DT=dt)
