"""Integer operations whose result C leaves undefined, with the GPU's values: ``//`` and ``%`` by
zero or of the signed minimum by -1, and shifts by the type's width or more. Triton lowers them
to PTX div/rem/shl/shr, which never trap: on the GPU a kernel that divides by a zero it then
masks out is correct (``tl.where(y != 0, x // y, 0)``, or a masked load's ``other=0`` as
divisor), and tcpu must run it too, neither killing the process with SIGFPE (x86's idiv) nor
letting the optimizer assume the zero away; ``(1 << n) - 1`` with n = 32 is all ones there.

The values are compared with what Triton 3.6 gave on an H100
(tests/goldens/gpu_probes/undefined_ops.json, recorded by scripts/gpu/probe_undefined_ops.py):
a quotient by zero has all bits set (a 64-bit dividend below 2**32: 0xFFFFFFFF), a remainder by
zero is the dividend, INT_MIN // -1 wraps to INT_MIN with remainder 0, shifts clamp the amount.
Every other lane truncates as C does (Triton's // and %)."""

import json
import pathlib

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from integer_op_kernels import divmod_kernel, shift_kernel

INTS = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
        torch.uint32, torch.uint64]


GPU = json.loads((pathlib.Path(__file__).resolve().parents[2] / "goldens" / "gpu_probes" /
                  "undefined_ops.json").read_text())


def _truncating(x: int, y: int) -> tuple[int, int]:
    q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    return q, x - q * y


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_division_by_zero_gives_the_gpus_values(dtype):
    name = str(dtype).removeprefix("torch.")
    xs = GPU[name]["x"]
    x = torch.tensor(xs, dtype=dtype)
    y = torch.zeros_like(x)
    q, r = torch.empty_like(x), torch.empty_like(x)
    divmod_kernel[(1,)](x, y, q, r, len(xs), BLOCK=8)
    assert q.tolist() == GPU[name]["x//0"]
    assert r.tolist() == GPU[name]["x%0"]


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_lanes_beside_a_zero_divisor_truncate(dtype):
    info = torch.iinfo(dtype)
    xs = [7, 0, info.max, 9, 100, 1, info.min, info.max]
    ys = [0, 3, 0, 2, 7, 1, 0, 3] if not dtype.is_signed else [0, 3, 0, -2, 7, -1, 0, 3]
    x, y = torch.tensor(xs, dtype=dtype), torch.tensor(ys, dtype=dtype)
    q, r = torch.empty_like(x), torch.empty_like(x)
    divmod_kernel[(1,)](x, y, q, r, len(xs), BLOCK=8)
    for k, (a, b) in enumerate(zip(xs, ys)):
        if b != 0 and not (a == info.min and b == -1):
            assert (q[k].item(), r[k].item()) == _truncating(a, b), k


@pytest.mark.parametrize("dtype", [torch.int8, torch.int16, torch.int32, torch.int64], ids=str)
def test_signed_minimum_by_minus_one_wraps_with_remainder_zero(dtype):
    lo = torch.iinfo(dtype).min
    x = torch.tensor([lo, lo, -7, lo], dtype=dtype)
    y = torch.tensor([-1, 1, -1, 2], dtype=dtype)
    q, r = torch.empty_like(x), torch.empty_like(x)
    divmod_kernel[(1,)](x, y, q, r, 4, BLOCK=4)
    assert q.tolist() == [lo, lo, 7, lo // 2]
    assert r.tolist() == [0, 0, 0, 0]
    name = str(dtype).removeprefix("torch.")
    if "min//-1" in GPU[name]:
        assert (q[0].item(), r[0].item()) == (GPU[name]["min//-1"], GPU[name]["min%-1"])


@triton.jit
def _scalar_divmod_kernel(a, b, out_ptr):
    tl.store(out_ptr, a // b)
    tl.store(out_ptr + 1, a % b)


@pytest.mark.parametrize("a,b,want", [(7, 0, [-1, 7]), (-(2**31), -1, [-(2**31), 0]),
                                      (-7, 2, [-3, -1]), (7, -2, [-3, 1])])
def test_scalar_arguments(a, b, want):
    out = torch.empty(2, dtype=torch.int32)
    _scalar_divmod_kernel[(1,)](a, b, out)
    assert out.tolist() == want


@triton.jit
def _guarded_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0)
    y = tl.load(y_ptr + o, mask=m, other=0)  # the lanes past n divide by zero
    tl.store(out_ptr + o, tl.where(y != 0, x // y + x % y, 0), mask=m)


def test_divisions_by_zero_that_the_kernel_masks_out_are_harmless():
    """The GPU's common pattern: a `where` over the divisor, and a masked tail loaded as 0."""
    rs = np.random.RandomState(0)
    n = 1000
    x = torch.from_numpy(rs.randint(-1000, 1000, n).astype(np.int32))
    y = torch.from_numpy(rs.randint(-3, 4, n).astype(np.int32))
    out = torch.empty_like(x)
    _guarded_kernel[(triton.cdiv(n, 64),)](x, y, out, n, BLOCK=64)
    q = np.trunc(x.numpy() / np.where(y.numpy() == 0, 1, y.numpy())).astype(np.int32)
    want = np.where(y.numpy() != 0, q + (x.numpy() - q * y.numpy()), 0)
    np.testing.assert_array_equal(out.numpy(), want)


@pytest.mark.parametrize("dtype", [d for d in INTS if "x<<s" in GPU[str(d).removeprefix("torch.")]],
                         ids=str)
def test_shifts_by_the_width_or_more_give_the_gpus_values(dtype):
    """PTX's shl/shr clamp the amount (x86 masks it: x << 32 == x): 0, or the sign for an
    arithmetic >>; a negative amount counts as a large one."""
    name = str(dtype).removeprefix("torch.")
    x = torch.tensor(GPU[name]["shift_x"], dtype=dtype)
    s = torch.tensor(GPU[name]["shift_s"], dtype=dtype)
    left, right = torch.empty_like(x), torch.empty_like(x)
    shift_kernel[(1,)](x, s, left, right, len(x), BLOCK=8)
    assert left.tolist() == GPU[name]["x<<s"]
    assert right.tolist() == GPU[name]["x>>s"]


@triton.jit
def _scalar_shift_kernel(a, b, out_ptr):
    tl.store(out_ptr, a << b)
    tl.store(out_ptr + 1, a >> b)


@pytest.mark.parametrize("a,b,want", [(-5, 32, [0, -1]), (5, 33, [0, 0]), (-5, 1, [-10, -3]),
                                      (1, 31, [-(2**31), 0])])
def test_scalar_shifts(a, b, want):
    out = torch.empty(2, dtype=torch.int32)
    _scalar_shift_kernel[(1,)](a, b, out)
    assert out.tolist() == want
