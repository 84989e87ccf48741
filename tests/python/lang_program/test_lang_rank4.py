"""Blocks of rank 4 and 5 (and a reshape through rank 9): broadcasting between shapes with
size-1 dimensions in every place, reductions and scans along each axis, permutations, trans,
expand_dims, join/split/interleave, flip and gather off the last axis, reduce and
associative_scan with combine functions, masked loads and stores, the batched dot over two
batch dimensions, block pointers and tensor descriptors (in-kernel and host) of rank 4 and 5.
References are numpy's.

tcpu holds Triton's [A, ..., Y, Z] as tl's [A * ... * Y, Z] (python/tcpu/frontend/ops/rank_n.py),
so the cases that matter are those where that form alone would broadcast, reduce or move the
wrong elements: operands with leading dimensions of size 1, and any axis other than the
last."""

import itertools

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import dev

S4 = (2, 4, 2, 8)
S5 = (2, 2, 4, 2, 4)


@triton.jit
def offsets4(A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr):
    """Row-major offsets of an [A, B, C, D] block, from four broadcast ranges."""
    i = tl.arange(0, A)[:, None, None, None]
    j = tl.arange(0, B)[None, :, None, None]
    k = tl.arange(0, C)[None, None, :, None]
    m = tl.arange(0, D)[None, None, None, :]
    return i * (B * C * D) + j * (C * D) + k * D + m


@triton.jit
def _broadcast_kernel(X, Y, Z, XS0: tl.constexpr, XS1: tl.constexpr, XS2: tl.constexpr,
                      XS3: tl.constexpr, YS0: tl.constexpr, YS1: tl.constexpr, YS2: tl.constexpr,
                      YS3: tl.constexpr):
    x = tl.load(X + offsets4(XS0, XS1, XS2, XS3))
    y = tl.load(Y + offsets4(YS0, YS1, YS2, YS3))
    s = x * 1000 + y
    tl.static_assert(len(s.shape) == 4)
    tl.store(Z + offsets4(s.shape[0], s.shape[1], s.shape[2], s.shape[3]), s)


X_SHAPES = [(2, 4, 2, 8), (2, 1, 2, 8), (1, 4, 1, 8), (2, 4, 2, 1), (1, 1, 2, 1), (2, 1, 1, 1)]
Y_SHAPES = [(2, 4, 2, 8), (1, 4, 2, 1), (2, 1, 1, 8)]


