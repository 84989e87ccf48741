"""Reductions and scans of triton.language: sum, max, min, argmax, argmin, xor_sum over
axis None/0/1 with keep_dims, reduce with a @triton.jit combine function (tuples too), cumsum,
cumprod, associative_scan (reverse too), sort, histogram.

Dtype rules (python/triton/language/standard.py):
* ``sum`` of a signed int narrower than 32 bits is int32, of an unsigned one uint32; fp16 stays fp16;
* ``max``/``min`` compute ints narrower than 32 bits in int32 (uint8 too) and fp16/bf16 in fp32;
* ``argmax``/``argmin`` return int32 indices and break ties toward the lowest index;
* ``xor_sum`` keeps the input's dtype.

The order in which a reduction or scan combines elements is implementation-defined, so the
float data here are small integers (exact in any order) except where a tolerance is stated.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import NP, TORCH, dev, host, int_valued, offsets2

# --------------------------------------------------------------------------------------
# built-in reductions
# --------------------------------------------------------------------------------------


@triton.jit
def _reduce_kernel(X, Z, OP: tl.constexpr, AXIS: tl.constexpr, KEEP: tl.constexpr, ZT: tl.constexpr,
                   M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N))
    if OP == "sum":
        r = tl.sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max":
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "min":
        r = tl.min(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmax":
        r = tl.argmax(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmin":
        r = tl.argmin(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "xor_sum":
        r = tl.xor_sum(x, axis=AXIS, keep_dims=KEEP)
    else:
        tl.static_assert(False, "unknown reduction")
    tl.static_assert(ZT == r.dtype, "unexpected result dtype")
    if AXIS is None:
        if KEEP:
            tl.static_assert(len(r.shape) == 2 and r.shape[0] == 1 and r.shape[1] == 1)
            tl.store(Z + offsets2(1, 1), r)
        else:
            tl.static_assert(len(r.shape) == 0)
            tl.store(Z, r)
    elif AXIS == 0:
        if KEEP:
            tl.static_assert(r.shape[0] == 1 and r.shape[1] == N)
            tl.store(Z + offsets2(1, N), r)
        else:
            tl.store(Z + tl.arange(0, N), r)
    else:
        if KEEP:
            tl.static_assert(r.shape[0] == M and r.shape[1] == 1)
            tl.store(Z + offsets2(M, 1), r)
        else:
            tl.store(Z + tl.arange(0, M), r)


_NP_REDUCE = {
    "sum": lambda x, axis: np.sum(x, axis=axis),
    "max": lambda x, axis: np.max(x, axis=axis),
    "min": lambda x, axis: np.min(x, axis=axis),
    "argmax": lambda x, axis: np.argmax(x, axis=axis),   # first occurrence on ties
    "argmin": lambda x, axis: np.argmin(x, axis=axis),
    "xor_sum": lambda x, axis: np.bitwise_xor.reduce(x, axis=axis) if axis is not None
    else np.bitwise_xor.reduce(x.ravel()),
}


def run_reduce(op, x, xt, zt, axis, keep, device):
    m, n = x.shape
    out_len = 1 if axis is None else (n if axis == 0 else m)
    z = torch.empty(out_len, dtype=TORCH[zt], device=device)
    _reduce_kernel[(1,)](dev(x, device, xt), z, OP=op, AXIS=axis, KEEP=keep, ZT=getattr(tl, zt), M=m, N=n)
    return host(z)


FLOAT_CASES = [(op, axis, keep) for op in ["sum", "max", "min"]
               for axis, keep in [(None, False), (0, False), (1, False), (1, True), (None, True), (0, True)]]
FLOAT_CASES += [(op, axis, keep) for op in ["argmax", "argmin"] for axis, keep in [(0, False), (1, False),
                                                                                    (1, True)]]


@pytest.mark.parametrize("op, axis, keep", FLOAT_CASES)
def test_reduce_fp32(op, axis, keep, device):
    x = int_valued("float32", (16, 32), seed=1, lo=-20, hi=20)  # many ties for argmax/argmin
    zt = "int32" if op.startswith("arg") else "float32"
    got = run_reduce(op, x, "float32", zt, axis, keep, device)
    ref = np.asarray(_NP_REDUCE[op](x, axis)).astype(NP[zt]).ravel()
    np.testing.assert_array_equal(got, ref)


INT_CASES = [
    # (input dtype, op, result dtype)
    ("int8", "sum", "int32"),
    ("int8", "max", "int32"),
    ("int8", "xor_sum", "int8"),
    ("uint8", "sum", "uint32"),
    ("uint8", "min", "int32"),
    ("int16", "sum", "int32"),
    ("int32", "sum", "int32"),
    ("int32", "min", "int32"),
    ("int32", "xor_sum", "int32"),
    ("int32", "argmax", "int32"),
    ("int64", "sum", "int64"),
    ("int64", "max", "int64"),
    ("float16", "sum", "float16"),
    ("float16", "max", "float32"),
    ("bfloat16", "min", "float32"),
    ("float64", "sum", "float64"),
]


@pytest.mark.parametrize("xt, op, zt", INT_CASES)
def test_reduce_dtype_rules(xt, op, zt, device):
    m, n = 8, 64
    if xt == "uint8":
        x = int_valued(xt, (m, n), seed=2, lo=0, hi=256)
    elif xt in ("int8", "int16"):
        x = int_valued(xt, (m, n), seed=2, lo=-128, hi=128)   # int8 sums overflow int8, not int32
    elif xt == "int64":
        x = int_valued(xt, (m, n), seed=2, lo=-2 ** 40, hi=2 ** 40)
    else:
        x = int_valued(xt, (m, n), seed=2, lo=-30, hi=30)
    storage = "int32" if zt == "uint32" else zt  # torch 1.13 has no uint32: read it through int32
    z = torch.empty(m, dtype=TORCH[storage], device=device)
    _reduce_kernel[(1,)](dev(x, device, xt), z, OP=op, AXIS=1, KEEP=False, ZT=getattr(tl, zt), M=m, N=n)
    got = host(z)
    if zt == "uint32":
        got = got.view(np.uint32)
    wide = np.float64 if xt in ("float16", "bfloat16", "float64") else np.int64
    ref = np.asarray(_NP_REDUCE[op](x if op == "xor_sum" else x.astype(wide), 1))
    np.testing.assert_array_equal(got.astype(np.float64), ref.astype(np.float64))


@pytest.mark.parametrize("m, n", [(1, 128), (128, 1), (4, 4), (2, 256)])
def test_reduce_shapes(m, n, device):
    x = int_valued("int32", (m, n), seed=3)
    for axis in (0, 1):
        got = run_reduce("sum", x, "int32", "int32", axis, False, device)
        np.testing.assert_array_equal(got, x.sum(axis=axis))


def test_reduce_random_floats_tolerance(device):
    x = np.random.RandomState(4).uniform(-1, 1, size=(32, 64)).astype(np.float32)
    got = run_reduce("sum", x, "float32", "float32", 1, False, device)
    # implementation-defined summation order: |error| <= n * eps * sum|x|
    bound = 64 * 2 ** -24 * np.abs(x).sum(axis=1)
    assert (np.abs(got - x.astype(np.float64).sum(axis=1)) <= bound).all()


@triton.jit
def _reduce_forms_kernel(X, Z, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N))
    a = x.sum(axis=0)                            # tensor-method forms
    b = x.max(1)
    c = tl.sum(tl.sum(x, 1), 0)                  # nested: a scalar
    v, i = tl.max(x, axis=1, return_indices=True)
    s = tl.sum(x.to(tl.float16), axis=1, dtype=tl.float32)   # explicit accumulation dtype
    tl.static_assert(s.dtype == tl.float32)
    tl.store(Z + tl.arange(0, N), a)
    tl.store(Z + N + tl.arange(0, M), b)
    tl.store(Z + N + M, c)
    tl.store(Z + N + M + 1 + tl.arange(0, M), v * 1000 + i)
    tl.store(Z + N + 2 * M + 1 + tl.arange(0, M), s.to(tl.int32))


def test_reduce_method_forms_and_return_indices(device):
    m, n = 8, 16
    x = int_valued("int32", (m, n), seed=5, lo=-10, hi=10)
    z = torch.zeros(n + 3 * m + 1, dtype=torch.int32, device=device)
    _reduce_forms_kernel[(1,)](dev(x, device), z, M=m, N=n)
    got = host(z)
    np.testing.assert_array_equal(got[:n], x.sum(0))
    np.testing.assert_array_equal(got[n:n + m], x.max(1))
    assert got[n + m] == x.sum()
    np.testing.assert_array_equal(got[n + m + 1:n + 2 * m + 1], x.max(1) * 1000 + x.argmax(1))
    np.testing.assert_array_equal(got[n + 2 * m + 1:], x.sum(1))


@triton.jit
def _reduce3d_kernel(X, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    i = tl.arange(0, A)[:, None, None]
    j = tl.arange(0, B)[None, :, None]
    k = tl.arange(0, C)[None, None, :]
    x = tl.load(X + i * B * C + j * C + k)
    r = tl.max(x, axis=1)                               # (A, C)
    tl.store(Z + tl.arange(0, A)[:, None] * C + tl.arange(0, C)[None, :], r)


def test_reduce_3d_middle_axis(device):
    x = int_valued("float32", (4, 8, 16), seed=6)
    z = torch.empty((4, 16), dtype=torch.float32, device=device)
    _reduce3d_kernel[(1,)](dev(x, device), z, A=4, B=8, C=16)
    np.testing.assert_array_equal(host(z), x.max(axis=1))


# --------------------------------------------------------------------------------------
# tl.reduce with user combine functions
# --------------------------------------------------------------------------------------


@triton.jit
def _mul_combine(a, b):
    return a * b


@triton.jit
def _absmax_combine(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def _argmin_abs_combine(v1, i1, v2, i2):
    # keep the value of smallest magnitude, the lowest index on ties
    a1 = tl.abs(v1)
    a2 = tl.abs(v2)
    take1 = (a1 < a2) | ((a1 == a2) & (i1 < i2))
    return tl.where(take1, v1, v2), tl.where(take1, i1, i2)


@triton.jit
def _custom_reduce_kernel(X, P, AM, V, I, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N))
    tl.store(P + tl.arange(0, M), tl.reduce(x, 1, _mul_combine))
    tl.store(AM + tl.arange(0, N), tl.reduce(x, axis=0, combine_fn=_absmax_combine))
    idx = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
    v, i = tl.reduce((x, idx), 1, _argmin_abs_combine)
    tl.store(V + tl.arange(0, M), v)
    tl.store(I + tl.arange(0, M), i)


def test_reduce_with_jit_combine_fn(device):
    m, n = 8, 16
    x = int_valued("int32", (m, n), seed=7, lo=-9, hi=10)
    p, am = torch.empty(m, dtype=torch.int32, device=device), torch.empty(n, dtype=torch.int32, device=device)
    v, i = torch.empty(m, dtype=torch.int32, device=device), torch.empty(m, dtype=torch.int32, device=device)
    _custom_reduce_kernel[(1,)](dev(x, device), p, am, v, i, M=m, N=n)
    np.testing.assert_array_equal(host(p), np.prod(x.astype(np.int64), axis=1).astype(np.int32))  # wraps
    np.testing.assert_array_equal(host(am), np.abs(x).max(axis=0))
    i_ref = np.argmin(np.abs(x), axis=1)
    np.testing.assert_array_equal(host(i), i_ref)
    np.testing.assert_array_equal(host(v), x[np.arange(m), i_ref])


# --------------------------------------------------------------------------------------
# scans
# --------------------------------------------------------------------------------------


@triton.jit
def _scan_kernel(X, Z, OP: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr, M: tl.constexpr,
                 N: tl.constexpr):
    offs = offsets2(M, N)
    x = tl.load(X + offs)
    if OP == "cumsum":
        y = tl.cumsum(x, axis=AXIS, reverse=REVERSE)
    elif OP == "cumprod":
        y = tl.cumprod(x, axis=AXIS, reverse=REVERSE)
    else:
        y = tl.associative_scan(x, AXIS, _max_combine, reverse=REVERSE)
    tl.store(Z + offs, y)


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


def _np_scan(op, x, axis, reverse):
    if reverse:
        x = np.flip(x, axis=axis)
    if op == "cumsum":
        y = np.cumsum(x, axis=axis, dtype=x.dtype)
    elif op == "cumprod":
        y = np.cumprod(x, axis=axis, dtype=x.dtype)
    else:
        y = np.maximum.accumulate(x, axis=axis)
    return np.flip(y, axis=axis) if reverse else y


SCAN_CASES = [(op, dtype, axis, rev) for op in ["cumsum", "running_max"] for dtype in ["int32", "float32"]
              for axis in [0, 1] for rev in [False, True]]
SCAN_CASES += [("cumprod", dtype, 1, rev) for dtype in ["int32", "float32"] for rev in [False, True]]


@pytest.mark.parametrize("op, dtype, axis, reverse", SCAN_CASES)
def test_scan(op, dtype, axis, reverse, device):
    m, n = 8, 32
    if op == "cumprod":
        # int32 products wrap (exact in any order); fp32 factors of +-1 and +-2 stay exact
        x = int_valued(dtype, (m, n), seed=8, lo=-3, hi=4) if dtype == "int32" else \
            np.random.RandomState(8).choice([-2.0, -1.0, 1.0, 2.0], size=(m, n)).astype(np.float32)
        if dtype == "float32":
            x[:, 16:] = np.sign(x[:, 16:])  # keep magnitudes <= 2**16
    else:
        x = int_valued(dtype, (m, n), seed=8)
    z = torch.empty((m, n), dtype=TORCH[dtype], device=device)
    _scan_kernel[(1,)](dev(x, device), z, OP=op, AXIS=axis, REVERSE=reverse, M=m, N=n)
    with np.errstate(over="ignore"):
        ref = _np_scan(op, x, axis, reverse)
    np.testing.assert_array_equal(host(z), ref)


@triton.jit
def _cumsum1d_kernel(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.cumsum(tl.load(X + offs), 0))


@pytest.mark.parametrize("n", [1, 2, 128, 1024])
def test_cumsum_1d_sizes(n, device):
    x = int_valued("int64", (n,), seed=9, lo=-10 ** 9, hi=10 ** 9)
    z = torch.empty(n, dtype=torch.int64, device=device)
    _cumsum1d_kernel[(1,)](dev(x, device), z, N=n)
    np.testing.assert_array_equal(host(z), np.cumsum(x))


@triton.jit
def _cumsum_int8_kernel(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.cumsum(tl.load(X + offs), axis=0)
    tl.static_assert(y.dtype == tl.int32)           # int8 is accumulated in int32, like sum
    tl.store(Z + offs, y)


def test_cumsum_int8_promotes(device):
    x = np.full(64, 100, dtype=np.int8)
    z = torch.empty(64, dtype=torch.int32, device=device)
    _cumsum_int8_kernel[(1,)](dev(x, device), z, N=64)
    np.testing.assert_array_equal(host(z), np.arange(1, 65) * 100)


@triton.jit
def _bool_sum_in_int1_kernel(X, SUMS, SCANS, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N)) != 0
    total = tl.sum(x, dtype=tl.int1)
    rows = tl.sum(x, axis=1, dtype=tl.int1)
    running = tl.cumsum(x, axis=1, dtype=tl.int1)
    tl.static_assert(total.dtype == tl.int1)
    tl.static_assert(rows.dtype == tl.int1)
    tl.static_assert(running.dtype == tl.int1)
    tl.store(SUMS, total.to(tl.int32))
    tl.store(SUMS + 1 + tl.arange(0, M), rows.to(tl.int32))
    tl.store(SCANS + offsets2(M, N), running.to(tl.int32))


def test_sum_and_cumsum_in_int1_wrap(device):
    """tl.sum(x, dtype=tl.int1) adds in int1 in Triton 3.6 (standard.py's sum converts the
    input to `dtype` and reduces with `a + b`; semantic.py's add is LLVM's `add i1`, which wraps),
    so the result is the parity of the trues: Triton's own test_core.py::test_sum_dtype asserts
    0 for 32 * 32 trues. cumsum(dtype=tl.int1) likewise gives the running parity. (Triton
    3.6.0's interpreter instead makes any nonzero count true: it sums in numpy.) tcpu counted
    in int32 and made any count but 0 true."""
    rs = np.random.RandomState(7)
    x = (rs.rand(4, 16) < 0.5).astype(np.int32)
    x[0] = 1                                    # 16 trues: even
    x[1] = 0
    x[1, :3] = 1                                # 3 trues: odd
    sums = torch.empty(5, dtype=torch.int32, device=device)
    scans = torch.empty((4, 16), dtype=torch.int32, device=device)
    _bool_sum_in_int1_kernel[(1,)](dev(x, device), sums, scans, M=4, N=16)
    assert host(sums).tolist() == [int(x.sum()) % 2] + (x.sum(axis=1) % 2).tolist()
    np.testing.assert_array_equal(host(scans), np.cumsum(x, axis=1) % 2)

    full = torch.ones((32, 32), dtype=torch.int32, device=device)  # test_core's case
    sums32 = torch.empty(33, dtype=torch.int32, device=device)
    scans32 = torch.empty((32, 32), dtype=torch.int32, device=device)
    _bool_sum_in_int1_kernel[(1,)](full, sums32, scans32, M=32, N=32)
    assert host(sums32)[0] == 0


@triton.jit
def _scan_dtype_kernel(X, Z, N: tl.constexpr, SUM_T: tl.constexpr, PROD_T: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    s = tl.cumsum(x, axis=0)
    p = tl.cumprod(x, axis=0)
    tl.static_assert(s.dtype == SUM_T, "cumsum's dtype")
    tl.static_assert(p.dtype == PROD_T, "cumprod's dtype")
    tl.store(Z + offs, s.to(tl.float32) + p.to(tl.float32))


# Measured with Triton 3.6 on an H100: cumsum widens narrow integers as sum does and bf16 to
# fp32; cumprod keeps integers and fp16, and widens bf16 to fp32.
@pytest.mark.parametrize("dtype, sum_t, prod_t", [
    ("float16", "float16", "float16"), ("bfloat16", "float32", "float32"),
    ("int8", "int32", "int8"), ("int16", "int32", "int16"), ("uint8", "uint32", "uint8"),
    ("float32", "float32", "float32"), ("int32", "int32", "int32")])
def test_scan_result_dtypes(dtype, sum_t, prod_t, device):
    x = torch.ones(16, dtype=TORCH[dtype], device=device)
    z = torch.empty(16, dtype=torch.float32, device=device)
    _scan_dtype_kernel[(1,)](x, z, N=16, SUM_T=getattr(tl, sum_t), PROD_T=getattr(tl, prod_t))
    np.testing.assert_array_equal(host(z), np.arange(1, 17, dtype=np.float32) + 1)


@triton.jit
def _affine_combine(a1, b1, a2, b2):
    # composition of h -> a1*h + b1 followed by h -> a2*h + b2 (not commutative)
    return a1 * a2, b1 * a2 + b2


@triton.jit
def _linear_recurrence_kernel(A, B, H, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    _, h = tl.associative_scan((a, b), 0, _affine_combine)
    tl.store(H + offs, h)


def test_associative_scan_tuple_non_commutative(device):
    n = 64
    a = int_valued("int32", (n,), seed=10, lo=-3, hi=4)
    b = int_valued("int32", (n,), seed=11, lo=-100, hi=100)
    h = torch.empty(n, dtype=torch.int32, device=device)
    _linear_recurrence_kernel[(1,)](dev(a, device), dev(b, device), h, N=n)
    ref = np.zeros(n, dtype=np.int64)
    cur = 0
    for t in range(n):  # h_t = a_t * h_{t-1} + b_t, h_{-1} = 0, in wrapping int32
        cur = (int(a[t]) * cur + int(b[t])) & 0xFFFFFFFF
        ref[t] = cur - (1 << 32) if cur >= 1 << 31 else cur
    np.testing.assert_array_equal(host(h), ref.astype(np.int32))


# --------------------------------------------------------------------------------------
# sort and histogram
# --------------------------------------------------------------------------------------


@triton.jit
def _sort_kernel(X, Z, DESC: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    offs = offsets2(M, N)
    x = tl.load(X + offs)
    if DESC:
        y = tl.sort(x, descending=True)
    else:
        y = tl.sort(x)
    tl.store(Z + offs, y)


@pytest.mark.parametrize("m, n", [(1, 128), (4, 32)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float16"])
@pytest.mark.parametrize("desc", [False, True])
def test_sort(m, n, dtype, desc, device):
    if dtype == "float16":
        x = np.random.RandomState(12).uniform(-100, 100, size=(m, n)).astype(np.float16)
    else:
        x = int_valued(dtype, (m, n), seed=12, lo=-1000, hi=1000)
        x[:, :4] = x[:, 4:8]  # duplicates
    z = torch.empty((m, n), dtype=TORCH[dtype], device=device)
    _sort_kernel[(1,)](dev(x, device), z, DESC=desc, M=m, N=n)
    ref = np.sort(x, axis=1)
    np.testing.assert_array_equal(host(z), ref[:, ::-1] if desc else ref)


@triton.jit
def _histogram_kernel(X, H, N: tl.constexpr, BINS: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    h = tl.histogram(x, BINS)
    tl.static_assert(h.shape[0] == BINS)
    tl.store(H + tl.arange(0, BINS), h)


@pytest.mark.parametrize("n, bins", [(256, 16), (1024, 64), (32, 128)])
def test_histogram(n, bins, device):
    x = np.random.RandomState(13).randint(0, bins, size=n).astype(np.int32)
    h = torch.zeros(bins, dtype=torch.int32, device=device)
    _histogram_kernel[(1,)](dev(x, device), h, N=n, BINS=bins)
    np.testing.assert_array_equal(host(h), np.bincount(x, minlength=bins))


# --------------------------------------------------------------------------------------
# tl.reduce and tl.associative_scan over three operands (Welford's mean, m2 and weight)
# --------------------------------------------------------------------------------------
@triton.jit
def _welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    weight = weight_1 + weight_2
    delta = mean_2 - mean_1
    factor = tl.where(weight == 0.0, 0.0, weight_2 / weight)
    return mean_1 + delta * factor, m2_1 + m2_2 + delta * delta * weight_1 * factor, weight


@triton.jit
def _add_three(a, b, c, d, e, f):
    return a + d, b + e, c + f


@triton.jit
def _three_operand_kernel(X, MEAN, M2, WEIGHT, A, B, C, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    mean, m2, weight = tl.reduce((x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32)), 1,
                                 _welford_combine)
    tl.store(MEAN + tl.arange(0, M), mean)
    tl.store(M2 + tl.arange(0, M), m2)
    tl.store(WEIGHT + tl.arange(0, M), weight)
    a, b, c = tl.associative_scan((x, x * 2, tl.full(x.shape, 1, tl.int32)), 1, _add_three)
    tl.store(A + offs, a)
    tl.store(B + offs, b)
    tl.store(C + offs, c)


def test_reduce_and_scan_over_three_operands(device):
    m, n = 4, 32
    x = torch.linspace(-3.0, 5.0, m * n, device=device).reshape(m, n) ** 2
    mean, m2, weight = (torch.zeros(m, device=device) for _ in range(3))
    a, b = torch.zeros_like(x), torch.zeros_like(x)
    c = torch.zeros(m, n, dtype=torch.int32, device=device)
    _three_operand_kernel[(1,)](x, mean, m2, weight, a, b, c, M=m, N=n)
    torch.testing.assert_close(mean, x.mean(1))
    torch.testing.assert_close(m2 / n, x.var(1, unbiased=False))
    assert weight.tolist() == [float(n)] * m
    torch.testing.assert_close(a, x.cumsum(1))
    torch.testing.assert_close(b, 2 * x.cumsum(1))
    assert torch.equal(c, torch.arange(1, n + 1, dtype=torch.int32, device=device).expand(m, n))
