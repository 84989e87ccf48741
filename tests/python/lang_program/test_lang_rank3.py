"""Blocks of rank 3: broadcasting between every pair of shapes that differ in the first two
dimensions, reductions, scans and flips along each axis (keep_dims too), reduce and
associative_scan with combine functions over two operands, join of rank-2 blocks and split,
interleave, sort, gather, where, masked loads and stores, atomics, loop-carried values and
the batched dot (with an accumulator, and `acc + dot` fused). References are numpy's.

tcpu holds Triton's [A, B, C] as tl's [A * B, C] (python/tcpu/frontend/ops/rank_n.py), so the
cases that matter are those where that form alone would broadcast, reduce or move the wrong
elements: operands with one or both of the first two dimensions of size 1, and any axis other
than the last."""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import dev, offsets3

A, B, C = 2, 4, 8


@triton.jit
def _broadcast_kernel(X, Y, Z, XS0: tl.constexpr, XS1: tl.constexpr, XS2: tl.constexpr,
                      YS0: tl.constexpr, YS1: tl.constexpr, YS2: tl.constexpr):
    x = tl.load(X + offsets3(XS0, XS1, XS2))
    y = tl.load(Y + offsets3(YS0, YS1, YS2))
    s = x * 100 + y
    tl.static_assert(len(s.shape) == 3)
    tl.store(Z + offsets3(s.shape[0], s.shape[1], s.shape[2]), s)


SHAPES = [(A, B, C), (A, 1, C), (1, B, C), (A, B, 1), (1, B, 1), (A, 1, 1), (1, 1, C), (1, 1, 1)]


