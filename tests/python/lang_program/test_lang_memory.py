"""Memory operations of triton.language: load/store with mask and other, 2-D pointer blocks,
strided tensors, cache/eviction/volatile hints, block pointers (make_block_ptr, advance,
boundary_check, padding_option), pointers loaded from memory, scalar loads and stores.

Semantics (python/triton/language/semantic.py, load/_load_legacy/_store_legacy/_load_block_pointer):
* ``other`` requires ``mask`` and is converted to the pointer's element type; masked-off lanes
  of a store are not written.
* A store converts the value to the pointer's element type; a block-pointer store requires
  the value's element type to equal the block's (no implicit conversion).
* ``padding_option`` ("zero" or "nan") fills the parts of a block pointer's tile that
  ``boundary_check`` finds out of bounds; "nan" is rejected for integers.
* bool tensors are ``*i1`` pointers, stored one byte per element.
* Cache modifiers (load: "", ".ca", ".cg", ".cv"; store: "", ".wb", ".cg", ".cs", ".wt"),
  eviction policies ("evict_first", "evict_last") and ``volatile`` are hints: results do not change.
  On NVIDIA an eviction policy cannot be combined with a cache modifier or volatile (ptxas:
  "Modifier '.evict_last' cannot be combined with modifier '.ca'"), so the cases keep them apart.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import NP, TORCH, data, dev, host

# --------------------------------------------------------------------------------------
# masked 1-D loads and stores over a grid
# --------------------------------------------------------------------------------------


@triton.jit
def _copy_masked_kernel(X, Z, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)
    tl.store(Z + offs, x, mask=mask)


@pytest.mark.parametrize("n", [1, 100, 1000])
@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float16", "bfloat16", "float64"])
def test_masked_copy(n, dtype, device):
    BLOCK = 128
    x = data(dtype, (n,), 1)
    pad = 40
    z = torch.full((n + pad,), 77, dtype=TORCH[dtype], device=device)
    grid = (triton.cdiv(n, BLOCK),)
    _copy_masked_kernel[grid](dev(x, device, dtype), z, n, BLOCK=BLOCK)
    got = host(z)
    np.testing.assert_array_equal(got[:n], x.astype(got.dtype))
    assert (got[n:] == 77).all(), "masked-off lanes were written"


@triton.jit
def _load_other_kernel(X, Z0, Z1, Z2, Z3, n, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(X + offs, mask=mask, other=float("-inf"))
    tl.store(Z0 + offs, a)
    b = tl.load(X + offs, mask=mask, other=7)                    # int literal, converted to the element type
    tl.store(Z1 + offs, b)
    c = tl.load(X + offs, mask=mask, other=tl.full((BLOCK,), 2.5, tl.float32) * offs)  # a block
    tl.store(Z2 + offs, c)
    d = tl.load(X + offs, mask=mask, other=r)                    # a run-time scalar
    tl.store(Z3 + offs, d)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_load_other(dtype, device):
    BLOCK, n = 64, 37
    x = data(dtype, (BLOCK,), 2)
    zs = [torch.empty(BLOCK, dtype=TORCH[dtype], device=device) for _ in range(4)]
    _load_other_kernel[(1,)](dev(x, device), *zs, n, 0.25, BLOCK=BLOCK)
    offs = np.arange(BLOCK)
    m = offs < n
    exp = [np.where(m, x, -np.inf), np.where(m, x, 7), np.where(m, x, 2.5 * offs), np.where(m, x, 0.25)]
    for z, e in zip(zs, exp):
        np.testing.assert_array_equal(host(z), e.astype(NP[dtype]))


@triton.jit
def _load_other_int_kernel(X, Z, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=-1)
    tl.static_assert(x.dtype == X.dtype.element_ty)
    tl.store(Z + offs, x)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64"])
def test_load_other_int(dtype, device):
    BLOCK, n = 32, 20
    x = data(dtype, (BLOCK,), 3)
    z = torch.empty(BLOCK, dtype=TORCH[dtype], device=device)
    _load_other_int_kernel[(1,)](dev(x, device), z, n, BLOCK=BLOCK)
    ref = np.where(np.arange(BLOCK) < n, x, np.array(-1).astype(NP[dtype]))  # uint8: 255
    np.testing.assert_array_equal(host(z), ref.astype(NP[dtype]))


# --------------------------------------------------------------------------------------
# 2-D pointer blocks, strides, ragged edges
# --------------------------------------------------------------------------------------


@triton.jit
def _copy2d_kernel(X, Z, M, N, sxm, sxn, szm, szn, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(X + rm[:, None] * sxm + rn[None, :] * sxn, mask=mask, other=0.0)
    tl.store(Z + rm[:, None] * szm + rn[None, :] * szn, x * 2, mask=mask)


@pytest.mark.parametrize("m, n, bm, bn", [(16, 16, 16, 16), (37, 50, 16, 32), (5, 130, 8, 64), (100, 3, 32, 4)])
def test_2d_tiles_ragged(m, n, bm, bn, device):
    x = data("float32", (m, n), 4)
    xd = dev(x, device)
    z = torch.full((m, n), -5.0, dtype=torch.float32, device=device)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    _copy2d_kernel[grid](xd, z, m, n, xd.stride(0), xd.stride(1), z.stride(0), z.stride(1), BM=bm, BN=bn)
    np.testing.assert_array_equal(host(z), x * 2)


@pytest.mark.parametrize("view", ["transposed", "every_other_column", "row_slice"])
def test_2d_strided_views(view, device):
    base = dev(data("float32", (32, 48), 5), device)
    if view == "transposed":
        x = base.t()                 # strides (1, 48)
    elif view == "every_other_column":
        x = base[:, ::2]             # strides (48, 2)
    else:
        x = base[3:20, 5:40]         # offset data pointer, strides (48, 1)
    m, n = x.shape
    z = torch.empty((n, m), dtype=torch.float32, device=device).t()  # a transposed destination too
    grid = (triton.cdiv(m, 16), triton.cdiv(n, 16))
    _copy2d_kernel[grid](x, z, m, n, x.stride(0), x.stride(1), z.stride(0), z.stride(1), BM=16, BN=16)
    np.testing.assert_array_equal(host(z), host(x) * 2)


@triton.jit
def _wrapped_columns_kernel(X, Z, W, R, C, sx, sz, STEP: tl.constexpr, KS: tl.constexpr,
                            BR: tl.constexpr, BC: tl.constexpr, OFFSETS_FIRST: tl.constexpr):
    # Tutorial 03's column wrap: per-row pointers plus wrapped columns, advanced in a loop;
    # the offsets summed first (as the tutorial writes it) or added to the pointer one by one.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BR + tl.arange(0, BR)
    cols = (pid_n * BC + tl.arange(0, BC)) % C
    if OFFSETS_FIRST:
        ptrs = X + (rows[:, None] * sx + cols[None, :] * STEP)
    else:
        ptrs = X + rows[:, None] * sx + cols[None, :] * STEP
    acc = tl.zeros((BR, BC), dtype=tl.float32)
    for _ in range(KS):
        acc += tl.load(ptrs, mask=rows[:, None] < R, other=0.5)
        ptrs += R * sx
    out_cols = pid_n * BC + tl.arange(0, BC)
    tl.store(Z + rows[:, None] * sz + out_cols[None, :], acc, mask=rows[:, None] < R)
    # A store through wrapped columns: the programs that wrap write columns others write too,
    # with the same values.
    first = tl.load(X + rows[:, None] * sx + cols[None, :] * STEP, mask=rows[:, None] < R)
    tl.store(W + rows[:, None] * C + cols[None, :], first, mask=rows[:, None] < R)


@pytest.mark.parametrize("c", [100, 128, 30, 64])
@pytest.mark.parametrize("step", [1, 2])
@pytest.mark.parametrize("offsets_first", [False, True])
def test_wrapped_columns(c, step, offsets_first, device):
    """`(pid * BLOCK + arange) % C` as columns: contiguous rows where the tile does not wrap
    (tl's PtrCols), gathers where it does; the same values either way."""
    r, ks, br, bc = 37, 2, 16, 64
    x = data("float32", (ks * r, c * step), 7)
    tiles = triton.cdiv(c, bc)
    z = torch.full((r, tiles * bc), -9.0, dtype=torch.float32, device=device)
    w = torch.full((r, c), -9.0, dtype=torch.float32, device=device)
    xd = dev(x, device)
    grid = (triton.cdiv(r, br), tiles)
    _wrapped_columns_kernel[grid](xd, z, w, r, c, xd.stride(0), z.stride(0), STEP=step, KS=ks,
                                  BR=br, BC=bc, OFFSETS_FIRST=offsets_first)
    j = np.arange(tiles * bc) % c
    want = sum(x[k * r:(k + 1) * r][:, j * step] for k in range(ks))
    np.testing.assert_array_equal(host(z), want)
    np.testing.assert_array_equal(host(w), x[:r, ::step][:, :c])


@triton.jit
def _row_pointers_kernel(X, OUT, M: tl.constexpr, N: tl.constexpr):
    # Tutorial 03's wrapped rows: a pointer plus a column of explicit offsets ([M, 1]), which tl
    # keeps as one offset per row (a structured pointer); every use of a pointer block must see
    # the same pointers as a block of them.
    rows = (tl.arange(0, M) * 3) % M
    p = X + rows[:, None] * N
    tiles = tl.load(tl.broadcast_to(p, (M, N)) + tl.arange(0, N)[None, :])
    first = tl.load(tl.reshape(p, (M,)))
    as_row = tl.load(tl.trans(p))
    chosen = tl.load(tl.where(rows[:, None] > 2, p, X + rows[:, None] * 0))
    masked = tl.load(p + 1, mask=rows[:, None] < 5, other=-1.0)
    moved = tl.load(p + rows[:, None] % N)
    o = tl.arange(0, M)
    tl.store(OUT + o[:, None] * N + tl.arange(0, N)[None, :], tiles)
    tl.store(OUT + M * N + o, first)
    tl.store(OUT + M * N + M + o[None, :], as_row)
    tl.store(OUT + M * N + 2 * M + o[:, None], chosen)
    tl.store(OUT + M * N + 3 * M + o[:, None], masked)
    tl.store(OUT + M * N + 4 * M + o[:, None], moved)
    tl.atomic_add(p + N - 1, 1.0)


def test_a_column_of_row_pointers_in_every_use(device):
    m, n = 8, 4
    x = torch.arange(m * n, dtype=torch.float32, device=device)
    out = torch.zeros(m * n + 5 * m, dtype=torch.float32, device=device)
    _row_pointers_kernel[(1,)](x, out, M=m, N=n)
    xs = np.arange(m * n, dtype=np.float32).reshape(m, n)
    rows = (np.arange(m) * 3) % m
    got = out.cpu().numpy()
    np.testing.assert_array_equal(got[:m * n].reshape(m, n), xs[rows])
    parts = got[m * n:].reshape(5, m)
    np.testing.assert_array_equal(parts[0], xs[rows, 0])
    np.testing.assert_array_equal(parts[1], xs[rows, 0])
    np.testing.assert_array_equal(parts[2], np.where(rows > 2, xs[rows, 0], xs[0, 0]))
    np.testing.assert_array_equal(parts[3], np.where(rows < 5, xs[rows, 1], -1))
    np.testing.assert_array_equal(parts[4], xs[rows, rows % n])
    expected = xs.copy()
    expected[:, n - 1] += 1
    np.testing.assert_array_equal(x.cpu().numpy().reshape(m, n), expected)


@triton.jit
def _offset_types_kernel(X, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(X + offs.to(tl.int64))                  # int64 offsets
    b = tl.load(X + offs.to(tl.uint32))                 # unsigned offsets (zero-extended)
    c = tl.load(X + offs.to(tl.int16))                  # narrow offsets
    p = X + BLOCK                                       # pointer arithmetic on a scalar pointer
    p = p - BLOCK // 2
    d = tl.load(p + offs - BLOCK // 2)
    tl.store(Z + offs, a + b + c + d)


def test_offset_dtypes_and_pointer_arithmetic(device):
    x = data("int32", (64,), 6)
    z = torch.empty(64, dtype=torch.int32, device=device)
    _offset_types_kernel[(1,)](dev(x, device), z, BLOCK=64)
    np.testing.assert_array_equal(host(z), 4 * x)


# --------------------------------------------------------------------------------------
# hints
# --------------------------------------------------------------------------------------


@triton.jit
def _hints_kernel(X, Z, n, CACHE: tl.constexpr, EVICT: tl.constexpr, VOLATILE: tl.constexpr,
                  SCACHE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0, cache_modifier=CACHE, eviction_policy=EVICT, volatile=VOLATILE)
    tl.store(Z + offs, x + 1, mask=mask, cache_modifier=SCACHE, eviction_policy=EVICT)


@pytest.mark.parametrize("cache, evict, volatile, scache", [
    ("", "", False, ""),
    (".ca", "", False, ".wb"),
    (".cg", "", False, ".cg"),
    (".cv", "", False, ".cs"),
    ("", "", True, ".wt"),
    ("", "evict_last", False, ""),
    ("", "evict_first", False, ""),
])
def test_cache_and_eviction_hints(cache, evict, volatile, scache, device):
    n = 300
    x = data("int32", (n,), 7)
    z = torch.zeros(n, dtype=torch.int32, device=device)
    _hints_kernel[(triton.cdiv(n, 128),)](dev(x, device), z, n, CACHE=cache, EVICT=evict, VOLATILE=volatile,
                                           SCACHE=scache, BLOCK=128)
    np.testing.assert_array_equal(host(z), x + 1)


# --------------------------------------------------------------------------------------
# block pointers
# --------------------------------------------------------------------------------------


@triton.jit
def _block_ptr_copy_kernel(X, Z, M, N, sxm, sxn, szm, szn, BM: tl.constexpr, BN: tl.constexpr,
                           PADDING: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(base=X, shape=(M, N), strides=(sxm, sxn), offsets=(pid_m * BM, pid_n * BN),
                            block_shape=(BM, BN), order=(1, 0))
    dst = tl.make_block_ptr(base=Z, shape=(M, N), strides=(szm, szn), offsets=(pid_m * BM, pid_n * BN),
                            block_shape=(BM, BN), order=(1, 0))
    x = tl.load(src, boundary_check=(0, 1), padding_option=PADDING)
    tl.store(dst, x, boundary_check=(0, 1))


@pytest.mark.parametrize("m, n", [(32, 32), (37, 50), (8, 70)])
def test_block_ptr_copy_with_boundary_check(m, n, device):
    x = data("float32", (m, n), 8)
    xd = dev(x, device)
    z = torch.full((m + 3, n), -9.0, dtype=torch.float32, device=device)  # rows past M must stay
    bm, bn = 16, 32
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    _block_ptr_copy_kernel[grid](xd, z, m, n, xd.stride(0), xd.stride(1), z.stride(0), z.stride(1), BM=bm,
                                 BN=bn, PADDING="zero")
    got = host(z)
    np.testing.assert_array_equal(got[:m], x)
    assert (got[m:] == -9.0).all()


@triton.jit
def _block_ptr_padding_kernel(X, Z, M, N, BM: tl.constexpr, BN: tl.constexpr, PADDING: tl.constexpr,
                              CHECK: tl.constexpr):
    # one tile that sticks out of the (M, N) tensor at the bottom and the right
    src = tl.make_block_ptr(X, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    if CHECK == 0:
        x = tl.load(src, boundary_check=(0,), padding_option=PADDING)
    elif CHECK == 1:
        x = tl.load(src, boundary_check=(1,), padding_option=PADDING)
    else:
        x = tl.load(src, boundary_check=(0, 1), padding_option=PADDING)
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(Z + offs, x)


@pytest.mark.parametrize("padding", ["zero", "nan"])
@pytest.mark.parametrize("check", [0, 1, 2], ids=["rows", "cols", "both"])
def test_block_ptr_padding(padding, check, device):
    BM, BN = 16, 16
    # the tensor is 10 x 12, but backed by enough memory that an unchecked dimension stays in bounds
    m, n = 10, 12
    backing = np.arange(BM * BN * 2, dtype=np.float32) + 1
    x = torch.from_numpy(backing).to(device)
    z = torch.empty((BM, BN), dtype=torch.float32, device=device)
    if check == 1:   # only columns are checked: make rows in bounds (M = BM)
        m = BM
    if check == 0:   # only rows are checked: columns are in bounds (N = BN)
        n = BN
    _block_ptr_padding_kernel[(1,)](x, z, m, n, BM=BM, BN=BN, PADDING=padding, CHECK=check)
    got = host(z)
    fill = 0.0 if padding == "zero" else np.nan
    r, c = np.meshgrid(np.arange(BM), np.arange(BN), indexing="ij")
    inside = (r < m) & (c < n)
    expected = np.where(inside, backing[(r * n + c) % backing.size], fill)
    np.testing.assert_array_equal(got, expected.astype(np.float32))


@triton.jit
def _block_ptr_rowsum_kernel(X, OUT, M, K, sxm, sxk, BM: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    ptr = tl.make_block_ptr(X, shape=(M, K), strides=(sxm, sxk), offsets=(pid * BM, 0), block_shape=(BM, BK),
                            order=(1, 0))
    acc = tl.zeros((BM,), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BK)):
        tile = tl.load(ptr, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(tile, axis=1)
        ptr = tl.advance(ptr, (0, BK))
    out = tl.make_block_ptr(OUT, shape=(M,), strides=(1,), offsets=(pid * BM,), block_shape=(BM,), order=(0,))
    tl.store(out, acc, boundary_check=(0,))


@pytest.mark.parametrize("m, k", [(16, 64), (30, 100), (64, 7)])
def test_block_ptr_advance(m, k, device):
    x = (np.random.RandomState(9).randint(-8, 8, size=(m, k))).astype(np.float32)  # exact sums
    xd = dev(x, device)
    out = torch.full((m + 5,), 123.0, dtype=torch.float32, device=device)
    _block_ptr_rowsum_kernel[(triton.cdiv(m, 16),)](xd, out, m, k, xd.stride(0), xd.stride(1), BM=16, BK=32)
    got = host(out)
    np.testing.assert_array_equal(got[:m], x.sum(axis=1))
    assert (got[m:] == 123.0).all()


@triton.jit
def _block_ptr_transposed_kernel(X, Z, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # read an (N, M) row-major matrix as its transpose (M, N) through the strides; order=(0, 1)
    src = tl.make_block_ptr(X, shape=(M, N), strides=(1, M), offsets=(0, 0), block_shape=(BM, BN), order=(0, 1))
    x = tl.load(src)
    dst = tl.make_block_ptr(Z, shape=(M, N), strides=(N, 1), offsets=(0, 0), block_shape=(BM, BN), order=(1, 0))
    tl.store(dst, x)


def test_block_ptr_column_major(device):
    x = data("int32", (32, 16), 10)  # (N, M) with N = 32, M = 16
    z = torch.empty((16, 32), dtype=torch.int32, device=device)
    _block_ptr_transposed_kernel[(1,)](dev(x, device), z, 16, 32, BM=16, BN=32)
    np.testing.assert_array_equal(host(z), x.T)


# --------------------------------------------------------------------------------------
# pointers loaded from memory (tutorial 08's pattern)
# --------------------------------------------------------------------------------------


@triton.jit
def _pointer_table_kernel(SRC_TABLE, DST_TABLE, LENS, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    n = tl.load(LENS + g)
    src = tl.load(SRC_TABLE + g).to(tl.pointer_type(tl.float32))
    dst = tl.load(DST_TABLE + g).to(tl.pointer_type(tl.float32))
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(src + offs, mask=mask)
        tl.store(dst + offs, x * 2 + g, mask=mask)   # x * 2 is exact: no FMA-contraction difference


def test_pointers_loaded_from_memory(device):
    lens = [5, 64, 200, 1]
    srcs = [dev(data("float32", (k,), 20 + i), device) for i, k in enumerate(lens)]
    dsts = [torch.zeros(k, dtype=torch.float32, device=device) for k in lens]
    src_table = torch.tensor([t.data_ptr() for t in srcs], dtype=torch.int64, device=device)
    dst_table = torch.tensor([t.data_ptr() for t in dsts], dtype=torch.int64, device=device)
    lens_t = torch.tensor(lens, dtype=torch.int32, device=device)
    _pointer_table_kernel[(len(lens),)](src_table, dst_table, lens_t, BLOCK=64)
    for g, (s, d) in enumerate(zip(srcs, dsts)):
        np.testing.assert_array_equal(host(d), host(s) * 2 + g)


# --------------------------------------------------------------------------------------
# scalar loads and stores; bool tensors
# --------------------------------------------------------------------------------------


@triton.jit
def _scalar_kernel(X, Y, n, i):
    v = tl.load(X + 3)                                   # a scalar load
    tl.static_assert(len(v.shape) == 0)
    tl.store(Y, v * 2)                                   # a scalar store
    w = tl.load(X + i, mask=i < n, other=-1.0)           # masked scalar load
    tl.store(Y + 1, w)
    tl.store(Y + 2, 5.0, mask=i >= n)                    # masked scalar store of a constant
    tl.store(Y + 3, 6.0, mask=i < n)


@pytest.mark.parametrize("i", [2, 10])
def test_scalar_load_store(i, device):
    x = np.arange(8, dtype=np.float32) + 0.5
    y = torch.zeros(4, dtype=torch.float32, device=device)
    _scalar_kernel[(1,)](dev(x, device), y, 8, i)
    got = host(y)
    assert got[0] == 7.0
    assert got[1] == (x[i] if i < 8 else -1.0)
    assert got[2] == (5.0 if i >= 8 else 0.0)
    assert got[3] == (6.0 if i < 8 else 0.0)


@triton.jit
def _bool_kernel(B, Z, OUT_B, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    b = tl.load(B + offs)
    tl.static_assert(b.dtype == tl.int1)
    tl.store(Z + offs, tl.where(b, 10, 20))
    tl.store(OUT_B + offs, offs % 3 == 0)


def test_bool_tensors(device):
    b = np.random.RandomState(11).randint(0, 2, size=64).astype(bool)
    z = torch.empty(64, dtype=torch.int32, device=device)
    ob = torch.zeros(64, dtype=torch.bool, device=device)
    _bool_kernel[(1,)](dev(b, device), z, ob, BLOCK=64)
    np.testing.assert_array_equal(host(z), np.where(b, 10, 20))
    np.testing.assert_array_equal(host(ob), np.arange(64) % 3 == 0)


@triton.jit
def _store_broadcast_kernel(Z, Z2, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(Z + offs, 3.5)                               # a scalar broadcast to the pointer block
    tl.store(Z2 + offs, tl.arange(0, N)[None, :])         # a row broadcast to (M, N), converted to fp16


def test_store_broadcasts_value(device):
    z = torch.zeros((4, 8), dtype=torch.float32, device=device)
    z2 = torch.zeros((4, 8), dtype=torch.float16, device=device)
    _store_broadcast_kernel[(1,)](z, z2, M=4, N=8)
    assert (host(z) == 3.5).all()
    np.testing.assert_array_equal(host(z2), np.broadcast_to(np.arange(8, dtype=np.float16), (4, 8)))


@triton.jit
def _expand_pointer_range_kernel(X, Z, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr,
                                 STEP: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    z = tl.sum(x, axis=AXIS, keep_dims=True)
    # A range of pointers made 2-D: how Triton's test_reduce stores a keep_dims result.
    if AXIS == 0:
        z_ptr = Z + tl.arange(0, N) * STEP
    else:
        z_ptr = Z + tl.arange(0, M) * STEP
    tl.store(tl.expand_dims(z_ptr, axis=AXIS), z)


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("step", [1, 3])
def test_expand_dims_of_pointer_range(axis, step, device):
    M, N = 4, 8
    x = np.arange(M * N, dtype=np.float32).reshape(M, N)
    count = (N if axis == 0 else M)
    z = torch.full((count * step,), -1.0, dtype=torch.float32, device=device)
    _expand_pointer_range_kernel[(1,)](dev(x, device), z, M=M, N=N, AXIS=axis, STEP=step)
    want = np.full(count * step, -1.0, dtype=np.float32)
    want[::step] = x.sum(axis=axis)
    np.testing.assert_array_equal(host(z), want)
