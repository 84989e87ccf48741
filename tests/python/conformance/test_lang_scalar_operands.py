"""Python numbers beside blocks in comparisons and tl.maximum / tl.minimum.

Triton's comparison operators (tensor.__lt__, __rgt__, ...) and tl.maximum / tl.minimum
convert a Python number to a scalar tensor of its own type first (int32 / uint32 / int64 by
magnitude, fp32 or fp64), so it takes part in promotion like any scalar tensor: it is not
range-checked against the block's type, and a block of a narrower type is widened. The
arithmetic operators keep the number out of promotion instead (test_lang_elementwise.py).
Found by the differential tests (tests/differential, seeds 18, 24 and 45 of the first run)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import triton
import triton.language as tl


@triton.jit
def _compare_kernel(x8, u8, h, s, out):
    o = tl.arange(0, 4)
    a = tl.load(x8 + o)
    b = tl.load(u8 + o)
    c = tl.load(h + o)
    tl.store(out + o, (a == 300).to(tl.int64))  # int32 comparison, no range error
    tl.store(out + 4 + o, (b > -1).to(tl.int64))  # int32: every uint8 is > -1
    tl.store(out + 8 + o, (c < 0.1).to(tl.int64))  # fp32: 0.1 not rounded to fp16
    tl.store(out + 12 + o, (-8589934592 > s).to(tl.int64) + o * 0)  # int64 beside int32
    tl.store(out + 16 + o, (2147483651 == b).to(tl.int64))  # uint32 beside uint8
    tl.store(out + 20 + o, (c.to(tl.float64) == 0.1).to(tl.int64))  # 0.1 as fp32, widened


@triton.jit
def _extreme_kernel(x8, h, out_i, out_f):
    o = tl.arange(0, 4)
    a = tl.load(x8 + o)
    c = tl.load(h + o)
    tl.store(out_i + o, tl.maximum(a, 1000).to(tl.int64))  # int32 result: 1000 kept
    tl.store(out_i + 4 + o, tl.minimum(a, -1000).to(tl.int64))
    tl.store(out_f + o, tl.maximum(c, 0.1))  # fp32 result: 0.1 as fp32, not fp16


def test_comparison_promotes_a_python_number_like_a_scalar_tensor(device):
    x8 = torch.tensor([44, 1, -1, 0], dtype=torch.int8, device=device)
    u8 = torch.tensor([0, 1, 255, 3], dtype=torch.uint8, device=device)
    h = torch.tensor([0.1, 0.09997, 0.2, -1.0], dtype=torch.float16, device=device)
    out = torch.full((24,), -7, dtype=torch.int64, device=device)
    _compare_kernel[(1,)](x8, u8, h, 5, out)
    h32 = h.cpu().numpy().astype(np.float32)
    expected = ([0] * 4 + [1] * 4 + list((h32 < np.float32(0.1)).astype(int)) + [0] * 4
                + [0] * 4 + list((h32.astype(np.float64) == float(np.float32(0.1))).astype(int)))
    assert out.cpu().tolist() == expected
    # fp16's 0.0999755859375 is below fp32's 0.1, and fp16's rounding of 0.1 is not.
    assert expected[8:12] == [1, 1, 0, 1]


def test_maximum_and_minimum_promote_a_python_number(device):
    x8 = torch.tensor([44, 1, -1, 0], dtype=torch.int8, device=device)
    h = torch.tensor([0.1, 0.09997, 0.2, -1.0], dtype=torch.float16, device=device)
    out_i = torch.zeros(8, dtype=torch.int64, device=device)
    out_f = torch.zeros(4, dtype=torch.float32, device=device)
    _extreme_kernel[(1,)](x8, h, out_i, out_f)
    assert out_i.cpu().tolist() == [1000] * 4 + [-1000] * 4
    h32 = h.cpu().numpy().astype(np.float32)
    np.testing.assert_array_equal(out_f.cpu().numpy(), np.maximum(h32, np.float32(0.1)))


@triton.jit
def _arith_kernel(x8, out):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.load(x8 + o) + 300)


def test_arithmetic_still_range_checks_a_python_number_against_the_block(device):
    x8 = torch.zeros(4, dtype=torch.int8, device=device)
    out = torch.zeros(4, dtype=torch.int8, device=device)
    with pytest.raises(Exception, match="out of range"):
        _arith_kernel[(1,)](x8, out)


@triton.jit
def _true_div_kernel(x, out, DIVISOR: tl.constexpr):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.load(x + o) / DIVISOR)


def test_true_division_range_checks_a_python_number_against_the_integer_type(device):
    # int32 / number divides in fp32, but Triton first makes the number an int32 constant:
    # one outside int32 is refused, as for the other operators (seed 41).
    x = torch.arange(4, dtype=torch.int32, device=device)
    out = torch.zeros(4, dtype=torch.float32, device=device)
    with pytest.raises(Exception, match="out of range"):
        _true_div_kernel[(1,)](x, out, DIVISOR=8589934592)
    with pytest.raises(Exception, match="negative scalar"):
        _true_div_kernel[(1,)](x.to(torch.uint32), out, DIVISOR=-2)
    _true_div_kernel[(1,)](x, out, DIVISOR=-2)
    assert out.cpu().tolist() == [0.0, -0.5, -1.0, -1.5]
