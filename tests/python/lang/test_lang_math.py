"""Math functions of triton.language, tl.math and triton.language.extra.libdevice.

References are numpy in float64 evaluated on the exact fp32/fp64 inputs.  Tolerances
(the results must satisfy both backends):

* tcpu computes fp32 math with SLEEF's u10 vector functions (<= 1 ulp, sqrt correctly rounded);
  Triton on NVIDIA uses approximate instructions for some fp32 functions: ex2.approx for
  exp/exp2 (exp is ex2(x * log2 e), so the rounding of the product adds ~|x| * 2**-24 relative),
  lg2.approx for log/log2 (absolute error ~2**-22 near 1), sqrt/rsqrt approximations,
  sin/cos possibly sin.approx/cos.approx (absolute error ~2**-20.9 on [-pi, pi]) and the
  approximate div.full.f32 (<= 2 ulp) for `/`.  Hence fp32: rtol 1e-5 with atol 1e-6 (2e-6
  for sin/cos); libdevice functions (<= 4 ulp in CUDA's documentation): rtol 1e-5, atol 1e-6.
* fp64: libdevice/SLEEF/glibc are all within 1-2 ulp: rtol 1e-13.
* exact (no tolerance): floor, ceil, abs, fma, div_rn, sqrt_rn, cdiv, umulhi, clamp, trunc,
  rint, round, fmod, copysign.
"""

import math

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from triton.language.extra import libdevice
from lang_support import NP, TORCH, dev

BLOCK = 128

def uniform(dtype, lo, hi, seed, n=BLOCK):
    return np.random.RandomState(seed).uniform(lo, hi, size=n).astype(NP[dtype])


def run_unary(fn, x, dtype, device, out_dtype=None):
    xd = dev(x, device)
    z = torch.empty(x.shape[0], dtype=TORCH[out_dtype or dtype], device=device)
    _unary_kernel[(1,)](xd, z, FN=fn, BLOCK=x.shape[0])
    return z.cpu().numpy()


def run_binary(fn, x, y, dtype, device):
    z = torch.empty(x.shape[0], dtype=TORCH[dtype], device=device)
    _binary_kernel[(1,)](dev(x, device), dev(y, device), z, FN=fn, BLOCK=x.shape[0])
    return z.cpu().numpy()


# --------------------------------------------------------------------------------------
# kernels: a constexpr name selects the function at compile time
# --------------------------------------------------------------------------------------


@triton.jit
def _math1(x, FN: tl.constexpr):
    # triton.language
    if FN == "exp":
        y = tl.exp(x)
    elif FN == "exp2":
        y = tl.exp2(x)
    elif FN == "log":
        y = tl.log(x)
    elif FN == "log2":
        y = tl.log2(x)
    elif FN == "sqrt":
        y = tl.sqrt(x)
    elif FN == "sqrt_rn":
        y = tl.sqrt_rn(x)
    elif FN == "rsqrt":
        y = tl.rsqrt(x)
    elif FN == "sin":
        y = tl.sin(x)
    elif FN == "cos":
        y = tl.cos(x)
    elif FN == "erf":
        y = tl.erf(x)
    elif FN == "floor":
        y = tl.floor(x)
    elif FN == "ceil":
        y = tl.ceil(x)
    elif FN == "abs":
        y = tl.abs(x)
    elif FN == "sigmoid":
        y = tl.sigmoid(x)
    # tl.math spellings
    elif FN == "math.exp":
        y = tl.math.exp(x)
    elif FN == "math.log2":
        y = tl.math.log2(x)
    elif FN == "math.sqrt":
        y = tl.math.sqrt(x)
    elif FN == "math.rsqrt":
        y = tl.math.rsqrt(x)
    elif FN == "math.exp2":
        y = tl.math.exp2(x)
    elif FN == "math.abs":
        y = tl.math.abs(x)
    # tensor member functions
    elif FN == "member.exp":
        y = x.exp()
    elif FN == "member.sqrt":
        y = x.sqrt()
    # libdevice
    elif FN == "asin":
        y = libdevice.asin(x)
    elif FN == "acos":
        y = libdevice.acos(x)
    elif FN == "atan":
        y = libdevice.atan(x)
    elif FN == "tan":
        y = libdevice.tan(x)
    elif FN == "sinh":
        y = libdevice.sinh(x)
    elif FN == "cosh":
        y = libdevice.cosh(x)
    elif FN == "tanh":
        y = libdevice.tanh(x)
    elif FN == "asinh":
        y = libdevice.asinh(x)
    elif FN == "acosh":
        y = libdevice.acosh(x)
    elif FN == "atanh":
        y = libdevice.atanh(x)
    elif FN == "log1p":
        y = libdevice.log1p(x)
    elif FN == "expm1":
        y = libdevice.expm1(x)
    elif FN == "log10":
        y = libdevice.log10(x)
    elif FN == "exp10":
        y = libdevice.exp10(x)
    elif FN == "erfc":
        y = libdevice.erfc(x)
    elif FN == "cbrt":
        y = libdevice.cbrt(x)
    elif FN == "trunc":
        y = libdevice.trunc(x)
    elif FN == "rint":
        y = libdevice.rint(x)
    elif FN == "round":
        y = libdevice.round(x)
    else:
        tl.static_assert(False, "unknown function")
    return y


