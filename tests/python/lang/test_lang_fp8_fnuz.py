"""tl.float8e4b8 and tl.float8e5b16: AMD's "fnuz" fp8 formats (e4m3 with an exponent bias of 8,
e5m2 with 16), which Triton compiles for AMD GPUs and its interpreter runs: no infinities, no
negative zero, and one NaN, 0x80. Converted to and from fp16, bf16 and fp32: up exactly (0x80
to NaN), down as Triton's conversion for AMD GPUs does: rounded to nearest even, magnitudes past
the largest value saturated to it, infinities and NaN to 0x80, and -0 to 0.

The references are NumPy, written apart from tcpu's C++: decoding from the format's fields,
encoding by searching the list of its values. Data travels as uint8 arrays; kernels view it
through pointer casts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import from_fp8_kernel, to_fp8_kernel

from conftest import REAL_TRITON

if REAL_TRITON and torch.version.hip is None:
    pytest.skip("Triton supports float8e4b8 and float8e5b16 on AMD GPUs only",
                allow_module_level=True)

# name: (tl dtype, mantissa bits, exponent bias)
FORMATS = {"fp8e4b8": (tl.float8e4b8, 3, 8), "fp8e5b16": (tl.float8e5b16, 2, 16)}


def decode(bits: np.ndarray, mantissa_bits: int, bias: int) -> np.ndarray:
    """Bit patterns as float64: (-1)^s 2^(e-bias) 1.m, subnormals 2^(1-bias) 0.m, 0x80 NaN."""
    bits = bits.astype(np.int64)
    exp, man = (bits & 0x7F) >> mantissa_bits, bits & ((1 << mantissa_bits) - 1)
    scale = float(1 << mantissa_bits)
    mag = np.where(exp == 0, man / scale * 2.0**(1 - bias),
                   (1 + man / scale) * 2.0**(exp - bias))
    out = np.where(bits & 0x80, -mag, mag)
    return np.where(bits == 0x80, np.nan, out)


def encode(x: np.ndarray, mantissa_bits: int, bias: int) -> np.ndarray:
    """float64 values as the format, rounded as the module's docstring says: the nearest of the
    128 magnitudes (a tie to the even pattern), saturated, the sign kept except on zero."""
    grid = decode(np.arange(128), mantissa_bits, bias)
    out = np.empty(x.shape, dtype=np.uint8)
    for i, v in enumerate(x.ravel()):
        if not np.isfinite(v):
            out.flat[i] = 0x80
            continue
        distance = np.abs(grid - min(abs(v), grid[-1]))
        nearest = np.nonzero(distance == distance.min())[0]
        pattern = int(nearest[nearest % 2 == 0][0] if nearest.size > 1 else nearest[0])
        out.flat[i] = pattern | (0x80 if v < 0 and pattern else 0)
    return out


def inputs(mantissa_bits: int, bias: int) -> np.ndarray:
    """fp32 values at, between and next to every value of the format, past its largest, and
    specials, with their negatives."""
    grid = decode(np.arange(128), mantissa_bits, bias)
    mids = (grid[:-1] + grid[1:]) / 2
    vals = np.concatenate([grid, mids, 0.25 * grid[:-1] + 0.75 * grid[1:]]).astype(np.float32)
    vals = np.concatenate([vals, np.nextafter(vals, np.float32(0)),
                           np.nextafter(vals, np.float32(np.inf)),
                           np.float32([grid[-1] * 1.04, grid[-1] * 1.1, 1e30, np.inf, np.nan,
                                       2.0**-30])])
    vals = np.concatenate([vals, -vals])
    return np.resize(vals, (vals.size + 255) // 256 * 256)


@pytest.mark.parametrize("dst", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_conversion_from_fnuz_is_exact_and_0x80_is_nan(name, dst, device):
    dtype, mantissa_bits, bias = FORMATS[name]
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8).to(device)
    out = torch.zeros(256, dtype=dst, device=device)
    from_fp8_kernel[(1,)](bits, out, dtype, BLOCK=256)
    np.testing.assert_array_equal(out.cpu().double().numpy(),
                                  decode(np.arange(256), mantissa_bits, bias))


@pytest.mark.parametrize("src", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_conversion_to_fnuz_rounds_to_even_and_saturates(name, src, device):
    dtype, mantissa_bits, bias = FORMATS[name]
    vals = torch.from_numpy(inputs(mantissa_bits, bias)).to(src)  # rounded once into src
    out = torch.zeros(vals.numel(), dtype=torch.uint8, device=device)
    to_fp8_kernel[(vals.numel() // 256,)](vals.to(device), out, dtype, BLOCK=256)
    expected = encode(vals.double().numpy(), mantissa_bits, bias)
    got = out.cpu().numpy()
    bad = np.nonzero(got != expected)[0]
    assert bad.size == 0, [(float(vals[i]), hex(got[i]), hex(expected[i])) for i in bad[:8]]


@triton.jit
def _padded_dot_kernel(A, B, PAD, C, DT: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(A.to(tl.pointer_type(DT)) + r[:, None] * 16 + r[None, :])
    b = tl.load(B.to(tl.pointer_type(DT)) + r[:, None] * 16 + r[None, :])
    tl.store(C + r[:, None] * 16 + r[None, :], tl.dot(a, b))
    # A block pointer past the end of a 4-element row: the rest is padded with NaN.
    p = tl.make_block_ptr(A.to(tl.pointer_type(DT)), shape=(4,), strides=(1,), offsets=(0,),
                          block_shape=(16,), order=(0,))
    padded = tl.load(p, boundary_check=(0,), padding_option="nan")
    tl.store(PAD.to(tl.pointer_type(DT)) + r, padded)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_dot_multiplies_exactly_and_nan_padding_is_0x80(name, device):
    dtype, mantissa_bits, bias = FORMATS[name]
    gen = np.random.default_rng(11)
    # Values k/4 for small k: exact in both formats, products and sums exact in fp32.
    a_bits = encode(gen.integers(-12, 13, (16, 16)) / 4.0, mantissa_bits, bias)
    b_bits = encode(gen.integers(-12, 13, (16, 16)) / 4.0, mantissa_bits, bias)
    a, b = decode(a_bits, mantissa_bits, bias), decode(b_bits, mantissa_bits, bias)
    padded = torch.zeros(16, dtype=torch.uint8, device=device)
    c = torch.zeros((16, 16), dtype=torch.float32, device=device)
    _padded_dot_kernel[(1,)](torch.from_numpy(a_bits).to(device),
                             torch.from_numpy(b_bits).to(device), padded, c, dtype)
    np.testing.assert_array_equal(c.cpu().numpy(), (a @ b).astype(np.float32))
    np.testing.assert_array_equal(padded.cpu().numpy()[:4], a_bits.ravel()[:4])
    assert (padded.cpu().numpy()[4:] == 0x80).all()


@triton.jit
def _convert_kernel(X, OUT, DT: tl.constexpr, ROUNDING: tl.constexpr):
    x = tl.load(X + tl.arange(0, 16))
    tl.store(OUT + tl.arange(0, 16), x.to(DT, fp_downcast_rounding=ROUNDING).to(tl.float32))


@pytest.mark.skipif(REAL_TRITON, reason="tcpu's refusals (Triton's AMD backend has no such "
                    "conversion)")
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_round_toward_zero_and_fp64_are_refused(name, device):
    dtype = FORMATS[name][0]
    out = torch.zeros(16, dtype=torch.float32, device=device)
    with pytest.raises(triton.CompilationError, match="rtz"):
        _convert_kernel[(1,)](torch.zeros(16, device=device), out, dtype, "rtz")
    with pytest.raises(triton.CompilationError, match="fp64"):
        _convert_kernel[(1,)](torch.zeros(16, dtype=torch.float64, device=device), out, dtype,
                              "rtne")
