"""tl.dot: fp32 (input_precision="ieee"), fp16, bf16, int8 -> int32, fp64, with an accumulator,
out_dtype, transposed and batched (3-D) operands; shapes 16..64.

Semantics (python/triton/language/semantic.py, dot):
* both operands have the same dtype; fp32/fp16/bf16 accumulate in fp32 by default, fp64 in fp64,
  int8 in int32 (whatever out_dtype says); fp16 with out_dtype=tl.float16 gives fp16;
* ``acc`` must have the result's shape and out_dtype (int8 with acc needs out_dtype=tl.int32);
* fp32 defaults to tf32 on NVIDIA; "ieee" asks for full fp32 products;
* every dimension is at least 16 (int8: K at least 32 on NVIDIA).

Checks: integer-valued inputs make every product and partial sum exact, so those results are
compared exactly whatever the summation order.  For random inputs the bound is the classic
|C - C_exact| <= 2 K u (|A| |B|) with u the unit roundoff of the accumulator (2**-24 for fp32,
2**-53 for fp64): an fp32 dot that silently used tf32 (u = 2**-11 on the inputs) fails it.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import TORCH, dev, host, int_valued, offsets2

SHAPES = [(16, 16, 16), (32, 32, 32), (64, 64, 64), (16, 32, 64), (64, 16, 32), (32, 64, 16)]
def representable(x, dtype):
    """Round float64 values to `dtype` and return them as float64."""
    return torch.from_numpy(np.asarray(x, dtype=np.float64)).to(TORCH[dtype]).double().numpy()


def check_bound(got, a, b, u):
    exact = a @ b
    bound = 2 * a.shape[-1] * u * (np.abs(a) @ np.abs(b)) + 1e-30
    err = np.abs(got.astype(np.float64) - exact)
    assert (err <= bound).all(), f"max error {err.max()} > bound {bound[err > bound].min()}"


@triton.jit
def _dot_kernel(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PREC: tl.constexpr,
                OUT: tl.constexpr, CT: tl.constexpr):
    a = tl.load(A + offsets2(M, K))
    b = tl.load(B + offsets2(K, N))
    if PREC is None:
        if OUT is None:
            c = tl.dot(a, b)
        else:
            c = tl.dot(a, b, out_dtype=OUT)
    else:
        c = tl.dot(a, b, input_precision=PREC)
    tl.static_assert(CT == c.dtype, "unexpected dot result dtype")
    tl.static_assert(c.shape[0] == M and c.shape[1] == N)
    tl.store(C + offsets2(M, N), c)


def run_dot(a, b, in_dt, out_dt, device, prec=None, out=None):
    m, k = a.shape
    n = b.shape[1]
    c = torch.empty((m, n), dtype=TORCH[out_dt], device=device)
    _dot_kernel[(1,)](dev(a, device, in_dt), dev(b, device, in_dt), c, M=m, N=n, K=k, PREC=prec, OUT=out,
                      CT=getattr(tl, out_dt))
    return host(c)


def small_ints(shape, seed, lo=-4, hi=5):
    return int_valued("float64", shape, seed, lo, hi)


# --------------------------------------------------------------------------------------
# per dtype
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("m, n, k", SHAPES)
def test_dot_fp32_ieee(m, n, k, device):
    rs = np.random.RandomState(m + n + k)
    a = representable(rs.uniform(-1, 1, (m, k)), "float32")
    b = representable(rs.uniform(-1, 1, (k, n)), "float32")
    got = run_dot(a, b, "float32", "float32", device, prec="ieee")
    check_bound(got, a, b, 2.0 ** -24)
    ai, bi = small_ints((m, k), 1), small_ints((k, n), 2)
    np.testing.assert_array_equal(run_dot(ai, bi, "float32", "float32", device, prec="ieee"), ai @ bi)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_dot_half(dtype, m, n, k, device):
    rs = np.random.RandomState(m * n + k)
    a = representable(rs.uniform(-1, 1, (m, k)), dtype)
    b = representable(rs.uniform(-1, 1, (k, n)), dtype)
    got = run_dot(a, b, dtype, "float32", device)   # products of 16-bit floats are exact in fp32
    check_bound(got, a, b, 2.0 ** -24)
    ai, bi = small_ints((m, k), 3), small_ints((k, n), 4)
    np.testing.assert_array_equal(run_dot(ai, bi, dtype, "float32", device), ai @ bi)


# int8 operands need K >= 32 on NVIDIA (Triton 3.6 on an H100: "Input shapes should have ... K >= 32")
INT8_SHAPES = [(16, 16, 32), (32, 32, 32), (64, 64, 64), (16, 32, 64), (64, 16, 32), (32, 64, 32)]


@pytest.mark.parametrize("m, n, k", INT8_SHAPES)
def test_dot_int8(m, n, k, device):
    rs = np.random.RandomState(k)
    a = rs.randint(-128, 128, size=(m, k)).astype(np.int8)
    b = rs.randint(-128, 128, size=(k, n)).astype(np.int8)
    got = run_dot(a, b, "int8", "int32", device)
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("m, n, k", [(16, 16, 16), (32, 64, 16)])
def test_dot_fp64(m, n, k, device):
    rs = np.random.RandomState(5)
    a, b = rs.uniform(-1, 1, (m, k)), rs.uniform(-1, 1, (k, n))
    got = run_dot(a, b, "float64", "float64", device)
    check_bound(got, a, b, 2.0 ** -53)


@pytest.mark.parametrize("m, n, k", [(16, 16, 32), (32, 32, 64)])
def test_dot_fp16_out_dtype_fp16(m, n, k, device):
    a, b = small_ints((m, k), 6), small_ints((k, n), 7)  # |sums| <= 64 * 16: exact in fp16
    got = run_dot(a, b, "float16", "float16", device, out=tl.float16)
    np.testing.assert_array_equal(got, a @ b)


def test_dot_fp32_default_precision(device):
    # the default for fp32 is tf32 on NVIDIA (10-bit mantissas): a loose check only
    rs = np.random.RandomState(8)
    a = representable(rs.uniform(-1, 1, (32, 32)), "float32")
    b = representable(rs.uniform(-1, 1, (32, 32)), "float32")
    got = run_dot(a, b, "float32", "float32", device)
    check_bound(got, a, b, 2.0 ** -10)


# --------------------------------------------------------------------------------------
# accumulators, K loops
# --------------------------------------------------------------------------------------


@triton.jit
def _matmul_kernel(A, B, C, M: tl.constexpr, N: tl.constexpr, K, BK: tl.constexpr, FORM: tl.constexpr,
                   ACC_T: tl.constexpr):
    # C = A @ B with a loop over K in tiles of BK (K a run-time multiple of BK)
    acc = tl.zeros((M, N), dtype=ACC_T)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    for k0 in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k0 + rk)[None, :])
        b = tl.load(B + (k0 + rk)[:, None] * N + rn[None, :])
        if FORM == "acc_arg":
            acc = tl.dot(a, b, acc)
        elif FORM == "plus_equals":
            acc += tl.dot(a, b)
        elif FORM == "plus":
            acc = tl.dot(a, b) + acc
        elif FORM == "int32":
            acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        else:
            acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    tl.store(C + rm[:, None] * N + rn[None, :], acc)


@pytest.mark.parametrize("form, in_dt, acc_dt", [("acc_arg", "float16", "float32"),
                                                  ("plus_equals", "bfloat16", "float32"),
                                                  ("acc_arg", "float32", "float32"),
                                                  ("int32", "int8", "int32"),
                                                  ("fp16_acc", "float16", "float16")])
def test_dot_with_accumulator(form, in_dt, acc_dt, device):
    m, n, k, bk = 32, 16, 128, 32
    if in_dt == "int8":
        rs = np.random.RandomState(9)
        a = rs.randint(-128, 128, size=(m, k)).astype(np.int8)
        b = rs.randint(-128, 128, size=(k, n)).astype(np.int8)
        ref = a.astype(np.int64) @ b.astype(np.int64)
    else:
        lo, hi = (-2, 3) if acc_dt == "float16" else (-4, 5)   # keep fp16 sums exact
        a, b = small_ints((m, k), 10, lo, hi), small_ints((k, n), 11, lo, hi)
        ref = a @ b
    c = torch.empty((m, n), dtype=TORCH[acc_dt], device=device)
    _matmul_kernel[(1,)](dev(a, device, in_dt), dev(b, device, in_dt), c, M=m, N=n, K=k, BK=bk, FORM=form,
                         ACC_T=getattr(tl, acc_dt))
    np.testing.assert_array_equal(host(c), ref)


@pytest.mark.parametrize("form", ["plus_equals", "plus"])
def test_dot_plus_is_dot_with_acc(form, device):
    # Triton's combine pass makes `acc += tl.dot(a, b)` (and `tl.dot(a, b) + acc`) the dot
    # with acc as its accumulator: bit for bit the same as tl.dot(a, b, acc), although summing
    # each tile apart and adding it would round differently (random fp16 inputs, K = 512: the
    # fp32 sums are inexact). Tutorial 08 checks its fp16 outputs against torch.matmul with
    # atol=1e-2, which only this order passes.
    m, n, k, bk = 32, 32, 512, 32
    rs = np.random.RandomState(21)
    a, b = rs.rand(m, k), rs.rand(k, n)
    outs = {}
    for f in ("acc_arg", form):
        c = torch.empty((m, n), dtype=torch.float32, device=device)
        _matmul_kernel[(1,)](dev(a, device, "float16"), dev(b, device, "float16"), c, M=m, N=n,
                             K=k, BK=bk, FORM=f, ACC_T=tl.float32)
        outs[f] = host(c)
    np.testing.assert_array_equal(outs[form], outs["acc_arg"])


# --------------------------------------------------------------------------------------
# operand layouts and batches
# --------------------------------------------------------------------------------------


@triton.jit
def _dot_trans_kernel(A, BT, C, C2, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(A + offsets2(M, K))
    bt = tl.load(BT + offsets2(N, K))          # B stored transposed
    tl.store(C + offsets2(M, N), tl.dot(a, tl.trans(bt)))
    at = tl.trans(a)                            # (K, M)
    tl.store(C2 + offsets2(N, M), tl.dot(bt, at))   # (A B)^T = B^T A^T


@pytest.mark.parametrize("dtype", ["float16", "int8"])
def test_dot_transposed_operands(dtype, device):
    m, n, k = 32, 16, 64
    if dtype == "int8":
        rs = np.random.RandomState(12)
        a = rs.randint(-128, 128, size=(m, k)).astype(np.int8)
        bt = rs.randint(-128, 128, size=(n, k)).astype(np.int8)
        out_dt = "int32"
    else:
        a, bt = small_ints((m, k), 12), small_ints((n, k), 13)
        out_dt = "float32"
    c = torch.empty((m, n), dtype=TORCH[out_dt], device=device)
    c2 = torch.empty((n, m), dtype=TORCH[out_dt], device=device)
    _dot_trans_kernel[(1,)](dev(a, device, dtype), dev(bt, device, dtype), c, c2, M=m, N=n, K=k)
    ref = a.astype(np.int64) @ bt.astype(np.int64).T
    np.testing.assert_array_equal(host(c), ref)
    np.testing.assert_array_equal(host(c2), ref.T)


@triton.jit
def _dot3d_kernel(A, B, C, BATCH: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rb = tl.arange(0, BATCH)[:, None, None]
    a = tl.load(A + rb * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    b = tl.load(B + rb * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    c = tl.dot(a, b)
    tl.static_assert(len(c.shape) == 3 and c.shape[0] == BATCH)
    tl.store(C + rb * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], c)


def test_dot_batched_3d(device):
    bsz, m, n, k = 2, 16, 32, 16
    a, b = small_ints((bsz, m, k), 14), small_ints((bsz, k, n), 15)
    c = torch.empty((bsz, m, n), dtype=torch.float32, device=device)
    _dot3d_kernel[(1,)](dev(a, device, "float16"), dev(b, device, "float16"), c, BATCH=bsz, M=m, N=n, K=k)
    np.testing.assert_array_equal(host(c), np.matmul(a, b))


@triton.jit
def _tiled_matmul_kernel(A, B, C, M, N, K, sam, sak, sbk, sbn, scm, scn, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    # the tutorial-03 shape of a matmul: 2-D grid, masks on every edge, fp32 accumulator
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BK)):
        kk = k0 * BK + rk
        a = tl.load(A + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(B + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * scm + rn[None, :] * scn, acc.to(C.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("m, n, k", [(50, 70, 90), (128, 32, 17)])
def test_tiled_matmul_ragged(m, n, k, device):
    a, b = small_ints((m, k), 16), small_ints((k, n), 17)
    ad, bd = dev(a, device, "float16"), dev(b, device, "float16")
    c = torch.empty((m, n), dtype=torch.float16, device=device)
    grid = (triton.cdiv(m, 32), triton.cdiv(n, 32))
    _tiled_matmul_kernel[grid](ad, bd, c, m, n, k, ad.stride(0), ad.stride(1), bd.stride(0), bd.stride(1),
                               c.stride(0), c.stride(1), BM=32, BN=32, BK=32)
    np.testing.assert_array_equal(host(c), a @ b)   # |entries| <= 90 * 16: exact in fp16