@triton.jit
def _unary_kernel(X, Z, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = _math1(x, FN)
    tl.store(Z + offs, y)


@triton.jit
def _binary_kernel(X, Y, Z, FN: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    if FN == "fdiv":
        z = tl.fdiv(x, y)
    elif FN == "fdiv_ieee":
        z = tl.fdiv(x, y, ieee_rounding=True)
    elif FN == "div_rn":
        z = tl.div_rn(x, y)
    elif FN == "math.div_rn":
        z = tl.math.div_rn(x, y)
    elif FN == "pow":
        z = libdevice.pow(x, y)
    elif FN == "atan2":
        z = libdevice.atan2(x, y)
    elif FN == "hypot":
        z = libdevice.hypot(x, y)
    elif FN == "fmod":
        z = libdevice.fmod(x, y)
    elif FN == "copysign":
        z = libdevice.copysign(x, y)
    else:
        tl.static_assert(False, "unknown function")
    tl.store(Z + offs, z)


# --------------------------------------------------------------------------------------
# triton.language math on fp32 and fp64
# --------------------------------------------------------------------------------------


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# (name, numpy reference, input range, rtol, atol) for fp32; see the module docstring.
UNARY_FP32 = [
    ("exp", np.exp, (-10, 10), 1e-5, 0),
    ("exp2", np.exp2, (-20, 20), 1e-5, 0),
    ("log", np.log, (0.01, 100), 1e-5, 1e-6),
    ("log2", np.log2, (0.01, 100), 1e-5, 1e-6),
    ("sqrt", np.sqrt, (0, 100), 1e-6, 0),
    ("rsqrt", lambda v: 1 / np.sqrt(v), (0.01, 100), 1e-5, 0),
    ("sin", np.sin, (-4, 4), 1e-5, 2e-6),
    ("cos", np.cos, (-4, 4), 1e-5, 2e-6),
    ("erf", np.vectorize(math.erf), (-3, 3), 1e-5, 1e-6),
    ("floor", np.floor, (-10, 10), 0, 0),
    ("ceil", np.ceil, (-10, 10), 0, 0),
    ("abs", np.abs, (-10, 10), 0, 0),
    ("sigmoid", _sigmoid, (-10, 10), 1e-5, 1e-7),
    ("math.exp", np.exp, (-10, 10), 1e-5, 0),
    ("math.exp2", np.exp2, (-20, 20), 1e-5, 0),
    ("math.log2", np.log2, (0.01, 100), 1e-5, 1e-6),
    ("math.sqrt", np.sqrt, (0, 100), 1e-6, 0),
    ("math.rsqrt", lambda v: 1 / np.sqrt(v), (0.01, 100), 1e-5, 0),
    ("math.abs", np.abs, (-10, 10), 0, 0),
    ("member.exp", np.exp, (-10, 10), 1e-5, 0),
    ("member.sqrt", np.sqrt, (0, 100), 1e-6, 0),
]


@pytest.mark.parametrize("fn, ref, rng, rtol, atol", UNARY_FP32, ids=[c[0] for c in UNARY_FP32])
def test_unary_fp32(fn, ref, rng, rtol, atol, device):
    x = uniform("float32", rng[0], rng[1], seed=1)
    if fn in ("floor", "ceil", "abs", "math.abs"):
        x[:6] = [0.0, -0.0, 2.0, -2.0, 2.5, -2.5]  # exact integers and halves
    got = run_unary(fn, x, "float32", device)
    np.testing.assert_allclose(got, ref(x.astype(np.float64)), rtol=rtol, atol=atol)


UNARY_FP64 = [
    ("exp", np.exp, (-50, 50)),
    ("log", np.log, (1e-3, 1e3)),
    ("sqrt", np.sqrt, (0, 1e6)),
    ("sin", np.sin, (-10, 10)),
    ("cos", np.cos, (-10, 10)),
    ("erf", np.vectorize(math.erf), (-3, 3)),
    ("floor", np.floor, (-1e6, 1e6)),
]


@pytest.mark.parametrize("fn, ref, rng", UNARY_FP64, ids=[c[0] for c in UNARY_FP64])
def test_unary_fp64(fn, ref, rng, device):
    x = uniform("float64", rng[0], rng[1], seed=2)
    got = run_unary(fn, x, "float64", device)
    # fp64: every implementation is within 1-2 ulp of the correctly rounded result.
    np.testing.assert_allclose(got, ref(x), rtol=1e-13, atol=1e-300)


def test_special_values_fp32(device):
    x = np.array([100.0, -200.0, 0.0, -1.0, np.inf, -np.inf, np.nan, 1.0] * (BLOCK // 8), dtype=np.float32)
    # IEEE results at the special points (overflow, underflow, zero, negative, inf, NaN)
    e = run_unary("exp", x, "float32", device)[:8]
    assert e[0] == np.inf and e[1] == 0.0 and e[2] == 1.0 and e[4] == np.inf and e[5] == 0.0
    assert np.isnan(e[6])
    lg = run_unary("log", x, "float32", device)[:8]
    assert lg[2] == -np.inf and np.isnan(lg[3]) and lg[4] == np.inf and np.isnan(lg[6])
    sq = run_unary("sqrt", x, "float32", device)[:8]
    assert sq[2] == 0.0 and np.isnan(sq[3]) and sq[4] == np.inf and np.isnan(sq[6])
    rs = run_unary("rsqrt", x, "float32", device)[:8]
    assert rs[2] == np.inf and np.isnan(rs[3]) and rs[4] == 0.0


@pytest.mark.parametrize("dtype", ["int8", "int32", "float64"])
def test_abs_other_dtypes(dtype, device):
    rs = np.random.RandomState(3)
    if dtype == "float64":
        x = rs.uniform(-100, 100, size=BLOCK)
        x[:2] = [-0.0, -np.inf]
    else:
        info = np.iinfo(NP[dtype])
        x = rs.randint(int(info.min) + 1, int(info.max) + 1, size=BLOCK).astype(NP[dtype])
    got = run_unary("abs", x.astype(NP[dtype]), dtype, device)
    np.testing.assert_array_equal(got, np.abs(x))


@triton.jit
def _exp_fp16_kernel(X, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Z + offs, tl.exp(tl.load(X + offs)))


def test_exp_rejects_fp16(device):
    # tl.exp (like exp2/log/log2/sin/cos/sqrt/rsqrt/erf) only takes fp32 and fp64 blocks
    x = torch.zeros(BLOCK, dtype=torch.float16, device=device)
    with pytest.raises(Exception):
        _exp_fp16_kernel[(1,)](x, x, BLOCK=BLOCK)


# --------------------------------------------------------------------------------------
# correctly rounded and fused operations
# --------------------------------------------------------------------------------------


def test_sqrt_rn_and_div_rn_are_correctly_rounded(device):
    # sqrt_rn and div_rn take fp32 only (fp64 sqrt and / are already correctly rounded)
    dtype = "float32"
    rs = np.random.RandomState(4)
    x = rs.uniform(0.1, 1000, size=BLOCK).astype(NP[dtype])
    y = rs.uniform(0.1, 1000, size=BLOCK).astype(NP[dtype])
    # numpy's sqrt and / are IEEE correctly rounded: exact comparison
    np.testing.assert_array_equal(run_unary("sqrt_rn", x, dtype, device), np.sqrt(x))
    np.testing.assert_array_equal(run_binary("div_rn", x, y, dtype, device), x / y)
    np.testing.assert_array_equal(run_binary("math.div_rn", x, y, dtype, device), x / y)


@pytest.mark.parametrize("ieee", [False, True])
def test_fdiv(ieee, device):
    rs = np.random.RandomState(5)
    x = rs.uniform(-100, 100, size=BLOCK).astype(np.float32)
    y = rs.uniform(0.5, 100, size=BLOCK).astype(np.float32)
    got = run_binary("fdiv_ieee" if ieee else "fdiv", x, y, "float32", device)
    # fdiv may be approximate (div.full: <= 2 ulp).  Triton's semantic.fdiv ignores
    # ieee_rounding (both spellings emit the same fdiv), so both get the same tolerance.
    np.testing.assert_allclose(got, x / y, rtol=3e-7)


@triton.jit
def _fma_kernel(X, Y, W, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    w = tl.load(W + offs)
    tl.store(Z + offs, tl.fma(x, y, w))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fma_is_fused(dtype, device):
    # x * y is not representable; w = -round(x * y), so a fused multiply-add returns the exact
    # rounding error of the product (non-zero), while mul-then-add would return 0.
    rs = np.random.RandomState(6)
    frac_bits = 12 if dtype == "float32" else 27
    a = rs.randint(1, 2 ** frac_bits, size=BLOCK)
    b = rs.randint(1, 2 ** frac_bits, size=BLOCK)
    x = (1.0 + a * 2.0 ** -frac_bits).astype(NP[dtype])
    y = (1.0 + b * 2.0 ** -frac_bits).astype(NP[dtype])
    if dtype == "float32":
        exact = x.astype(np.float64) * y.astype(np.float64)  # exact in float64 (48 bits)
        w = -(x * y)  # fp32 product, correctly rounded
        ref = (exact + w.astype(np.float64)).astype(np.float32)  # exact residual, representable
    else:
        from fractions import Fraction
        w = -(x * y)
        ref = np.array([float(Fraction(float(p)) * Fraction(float(q)) + Fraction(float(r)))
                        for p, q, r in zip(x, y, w)])
    z = torch.empty(BLOCK, dtype=TORCH[dtype], device=device)
    _fma_kernel[(1,)](dev(x, device), dev(y, device), dev(w, device), z, BLOCK=BLOCK)
    got = z.cpu().numpy()
    np.testing.assert_array_equal(got, ref)
    assert np.count_nonzero(got) > BLOCK // 4   # most products are inexact (53 of 128 for fp32 on the H100 run)


# --------------------------------------------------------------------------------------
# integer helpers: cdiv, umulhi
# --------------------------------------------------------------------------------------


@triton.jit
def _cdiv_kernel(X, Z, Zc, d, DC: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Z + offs, tl.cdiv(x, d))       # run-time divisor
    tl.store(Zc + offs, tl.cdiv(x, DC))     # constexpr divisor


@pytest.mark.parametrize("d", [3, 16, 1000])
def test_cdiv(d, device):
    rs = np.random.RandomState(7)
    x = rs.randint(-5000, 5000, size=BLOCK).astype(np.int32)
    x[:4] = [0, d, d + 1, 2 * d - 1]
    z = torch.empty(BLOCK, dtype=torch.int32, device=device)
    zc = torch.empty(BLOCK, dtype=torch.int32, device=device)
    _cdiv_kernel[(1,)](dev(x, device), z, zc, d, DC=d, BLOCK=BLOCK)
    # tl.cdiv(x, d) is (x + d - 1) // d with C truncation: the ceiling for x >= 0 (and not
    # the mathematical ceiling for some negative x).
    xi = x.astype(np.int64) + d - 1
    ref = np.where(xi < 0, -((-xi) // d), xi // d).astype(np.int32)
    np.testing.assert_array_equal(z.cpu().numpy(), ref)
    np.testing.assert_array_equal(zc.cpu().numpy(), ref)
    nonneg = x >= 0
    np.testing.assert_array_equal(ref[nonneg], np.ceil(x[nonneg] / d).astype(np.int32))
    assert triton.cdiv(10, 3) == 4 and triton.cdiv(9, 3) == 3


@triton.jit
def _umulhi_kernel(X, Y, Z, AS_UNSIGNED: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    if AS_UNSIGNED:
        x = x.to(tl.uint32, bitcast=True)
        y = y.to(tl.uint32, bitcast=True)
    tl.store(Z + offs, tl.umulhi(x, y))


@pytest.mark.parametrize("as_unsigned", [False, True], ids=["int32", "uint32"])
def test_umulhi(as_unsigned, device):
    rs = np.random.RandomState(8)
    xu = rs.randint(0, 2 ** 32, size=BLOCK, dtype=np.uint64).astype(np.uint32)
    yu = rs.randint(0, 2 ** 32, size=BLOCK, dtype=np.uint64).astype(np.uint32)
    if not as_unsigned:
        # non-negative int32 operands (where signed and unsigned high halves agree)
        xu &= np.uint32(0x7FFFFFFF)
        yu &= np.uint32(0x7FFFFFFF)
    if as_unsigned:
        xu[:3] = [0xFFFFFFFF, 0x80000000, 0]
        yu[:3] = [0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF]
    z = torch.empty(BLOCK, dtype=torch.int32, device=device)
    _umulhi_kernel[(1,)](dev(xu.view(np.int32), device), dev(yu.view(np.int32), device), z,
                         AS_UNSIGNED=as_unsigned, BLOCK=BLOCK)
    ref = ((xu.astype(np.uint64) * yu.astype(np.uint64)) >> np.uint64(32)).astype(np.uint32)
    np.testing.assert_array_equal(z.cpu().numpy().view(np.uint32), ref)


# --------------------------------------------------------------------------------------
# clamp
# --------------------------------------------------------------------------------------


@triton.jit
def _clamp_kernel(X, LO, HI, Z, Zs, Zn, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    lo = tl.load(LO + offs)
    hi = tl.load(HI + offs)
    tl.store(Z + offs, tl.clamp(x, lo, hi))
    tl.store(Zs + offs, tl.clamp(x, -1.5, 2.0))
    tl.store(Zn + offs, tl.clamp(x, -1.5, 2.0, propagate_nan=tl.PropagateNan.ALL))


def test_clamp(device):
    rs = np.random.RandomState(9)
    x = rs.uniform(-5, 5, size=BLOCK).astype(np.float32)
    lo = rs.uniform(-3, 0, size=BLOCK).astype(np.float32)
    hi = rs.uniform(0, 3, size=BLOCK).astype(np.float32)
    xn = x.copy()
    xn[::7] = np.nan
    z, zs, zn = (torch.empty(BLOCK, dtype=torch.float32, device=device) for _ in range(3))
    _clamp_kernel[(1,)](dev(x, device), dev(lo, device), dev(hi, device), z, zs, zn,
                        BLOCK=BLOCK)
    np.testing.assert_array_equal(z.cpu().numpy(), np.minimum(np.maximum(x, lo), hi))
    np.testing.assert_array_equal(zs.cpu().numpy(), np.clip(x, -1.5, 2.0))
    # NaN inputs with PropagateNan.ALL come out as NaN
    zs2, zn2 = (torch.empty(BLOCK, dtype=torch.float32, device=device) for _ in range(2))
    _clamp_kernel[(1,)](dev(xn, device), dev(lo, device), dev(hi, device), z, zs2, zn2,
                        BLOCK=BLOCK)
    got = zn2.cpu().numpy()
    assert np.isnan(got[::7]).all()
    mask = ~np.isnan(xn)
    np.testing.assert_array_equal(got[mask], np.clip(xn[mask], -1.5, 2.0))


# --------------------------------------------------------------------------------------
# libdevice
# --------------------------------------------------------------------------------------


def _round_half_away(v):
    return np.where(v >= 0, np.floor(v + 0.5), -np.floor(-v + 0.5))


# (name, numpy reference, input range, exact?)
LIBDEVICE_UNARY = [
    ("asin", np.arcsin, (-0.99, 0.99), False),
    ("acos", np.arccos, (-0.99, 0.99), False),
    ("atan", np.arctan, (-20, 20), False),
    ("tan", np.tan, (-1.4, 1.4), False),
    ("sinh", np.sinh, (-5, 5), False),
    ("cosh", np.cosh, (-5, 5), False),
    ("tanh", np.tanh, (-5, 5), False),
    ("asinh", np.arcsinh, (-20, 20), False),
    ("acosh", np.arccosh, (1.01, 20), False),
    ("atanh", np.arctanh, (-0.95, 0.95), False),
    ("log1p", np.log1p, (-0.5, 10), False),
    ("expm1", np.expm1, (-3, 3), False),
    ("log10", np.log10, (0.01, 1000), False),
    ("exp10", lambda v: np.power(10.0, v), (-5, 5), False),
    ("erfc", np.vectorize(math.erfc), (-2, 3), False),
    ("cbrt", np.cbrt, (-100, 100), False),
    ("trunc", np.trunc, (-10, 10), True),
    ("rint", np.rint, (-10, 10), True),      # ties to even
    ("round", _round_half_away, (-10, 10), True),  # ties away from zero
]


@pytest.mark.parametrize("fn, ref, rng, exact", LIBDEVICE_UNARY, ids=[c[0] for c in LIBDEVICE_UNARY])
def test_libdevice_unary_fp32(fn, ref, rng, exact, device):
    x = uniform("float32", rng[0], rng[1], seed=10)
    if exact:
        x[:6] = [2.5, -2.5, 3.5, -0.5, 0.49999997, -7.0]
    got = run_unary(fn, x, "float32", device)
    if exact:
        np.testing.assert_array_equal(got, ref(x.astype(np.float64)).astype(np.float32))
    else:
        np.testing.assert_allclose(got, ref(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", ["asin", "tanh", "log1p", "expm1", "cbrt", "atan"])
def test_libdevice_unary_fp64(fn, device):
    _, ref, rng, _ = next(c for c in LIBDEVICE_UNARY if c[0] == fn)
    x = uniform("float64", rng[0], rng[1], seed=11)
    np.testing.assert_allclose(run_unary(fn, x, "float64", device), ref(x), rtol=1e-13, atol=1e-300)


LIBDEVICE_BINARY = [
    # (name, numpy reference, x range, y range, exact?)
    ("pow", np.power, (0.1, 10), (-3, 3), False),
    ("atan2", np.arctan2, (-10, 10), (-10, 10), False),
    ("hypot", np.hypot, (-100, 100), (-100, 100), False),
    ("fmod", np.fmod, (-100, 100), (1, 7), True),
    ("copysign", np.copysign, (-100, 100), (-1, 1), True),
]


@pytest.mark.parametrize("fn, ref, xr, yr, exact", LIBDEVICE_BINARY, ids=[c[0] for c in LIBDEVICE_BINARY])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_libdevice_binary(fn, ref, xr, yr, exact, dtype, device):
    x = uniform(dtype, xr[0], xr[1], seed=12)
    y = uniform(dtype, yr[0], yr[1], seed=13)
    got = run_binary(fn, x, y, dtype, device)
    expected = ref(x.astype(np.float64), y.astype(np.float64))
    if exact:
        np.testing.assert_array_equal(got, expected.astype(NP[dtype]))
    elif dtype == "float32":
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-300)


@triton.jit
def _bessel_kernel(X, OUT, FN: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(OUT + offs, getattr(libdevice, FN)(tl.load(X + offs)))


BESSEL = [("j0", torch.special.bessel_j0), ("j1", torch.special.bessel_j1),
          ("y0", torch.special.bessel_y0), ("y1", torch.special.bessel_y1),
          ("cyl_bessel_i0", torch.special.i0), ("cyl_bessel_i1", torch.special.i1)]


# At +-Inf, CUDA's documented values (torch.special gives NaN there): J and Y tend to +-0, I0 to
# +Inf and I1 to +-Inf.
BESSEL_AT_INF = {"j0": (0.0, 0.0), "j1": (0.0, 0.0), "y0": (0.0, math.nan), "y1": (0.0, math.nan),
                 "cyl_bessel_i0": (math.inf, math.inf), "cyl_bessel_i1": (math.inf, -math.inf)}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("fn, reference", BESSEL)
def test_libdevice_bessel_functions(fn, reference, dtype, device):
    # Negative, small, large (I0 and I1 past 700 where they overflow), zero and NaN against
    # torch.special in float64 (Cephes, whose J1(-7.5) is off by 8e-8 relative where SciPy and
    # libm agree to 1 ulp: hence fp64's tolerance), and CUDA's values at +-Inf.
    values = [-30.0, -7.5, -2.0, -0.5, -1e-3, 0.0, 1e-3, 0.5, 1.0, 2.4048, 3.8317, 9.0, 25.0,
              60.0, 120.0, 700.0, 720.0, float("nan"), float("inf"), float("-inf")]
    values += [1.0] * (32 - len(values))
    x = torch.tensor(values, dtype=dtype, device=device)
    out = torch.empty_like(x)
    _bessel_kernel[(1,)](x, out, FN=fn, N=32)
    expected = reference(x.double()).to(dtype)
    rtol, atol = (1e-5, 1e-6) if dtype == torch.float32 else (2e-7, 2e-8)
    torch.testing.assert_close(out[:18], expected[:18], rtol=rtol, atol=atol, equal_nan=True)
    at_inf = BESSEL_AT_INF[fn]
    assert out[18].item() == at_inf[0]
    got = out[19].item()
    assert (math.isnan(got) and math.isnan(at_inf[1])) or got == at_inf[1]