@pytest.mark.parametrize("xs", SHAPES, ids=str)
@pytest.mark.parametrize("ys", [(A, B, C), (A, 1, C), (1, B, 1), (A, B, 1)], ids=str)
def test_broadcast_between_rank3_shapes(xs, ys, device):
    if np.prod(np.broadcast_shapes(xs, ys)) == 1:
        pytest.skip("a [1, 1, 1] result says nothing about broadcasting")
    x = np.arange(np.prod(xs), dtype=np.int32).reshape(xs)
    y = np.arange(np.prod(ys), dtype=np.int32).reshape(ys) + 1
    want = x * 100 + y
    z = torch.empty(want.size, dtype=torch.int32, device=device)
    _broadcast_kernel[(1,)](dev(x, device), dev(y, device), z, XS0=xs[0], XS1=xs[1], XS2=xs[2],
                            YS0=ys[0], YS1=ys[1], YS2=ys[2])
    np.testing.assert_array_equal(z.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _rank2_operand_kernel(X, Y, Z, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr):
    x = tl.load(X + offsets3(S0, S1, S2))
    y2 = tl.load(Y + tl.arange(0, S1)[:, None] * S2 + tl.arange(0, S2)[None, :])  # [S1, S2]
    y1 = tl.load(Y + tl.arange(0, S2))  # [S2]
    tl.store(Z + offsets3(S0, S1, S2), x - y2 + y1 * 1000)


def test_lower_rank_operands_align_to_the_trailing_dimensions(device):
    x = np.arange(A * B * C, dtype=np.int32).reshape(A, B, C)
    y = (np.arange(B * C, dtype=np.int32) * 3).reshape(B, C)
    z = torch.empty(A * B * C, dtype=torch.int32, device=device)
    _rank2_operand_kernel[(1,)](dev(x, device), dev(y, device), z, S0=A, S1=B, S2=C)
    want = x - y + y.reshape(-1)[:C] * 1000
    np.testing.assert_array_equal(z.cpu().numpy().reshape(A, B, C), want)


@triton.jit
def _reduce_kernel(X, S, M, I, K, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                   S2: tl.constexpr, R0: tl.constexpr, R1: tl.constexpr):
    x = tl.load(X + offsets3(S0, S1, S2))
    r = tl.arange(0, R0)[:, None] * R1 + tl.arange(0, R1)[None, :]
    tl.store(S + r, tl.sum(x, axis=AXIS))
    tl.store(M + r, tl.max(x, axis=AXIS))
    tl.store(I + r, tl.argmax(x, axis=AXIS))
    kept = tl.min(x, axis=AXIS, keep_dims=True)
    tl.static_assert(len(kept.shape) == 3)
    tl.store(K + offsets3(kept.shape[0], kept.shape[1], kept.shape[2]), kept)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_reductions_along_each_axis(axis, device):
    x = np.random.RandomState(1).permutation(A * B * C).astype(np.float32).reshape(A, B, C)
    rshape = tuple(d for i, d in enumerate(x.shape) if i != axis % 3)
    outs = [torch.empty(int(np.prod(rshape)), dtype=d, device=device)
            for d in (torch.float32, torch.float32, torch.int32, torch.float32)]
    _reduce_kernel[(1,)](dev(x, device), *outs, AXIS=axis, S0=A, S1=B, S2=C, R0=rshape[0],
                         R1=rshape[1])
    got = [o.cpu().numpy().reshape(rshape) for o in outs]
    np.testing.assert_array_equal(got[0], x.sum(axis=axis))  # integers: exact in any order
    np.testing.assert_array_equal(got[1], x.max(axis=axis))
    np.testing.assert_array_equal(got[2], x.argmax(axis=axis))
    np.testing.assert_array_equal(got[3], x.min(axis=axis))


@triton.jit
def _add_and_count(a, na, b, nb):
    return a + b, na + nb


@triton.jit
def _reduce_pair_kernel(X, S, N, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                        S2: tl.constexpr):
    x = tl.load(X + offsets3(S0, S1, S2))
    ones = tl.full(x.shape, 1, tl.int32)
    s, n = tl.reduce((x, ones), AXIS, _add_and_count, keep_dims=True)
    tl.store(S + offsets3(s.shape[0], s.shape[1], s.shape[2]), s)
    tl.store(N + offsets3(n.shape[0], n.shape[1], n.shape[2]), n)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reduce_with_a_combine_function_over_two_operands(axis, device):
    x = np.arange(A * B * C, dtype=np.int32).reshape(A, B, C) % 7
    kshape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    s = torch.empty(int(np.prod(kshape)), dtype=torch.int32, device=device)
    n = torch.empty_like(s)
    _reduce_pair_kernel[(1,)](dev(x, device), s, n, AXIS=axis, S0=A, S1=B, S2=C)
    np.testing.assert_array_equal(s.cpu().numpy().reshape(kshape),
                                  x.sum(axis=axis, keepdims=True))
    np.testing.assert_array_equal(n.cpu().numpy(), x.shape[axis])


@triton.jit
def _max_first(a, ia, b, ib):
    # (value, index) of the larger value; the running index of a scan's maximum
    take_b = b > a
    return tl.where(take_b, b, a), tl.where(take_b, ib, ia)


@triton.jit
def _scan_kernel(X, CS, CP, RV, MX, FL, AXIS: tl.constexpr, S0: tl.constexpr,
                 S1: tl.constexpr, S2: tl.constexpr):
    o = offsets3(S0, S1, S2)
    x = tl.load(X + o)
    tl.store(CS + o, tl.cumsum(x, AXIS))
    tl.store(CP + o, tl.cumprod(x % 3 + 1, AXIS))
    tl.store(RV + o, tl.cumsum(x, AXIS, reverse=True))
    idx = tl.zeros(x.shape, tl.int32) + o
    m, _ = tl.associative_scan((x, idx), AXIS, _max_first)
    tl.store(MX + o, m)
    tl.store(FL + o, tl.flip(x, AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_scans_and_flip_along_each_axis(axis, device):
    x = np.random.RandomState(2).randint(-20, 20, size=(A, B, C)).astype(np.int32)
    outs = [torch.empty(x.size, dtype=torch.int32, device=device) for _ in range(5)]
    _scan_kernel[(1,)](dev(x, device), *outs, AXIS=axis, S0=A, S1=B, S2=C)
    got = [o.cpu().numpy().reshape(x.shape) for o in outs]
    np.testing.assert_array_equal(got[0], np.cumsum(x, axis=axis))
    np.testing.assert_array_equal(got[1], np.cumprod(np.fmod(x, 3) + 1, axis=axis))  # % truncates
    np.testing.assert_array_equal(got[2], np.flip(np.cumsum(np.flip(x, axis), axis=axis), axis))
    np.testing.assert_array_equal(got[3], np.maximum.accumulate(x, axis=axis))
    np.testing.assert_array_equal(got[4], np.flip(x, axis))


@triton.jit
def _join_kernel(X, Y, J, L, R, IL, M: tl.constexpr, N: tl.constexpr):
    o2 = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o2)
    y = tl.load(Y + o2)
    j = tl.join(x, y)  # [M, N, 2]
    tl.static_assert(j.shape[0] == M and j.shape[1] == N and j.shape[2] == 2)
    tl.store(J + offsets3(M, N, 2), j)
    left, right = tl.split(j * 2)
    tl.store(L + o2, left)
    tl.store(R + o2, right)
    il = tl.interleave(j, j + 1)  # [M, N, 4]
    tl.store(IL + offsets3(M, N, 4), il)


def test_join_split_interleave(device):
    m, n = 4, 8
    x = np.arange(m * n, dtype=np.int32).reshape(m, n)
    y = -x
    outs = [torch.empty(s, dtype=torch.int32, device=device)
            for s in (m * n * 2, m * n, m * n, m * n * 4)]
    _join_kernel[(1,)](dev(x, device), dev(y, device), *outs, M=m, N=n)
    j = np.stack([x, y], axis=-1)
    np.testing.assert_array_equal(outs[0].cpu().numpy().reshape(m, n, 2), j)
    np.testing.assert_array_equal(outs[1].cpu().numpy().reshape(m, n), 2 * x)
    np.testing.assert_array_equal(outs[2].cpu().numpy().reshape(m, n), 2 * y)
    il = np.stack([j, j + 1], axis=-1).reshape(m, n, 4)
    np.testing.assert_array_equal(outs[3].cpu().numpy().reshape(m, n, 4), il)


@triton.jit
def _sort_gather_kernel(X, S, G, W, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr):
    o = offsets3(S0, S1, S2)
    x = tl.load(X + o)
    tl.store(S + o, tl.sort(x, descending=True))
    rev = (S2 - 1) - (tl.zeros(x.shape, tl.int32) + tl.arange(0, S2)[None, None, :])
    tl.store(G + o, tl.gather(x, rev, 2))
    tl.store(W + o, tl.where(x > 0, x, tl.arange(0, S1)[None, :, None]))


def test_sort_gather_where(device):
    x = np.random.RandomState(3).randint(-50, 50, size=(A, B, C)).astype(np.int32)
    outs = [torch.empty(x.size, dtype=torch.int32, device=device) for _ in range(3)]
    _sort_gather_kernel[(1,)](dev(x, device), *outs, S0=A, S1=B, S2=C)
    got = [o.cpu().numpy().reshape(x.shape) for o in outs]
    np.testing.assert_array_equal(got[0], -np.sort(-x, axis=-1))
    np.testing.assert_array_equal(got[1], x[:, :, ::-1])
    np.testing.assert_array_equal(got[2], np.where(x > 0, x, np.arange(B)[None, :, None]))


@triton.jit
def _masked_kernel(X, Z, CNT, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr, LIM1,
                   LIM2):
    o = offsets3(S0, S1, S2)
    row_ok = tl.arange(0, S1)[None, :, None] < LIM1  # [1, S1, 1]
    col_ok = tl.arange(0, S2)[None, None, :] < LIM2  # [1, 1, S2]
    x = tl.load(X + o, mask=row_ok & col_ok, other=-1)
    tl.store(Z + o, x, mask=row_ok)
    tl.atomic_add(CNT + tl.arange(0, S1)[None, :, None] + tl.zeros((S0, S1, S2), tl.int32), 1,
                  mask=col_ok)


def test_masked_loads_stores_and_atomics(device):
    x = np.arange(A * B * C, dtype=np.int32).reshape(A, B, C)
    z = torch.full((x.size,), 7, dtype=torch.int32, device=device)
    cnt = torch.zeros(B, dtype=torch.int32, device=device)
    _masked_kernel[(1,)](dev(x, device), z, cnt, S0=A, S1=B, S2=C, LIM1=3, LIM2=5)
    j = np.arange(B)[None, :, None]
    k = np.arange(C)[None, None, :]
    loaded = np.where((j < 3) & (k < 5), x, -1)
    want = np.where(j < 3, loaded, 7)
    np.testing.assert_array_equal(z.cpu().numpy().reshape(x.shape), want)
    np.testing.assert_array_equal(cnt.cpu().numpy(), np.full(B, A * 5))


@triton.jit
def _loop_kernel(X, Z, S0: tl.constexpr, S1: tl.constexpr, S2: tl.constexpr, STEPS):
    o = offsets3(S0, S1, S2)
    acc = tl.zeros((S0, S1, S2), dtype=tl.float32)
    x = tl.load(X + o)
    for i in range(STEPS):
        acc = acc * 0.5 + x[:, :, :] + i
    tl.store(Z + o, acc)


def test_loop_carried_rank3_value(device):
    x = np.arange(A * B * C, dtype=np.float32).reshape(A, B, C)
    z = torch.empty(x.size, dtype=torch.float32, device=device)
    _loop_kernel[(1,)](dev(x, device), z, S0=A, S1=B, S2=C, STEPS=5)
    acc = np.zeros_like(x)
    for i in range(5):
        acc = acc * np.float32(0.5) + x + np.float32(i)
    np.testing.assert_array_equal(z.cpu().numpy().reshape(x.shape), acc)


@triton.jit
def _bmm_kernel(Aptr, Bptr, D, OUT, FUSED, BT: tl.constexpr, M: tl.constexpr, K: tl.constexpr,
                N: tl.constexpr):
    a = tl.load(Aptr + offsets3(BT, M, K))
    b = tl.load(Bptr + offsets3(BT, K, N))
    d = tl.load(D + offsets3(BT, M, N))
    tl.store(OUT + offsets3(BT, M, N), tl.dot(a, b, d))
    tl.store(FUSED + offsets3(BT, M, N), d + tl.dot(a, b))


def test_batched_dot_with_accumulator(device):
    rs = np.random.RandomState(4)
    bt, m, k, n = 2, 16, 16, 16
    a = rs.randint(-8, 8, size=(bt, m, k)).astype(np.float32)
    b = rs.randint(-8, 8, size=(bt, k, n)).astype(np.float32)
    d = rs.randint(-8, 8, size=(bt, m, n)).astype(np.float32)
    out = torch.empty(bt * m * n, dtype=torch.float32, device=device)
    fused = torch.empty_like(out)
    _bmm_kernel[(1,)](dev(a, device), dev(b, device), dev(d, device), out, fused, BT=bt, M=m,
                      K=k, N=n)
    want = a @ b + d  # small integers: exact in fp32 in any order
    np.testing.assert_array_equal(out.cpu().numpy().reshape(want.shape), want)
    np.testing.assert_array_equal(fused.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _block_ptr3_kernel(X, Z, S0, S1, S2, T0, T1, O0, O1, O2, D0: tl.constexpr, D1: tl.constexpr,
                       D2: tl.constexpr):
    # A [D0, D1, D2] block of a [S0, S1, S2] tensor (strides T0, T1, 1) at (O0, O1, O2),
    # every dimension checked; stored (checked too) at the same place of Z, plus 1.
    src = tl.make_block_ptr(X, (S0, S1, S2), (T0, T1, 1), (O0, O1, O2), (D0, D1, D2), (2, 1, 0))
    dst = tl.make_block_ptr(Z, (S0, S1, S2), (T0, T1, 1), (0, 0, 0), (D0, D1, D2), (2, 1, 0))
    dst = tl.advance(dst, (O0, O1, O2))
    tile = tl.load(src, boundary_check=(0, 1, 2), padding_option="zero")
    tl.store(dst, tile + 1, boundary_check=(0, 1, 2))
    # The same block unchecked along the last dimension, read where it is all inside.
    inner = tl.make_block_ptr(X, (S0, S1, S2), (T0, T1, 1), (0, 0, 0), (D0, D1, D2), (2, 1, 0))
    whole = tl.load(inner, boundary_check=(0, 1))
    tl.store(Z + S0 * T0 + offsets3(D0, D1, D2), whole)


@pytest.mark.parametrize("origin", [(0, 0, 0), (1, 2, 3), (-1, -2, 5), (2, 3, 6)], ids=str)
def test_block_pointers_of_rank_3(origin, device):
    s = (3, 5, 10)
    d = (2, 4, 8)
    x = torch.arange(np.prod(s), dtype=torch.float32, device=device).reshape(s)
    z = torch.full((np.prod(s) + np.prod(d),), -1.0, device=device)
    _block_ptr3_kernel[(1,)](x, z, *s, s[1] * s[2], s[2], *origin, D0=d[0], D1=d[1], D2=d[2])
    want = np.full(s, -1.0, dtype=np.float32)
    xs = x.cpu().numpy()
    for i0 in range(d[0]):
        for i1 in range(d[1]):
            for i2 in range(d[2]):
                p = (origin[0] + i0, origin[1] + i1, origin[2] + i2)
                if all(0 <= p[k] < s[k] for k in range(3)):
                    want[p] = xs[p] + 1
    got = z.cpu().numpy()
    np.testing.assert_array_equal(got[:np.prod(s)].reshape(s), want)
    np.testing.assert_array_equal(got[np.prod(s):].reshape(d), xs[:d[0], :d[1], :d[2]])


@triton.jit
def _descriptor3_kernel(desc, OUT, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr):
    tile = desc.load([tl.program_id(0) * D0, 1, 0])
    tl.store(OUT + tl.program_id(0) * D0 * D1 * D2 + offsets3(D0, D1, D2), tile * 2)


def test_host_tensor_descriptor_of_rank_3(device):
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.arange(6 * 5 * 16, dtype=torch.float32, device=device).reshape(6, 5, 16)
    out = torch.zeros(3 * 2 * 4 * 16, device=device)
    desc = TensorDescriptor.from_tensor(x, block_shape=[2, 4, 16])
    _descriptor3_kernel[(3,)](desc, out, D0=2, D1=4, D2=16)
    want = np.zeros((3, 2, 4, 16), dtype=np.float32)
    xs = x.cpu().numpy()
    for p in range(3):
        want[p] = xs[2 * p:2 * p + 2, 1:5, :] * 2  # rows 1..4 of 5: all inside
    np.testing.assert_array_equal(out.cpu().numpy().reshape(want.shape), want)


@triton.jit
def _expand_axes_kernel(X, Z, AXES: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                        S2: tl.constexpr):
    y = tl.expand_dims(tl.load(X + tl.arange(0, S0 * S1 * S2)), AXES)
    tl.static_assert(y.shape[0] == S0 and y.shape[1] == S1 and y.shape[2] == S2)
    tl.store(Z + offsets3(S0, S1, S2), y)


# Triton wraps every axis against the result's rank, then inserts them in sorted order.
@pytest.mark.parametrize("axes, shape", [((1, 0), (1, 1, 8)), ((-2, -1), (8, 1, 1)),
                                         ((-3, -2), (1, 1, 8)), ((2, 0), (1, 8, 1))], ids=str)
def test_expand_dims_with_several_axes(axes, shape, device):
    x = np.arange(8, dtype=np.int32) * 5
    z = torch.zeros(8, dtype=torch.int32, device=device)
    _expand_axes_kernel[(1,)](dev(x, device), z, AXES=axes, S0=shape[0], S1=shape[1], S2=shape[2])
    np.testing.assert_array_equal(z.cpu().numpy(), x)


@triton.jit
def _gather_axis_kernel(X, Z, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                        S2: tl.constexpr):
    o = offsets3(S0, S1, S2)
    x = tl.load(X + o)
    i0 = tl.arange(0, S0)[:, None, None] + tl.zeros((S0, S1, S2), tl.int32)
    i1 = tl.arange(0, S1)[None, :, None] + tl.zeros((S0, S1, S2), tl.int32)
    i2 = tl.arange(0, S2)[None, None, :] + tl.zeros((S0, S1, S2), tl.int32)
    if AXIS == 0:
        index = (S0 - 1) - i0
    elif AXIS == 1:
        index = (i1 * 3 + i2) % S1
    else:
        index = (S2 - 1) - i2
    tl.store(Z + o, tl.gather(x, index, AXIS))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_gather_along_each_axis(axis, device):
    x = np.random.RandomState(5).randint(-99, 99, size=(A, B, C)).astype(np.int32)
    z = torch.zeros(x.size, dtype=torch.int32, device=device)
    _gather_axis_kernel[(1,)](dev(x, device), z, AXIS=axis, S0=A, S1=B, S2=C)
    i0, i1, i2 = np.indices((A, B, C))
    index = [(A - 1) - i0, (i1 * 3 + i2) % B, (C - 1) - i2][axis]
    np.testing.assert_array_equal(z.cpu().numpy().reshape(x.shape),
                                  np.take_along_axis(x, index, axis))