@pytest.mark.parametrize("xs", X_SHAPES, ids=str)
@pytest.mark.parametrize("ys", Y_SHAPES, ids=str)
def test_broadcast_between_rank4_shapes(xs, ys, device):
    x = np.arange(np.prod(xs), dtype=np.int32).reshape(xs)
    y = np.arange(np.prod(ys), dtype=np.int32).reshape(ys) + 1
    want = x * 1000 + y
    z = torch.empty(want.size, dtype=torch.int32, device=device)
    _broadcast_kernel[(1,)](dev(x, device), dev(y, device), z, *xs, *ys)
    np.testing.assert_array_equal(z.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _reduce4_kernel(X, S, M, I, K, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                    S2: tl.constexpr, S3: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets4(S0, S1, S2, S3))
    s = tl.sum(x, axis=AXIS)
    tl.static_assert(len(s.shape) == 3)
    r = tl.arange(0, N).reshape(s.shape)
    tl.store(S + r, s)
    tl.store(M + r, tl.max(x, axis=AXIS))
    tl.store(I + r, tl.argmax(x, axis=AXIS))
    kept = tl.min(x, axis=AXIS, keep_dims=True)
    tl.static_assert(len(kept.shape) == 4)
    tl.store(K + tl.arange(0, N).reshape(kept.shape), kept)


@pytest.mark.parametrize("axis", [0, 1, 2, 3, -2])
def test_reductions_along_each_axis_of_rank4(axis, device):
    rng = np.random.default_rng(1)
    x = rng.permutation(np.prod(S4)).astype(np.int32).reshape(S4)  # distinct: argmax is unique
    n = x.size // S4[axis]
    outs = [torch.empty(n, dtype=torch.int32, device=device) for _ in range(4)]
    _reduce4_kernel[(1,)](dev(x, device), *outs, axis, *S4, n)
    got = [o.cpu().numpy() for o in outs]
    np.testing.assert_array_equal(got[0], x.sum(axis=axis).ravel())
    np.testing.assert_array_equal(got[1], x.max(axis=axis).ravel())
    np.testing.assert_array_equal(got[2], x.argmax(axis=axis).ravel())
    np.testing.assert_array_equal(got[3], x.min(axis=axis).ravel())


@triton.jit
def _chained_sum_kernel(X, Z, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr,
                        S3: tl.constexpr, S4: tl.constexpr, A0: tl.constexpr, A1: tl.constexpr,
                        N: tl.constexpr):
    x = tl.load(X + tl.arange(0, S0 * S1 * S2 * S3 * S4).reshape(S0, S1, S2, S3, S4))
    r = tl.sum(tl.sum(x, A0), A1)
    tl.store(Z + tl.arange(0, N).reshape(r.shape), r)


@pytest.mark.parametrize("axes", [(0, 0), (4, 1), (2, 2), (1, 3)], ids=str)
def test_chained_sums_of_rank5(axes, device):
    x = np.arange(np.prod(S5), dtype=np.int32).reshape(S5) % 97
    want = x.sum(axis=axes[0]).sum(axis=axes[1])
    z = torch.empty(want.size, dtype=torch.int32, device=device)
    _chained_sum_kernel[(1,)](dev(x, device), z, *S5, *axes, want.size)
    np.testing.assert_array_equal(z.cpu().numpy(), want.ravel())


@triton.jit
def _scan4_kernel(X, C, R, F, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                  S2: tl.constexpr, S3: tl.constexpr):
    offs = offsets4(S0, S1, S2, S3)
    x = tl.load(X + offs)
    tl.store(C + offs, tl.cumsum(x, axis=AXIS))
    tl.store(R + offs, tl.cumsum(x, axis=AXIS, reverse=True))
    tl.store(F + offs, tl.flip(x, AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2, 3])
def test_scans_and_flip_along_each_axis_of_rank4(axis, device):
    x = (np.arange(np.prod(S4), dtype=np.int32) * 7 % 23).reshape(S4)
    outs = [torch.empty(x.size, dtype=torch.int32, device=device) for _ in range(3)]
    _scan4_kernel[(1,)](dev(x, device), *outs, axis, *S4)
    got = [o.cpu().numpy().reshape(S4) for o in outs]
    np.testing.assert_array_equal(got[0], np.cumsum(x, axis=axis))
    np.testing.assert_array_equal(got[1], np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis))
    np.testing.assert_array_equal(got[2], np.flip(x, axis))


@triton.jit
def _pick_larger(a, ia, b, ib):
    return tl.where(a >= b, a, b), tl.where(a >= b, ia, ib)


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _combine_kernel(X, V, IX, P, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                    S2: tl.constexpr, S3: tl.constexpr, N: tl.constexpr):
    offs = offsets4(S0, S1, S2, S3)
    x = tl.load(X + offs)
    v, i = tl.reduce((x, offs), AXIS, _pick_larger)
    r = tl.arange(0, N).reshape(v.shape)
    tl.store(V + r, v)
    tl.store(IX + r, i)
    tl.store(P + offs, tl.associative_scan(x, AXIS, _mul))


@pytest.mark.parametrize("axis", [0, 2])
def test_combine_functions_along_an_axis_of_rank4(axis, device):
    rng = np.random.default_rng(2)
    x = rng.permutation(np.prod(S4)).astype(np.int32).reshape(S4) % 5 + 1
    n = x.size // S4[axis]
    v, ix = (torch.empty(n, dtype=torch.int32, device=device) for _ in range(2))
    p = torch.empty(x.size, dtype=torch.int32, device=device)
    _combine_kernel[(1,)](dev(x, device), v, ix, p, axis, *S4, n)
    np.testing.assert_array_equal(v.cpu().numpy(), x.max(axis=axis).ravel())
    # The flat offset of the element each reduction kept: it holds the maximum.
    np.testing.assert_array_equal(x.ravel()[ix.cpu().numpy()], x.max(axis=axis).ravel())
    np.testing.assert_array_equal(p.cpu().numpy().reshape(S4), np.cumprod(x, axis=axis))


@triton.jit
def _permute4_kernel(X, Z, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr,
                     S3: tl.constexpr, P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr,
                     P3: tl.constexpr):
    x = tl.load(X + offsets4(S0, S1, S2, S3))
    y = tl.permute(x, (P0, P1, P2, P3))
    tl.store(Z + offsets4(y.shape[0], y.shape[1], y.shape[2], y.shape[3]), y)


