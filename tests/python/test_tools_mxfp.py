"""triton.tools.mxfp (python/tcpu/triton/tools/mxfp.py): E2M1 and E8M0 data as Triton's tests
build it: every code's value, rounding to nearest with ties to the even code and saturation,
packing two codes per byte along any dimension, and scales."""

import math

import pytest
import torch

from triton.tools.mxfp import MXFP4Tensor, MXScaleTensor


def test_every_e2m1_code_decodes_to_its_value():
    codes = torch.arange(16, dtype=torch.uint8)
    t = MXFP4Tensor(size=16)
    t.data = codes
    values = t.to(torch.float32)
    magnitudes = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
    assert values.tolist() == magnitudes + [-m for m in magnitudes]
    assert math.copysign(1.0, values[8].item()) == -1.0  # code 8 is -0


@pytest.mark.parametrize("x, expected", [
    (0.2, 0.0), (0.25, 0.0), (0.3, 0.5), (0.75, 1.0), (1.25, 1.0), (1.75, 2.0), (2.5, 2.0),
    (3.5, 4.0), (5.0, 4.0), (5.5, 6.0), (100.0, 6.0), (-2.6, -3.0), (float("inf"), 6.0),
    (float("-inf"), -6.0),
])
def test_floats_round_to_nearest_ties_to_even_and_saturate(x, expected):
    got = MXFP4Tensor(torch.tensor([x])).to(torch.float32).item()
    assert got == expected


@pytest.mark.parametrize("shape, dim", [((4, 6), 1), ((5, 3), 0), ((3, 5), 1), ((2, 3, 4), 1)])
def test_packing_two_codes_per_byte_round_trips(shape, dim):
    torch.manual_seed(0)
    t = MXFP4Tensor(size=shape).random()
    packed = t.to_packed_tensor(dim)
    expected = list(shape)
    expected[dim] = (shape[dim] + 1) // 2
    assert list(packed.shape) == expected and packed.dtype == torch.uint8
    first = t.data.select(dim, 0)
    assert torch.equal(packed.select(dim, 0) & 0xF, first)  # the even index in the low nibble
    if shape[dim] > 1:
        assert torch.equal(packed.select(dim, 0) >> 4, t.data.select(dim, 1))
    assert torch.equal(t.unpack_packed_tensor(packed, dim, shape), t.data)


def test_random_codes_cover_all_sixteen():
    torch.manual_seed(1)
    data = MXFP4Tensor(size=(64, 64)).random().data
    assert data.dtype == torch.uint8 and set(data.unique().tolist()) == set(range(16))


def test_scales_are_biased_powers_of_two_and_255_is_nan():
    s = MXScaleTensor(torch.tensor([1.0, 3.0, 0.5, 2.0 ** -130, 0.0, -1.0, float("nan"),
                                    float("inf")]))
    assert s.data.tolist() == [127, 128, 126, 0, 255, 255, 255, 255]
    values = s.to(torch.float32)
    assert values[:4].tolist() == [1.0, 2.0, 0.5, 2.0 ** -127]
    assert torch.isnan(values[4:]).all()


def test_random_scales_stay_within_their_bounds():
    torch.manual_seed(2)
    s = MXScaleTensor(size=(32, 32)).random(high=64.0)
    assert s.data.max().item() <= 127 + 6 and s.data.min().item() >= 0
    s = MXScaleTensor(size=(32, 32)).random(low=0.25, high=4.0)
    assert set(s.data.unique().tolist()) <= set(range(125, 130))
    with pytest.raises(AssertionError):  # Triton's class for misuse
        MXScaleTensor(size=4).random(low=8.0, high=2.0)
    with pytest.raises(AssertionError):
        MXFP4Tensor(size=(4, 4)).random().to_packed_tensor(dim=2)
