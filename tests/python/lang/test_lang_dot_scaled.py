"""tl.dot_scaled: microscaled operands (e2m1 two per byte, e4m3, e5m2; bf16 and fp16 as they
are) with e8m0 scales (uint8, one per 32 elements along K; the rhs's given [N, K // 32]), as
Triton lowers it on GPUs without MX instructions: each operand widened to bf16 (fp16 where
either is fp16), times 2^(s - 127) in that type (s = 0 gives 0: the scale is made by shifting s
into the exponent field), NaN where s = 0xff unless fast_math, then a dot accumulating in fp32.
Batched (rank-3) operands without scales are multiplied per batch; with scales they are refused
(Triton 3.6 types only 2-D scales).

The references are NumPy: the formats decoded from their fields, the scales as powers of two,
a float64 product. Values and scales are chosen so that every scaled element is exact in the
compute type; the fp32 sums may round, so results agree within fp32's summation error (a
wrong scale or element is off by far more)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl

from conftest import REAL_TRITON

E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6])


def decode_fp8(bits: np.ndarray, fmt: str) -> np.ndarray:
    """e4m3 / e5m2 bit patterns (finite ones) as float64."""
    man_bits, bias = (3, 7) if fmt == "e4m3" else (2, 15)
    bits = bits.astype(np.int64)
    exp, man = (bits >> man_bits) & ((1 << (7 - man_bits)) - 1), bits & ((1 << man_bits) - 1)
    mag = np.where(exp == 0, man * 2.0**(1 - bias - man_bits),
                   (1 + man / 2.0**man_bits) * 2.0**(exp - bias))
    return np.where(bits & 0x80, -mag, mag)


def scales(s: np.ndarray) -> np.ndarray:
    return np.where(s == 0, 0.0, 2.0**(s.astype(np.float64) - 127))


def operand(fmt: str, shape: tuple[int, int], k_axis: int, k_pack: bool, gen):
    """(what the kernel loads, its values as float64 [shape]) for a format."""
    if fmt == "e2m1":
        nibbles = gen.integers(0, 16, shape).astype(np.uint8)
        axis = k_axis if k_pack else 1 - k_axis
        lo = nibbles.take(range(0, shape[axis], 2), axis=axis)
        hi = nibbles.take(range(1, shape[axis], 2), axis=axis)
        return lo | (hi << 4), E2M1[nibbles]
    if fmt in ("e4m3", "e5m2"):
        limit = 0x78 if fmt == "e4m3" else 0x7C  # finite patterns (and below e4m3's 256)
        bits = (gen.integers(0, limit, shape) | (gen.integers(0, 2, shape) << 7)).astype(np.uint8)
        return bits, decode_fp8(bits, fmt)
    # bf16 / fp16: small integers over 4, exact in both
    values = gen.integers(-32, 33, shape) / 4.0
    return values.astype(np.float32), values


def assert_dot_close(got: np.ndarray, a: np.ndarray, b: np.ndarray, acc=0.0) -> None:
    """got == a @ b + acc within fp32 rounding of the terms' magnitudes (NaN and inf equal)."""
    expected = a @ b + acc
    bound = 1e-5 * (np.abs(a) @ np.abs(b) + np.abs(acc)) + 1e-30
    close = (np.abs(got - expected) <= bound) | (got == expected)
    assert close.all(), list(zip(got[~close][:5], expected[~close][:5]))


def to_device(data: np.ndarray, fmt: str, device: str) -> torch.Tensor:
    t = torch.from_numpy(np.ascontiguousarray(data))
    if fmt == "bf16":
        t = t.to(torch.bfloat16)
    elif fmt == "fp16":
        t = t.to(torch.float16)
    return t.to(device)


