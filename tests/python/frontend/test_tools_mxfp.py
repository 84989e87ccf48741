"""triton.tools.mxfp on tcpu: E2M1 rounding (to nearest, ties to the even code, clamped to +-6,
NaN and Inf to +-6), E2M1 decoding, packing two codes per byte, and E8M0 scales; then the same
conversions compared with real Triton's helpers on many values."""

from __future__ import annotations

import math

import pytest
import torch

from triton.tools.mxfp import MXFP4Tensor, MXScaleTensor

from real_triton import run_json


def test_e2m1_rounds_to_nearest_with_ties_to_the_even_code() -> None:
    values = torch.tensor([0.0, -0.0, 0.25, 0.3, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 5.1, 6.0, 7.0,
                           -9.0, math.inf, -math.inf])
    codes = MXFP4Tensor(data=values).data.tolist()
    assert codes == [0, 8, 0, 1, 2, 2, 4, 4, 6, 6, 7, 7, 7, 15, 7, 15]
    decoded = MXFP4Tensor(data=values).to(torch.float32)
    assert decoded.tolist() == [0.0, -0.0, 0.0, 0.5, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, 6.0, 6.0,
                                -6.0, 6.0, -6.0]
    assert torch.signbit(decoded[1])
    with pytest.raises(AssertionError):
        MXFP4Tensor(data=values).to(torch.float16)


def test_packing_puts_the_even_element_in_the_low_nibble_and_pads_odd_sizes() -> None:
    tensor = MXFP4Tensor(size=(2, 3))
    tensor.data = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.uint8)
    packed = tensor.to_packed_tensor(dim=1)
    assert packed.tolist() == [[0x21, 0x03], [0x54, 0x06]]
    assert torch.equal(tensor.unpack_packed_tensor(packed, 1, (2, 3)), tensor.data)
    assert tensor.to_packed_tensor(dim=0).tolist() == [[0x41, 0x52, 0x63]]
    random = MXFP4Tensor(size=(4, 8)).random()
    assert random.data.dtype == torch.uint8 and int(random.data.max()) <= 15


def test_e8m0_scales() -> None:
    scales = MXScaleTensor(data=torch.tensor([1.0, 3.0, 0.5, 0.0, -2.0, math.nan, 1e-45]))
    assert scales.data.tolist() == [127, 128, 126, 255, 255, 255, 0]
    decoded = scales.to(torch.float32)
    assert decoded[:3].tolist() == [1.0, 2.0, 0.5] and math.isnan(decoded[3])
    drawn = MXScaleTensor(size=(64,)).random(low=0.5, high=8.0).data
    assert int(drawn.min()) >= 126 and int(drawn.max()) <= 130


_REAL = r"""
import json, torch, triton
from triton.tools.mxfp import MXFP4Tensor, MXScaleTensor
g = torch.Generator().manual_seed(7)
values = torch.randn(4096, generator=g) * 4
values[:8] = torch.tensor([0.25, 0.75, 1.75, 3.5, 5.0, float("nan"), float("inf"), -0.0])
scales = torch.rand(512, generator=g) * 1000
print(json.dumps({"file": triton.__file__, "version": triton.__version__,
                  "fp4": MXFP4Tensor(data=values.clone()).data.tolist(),
                  "e8m0": MXScaleTensor(data=scales).data.tolist()}))
"""


def test_conversions_agree_with_tritons_helpers() -> None:
    real = run_json(_REAL)
    g = torch.Generator().manual_seed(7)
    values = torch.randn(4096, generator=g) * 4
    values[:8] = torch.tensor([0.25, 0.75, 1.75, 3.5, 5.0, float("nan"), float("inf"), -0.0])
    scales = torch.rand(512, generator=g) * 1000
    assert MXFP4Tensor(data=values).data.tolist() == real["fp4"]
    assert MXScaleTensor(data=scales).data.tolist() == real["e8m0"]
