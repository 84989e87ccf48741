"""``triton.tools.mxfp``: host-side tensors of the OCP microscaling (MX) formats that block-scaled
matmuls take, as Triton's helpers define them: MXFP4Tensor (4-bit E2M1 values, one per uint8, or
two per uint8 once packed) and MXScaleTensor (8-bit E8M0 power-of-two scales).

E2M1 has the 8 magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 (codes 0-7) and a sign bit (bit 3); no
Inf or NaN. E8M0 is a biased exponent (bias 127): 2**(e - 127), with 255 meaning NaN."""

from __future__ import annotations

from typing import Any

import torch

# E2M1 magnitudes by code, and the points halfway between neighbours (rounding boundaries).
_E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
_HALFWAY = tuple((a + b) / 2 for a, b in zip(_E2M1, _E2M1[1:]))
_E8M0_BIAS = 127
_E8M0_NAN = 255


def _size(size: Any) -> tuple[int, ...]:
    return tuple(size) if isinstance(size, (tuple, list, torch.Size)) else (int(size),)


class _MXTensor:
    """Codes of an MX format held as uint8 (`data`): converted from float32 `data`, or of
    `size`, empty until random() fills them."""

    def __init__(self, data: torch.Tensor | None = None, size: Any = None,
                 device: Any = None) -> None:
        self.device = device
        if data is not None:
            if not isinstance(data, torch.Tensor):
                raise AssertionError("Parameter data must be a torch tensor")
            self.device = data.device
            self.data = self._from_float(data)
        elif size is not None:
            self.size = _size(size)
        else:
            raise ValueError("Either parameter data or size must be provided")

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError


class MXFP4Tensor(_MXTensor):
    """E2M1 values held one per uint8 (`data`): from float32 `data` (rounded to nearest, ties to
    the even code, beyond 6 or Inf/NaN clamped to +-6), or empty of `size` until random()."""

    def random(self) -> MXFP4Tensor:
        """Every code equally likely (both zeros included)."""
        self.data = torch.randint(0, 16, self.size, dtype=torch.uint8, device=self.device)
        return self

    def to(self, dtype: torch.dtype) -> torch.Tensor:
        """The values as float32 (the only conversion offered, as in Triton)."""
        if dtype != torch.float32:
            raise AssertionError("Currently only float32 is supported for fp4e2m1 to float "
                                 "conversion")
        table = torch.tensor(_E2M1, dtype=torch.float32, device=self.data.device)
        magnitude = table[(self.data & 0x7).long()]
        negative = (self.data & 0x8) != 0
        return torch.where(negative, -magnitude, magnitude)

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        values = values.float()
        magnitude = values.abs()
        halfway = torch.tensor(_HALFWAY, dtype=torch.float32, device=values.device)
        # Codes by the halfway points below each value; a value exactly halfway goes to the
        # neighbour whose code is even (its mantissa bit 0): round half to even.
        code = torch.bucketize(magnitude, halfway)  # halfway -> the lower neighbour
        at_half = (code < len(_HALFWAY)) & (magnitude == halfway[code.clamp(max=len(_HALFWAY) - 1)])
        code = torch.where(at_half & (code % 2 == 1), code + 1, code)
        code = torch.where(torch.isnan(values), torch.full_like(code, len(_E2M1) - 1), code)
        sign = torch.signbit(values).to(torch.uint8) << 3
        return sign | code.to(torch.uint8)

    def to_packed_tensor(self, dim: int) -> torch.Tensor:
        """Two codes per uint8 along `dim` (the element at an even index in the low nibble),
        padded with a zero code when that dimension is odd."""
        data = self.data
        if not 0 <= dim < data.ndim:
            raise AssertionError("The dimension to pack along is not within the range of "
                                 "tensor dimensions")
        if data.size(dim) % 2:
            pad = list(data.shape)
            pad[dim] = 1
            data = torch.cat([data, data.new_zeros(pad)], dim=dim)
        even = data.narrow(dim, 0, data.size(dim)).unflatten(dim, (-1, 2))
        return (even.select(dim + 1, 1) << 4) | even.select(dim + 1, 0)

    def unpack_packed_tensor(self, packed_tensor: torch.Tensor, dim: int,
                             original_shape: Any) -> torch.Tensor:
        """The codes of `packed_tensor` (packed along `dim`), one per uint8, without the
        padding packing added to an odd `original_shape[dim]`."""
        pairs = torch.stack((packed_tensor & 0xF, (packed_tensor >> 4) & 0xF), dim=dim + 1)
        data = pairs.flatten(dim, dim + 1)
        return data.narrow(dim, 0, int(original_shape[dim])).to(torch.uint8)


class MXScaleTensor(_MXTensor):
    """E8M0 scales held as uint8 (`data`): from float32 `data` (floor of log2, clamped to the
    finite codes 0-254; values <= 0, Inf and NaN become the NaN code 255), or empty of `size`
    until random()."""

    def random(self, low: float | None = None, high: float | None = None) -> MXScaleTensor:
        """Codes drawn uniformly between those of `low` and `high` (powers of two; default the
        whole finite range), never NaN."""
        def code(bound: float) -> int:
            return min(254, max(0, int(torch.log2(torch.tensor(float(bound)))) + _E8M0_BIAS))

        lowest = 0 if low is None else code(low)
        highest = 254 if high is None else code(high)
        if lowest > highest:
            raise AssertionError("Low must be less than or equal to high")
        self.data = torch.randint(lowest, highest + 1, self.size, dtype=torch.uint8,
                                  device=self.device)
        return self

    def to(self, dtype: torch.dtype) -> torch.Tensor:
        if dtype != torch.float32:
            raise AssertionError("Currently only float32 is supported for f8e8m0 to float "
                                 "conversion")
        exponent = self.data.to(torch.float32) - _E8M0_BIAS
        value = torch.pow(2.0, exponent)
        return torch.where(self.data == _E8M0_NAN, torch.full_like(value, float("nan")), value)

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        values = values.float()
        invalid = ~torch.isfinite(values) | (values <= 0)
        exponent = torch.floor(torch.log2(torch.where(invalid, torch.ones_like(values), values)))
        code = (exponent + _E8M0_BIAS).clamp(0, 254).to(torch.uint8)
        return torch.where(invalid, torch.full_like(code, _E8M0_NAN), code)
