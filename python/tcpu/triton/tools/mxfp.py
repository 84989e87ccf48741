"""``triton.tools.mxfp``: host-side holders of OCP microscaling data, as Triton's tests build
their operands with them. `MXFP4Tensor` keeps one E2M1 code (sign, 2 exponent bits, 1 mantissa
bit; no Inf or NaN) per uint8; `MXScaleTensor` keeps E8M0 block scales (a biased power of two,
255 = NaN). Both are plain torch code: nothing here runs a kernel. Misuse raises AssertionError,
as Triton's do (its tests expect that class)."""

from __future__ import annotations

from typing import Any

import torch

# The eight E2M1 magnitudes, indexed by the code's low three bits (exponent, mantissa).
_E2M1_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
_E8M0_BIAS = 127
_E8M0_NAN = 255


def _shape(size: Any) -> tuple[int, ...]:
    return tuple(size) if isinstance(size, (tuple, list, torch.Size)) else (size,)


class _Microscaled:
    """What both holders share: built from floats (`data`, converted by `_from_float`) or
    given a `size` to fill with `random()`."""

    def __init__(self, data: torch.Tensor | None = None, size: Any = None,
                 device: Any = None) -> None:
        self.device = device
        if data is not None:
            if not isinstance(data, torch.Tensor):
                raise AssertionError(f"{type(self).__name__}: data must be a torch tensor of "
                                     "floats")
            self.device = data.device
            self.data = self._from_float(data)
        elif size is not None:
            self.size = _shape(size)
        else:
            raise ValueError(f"{type(self).__name__} needs data or a size")

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError


class MXFP4Tensor(_Microscaled):
    """E2M1 data: `data` holds one code per uint8 element (in its low four bits)."""

    def random(self) -> MXFP4Tensor:
        """Every one of the 16 codes equally likely (both zeros included)."""
        self.data = torch.randint(0, 16, self.size, dtype=torch.uint8, device=self.device)
        return self

    def to(self, dtype: torch.dtype) -> torch.Tensor:
        """The values as float32 (the only conversion, as in Triton); -0 keeps its sign."""
        if dtype != torch.float32:
            raise AssertionError("MXFP4Tensor converts to torch.float32 only")
        table = torch.tensor(_E2M1_MAGNITUDES, dtype=torch.float32, device=self.data.device)
        magnitude = table[(self.data & 0x7).long()]
        return torch.where((self.data & 0x8) != 0, -magnitude, magnitude)

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        """Nearest E2M1 code, ties to the even mantissa; beyond 6 (Inf and NaN too) the
        largest magnitude with the value's sign; below 0.25 zero."""
        sign = torch.signbit(values).to(torch.uint8) << 3
        magnitude = values.abs().to(torch.float32)
        magnitude = torch.where(torch.isfinite(magnitude), magnitude,
                                torch.full_like(magnitude, _E2M1_MAGNITUDES[-1]))
        table = torch.tensor(_E2M1_MAGNITUDES, dtype=torch.float32, device=values.device)
        distance = (magnitude.unsqueeze(-1) - table).abs()
        # On a tie the even code (mantissa bit 0) wins: it is the smaller distance once odd
        # codes are pushed away by less than any real gap between candidates.
        odd = (torch.arange(8, device=values.device) & 1).to(torch.float32)
        code = torch.argmin(distance + odd * 1e-6, dim=-1).to(torch.uint8)
        return sign | code

    def to_packed_tensor(self, dim: int) -> torch.Tensor:
        """Two codes per uint8 along `dim` (the even-indexed one in the low nibble); an odd
        length is padded with a zero code."""
        data = self.data
        if not 0 <= dim < data.ndim:
            raise AssertionError(f"dim {dim} is not a dimension of a rank-{data.ndim} tensor")
        if data.size(dim) % 2:
            pad = list(data.shape)
            pad[dim] = 1
            data = torch.cat([data, torch.zeros(pad, dtype=data.dtype, device=data.device)], dim)
        pairs = data.unflatten(dim, (-1, 2))
        return (pairs.select(dim + 1, 1) << 4) | pairs.select(dim + 1, 0)

    def unpack_packed_tensor(self, packed_tensor: torch.Tensor, dim: int,
                             original_shape: Any) -> torch.Tensor:
        """The inverse of to_packed_tensor: one code per uint8, the padding removed."""
        pairs = torch.stack((packed_tensor & 0xF, (packed_tensor >> 4) & 0xF), dim=dim + 1)
        data = pairs.flatten(dim, dim + 1)
        return data.narrow(dim, 0, original_shape[dim]).to(torch.uint8)


class MXScaleTensor(_Microscaled):
    """E8M0 scales: `data` holds biased exponents as uint8 (2 ** (e - 127); 255 is NaN)."""

    def random(self, low: float | None = None, high: float | None = None) -> MXScaleTensor:
        """Exponents drawn evenly from those of [low, high] (each bound's log2 truncated, as
        Triton's), NaN never."""
        lo = 0 if low is None else max(0, _log2_int(low) + _E8M0_BIAS)
        hi = 254 if high is None else min(254, max(0, _log2_int(high) + _E8M0_BIAS))
        if lo > hi:
            raise AssertionError("MXScaleTensor.random: low must not exceed high")
        self.data = torch.randint(lo, hi + 1, self.size, dtype=torch.uint8, device=self.device)
        return self

    def to(self, dtype: torch.dtype) -> torch.Tensor:
        if dtype != torch.float32:
            raise AssertionError("MXScaleTensor converts to torch.float32 only")
        e = self.data.to(torch.int32)
        value = torch.pow(2.0, (e - _E8M0_BIAS).to(torch.float32))
        return torch.where(e == _E8M0_NAN, torch.full_like(value, float("nan")), value)

    def _from_float(self, values: torch.Tensor) -> torch.Tensor:
        """floor(log2(v)) biased and clamped to [0, 254]; v <= 0, Inf and NaN give 255."""
        valid = torch.isfinite(values) & (values > 0)
        safe = torch.where(valid, values.to(torch.float32), torch.ones_like(values,
                                                                        dtype=torch.float32))
        e = (torch.floor(torch.log2(safe)) + _E8M0_BIAS).clamp(0, 254).to(torch.uint8)
        return torch.where(valid, e, torch.full_like(e, _E8M0_NAN))


def _log2_int(x: float) -> int:
    """int(log2(x)) as Triton computes it (truncation toward zero, in float32)."""
    return int(torch.log2(torch.tensor(x, dtype=torch.float32)))
