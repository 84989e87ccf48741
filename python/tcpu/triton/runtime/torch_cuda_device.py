"""`torch.cuda.device(None)` as PyTorch documents it (a no-op) on a PyTorch built without CUDA.

Tests written for GPUs select a tensor's device with `with torch.cuda.device(x.device.index):`;
a CPU tensor's index is None, for which the documentation promises a no-op, but a CPU-only
PyTorch compares None with 0 and raises TypeError. The driver replaces the two functions that
do it, only where PyTorch has no CUDA, so that None (like a negative index) selects nothing;
any real index still raises PyTorch's "compiled without CUDA" error."""

from __future__ import annotations

from typing import Any


def ensure(torch: Any) -> None:
    cuda = getattr(torch, "cuda", None)
    if cuda is None or hasattr(torch._C, "_cuda_exchangeDevice"):
        return  # a CUDA build: PyTorch's own functions
    for name in ("_exchange_device", "_maybe_exchange_device"):
        original = getattr(cuda, name, None)
        if original is None or getattr(original, "_tcpu_none_is_no_device", False):
            continue
        cuda.__dict__[name] = _none_is_no_device(original)


def _none_is_no_device(original: Any) -> Any:
    def exchange(device: Any) -> int:
        return -1 if device is None else original(device)

    exchange._tcpu_none_is_no_device = True
    return exchange
