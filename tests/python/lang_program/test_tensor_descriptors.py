"""Tensor descriptors (Triton's TMA API) on the CPU: made in the kernel with
tl.make_tensor_descriptor, or on the host with triton.tools.tensor_descriptor.TensorDescriptor;
loads outside the tensor read zeros (or NaN), stores outside it write nothing, as on a GPU;
likewise the row gathers and scatters (desc.gather / desc.scatter)."""

from __future__ import annotations

import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _copy_plus_one(X, Z, M, N, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    src = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN],
                                    padding_option=PAD)
    dst = tl.make_tensor_descriptor(Z, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    i = tl.program_id(0) * BM
    j = tl.program_id(1) * BN
    tile = src.load([i, j])
    if isinstance(src, tl.tensor_descriptor):
        dst.store([i, j], tile + 1)


@pytest.mark.parametrize("m, n", [(32, 64), (30, 50)])
def test_device_descriptor_load_store(m: int, n: int) -> None:
    x = torch.randn(m, n)
    z = torch.full((m + 2, n), -7.0)  # rows past M must stay untouched
    _copy_plus_one[(triton.cdiv(m, 16), triton.cdiv(n, 32))](x, z, m, n, BM=16, BN=32, PAD="zero")
    assert torch.equal(z[:m], x + 1)
    assert (z[m:] == -7.0).all()


@triton.jit
def _edge_tile(X, OUT, M, N, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    src = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN],
                                    padding_option=PAD)
    tile = src.load([M - BM // 2, N - BN // 2])  # half of the tile is outside
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    tl.store(OUT + offs, tile)


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_out_of_bounds_lanes_read_padding(pad: str) -> None:
    x = torch.arange(64.0).reshape(8, 8)
    out = torch.empty(4, 4)
    _edge_tile[(1,)](x, out, 8, 8, BM=4, BN=4, PAD=pad)
    assert torch.equal(out[:2, :2], x[6:, 6:])
    outside = torch.cat([out[2:].flatten(), out[:2, 2:].flatten()])
    assert (outside == 0).all() if pad == "zero" else outside.isnan().all()


@triton.jit
def _host_desc_scale(desc, out_ptr, n_cols, BM: tl.constexpr, BN: tl.constexpr):
    i = tl.program_id(0) * BM
    tile = desc.load([i, 0])
    offs = (i + tl.arange(0, BM))[:, None] * n_cols + tl.arange(0, BN)[None, :]
    tl.store(out_ptr + offs, tile * 2, mask=(i + tl.arange(0, BM))[:, None] < 20)


def test_host_descriptor_argument() -> None:
    x = torch.randn(20, 16)
    out = torch.zeros(20, 16)
    desc = TensorDescriptor.from_tensor(x, block_shape=[8, 16])
    _host_desc_scale[(3,)](desc, out, 16, BM=8, BN=16)
    assert torch.equal(out, x * 2)


def test_host_descriptor_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="last stride must be 1"):
        TensorDescriptor(torch.zeros(4, 4), [4, 4], [1, 4], [2, 2])


@triton.jit
def _desc_geometry(desc, out_ptr, DEVICE_MADE: tl.constexpr):
    if DEVICE_MADE:
        desc = tl.make_tensor_descriptor(desc, shape=[20, 16], strides=[16, 1],
                                         block_shape=[8, 16])
    tl.static_assert(desc.shape[0].dtype == tl.int32)  # Triton's: shape int32, strides int64
    tl.static_assert(desc.strides[0].dtype == tl.int64)
    tl.store(out_ptr + 0, desc.shape[0])
    tl.store(out_ptr + 1, desc.shape[1])
    tl.store(out_ptr + 2, desc.strides[0])
    tl.store(out_ptr + 3, desc.strides[1])


@pytest.mark.parametrize("device_made", [False, True])
def test_a_descriptor_knows_its_shape_and_strides(device_made: bool) -> None:
    x = torch.randn(20, 16)
    out = torch.zeros(4, dtype=torch.int64)
    arg = x if device_made else TensorDescriptor.from_tensor(x, block_shape=[8, 16])
    _desc_geometry[(1,)](arg, out, DEVICE_MADE=device_made)
    assert out.tolist() == [20, 16, 16, 1]


@triton.jit
def _desc_chosen_at_run_time(in_desc, out_ptr, flip, BM: tl.constexpr, BN: tl.constexpr):
    if flip:
        desc = tl.make_tensor_descriptor(out_ptr, shape=[16, 16], strides=[16, 1],
                                         block_shape=[BM, BN])
    else:
        desc = in_desc
    tile = desc.load([0, 0])
    tl.store(out_ptr + 256 + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)


def test_a_descriptor_assigned_in_both_branches_of_an_if() -> None:
    # As in Triton: one descriptor type whichever branch made it (a host one or a kernel's).
    x = torch.randn(16, 16)
    out = torch.zeros(256 + 64)
    out[:256] = torch.arange(256, dtype=torch.float32)
    desc = TensorDescriptor.from_tensor(x, block_shape=[8, 8])
    _desc_chosen_at_run_time[(1,)](desc, out, 0, BM=8, BN=8)
    assert torch.equal(out[256:].reshape(8, 8), x[:8, :8])
    _desc_chosen_at_run_time[(1,)](desc, out, 1, BM=8, BN=8)
    assert torch.equal(out[256:].reshape(8, 8), out[:256].reshape(16, 16)[:8, :8])


@triton.jit
def _gather_rows(X, IDX, OUT, y, M, N, BX: tl.constexpr, BY: tl.constexpr, PAD: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[1, BY],
                                     padding_option=PAD)
    rows = desc.gather(tl.load(IDX + tl.arange(0, BX)), y)
    tl.store(OUT + tl.arange(0, BX)[:, None] * BY + tl.arange(0, BY)[None, :], rows)


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_gather_reads_rows_and_pads_outside(pad: str) -> None:
    # Rows out of range (-1, 40, 99) and columns past N read the padding, as a descriptor's load.
    x = torch.randn(40, 48)
    idx = torch.tensor([3, 39, -1, 40, 0, 3, 17, 99], dtype=torch.int32)
    out = torch.empty(8, 32)
    _gather_rows[(1,)](x, idx, out, 24, 40, 48, BX=8, BY=32, PAD=pad)
    fill = 0.0 if pad == "zero" else float("nan")
    expected = torch.full((8, 32), fill)
    for r, j in enumerate(idx.tolist()):
        if 0 <= j < 40:
            expected[r, :24] = x[j, 24:]
    torch.testing.assert_close(out, expected, rtol=0, atol=0, equal_nan=True)


@triton.jit
def _scatter_rows(SRC, IDX, OUT, y, M, N, BX: tl.constexpr, BY: tl.constexpr):
    data = tl.load(SRC + tl.arange(0, BX)[:, None] * BY + tl.arange(0, BY)[None, :])
    desc = tl.make_tensor_descriptor(OUT, shape=[M, N], strides=[N, 1], block_shape=[1, BY])
    desc.scatter(data, tl.load(IDX + tl.arange(0, BX)), y)


def test_scatter_writes_rows_inside_only() -> None:
    src = torch.arange(8 * 16, dtype=torch.int16).reshape(8, 16)
    idx = torch.tensor([5, -1, 0, 12, 2, 11, 7, 30], dtype=torch.int32)
    out = torch.full((12, 20), -1, dtype=torch.int16)
    _scatter_rows[(1,)](src, idx, out, 8, 12, 20, BX=8, BY=16)
    expected = torch.full((12, 20), -1, dtype=torch.int16)
    for r, j in enumerate(idx.tolist()):
        if 0 <= j < 12:
            expected[j, 8:] = src[r, :12]
    assert torch.equal(out, expected)


@triton.jit
def _host_gather(desc, IDX, OUT, BX: tl.constexpr, BY: tl.constexpr):
    rows = desc.gather(tl.load(IDX + tl.arange(0, BX)), 0)
    tl.store(OUT + tl.arange(0, BX)[:, None] * BY + tl.arange(0, BY)[None, :], rows)


def test_gather_through_a_host_descriptor() -> None:
    x = torch.randn(16, 32)
    idx = torch.tensor([15, 0, 7, 7, 1, 2, 3, 4], dtype=torch.int32)
    out = torch.empty(8, 32)
    _host_gather[(1,)](TensorDescriptor.from_tensor(x, block_shape=[1, 32]), idx, out, BX=8, BY=32)
    assert torch.equal(out, x[idx.long()])


@triton.jit
def _gather_bad_block(X, IDX, OUT, ROWS: tl.constexpr, BX: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, shape=[16, 32], strides=[32, 1], block_shape=[ROWS, 32])
    rows = desc.gather(tl.load(IDX + tl.arange(0, BX)), 0)
    tl.store(OUT + tl.arange(0, BX)[:, None] * 32 + tl.arange(0, 32)[None, :], rows)


@pytest.mark.parametrize("rows, bx, message", [(2, 8, "block must have 1 row"),
                                               (1, 4, "at least 8 rows")])
def test_gather_refuses_what_triton_refuses(rows: int, bx: int, message: str) -> None:
    x = torch.zeros(16, 32)
    with pytest.raises(triton.CompilationError) as caught:
        _gather_bad_block[(1,)](x, torch.zeros(bx, dtype=torch.int32), torch.empty(bx, 32),
                                ROWS=rows, BX=bx)
    assert message in str(caught.value.__cause__)


@triton.jit
def _reduce_block(OUT, V, M, N, KIND: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(OUT, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    i = tl.program_id(0) * BM
    j = tl.program_id(1) * BN
    v = tl.load(V + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    if KIND == "add":
        desc.atomic_add([i, j], v)
    elif KIND == "max":
        desc.atomic_max([i, j], v)
    else:
        desc.atomic_xor([i, j], v)


@pytest.mark.parametrize("kind", ["add", "max", "xor"])
def test_atomic_reductions_through_a_descriptor(kind: str) -> None:
    # A 12 x 20 tensor in 8 x 16 blocks: every program adds the same block, the parts of it
    # outside the tensor change nothing (the row past M stays as it was).
    gen = torch.Generator().manual_seed(5)
    v = torch.randint(-50, 50, (8, 16), dtype=torch.int32, generator=gen)
    out = torch.randint(-50, 50, (13, 20), dtype=torch.int32, generator=gen)
    expected = out.clone()
    for i in range(0, 12, 8):
        for j in range(0, 20, 16):
            rows, cols = min(8, 12 - i), min(16, 20 - j)
            part = expected[i:i + rows, j:j + cols]
            w = v[:rows, :cols]
            part.copy_(part + w if kind == "add" else torch.maximum(part, w) if kind == "max"
                       else part ^ w)
    _reduce_block[(2, 2)](out, v, 12, 20, KIND=kind, BM=8, BN=16)
    assert torch.equal(out, expected)


@triton.jit
def _fp16_max(OUT, V, BN: tl.constexpr):
    desc = tl.make_tensor_descriptor(OUT, shape=[1, BN], strides=[BN, 1], block_shape=[1, BN])
    desc.atomic_max([0, 0], tl.load(V + tl.arange(0, BN))[None, :])


@pytest.mark.skipif(REAL_TRITON, reason="a Hopper or newer GPU's TMA takes them")
def test_atomic_min_max_of_16_bit_floats_need_a_gpus_tma() -> None:
    x = torch.zeros(1, 16, dtype=torch.float16)
    with pytest.raises(triton.CompilationError) as caught:
        _fp16_max[(1,)](x, torch.ones(16, dtype=torch.float16), BN=16)
    assert "does not support fp16" in str(caught.value.__cause__)
