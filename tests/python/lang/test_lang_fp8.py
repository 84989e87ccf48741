"""fp8 in triton.language: tl.float8e5 (e5m2) and tl.float8e4nv (e4m3fn) as Triton 3.6 has them
on NVIDIA GPUs: loaded, stored (through typed pointers, masked, with `other`), created
(tl.full, tl.zeros), moved (where, trans, reshape), converted to and from fp16, bf16 and fp32,
mixed with wider floats (which promote) and with each other (two kinds meet in fp16), and
multiplied by tl.dot. What Triton refuses (fp8 arithmetic, integer and fp64 conversions) is
in test_frontend_errors.py; bit-exact agreement with real Triton on every conversion in
tests/goldens/triton_ops/cast_fp8 and dot_fp8.

The reference here is NumPy, written apart from tcpu's C++: every finite value of each format
is listed, and a conversion picks the nearest one (ties to the even encoding), saturating past
the largest (cvt.rn.satfinite, as Triton's NVIDIA backend converts) and sending NaN to 0x7f.
The tests run on Debian's torch 1.13 (no fp8 tensors), so fp8 data travels as uint8 arrays and
kernels view it through `pointer_type(float8...)` casts or bitcasts."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import from_fp8_kernel, to_fp8_kernel

FORMATS = {"e5": (tl.float8e5, 2, 15), "e4": (tl.float8e4nv, 3, 7)}


def decode(bits: np.ndarray, fmt: str) -> np.ndarray:
    """fp8 bit patterns as float64 (NaN for NaN patterns)."""
    _, man_bits, bias = FORMATS[fmt]
    bits = bits.astype(np.int64)
    exp = (bits >> man_bits) & ((1 << (7 - man_bits)) - 1)
    man = bits & ((1 << man_bits) - 1)
    mag = np.where(exp == 0, man * 2.0**(1 - bias - man_bits),
                   (1 + man / 2.0**man_bits) * 2.0**(exp - bias))
    if fmt == "e5":
        mag = np.where(exp == 31, np.where(man == 0, np.inf, np.nan), mag)
    else:
        mag = np.where((exp == 15) & (man == 7), np.nan, mag)
    return np.where(bits & 0x80, -mag, mag)


def encode(values: np.ndarray, fmt: str) -> np.ndarray:
    """Round to the nearest finite fp8 value, ties to the even pattern; saturate; NaN -> 0x7f."""
    patterns = np.arange(128)
    finite = decode(patterns, fmt)
    keep = np.isfinite(finite)
    patterns, finite = patterns[keep], finite[keep]
    out = np.empty(values.shape, dtype=np.uint8)
    for i, v in enumerate(values.astype(np.float64).ravel()):
        if np.isnan(v):
            out.flat[i] = 0x7F
            continue
        distance = np.abs(finite - min(abs(v), finite.max()))
        best = patterns[distance == distance.min()]
        chosen = best[0] if best.size == 1 else best[best % 2 == 0][0]
        out.flat[i] = chosen | (0x80 if np.signbit(v) else 0)
    return out


def fp8_inputs(fmt: str) -> np.ndarray:
    """fp32 values around every rounding decision of `fmt`, its limits and specials."""
    finite = np.unique(decode(np.arange(128), fmt))
    finite = finite[np.isfinite(finite)]
    mids = ((finite[:-1] + finite[1:]) / 2).astype(np.float32)
    vals = np.concatenate([finite.astype(np.float32), mids, np.nextafter(mids, np.float32(0)),
                           np.nextafter(mids, np.float32(np.inf)),
                           np.float32([np.inf, np.nan, 1e30, finite.max() * 1.06])])
    vals = np.concatenate([vals, -vals])
    return np.resize(vals, (vals.size + 255) // 256 * 256)


@pytest.mark.parametrize("fmt", ["e5", "e4"])
@pytest.mark.parametrize("src", ["fp32", "fp16"])
def test_conversion_to_fp8_rounds_to_nearest_even_and_saturates(fmt, src, device):
    vals = fp8_inputs(fmt)
    if src == "fp16":
        with np.errstate(over="ignore"):
            vals = vals.astype(np.float16)
    x = torch.from_numpy(vals).to(device)
    out = torch.zeros(vals.size, dtype=torch.uint8, device=device)
    to_fp8_kernel[(vals.size // 256,)](x, out, DT=FORMATS[fmt][0], BLOCK=256)
    expected = encode(vals.astype(np.float64), fmt)
    got = out.cpu().numpy()
    bad = np.nonzero(got != expected)[0]
    assert bad.size == 0, [(float(vals[i]), hex(got[i]), hex(expected[i])) for i in bad[:8]]


@pytest.mark.parametrize("fmt", ["e5", "e4"])
@pytest.mark.parametrize("dst", [torch.float32, torch.float16])
def test_conversion_from_fp8_is_exact_for_every_pattern(fmt, dst, device):
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8).to(device)
    out = torch.zeros(256, dtype=dst, device=device)
    from_fp8_kernel[(1,)](bits, out, DT=FORMATS[fmt][0], BLOCK=256)
    expected = decode(np.arange(256), fmt)
    np.testing.assert_array_equal(out.cpu().double().numpy(), expected)


@triton.jit
def _moves_kernel(B, OUT, FULL, N, DT: tl.constexpr):
    # masked loads with `other`, where, trans and reshape on fp8 blocks; stores through a
    # typed pointer; creation with tl.zeros and by conversion.
    r = tl.arange(0, 8)[:, None]
    c = tl.arange(0, 16)[None, :]
    src = B.to(tl.pointer_type(DT))
    x = tl.load(src + r * 16 + c, mask=(r * 16 + c) < N, other=-2.0)
    y = tl.where(c % 2 == 0, x, tl.zeros((8, 16), DT))
    t = tl.trans(y)
    dst = OUT.to(tl.pointer_type(DT))
    tl.store(dst + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :], t)
    # Triton has no fp8 constants but 0 (test_frontend_errors.py): others are made in fp32.
    f = tl.full((16,), 3.3, tl.float32).to(DT)
    tl.store(FULL.to(tl.pointer_type(DT)) + tl.arange(0, 16), tl.reshape(f, (16,)))


@pytest.mark.parametrize("fmt", ["e5", "e4"])
def test_fp8_blocks_load_select_transpose_and_store(fmt, device):
    gen = np.random.default_rng(3)
    bits = gen.integers(0, 256, 128).astype(np.uint8)
    bits[(bits & 0x7F) >= (0x7C if fmt == "e5" else 0x7F)] = 0x38  # finite patterns only
    n = 100
    b = torch.from_numpy(bits).to(device)
    out = torch.full((128,), 0xAA, dtype=torch.uint8, device=device)
    full = torch.zeros(16, dtype=torch.uint8, device=device)
    _moves_kernel[(1,)](b, out, full, n, DT=FORMATS[fmt][0])
    x = bits.copy()
    x[n:] = encode(np.array([-2.0]), fmt)[0]
    y = x.reshape(8, 16)
    y = np.where(np.arange(16)[None, :] % 2 == 0, y, 0)
    np.testing.assert_array_equal(out.cpu().numpy(), y.T.ravel())
    np.testing.assert_array_equal(full.cpu().numpy(), encode(np.full(16, 3.3), fmt))


@triton.jit
def _mixed_kernel(A, B, F, OUT_AB, OUT_AF, OUT_DTYPES):
    offs = tl.arange(0, 64)
    a = tl.load(A.to(tl.pointer_type(tl.float8e5)) + offs)
    b = tl.load(B.to(tl.pointer_type(tl.float8e4nv)) + offs)
    f = tl.load(F + offs)
    ab = a + b  # two fp8 kinds: computed in fp16
    af = a * f  # fp8 with fp32: computed in fp32
    tl.store(OUT_AB + offs, ab)
    tl.store(OUT_AF + offs, af)
    tl.store(OUT_DTYPES, (ab.dtype == tl.float16) + 2 * (af.dtype == tl.float32))


def test_fp8_with_other_floats_promotes_as_triton(device):
    gen = np.random.default_rng(4)
    a_bits = gen.integers(0, 0x7C, 64).astype(np.uint8) | (gen.integers(0, 2, 64) << 7).astype(np.uint8)
    b_bits = gen.integers(0, 0x7F, 64).astype(np.uint8)
    f = gen.standard_normal(64).astype(np.float32)
    out_ab = torch.zeros(64, dtype=torch.float16, device=device)
    out_af = torch.zeros(64, dtype=torch.float32, device=device)
    kinds = torch.zeros(1, dtype=torch.int32, device=device)
    _mixed_kernel[(1,)](torch.from_numpy(a_bits).to(device), torch.from_numpy(b_bits).to(device),
                        torch.from_numpy(f).to(device), out_ab, out_af, kinds)
    assert kinds.item() == 3
    a, b = decode(a_bits, "e5"), decode(b_bits, "e4")
    np.testing.assert_array_equal(out_ab.cpu().numpy(), (a.astype(np.float16) + b.astype(np.float16)))
    np.testing.assert_array_equal(out_af.cpu().numpy(), a.astype(np.float32) * f)


@triton.jit
def _dot_kernel(A, B, C, DA: tl.constexpr, DB: tl.constexpr):
    r = tl.arange(0, 16)
    a = tl.load(A.to(tl.pointer_type(DA)) + r[:, None] * 32 + tl.arange(0, 32)[None, :])
    b = tl.load(B.to(tl.pointer_type(DB)) + tl.arange(0, 32)[:, None] * 16 + r[None, :])
    tl.store(C + r[:, None] * 16 + r[None, :], tl.dot(a, b))


@pytest.mark.parametrize("fa, fb", [("e5", "e5"), ("e4", "e4"), ("e5", "e4")])
def test_fp8_dot_accumulates_exact_products_in_fp32(fa, fb, device):
    gen = np.random.default_rng(5)
    # Small integers times powers of two: every product and partial sum is exact in fp32, so
    # any summation order gives the float64 reference.
    a = (gen.integers(-4, 5, (16, 32)) * 2.0 ** gen.integers(-3, 3, (16, 32)))
    b = (gen.integers(-4, 5, (32, 16)) * 2.0 ** gen.integers(-3, 3, (32, 16)))
    a_bits, b_bits = encode(a, fa).reshape(16, 32), encode(b, fb).reshape(32, 16)
    assert np.array_equal(decode(a_bits, fa), a) and np.array_equal(decode(b_bits, fb), b)
    c = torch.zeros((16, 16), dtype=torch.float32, device=device)
    _dot_kernel[(1,)](torch.from_numpy(a_bits).to(device), torch.from_numpy(b_bits).to(device), c,
                      DA=FORMATS[fa][0], DB=FORMATS[fb][0])
    np.testing.assert_array_equal(c.cpu().numpy(), (a @ b).astype(np.float32))


@triton.jit
def _abs_and_zero_kernel(B, OUT, ZEROS, DT: tl.constexpr):
    offs = tl.arange(0, 256)
    x = tl.load(B + offs)
    tl.store(OUT + offs, tl.abs(x))
    # Triton's only fp8 constant is 0, +0 even when written -0.0 (its null value).
    tl.store(ZEROS + tl.arange(0, 16), tl.full((16,), -0.0, DT).to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("fmt", ["e5", "e4"])
def test_abs_clears_the_sign_bit_and_the_zero_constant_is_positive(fmt, device):
    # triton.reinterpret: the uint8 tensors are seen as fp8 by the kernel, as Triton's fp8
    # tests pass their data.
    dt = FORMATS[fmt][0]
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8).to(device)
    out = torch.zeros(256, dtype=torch.uint8, device=device)
    zeros = torch.full((16,), 0xAA, dtype=torch.uint8, device=device)
    _abs_and_zero_kernel[(1,)](triton.reinterpret(bits, dt), triton.reinterpret(out, dt), zeros,
                               DT=dt)
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(256) & 0x7F)
    np.testing.assert_array_equal(zeros.cpu().numpy(), np.zeros(16))
    assert triton.reinterpret(triton.reinterpret(bits, dt), torch.uint8) is bits


def test_reinterpret_takes_a_torch_dtype_too(device):
    # Triton's test_conversions reinterprets with torch dtypes; the wrapper's extent is its
    # base's memory, whatever the dtype it is seen as.
    bits = torch.arange(256, dtype=torch.int32).to(torch.uint8).to(device)
    out = torch.zeros(256, dtype=torch.uint8, device=device)
    zeros = torch.zeros(16, dtype=torch.uint8, device=device)
    seen = triton.reinterpret(bits, torch.float8_e5m2)
    assert seen.element_size() == 1 and seen.numel() == 256
    _abs_and_zero_kernel[(1,)](seen, triton.reinterpret(out, torch.float8_e5m2), zeros,
                               DT=tl.float8e5)
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(256) & 0x7F)
    # Triton's host methods keep the view's dtype over the base's own.
    for other in (seen.clone(), seen.cpu(), seen.to(device), seen.new_empty((4,))):
        assert type(other) is type(seen) and other.dtype is torch.float8_e5m2
    copy = seen.new_empty((256,))
    copy.copy_(seen)
    assert torch.equal(copy.base, bits) and torch.equal(seen.data, bits)


@triton.jit(debug=True)
def _checked_copy(B, OUT):
    offs = tl.arange(0, 16)
    tl.store(OUT + offs, tl.load(B + offs))


def test_a_reinterpreted_tensor_in_a_bounds_checked_kernel(device):
    # debug=True registers each argument's allocation: a TensorWrapper's is its base's.
    bits = torch.arange(16, dtype=torch.uint8, device=device)
    out = torch.zeros(16, dtype=torch.uint8, device=device)
    _checked_copy[(1,)](triton.reinterpret(bits, tl.float8e5), triton.reinterpret(out, tl.float8e5))
    assert torch.equal(out, bits)


@triton.jit
def _padding_kernel(B, OUT, N, DT: tl.constexpr):
    block = tl.make_block_ptr(B.to(tl.pointer_type(DT)), shape=(N,), strides=(1,), offsets=(0,),
                              block_shape=(16,), order=(0,))
    x = tl.load(block, boundary_check=(0,), padding_option="nan")
    tl.store(OUT + tl.arange(0, 16), x.to(tl.uint8, bitcast=True))


@pytest.mark.parametrize("fmt, nan", [("e5", 0x7E), ("e4", 0x7F)])
def test_nan_padding_of_fp8_block_loads(fmt, nan, device):
    bits = torch.full((16,), 0x38, dtype=torch.uint8, device=device)
    out = torch.zeros(16, dtype=torch.uint8, device=device)
    _padding_kernel[(1,)](bits, out, 10, DT=FORMATS[fmt][0])
    np.testing.assert_array_equal(out.cpu().numpy(), [0x38] * 10 + [nan] * 6)