@pytest.mark.parametrize("perm", list(itertools.permutations(range(4)))[1::5], ids=str)
def test_permute_of_rank4(perm, device):
    x = np.arange(np.prod(S4), dtype=np.int32).reshape(S4)
    z = torch.empty(x.size, dtype=torch.int32, device=device)
    _permute4_kernel[(1,)](dev(x, device), z, *S4, *perm)
    want = np.transpose(x, perm)
    np.testing.assert_array_equal(z.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _trans_expand_kernel(X, T, E, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N).reshape(2, 2, 4, 2, 4))
    t = tl.trans(x)  # Triton's default: the last two dimensions swap
    tl.static_assert(t.shape == [2, 2, 4, 4, 2])
    tl.store(T + tl.arange(0, N).reshape(t.shape), t)
    v = tl.arange(0, 8) * 3
    e = tl.expand_dims(v, (0, 2, -1, 1))
    tl.static_assert(e.shape == [1, 1, 1, 8, 1])
    tl.store(E + tl.arange(0, 8).reshape(1, 1, 1, 8, 1), e + x.shape[0])


def test_trans_swaps_the_last_two_dims_and_expand_dims_to_rank5(device):
    x = np.arange(np.prod(S5), dtype=np.int32).reshape(S5)
    t = torch.empty(x.size, dtype=torch.int32, device=device)
    e = torch.empty(8, dtype=torch.int32, device=device)
    _trans_expand_kernel[(1,)](dev(x, device), t, e, x.size)
    np.testing.assert_array_equal(t.cpu().numpy().reshape(2, 2, 4, 4, 2), np.swapaxes(x, -1, -2))
    np.testing.assert_array_equal(e.cpu().numpy(), np.arange(8) * 3 + 2)


