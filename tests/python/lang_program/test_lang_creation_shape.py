"""Block creation and shape manipulation in triton.language: program_id/num_programs, arange,
full, zeros, zeros_like, broadcast/broadcast_to, expand_dims, None-indexing, reshape/view,
permute/trans/.T, ravel, cat, join, split, interleave, flip, and .shape/.dtype as compile-time
values.

Notes on Triton's semantics (python/triton/language/core.py, semantic.py, standard.py):
* ``reshape`` keeps row-major order unless ``can_reorder=True``; ``view`` is deprecated and
  may reorder (so only the multiset of its elements is checked); ``cat`` requires
  ``can_reorder=True`` and may reorder too.
* ``join(a, b)`` adds a new minor dimension of size 2; ``split`` is its inverse;
  ``interleave(a, b)`` is ``join`` followed by a reshape.
* All block dimensions are powers of two.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import NP, TORCH, data, dev, offsets2, offsets3, tl_dtype

# --------------------------------------------------------------------------------------
# program_id / num_programs
# --------------------------------------------------------------------------------------


@triton.jit
def _program_id_kernel(OUT):
    p0 = tl.program_id(0)
    p1 = tl.program_id(axis=1)
    p2 = tl.program_id(2)
    n0 = tl.num_programs(0)
    n1 = tl.num_programs(1)
    n2 = tl.num_programs(axis=2)
    tl.static_assert(p0.dtype == tl.int32)
    lin = p0 + n0 * (p1 + n1 * p2)
    tl.store(OUT + lin * 4 + 0, p0)
    tl.store(OUT + lin * 4 + 1, p1)
    tl.store(OUT + lin * 4 + 2, p2)
    tl.store(OUT + lin * 4 + 3, n0 * 100 + n1 * 10 + n2)


def test_program_id_and_num_programs(device):
    grid = (3, 2, 4)
    out = torch.full((24 * 4,), -1, dtype=torch.int32, device=device)
    _program_id_kernel[grid](out)
    got = out.cpu().numpy().reshape(4, 2, 3, 4)  # [p2][p1][p0][field]
    p2, p1, p0 = np.meshgrid(np.arange(4), np.arange(2), np.arange(3), indexing="ij")
    np.testing.assert_array_equal(got[..., 0], p0)
    np.testing.assert_array_equal(got[..., 1], p1)
    np.testing.assert_array_equal(got[..., 2], p2)
    assert (got[..., 3] == 324).all()


# --------------------------------------------------------------------------------------
# arange, full, zeros
# --------------------------------------------------------------------------------------


@triton.jit
def _arange_kernel(OUT, START: tl.constexpr, END: tl.constexpr):
    r = tl.arange(START, END)
    tl.static_assert(r.dtype == tl.int32)
    tl.static_assert(r.shape[0] == END - START)
    tl.store(OUT + tl.arange(0, END - START), r)


@pytest.mark.parametrize("start, end", [(0, 1), (0, 16), (8, 24), (1024, 2048), (5, 7)])
def test_arange(start, end, device):
    out = torch.empty(end - start, dtype=torch.int32, device=device)
    _arange_kernel[(1,)](out, START=start, END=end)
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(start, end, dtype=np.int32))


@triton.jit
def _full_kernel(OUT, VALUE: tl.constexpr, DT: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    x = tl.full((M, N), VALUE, DT)
    tl.static_assert(DT == x.dtype)
    tl.static_assert(len(x.shape) == 2)
    tl.store(OUT + offsets2(M, N), x)


FULL_CASES = [("int8", -3), ("uint8", 200), ("int32", 7), ("int64", 2 ** 40), ("float16", 1.5),
              ("bfloat16", -2.25), ("float32", 0.1), ("float64", 0.1)]


@pytest.mark.parametrize("dtype, value", FULL_CASES)
def test_full(dtype, value, device):
    out = torch.empty((4, 8), dtype=TORCH[dtype], device=device)
    _full_kernel[(1,)](out, VALUE=value, DT=tl_dtype(dtype), M=4, N=8)
    got = out.cpu().float().numpy() if dtype == "bfloat16" else out.cpu().numpy()
    expected = np.float32(value) if dtype == "bfloat16" else np.array(value).astype(NP[dtype])
    assert (got == expected).all(), (got[0, 0], expected)


@triton.jit
def _full_runtime_kernel(OUT, v, BLOCK: tl.constexpr):
    x = tl.full([BLOCK], v, tl.float32)    # a run-time scalar value, converted to the dtype
    y = tl.full([BLOCK], v, tl.int8)
    tl.store(OUT + tl.arange(0, BLOCK), x + y)


def test_full_with_runtime_value(device):
    out = torch.empty(16, dtype=torch.float32, device=device)
    _full_runtime_kernel[(1,)](out, 3.75, BLOCK=16)
    # fp32 3.75 + int8(3.75) = 3.75 + 3 (float -> int truncates)
    assert (out.cpu().numpy() == 6.75).all()


@triton.jit
def _zeros_kernel(X, Z0, Z1, DT: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    offs = offsets2(M, N)
    x = tl.load(X + offs)
    z0 = tl.zeros((M, N), dtype=DT)
    z1 = tl.zeros_like(x)
    tl.static_assert(DT == z0.dtype)
    tl.static_assert(z1.dtype == x.dtype)
    tl.store(Z0 + offs, z0 + 1)
    tl.store(Z1 + offs, z1 + x)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float16", "float32"])
def test_zeros_and_zeros_like(dtype, device):
    x = data(dtype, (8, 16))
    z0 = torch.empty((8, 16), dtype=TORCH[dtype], device=device)
    z1 = torch.empty((8, 16), dtype=TORCH[dtype], device=device)
    _zeros_kernel[(1,)](dev(x, device), z0, z1, DT=tl_dtype(dtype), M=8, N=16)
    assert (z0.cpu().numpy() == 1).all()
    np.testing.assert_array_equal(z1.cpu().numpy(), x)


# --------------------------------------------------------------------------------------
# broadcasting, expand_dims, None-indexing
# --------------------------------------------------------------------------------------


@triton.jit
def _broadcast_kernel(X, Y, Z0, Z1, Z2, Z3, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))                  # (N,)
    y = tl.load(Y + tl.arange(0, M))                  # (M,)
    offs = offsets2(M, N)
    a = tl.broadcast_to(x[None, :], (M, N))           # tuple form
    b = tl.broadcast_to(y[:, None], M, N)             # varargs form
    tl.static_assert(a.shape[0] == M and a.shape[1] == N)
    tl.store(Z0 + offs, a)
    tl.store(Z1 + offs, b)
    c, d = tl.broadcast(x[None, :], y[:, None])       # both to (M, N)
    tl.store(Z2 + offs, c * 1000 + d)
    tl.store(Z3 + offs, x[None, :] - y[:, None])      # implicit broadcasting in arithmetic


def test_broadcast(device):
    M, N = 8, 16
    x = np.arange(N, dtype=np.int32) * 3
    y = np.arange(M, dtype=np.int32) - 4
    zs = [torch.empty((M, N), dtype=torch.int32, device=device) for _ in range(4)]
    _broadcast_kernel[(1,)](dev(x, device), dev(y, device), *zs, M=M, N=N)
    np.testing.assert_array_equal(zs[0].cpu().numpy(), np.broadcast_to(x[None, :], (M, N)))
    np.testing.assert_array_equal(zs[1].cpu().numpy(), np.broadcast_to(y[:, None], (M, N)))
    np.testing.assert_array_equal(zs[2].cpu().numpy(), x[None, :] * 1000 + y[:, None])
    np.testing.assert_array_equal(zs[3].cpu().numpy(), x[None, :] - y[:, None])


@triton.jit
def _expand_dims_kernel(X, Z, AXIS: tl.constexpr, N: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
                        S2: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.expand_dims(x, AXIS)
    if len(y.shape) == 2:
        tl.static_assert(y.shape[0] == S0 and y.shape[1] == S1)
        tl.store(Z + offsets2(S0, S1), y)
    else:
        tl.static_assert(y.shape[0] == S0 and y.shape[1] == S1 and y.shape[2] == S2)
        tl.store(Z + offsets3(S0, S1, S2), y)


@pytest.mark.parametrize("axis, shape", [(0, (1, 16, 0)), (1, (16, 1, 0)), (-1, (16, 1, 0)),
                                         ((0, 2), (1, 16, 1)),
                                         ((0, 1), (1, 1, 16))],
                         ids=["0", "1", "-1", "(0,2)", "(0,1)"])
def test_expand_dims(axis, shape, device):
    x = np.arange(16, dtype=np.int32) * 7
    z = torch.empty(16, dtype=torch.int32, device=device)
    _expand_dims_kernel[(1,)](dev(x, device), z, AXIS=axis, N=16, S0=shape[0], S1=shape[1], S2=shape[2])
    np.testing.assert_array_equal(z.cpu().numpy(), x)


@triton.jit
def _outer_kernel(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, M))
    y = tl.load(Y + tl.arange(0, N))
    col = x[:, None]
    row = y[None, :]
    tl.static_assert(col.shape[0] == M and col.shape[1] == 1)
    tl.static_assert(row.shape[0] == 1 and row.shape[1] == N)
    tl.store(Z + offsets2(M, N), col * row)


@pytest.mark.parametrize("m, n", [(4, 32), (16, 16), (32, 2)])
def test_none_indexing_outer_product(m, n, device):
    x = data("float32", (m,), 1)
    y = data("float32", (n,), 2)
    z = torch.empty((m, n), dtype=torch.float32, device=device)
    _outer_kernel[(1,)](dev(x, device), dev(y, device), z, M=m, N=n)
    np.testing.assert_array_equal(z.cpu().numpy(), np.outer(x, y))


@triton.jit
def _none_bound_slices_kernel(X, Z, M: tl.constexpr, NOTHING: tl.constexpr):
    x = tl.load(X + tl.arange(0, M))
    # Slices whose bounds are None (written, or a constexpr None) keep a dimension, as `:` does.
    a = x[None, None:]
    b = x[:None, NOTHING]
    c = x[NOTHING, None:None:None]
    tl.static_assert(a.shape[0] == 1 and a.shape[1] == M)
    tl.static_assert(b.shape[0] == M and b.shape[1] == 1)
    tl.static_assert(c.shape[0] == 1 and c.shape[1] == M)
    # Sums only: a product and a sum may be one FMA (enable_fp_fusion), not numpy's two roundings.
    tl.store(Z + offsets2(M, M), a + b + c)


def test_slices_with_none_bounds(device):
    x = data("float32", (8,), 3)
    z = torch.empty((8, 8), dtype=torch.float32, device=device)
    _none_bound_slices_kernel[(1,)](dev(x, device), z, M=8, NOTHING=None)
    np.testing.assert_array_equal(z.cpu().numpy(), x[None, :] + x[:, None] + x[None, :])


# --------------------------------------------------------------------------------------
# reshape, view, ravel
# --------------------------------------------------------------------------------------


@triton.jit
def _reshape_kernel(X, Z, Zm, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr,
                    E: tl.constexpr):
    # (A, B) -> (C, D) with tl.reshape, and (A, B) -> (E, A * B // E) with the method form
    x = tl.load(X + offsets2(A, B))
    y = tl.reshape(x, (C, D))
    tl.static_assert(y.shape[0] == C and y.shape[1] == D)
    tl.store(Z + offsets2(C, D), y)
    w = x.reshape(E, A * B // E)
    tl.store(Zm + offsets2(E, A * B // E), w)


@pytest.mark.parametrize("a, b, c, d, e", [(4, 16, 16, 4, 8), (8, 8, 2, 32, 1), (1, 64, 64, 1, 64),
                                           (32, 2, 8, 8, 4)])
@pytest.mark.parametrize("dtype", ["int16", "float32"])
def test_reshape_keeps_row_major_order(a, b, c, d, e, dtype, device):
    x = data(dtype, (a, b))
    z = torch.empty((c, d), dtype=TORCH[dtype], device=device)
    zm = torch.empty((e, a * b // e), dtype=TORCH[dtype], device=device)
    _reshape_kernel[(1,)](dev(x, device), z, zm, A=a, B=b, C=c, D=d, E=e)
    np.testing.assert_array_equal(z.cpu().numpy(), x.reshape(c, d))
    np.testing.assert_array_equal(zm.cpu().numpy(), x.reshape(e, -1))


@triton.jit
def _reshape3_kernel(X, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + offsets3(A, B, C))
    y = tl.reshape(x, A * B, C)
    tl.store(Z + offsets2(A * B, C), y)


def test_reshape_3d_to_2d(device):
    x = data("int32", (2, 4, 8))
    z = torch.empty((8, 8), dtype=torch.int32, device=device)
    _reshape3_kernel[(1,)](dev(x, device), z, A=2, B=4, C=8)
    np.testing.assert_array_equal(z.cpu().numpy(), x.reshape(8, 8))


@triton.jit
def _view_ravel_kernel(X, Zv, Zr, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N))
    v = tl.view(x, (N, M))              # may reorder
    tl.store(Zv + offsets2(N, M), v)
    r = tl.ravel(x)                      # row-major flattening
    tl.static_assert(len(r.shape) == 1 and r.shape[0] == M * N)
    tl.store(Zr + tl.arange(0, M * N), r)


def test_view_and_ravel(device):
    x = data("float32", (8, 16), 3)
    zv = torch.empty((16, 8), dtype=torch.float32, device=device)
    zr = torch.empty(128, dtype=torch.float32, device=device)
    _view_ravel_kernel[(1,)](dev(x, device), zv, zr, M=8, N=16)
    np.testing.assert_array_equal(np.sort(zv.cpu().numpy().ravel()), np.sort(x.ravel()))
    np.testing.assert_array_equal(zr.cpu().numpy(), x.ravel())


# --------------------------------------------------------------------------------------
# permute / trans / .T
# --------------------------------------------------------------------------------------


@triton.jit
def _trans2_kernel(X, Z0, Z1, Z2, Z3, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + offsets2(M, N))
    t_offs = offsets2(N, M)
    tl.store(Z0 + t_offs, tl.trans(x))
    tl.store(Z1 + t_offs, x.T)
    tl.store(Z2 + t_offs, tl.permute(x, (1, 0)))
    tl.store(Z3 + t_offs, x.trans(1, 0))


@pytest.mark.parametrize("m, n", [(16, 16), (8, 32), (64, 4)])
@pytest.mark.parametrize("dtype", ["int8", "float16", "float64"])
def test_trans_2d(m, n, dtype, device):
    x = data(dtype, (m, n))
    zs = [torch.empty((n, m), dtype=TORCH[dtype], device=device) for _ in range(4)]
    _trans2_kernel[(1,)](dev(x, device), *zs, M=m, N=n)
    for z in zs:
        np.testing.assert_array_equal(z.cpu().numpy(), x.T)


@triton.jit
def _permute3_kernel(X, Z0, Z1, Z2, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + offsets3(A, B, C))
    y = tl.permute(x, (2, 0, 1))                 # shape (C, A, B)
    tl.static_assert(y.shape[0] == C and y.shape[1] == A and y.shape[2] == B)
    tl.store(Z0 + offsets3(C, A, B), y)
    tl.store(Z1 + offsets3(B, C, A), tl.permute(x, 1, 2, 0))   # varargs form
    tl.store(Z2 + offsets3(C, B, A), tl.trans(x, 2, 1, 0))


def test_permute_3d(device):
    a, b, c = 2, 4, 8
    x = data("int32", (a, b, c))
    z0 = torch.empty((c, a, b), dtype=torch.int32, device=device)
    z1 = torch.empty((b, c, a), dtype=torch.int32, device=device)
    z2 = torch.empty((c, b, a), dtype=torch.int32, device=device)
    _permute3_kernel[(1,)](dev(x, device), z0, z1, z2, A=a, B=b, C=c)
    np.testing.assert_array_equal(z0.cpu().numpy(), np.transpose(x, (2, 0, 1)))
    np.testing.assert_array_equal(z1.cpu().numpy(), np.transpose(x, (1, 2, 0)))
    np.testing.assert_array_equal(z2.cpu().numpy(), np.transpose(x, (2, 1, 0)))


# --------------------------------------------------------------------------------------
# cat, join, split, interleave
# --------------------------------------------------------------------------------------


@triton.jit
def _cat_kernel(X, Y, Z, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.load(Y + tl.arange(0, N))
    z = tl.cat(x, y, can_reorder=True)
    tl.static_assert(z.shape[0] == 2 * N)
    tl.store(Z + tl.arange(0, 2 * N), z)


@pytest.mark.parametrize("dtype", ["int32", "float32"])
@pytest.mark.parametrize("n", [16, 128])
def test_cat(dtype, n, device):
    x, y = data(dtype, (n,), 4), data(dtype, (n,), 5)
    z = torch.empty(2 * n, dtype=TORCH[dtype], device=device)
    _cat_kernel[(1,)](dev(x, device), dev(y, device), z, N=n)
    # cat may reorder elements: compare the multisets
    np.testing.assert_array_equal(np.sort(z.cpu().numpy()), np.sort(np.concatenate([x, y])))


@triton.jit
def _join_split_kernel(X, Y, J, A, B, I, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    j = tl.join(x, y)                                     # (N, 2)
    tl.static_assert(j.shape[0] == N and j.shape[1] == 2)
    tl.store(J + offsets2(N, 2), j)
    a, b = tl.split(j)                                    # back to (N,), (N,)
    tl.store(A + offs, a)
    tl.store(B + offs, b)
    i = tl.interleave(x, y)                               # (2N,): x0 y0 x1 y1 ...
    tl.static_assert(i.shape[0] == 2 * N)
    tl.store(I + tl.arange(0, 2 * N), i)


@pytest.mark.parametrize("dtype", ["int8", "int64", "float16", "float32"])
def test_join_split_interleave(dtype, device):
    n = 32
    x, y = data(dtype, (n,), 6), data(dtype, (n,), 7)
    j = torch.empty((n, 2), dtype=TORCH[dtype], device=device)
    a, b = (torch.empty(n, dtype=TORCH[dtype], device=device) for _ in range(2))
    i = torch.empty(2 * n, dtype=TORCH[dtype], device=device)
    _join_split_kernel[(1,)](dev(x, device), dev(y, device), j, a, b, i, N=n)
    np.testing.assert_array_equal(j.cpu().numpy(), np.stack([x, y], axis=-1))
    np.testing.assert_array_equal(a.cpu().numpy(), x)
    np.testing.assert_array_equal(b.cpu().numpy(), y)
    np.testing.assert_array_equal(i.cpu().numpy(), np.stack([x, y], axis=-1).ravel())


@triton.jit
def _interleave_scalars_kernel(a, b, Z):
    z = tl.interleave(a, b)  # two scalars: their join, shape (2,)
    tl.static_assert(z.shape[0] == 2 and len(z.shape) == 1)
    tl.store(Z + tl.arange(0, 2), z)


def test_interleave_scalars(device):
    z = torch.zeros(2, dtype=torch.int32, device=device)
    _interleave_scalars_kernel[(1,)](10, 20, z)
    assert z.tolist() == [10, 20]


@triton.jit
def _join2d_split_kernel(X, Y, J, E, O, M: tl.constexpr, N: tl.constexpr):
    offs = offsets2(M, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    j = tl.join(x, y)                                     # (M, N, 2)
    tl.store(J + offsets3(M, N, 2), j)
    # split a block read from memory: even and odd columns of an (M, 2N) matrix
    w = tl.load(X + offsets2(M // 2, 2 * N))             # the same memory seen as (M/2, 2N)
    e, o = tl.split(tl.reshape(w, (M // 2, N, 2)))
    tl.store(E + offsets2(M // 2, N), e)
    tl.store(O + offsets2(M // 2, N), o)


def test_join_split_2d(device):
    m, n = 8, 16
    x, y = data("int32", (m, n), 8), data("int32", (m, n), 9)
    j = torch.empty((m, n, 2), dtype=torch.int32, device=device)
    e = torch.empty((m // 2, n), dtype=torch.int32, device=device)
    o = torch.empty((m // 2, n), dtype=torch.int32, device=device)
    _join2d_split_kernel[(1,)](dev(x, device), dev(y, device), j, e, o, M=m, N=n)
    np.testing.assert_array_equal(j.cpu().numpy(), np.stack([x, y], axis=-1))
    w = x.reshape(m // 2, 2 * n)
    np.testing.assert_array_equal(e.cpu().numpy(), w[:, 0::2])
    np.testing.assert_array_equal(o.cpu().numpy(), w[:, 1::2])


# --------------------------------------------------------------------------------------
# flip
# --------------------------------------------------------------------------------------


@triton.jit
def _flip1_kernel(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.flip(tl.load(X + offs), 0))


@pytest.mark.parametrize("n", [2, 16, 256])
@pytest.mark.parametrize("dtype", ["int32", "float16", "float32"])
def test_flip_1d(n, dtype, device):
    x = data(dtype, (n,), 10)
    z = torch.empty(n, dtype=TORCH[dtype], device=device)
    _flip1_kernel[(1,)](dev(x, device), z, N=n)
    np.testing.assert_array_equal(z.cpu().numpy(), x[::-1])


@triton.jit
def _flip2_kernel(X, Z, DIM: tl.constexpr, M: tl.constexpr, N: tl.constexpr):
    offs = offsets2(M, N)
    tl.store(Z + offs, tl.flip(tl.load(X + offs), DIM))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_flip_2d(dim, device):
    x = data("float32", (8, 16), 11)
    z = torch.empty((8, 16), dtype=torch.float32, device=device)
    _flip2_kernel[(1,)](dev(x, device), z, DIM=dim, M=8, N=16)
    np.testing.assert_array_equal(z.cpu().numpy(), np.flip(x, axis=dim))


# --------------------------------------------------------------------------------------
# .shape / .dtype / .numel as compile-time values
# --------------------------------------------------------------------------------------


@triton.jit
def _compile_time_kernel(X, Z, M: tl.constexpr, N: tl.constexpr):
    tl.static_assert(X.dtype.element_ty == tl.float16)   # pointer element type
    x = tl.load(X + offsets2(M, N))
    tl.static_assert(len(x.shape) == 2)
    tl.static_assert(x.shape[0] == M and x.shape[1] == N)
    tl.static_assert(x.numel == M * N)
    tl.static_assert(x.dtype == tl.float16)
    tl.static_assert(x.dtype.is_floating())
    tl.static_assert(x.dtype.is_fp16())
    tl.static_assert(x.dtype.primitive_bitwidth == 16)
    # shapes drive other compile-time constructs
    r = tl.arange(0, x.shape[1])
    HALF: tl.constexpr = x.shape[0] // 2
    y = x.to(tl.float32)
    if x.dtype == tl.float16:     # resolved at compile time
        y = y * 2
    else:
        y = y * 1000
    col = tl.sum(y, axis=0)                               # (N,)
    tl.store(Z + r, col + HALF)


def test_shape_and_dtype_at_compile_time(device):
    x = data("float16", (8, 16), 12)
    z = torch.empty(16, dtype=torch.float32, device=device)
    _compile_time_kernel[(1,)](dev(x, device), z, M=8, N=16)
    ref = (x.astype(np.float32) * 2).sum(axis=0) + 4
    np.testing.assert_allclose(z.cpu().numpy(), ref, rtol=1e-5)