@triton.jit
def _dot_scaled_kernel(A, A_SCALE, B, B_SCALE, ACC, OUT, FMT_A: tl.constexpr, FMT_B: tl.constexpr,
                       AR: tl.constexpr, AC: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr,
                       M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                       A_K_PACK: tl.constexpr, B_K_PACK: tl.constexpr, FAST: tl.constexpr):
    a = tl.load(A + tl.arange(0, AR)[:, None] * AC + tl.arange(0, AC)[None, :])
    b = tl.load(B + tl.arange(0, BR)[:, None] * BC + tl.arange(0, BC)[None, :])
    if A_SCALE is not None:
        A_SCALE = tl.load(A_SCALE + tl.arange(0, M)[:, None] * (K // 32)
                          + tl.arange(0, K // 32)[None, :])
    if B_SCALE is not None:
        B_SCALE = tl.load(B_SCALE + tl.arange(0, N)[:, None] * (K // 32)
                          + tl.arange(0, K // 32)[None, :])
    acc = tl.load(ACC + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    c = tl.dot_scaled(a, A_SCALE, FMT_A, b, B_SCALE, FMT_B, acc, fast_math=FAST,
                      lhs_k_pack=A_K_PACK, rhs_k_pack=B_K_PACK)
    tl.store(OUT + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


CASES = [  # fmt_a, fmt_b, scale a, scale b, a k-packed, b k-packed
    ("e2m1", "bf16", True, False, True, True),
    ("bf16", "e2m1", False, True, True, True),
    ("e4m3", "e5m2", True, True, True, True),
    ("e2m1", "fp16", True, False, True, True),
    ("e5m2", "e2m1", True, True, True, True),
    ("e2m1", "e2m1", True, True, False, False),
]


@pytest.mark.parametrize("fmt_a, fmt_b, scale_a, scale_b, a_k_pack, b_k_pack", CASES)
def test_dot_scaled_matches_the_decomposition(fmt_a, fmt_b, scale_a, scale_b, a_k_pack, b_k_pack,
                                              device):
    if REAL_TRITON and not (a_k_pack and b_k_pack):
        pytest.skip("GPUs without MX instructions decompose only operands packed along K")
    M, N, K = 16, 32, 64
    gen = np.random.default_rng(hash((fmt_a, fmt_b, a_k_pack)) % 2**32)
    a_data, a = operand(fmt_a, (M, K), 1, a_k_pack, gen)
    b_data, b = operand(fmt_b, (K, N), 0, b_k_pack, gen)
    fp16 = "fp16" in (fmt_a, fmt_b)
    lo, hi = (124, 131) if fp16 else (100, 150)
    sa = gen.integers(lo, hi, (M, K // 32)).astype(np.uint8)
    sb = gen.integers(lo, hi, (N, K // 32)).astype(np.uint8)
    if not fp16:
        sa[0, 0] = 0  # a zero scale (the bits shifted into bf16's exponent: 0)
    expected_a = a * np.repeat(scales(sa), 32, axis=1) if scale_a else a
    expected_b = b * np.repeat(scales(sb), 32, axis=1).T if scale_b else b
    acc = gen.integers(-8, 8, (M, N)).astype(np.float32)
    out = torch.empty((M, N), dtype=torch.float32, device=device)
    _dot_scaled_kernel[(1,)](
        to_device(a_data, fmt_a, device), torch.from_numpy(sa).to(device) if scale_a else None,
        to_device(b_data, fmt_b, device), torch.from_numpy(sb).to(device) if scale_b else None,
        torch.from_numpy(acc).to(device), out, FMT_A=fmt_a, FMT_B=fmt_b,
        AR=a_data.shape[0], AC=a_data.shape[1], BR=b_data.shape[0], BC=b_data.shape[1],
        M=M, N=N, K=K, A_K_PACK=a_k_pack, B_K_PACK=b_k_pack, FAST=False)
    assert_dot_close(out.cpu().numpy(), expected_a, expected_b, acc)


@pytest.mark.parametrize("fast_math", [False, True])
def test_nan_scale_gives_nan_unless_fast_math(fast_math, device):
    M, N, K = 16, 16, 64
    gen = np.random.default_rng(11)
    a_data, a = operand("e4m3", (M, K), 1, True, gen)
    a_data[3, :32] = 0x38  # 1.0 where the NaN scale applies: fast math gives inf there
    b = np.ones((K, N))
    sa = np.full((M, K // 32), 127, dtype=np.uint8)
    sa[3, 0] = 0xFF
    out = torch.empty((M, N), dtype=torch.float32, device=device)
    _dot_scaled_kernel[(1,)](
        to_device(a_data, "e4m3", device), torch.from_numpy(sa).to(device),
        to_device(np.ones((K, N), np.float32), "bf16", device), None,
        torch.zeros((M, N), device=device), out, FMT_A="e4m3", FMT_B="bf16",
        AR=M, AC=K, BR=K, BC=N, M=M, N=N, K=K, A_K_PACK=True, B_K_PACK=True, FAST=fast_math)
    got = out.cpu().numpy()
    assert (np.isinf(got[3]) if fast_math else np.isnan(got[3])).all()
    rows = [r for r in range(M) if r != 3]
    assert_dot_close(got[rows], a[rows], b)


@triton.jit
def _batched_kernel(A, B, OUT, BATCH: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                    K: tl.constexpr):
    bi = tl.arange(0, BATCH)[:, None, None]
    a = tl.load(A + bi * (M * K) + tl.arange(0, M)[None, :, None] * K
                + tl.arange(0, K)[None, None, :])
    b = tl.load(B + bi * (K // 2 * N) + tl.arange(0, K // 2)[None, :, None] * N
                + tl.arange(0, N)[None, None, :])
    c = tl.dot_scaled(a, None, "bf16", b, None, "e2m1")
    tl.store(OUT + bi * (M * N) + tl.arange(0, M)[None, :, None] * N
             + tl.arange(0, N)[None, None, :], c)


def test_batched_operands_unpack_per_batch(device):
    B, M, N, K = 2, 16, 16, 64
    gen = np.random.default_rng(13)
    a_data = np.stack([operand("bf16", (M, K), 1, True, gen)[0] for _ in range(B)])
    packs = [operand("e2m1", (K, N), 0, True, gen) for _ in range(B)]
    b_data, b = np.stack([p[0] for p in packs]), np.stack([p[1] for p in packs])
    out = torch.empty((B, M, N), dtype=torch.float32, device=device)
    _batched_kernel[(1,)](to_device(a_data, "bf16", device), torch.from_numpy(b_data).to(device),
                          out, BATCH=B, M=M, N=N, K=K)
    for i in range(B):
        assert_dot_close(out.cpu().numpy()[i], a_data[i].astype(np.float64), b[i])


@triton.jit
def _refused_kernel(A, B, OUT, CASE: tl.constexpr):
    a = tl.load(A + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :])
    b = tl.load(B + tl.arange(0, 64)[:, None] * 16 + tl.arange(0, 16)[None, :])
    if CASE == 0:  # only e2m1 may be packed along M or N
        c = tl.dot_scaled(a, None, "e4m3", b, None, "e4m3", lhs_k_pack=False)
    elif CASE == 1:  # a scale of the wrong shape
        c = tl.dot_scaled(a, tl.full((16, 4), 127, tl.uint8), "e4m3", b, None, "e4m3")
    elif CASE == 2:  # a format Triton does not know
        c = tl.dot_scaled(a, None, "e3m4", b, None, "e4m3")
    else:  # batched operands with scales (Triton 3.6 types 2-D scales only)
        a3 = tl.reshape(a, (2, 8, 64))
        b3 = tl.reshape(tl.join(b, b).permute(2, 0, 1), (2, 64, 16))
        c = tl.reshape(tl.dot_scaled(a3, tl.full((2, 8, 2), 127, tl.uint8), "e4m3", b3, None,
                                     "e4m3"), (16, 16))
    tl.store(OUT + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], c)


@pytest.mark.skipif(REAL_TRITON, reason="Triton raises AssertionError/ValueError inside; tcpu's "
                    "compile errors name the cause")
@pytest.mark.parametrize("case", [0, 1, 2, 3])
def test_what_triton_refuses_is_refused(case, device):
    a = torch.zeros((16, 64), dtype=torch.uint8, device=device)
    b = torch.zeros((64, 16), dtype=torch.uint8, device=device)
    out = torch.empty((16, 16), dtype=torch.float32, device=device)
    with pytest.raises(triton.CompilationError,
                       match=["packed along a dimension", "lhs_scale must be a tensor of shape",
                              "Invalid float format", "rank-3 operands with a lhs_scale"][case]):
        _refused_kernel[(1,)](a, b, out, CASE=case)