@triton.jit
def _reshape9_kernel(X, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.reshape(x, (2, 2, 2, 2, 2, 2, 2, 2, 2))
    y = tl.permute(y, (8, 7, 6, 5, 4, 3, 2, 1, 0))
    tl.store(Z + tl.arange(0, N), tl.reshape(y, (N,)))


def test_reshape_and_permute_of_rank9(device):
    x = np.arange(512, dtype=np.int32)
    z = torch.empty(512, dtype=torch.int32, device=device)
    _reshape9_kernel[(1,)](dev(x, device), z, 512)
    want = np.transpose(x.reshape((2,) * 9), tuple(range(8, -1, -1))).ravel()
    np.testing.assert_array_equal(z.cpu().numpy(), want)


@triton.jit
def _join_split_kernel(X, Y, J, A, B, IL, S0: tl.constexpr, S1: tl.constexpr,
                       S2: tl.constexpr):
    offs = tl.arange(0, S0 * S1 * S2).reshape(S0, S1, S2)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    j = tl.join(x, y)  # [S0, S1, S2, 2]
    tl.static_assert(len(j.shape) == 4)
    tl.store(J + tl.arange(0, 2 * S0 * S1 * S2).reshape(j.shape), j)
    p = tl.permute(j, (0, 3, 1, 2))  # [S0, 2, S1, S2]: split needs 2 last
    a, b = tl.split(tl.permute(p, (0, 2, 3, 1)))
    tl.store(A + offs, a)
    tl.store(B + offs, b)
    w = tl.interleave(j, j + 100)  # [S0, S1, S2, 4]
    tl.store(IL + tl.arange(0, 4 * S0 * S1 * S2).reshape(w.shape), w)


def test_join_split_interleave_of_rank4(device):
    s = (2, 4, 8)
    x = np.arange(64, dtype=np.int32).reshape(s)
    y = x * -2
    outs = [torch.empty(n, dtype=torch.int32, device=device) for n in (128, 64, 64, 256)]
    _join_split_kernel[(1,)](dev(x, device), dev(y, device), *outs, *s)
    j = np.stack([x, y], axis=-1)
    np.testing.assert_array_equal(outs[0].cpu().numpy().reshape(j.shape), j)
    np.testing.assert_array_equal(outs[1].cpu().numpy().reshape(s), x)
    np.testing.assert_array_equal(outs[2].cpu().numpy().reshape(s), y)
    il = np.stack([j, j + 100], axis=-1).reshape(2, 4, 8, 4)
    np.testing.assert_array_equal(outs[3].cpu().numpy().reshape(il.shape), il)


@triton.jit
def _gather4_kernel(X, I, Z, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                    S2: tl.constexpr, S3: tl.constexpr, I0: tl.constexpr, I1: tl.constexpr,
                    I2: tl.constexpr, I3: tl.constexpr):
    x = tl.load(X + offsets4(S0, S1, S2, S3))
    io = offsets4(I0, I1, I2, I3)
    tl.store(Z + io, tl.gather(x, tl.load(I + io), AXIS))


@pytest.mark.parametrize("axis", [0, 1, 3])
def test_gather_along_an_axis_of_rank4(axis, device):
    x = np.arange(np.prod(S4), dtype=np.int32).reshape(S4) * 3
    ishape = list(S4)
    ishape[axis] = 2
    rng = np.random.default_rng(3)
    index = rng.integers(0, S4[axis], size=ishape).astype(np.int32)
    z = torch.empty(index.size, dtype=torch.int32, device=device)
    _gather4_kernel[(1,)](dev(x, device), dev(index, device), z, axis, *S4, *ishape)
    np.testing.assert_array_equal(z.cpu().numpy().reshape(ishape),
                                  np.take_along_axis(x, index, axis))


@triton.jit
def _masked_kernel(X, Z, n, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr,
                   S3: tl.constexpr):
    offs = offsets4(S0, S1, S2, S3)
    # A mask of rank 4 made of a rank-1 and a rank-4 condition: lanes past n read -1.
    lead = (tl.arange(0, S1)[None, :, None, None] % 2) == 0
    x = tl.load(X + offs, mask=(offs < n) & lead, other=-1)
    tl.store(Z + offs, tl.where(x > 10, x, 0), mask=offs < n)


def test_masked_loads_and_stores_of_rank4(device):
    x = np.arange(np.prod(S4), dtype=np.int32).reshape(S4)
    n = 100
    z = torch.full((x.size,), -7, dtype=torch.int32, device=device)
    _masked_kernel[(1,)](dev(x, device), z, n, *S4)
    flat = x.ravel()
    lead = (np.arange(S4[1])[None, :, None, None] % 2 == 0)
    loaded = np.where((flat < n).reshape(S4) & lead, x, -1).ravel()
    want = np.where(flat < n, np.where(loaded > 10, loaded, 0), -7)
    np.testing.assert_array_equal(z.cpu().numpy(), want)


@triton.jit
def _dot4_kernel(A, B, C, Z, S0: tl.constexpr, S1: tl.constexpr, M: tl.constexpr,
                 K: tl.constexpr, N: tl.constexpr, TRANS_B: tl.constexpr):
    a = tl.load(A + tl.arange(0, S0 * S1 * M * K).reshape(S0, S1, M, K))
    if TRANS_B:
        b = tl.trans(tl.load(B + tl.arange(0, S0 * S1 * N * K).reshape(S0, S1, N, K)))
    else:
        b = tl.load(B + tl.arange(0, S0 * S1 * K * N).reshape(S0, S1, K, N))
    c = tl.load(C + tl.arange(0, S0 * S1 * M * N).reshape(S0, S1, M, N))
    d = tl.dot(a, b, c)
    tl.static_assert(d.shape == [S0, S1, M, N])
    tl.store(Z + tl.arange(0, S0 * S1 * M * N).reshape(d.shape), d)


@pytest.mark.parametrize("trans_b", [False, True])
def test_batched_dot_over_two_batch_dims(trans_b, device):
    s0, s1, m, k, n = 2, 2, 16, 16, 16
    rng = np.random.default_rng(4)
    a = rng.integers(-4, 5, (s0, s1, m, k)).astype(np.float32)
    b = rng.integers(-4, 5, (s0, s1, n, k) if trans_b else (s0, s1, k, n)).astype(np.float32)
    c = rng.integers(-4, 5, (s0, s1, m, n)).astype(np.float32)
    z = torch.empty(s0 * s1 * m * n, dtype=torch.float32, device=device)
    _dot4_kernel[(1,)](dev(a, device), dev(b, device), dev(c, device), z, s0, s1, m, k, n,
                       trans_b)
    want = a @ (np.swapaxes(b, -1, -2) if trans_b else b) + c
    np.testing.assert_array_equal(z.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _block_ptr4_kernel(X, Z, S0, S1, S2, S3, O0, O1, O2, O3, D0: tl.constexpr,
                       D1: tl.constexpr, D2: tl.constexpr, D3: tl.constexpr):
    T2 = S3
    T1 = S2 * T2
    T0 = S1 * T1
    src = tl.make_block_ptr(X, (S0, S1, S2, S3), (T0, T1, T2, 1), (0, 0, 0, 0),
                            (D0, D1, D2, D3), (3, 2, 1, 0))
    src = tl.advance(src, (O0, O1, O2, O3))
    dst = tl.make_block_ptr(Z, (S0, S1, S2, S3), (T0, T1, T2, 1), (O0, O1, O2, O3),
                            (D0, D1, D2, D3), (3, 2, 1, 0))
    tile = tl.load(src, boundary_check=(1, 2, 3), padding_option="zero")
    tl.store(dst, tile + 1, boundary_check=(0, 1, 2, 3))


def test_block_pointers_of_rank4(device):
    s, d, o = (3, 3, 5, 20), (2, 2, 4, 16), (1, 2, 3, 8)
    x = np.arange(np.prod(s), dtype=np.int32).reshape(s)
    z = torch.zeros(x.size, dtype=torch.int32, device=device)
    _block_ptr4_kernel[(1,)](dev(x, device), z, *s, *o, *d)
    want = np.zeros(s, dtype=np.int32)
    window = tuple(slice(oo, oo + dd) for oo, dd in zip(o, d))
    want[window] = x[window] + 1
    np.testing.assert_array_equal(z.cpu().numpy().reshape(s), want)


@triton.jit
def _descriptor5_kernel(X, Z, S0, S1, S2, S3, S4, D0: tl.constexpr, D1: tl.constexpr,
                        D2: tl.constexpr, D3: tl.constexpr, D4: tl.constexpr):
    strides = [S1 * S2 * S3 * S4, S2 * S3 * S4, S3 * S4, S4, 1]
    src = tl.make_tensor_descriptor(X, [S0, S1, S2, S3, S4], strides, [D0, D1, D2, D3, D4])
    dst = tl.make_tensor_descriptor(Z, [S0, S1, S2, S3, S4], strides, [D0, D1, D2, D3, D4])
    tile = src.load([1, 0, 1, 0, 8])
    dst.store([1, 0, 1, 0, 8], tile * 2)


def test_tensor_descriptor_of_rank5(device):
    # Strides of whole 16 bytes, as Triton requires of a descriptor.
    s, d, o = (3, 2, 4, 3, 12), (2, 2, 4, 2, 8), (1, 0, 1, 0, 8)
    x = np.arange(np.prod(s), dtype=np.int32).reshape(s)
    z = torch.zeros(x.size, dtype=torch.int32, device=device)
    _descriptor5_kernel[(1,)](dev(x, device), z, *s, *d)
    want = np.zeros(s, dtype=np.int32)
    window = tuple(slice(oo, oo + dd) for oo, dd in zip(o, d))
    want[window] = x[window] * 2  # what lies outside the tensor is neither read nor written
    np.testing.assert_array_equal(z.cpu().numpy().reshape(s), want)


@triton.jit
def _host_descriptor4_kernel(desc, OUT, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr,
                             D3: tl.constexpr):
    pid = tl.program_id(0)
    tile = desc.load([0, pid * D1, 0, 0])
    tl.store(OUT + pid * (D0 * D1 * D2 * D3) + offsets4(D0, D1, D2, D3), tile)


def test_host_tensor_descriptor_of_rank4(device):
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.arange(2 * 6 * 2 * 16, dtype=torch.float32, device=device).reshape(2, 6, 2, 16)
    desc = TensorDescriptor.from_tensor(x, [2, 2, 2, 16])
    out = torch.full((3 * 2 * 2 * 2 * 16,), -1.0, device=device)
    _host_descriptor4_kernel[(3,)](desc, out, D0=2, D1=2, D2=2, D3=16)
    want = np.concatenate([x[:, 2 * p:2 * p + 2].cpu().numpy().ravel() for p in range(3)])
    np.testing.assert_array_equal(out.cpu().numpy(), want)


@triton.jit
def _descriptor6_kernel(X):
    tl.make_tensor_descriptor(X, [2] * 6, [32, 16, 8, 4, 2, 1], [2] * 5 + [8])


def test_tensor_descriptor_of_rank6_is_refused_as_triton_does(device):
    x = torch.zeros(64, dtype=torch.float32, device=device)
    with pytest.raises(triton.CompilationError, match="Expected 1 <= ndim <= 5"):
        _descriptor6_kernel[(1,)](x)
