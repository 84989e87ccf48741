"""fp16/bf16 on the CPU for PyTorch releases that lack the kernels (Debian 12 ships 1.13).

Triton scripts check their kernels against torch on the same device: tutorial 03 compares with
`torch.matmul` of fp16 matrices, 05 with `torch.nn.functional.layer_norm` (and its backward) in
fp16, 06 and 08 likewise. PyTorch 1.13 has no CPU kernels for these in half precision
("addmm_impl_cpu_" not implemented for 'Half'), although newer releases do, so the scripts
would fail in their own reference code, not in the kernel under test.

`ensure(torch)` (called by the driver with torch.cpu's streams, once a script asks for the
torch device, and by `python3 -m tcpu` and the pytest plugin at their start where the installed
torch is older than 2.1: tcpu.aliases) enters a TorchFunctionMode, only on a torch before 2.1
that lacks fp16 matmul on the CPU; torch 2.1 and newer have the kernels and are left alone.
An operation that torch refuses for a half-precision CPU tensor is run again with those tensors
in fp32 and its fp32 results rounded back to the half type; everything torch can run itself is
untouched. This is how the GPU computes those references (fp16 matmul accumulates in fp32 and
rounds once; layer norm computes its statistics in fp32), and autograd sees the conversions, so
backward passes work too. `TCPU_TORCH_HALF=0` turns it off."""

from __future__ import annotations

import re
from typing import Any

from ... import _environment as environment

_REFUSED = re.compile(r"not implemented for '(Half|BFloat16)'")
_installed: list[Any] = []  # the entered mode: entered once per process, kept alive


def _lacks_half_matmul(torch: Any) -> bool:
    a = torch.ones((1, 1), dtype=torch.float16)
    try:
        torch.mm(a, a)
    except RuntimeError as error:
        return _REFUSED.search(str(error)) is not None
    return False


def _map(value: Any, convert: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return type(value)(_map(v, convert) for v in value)
    if isinstance(value, dict):
        return {k: _map(v, convert) for k, v in value.items()}
    return convert(value)


def _tensors(value: Any) -> list[Any]:
    found: list[Any] = []
    _map(value, lambda v: found.append(v) if hasattr(v, "dtype") and hasattr(v, "device") else v)
    return found


def _make_mode(torch: Any) -> Any:
    from torch.overrides import TorchFunctionMode

    halves = {"Half": torch.float16, "BFloat16": torch.bfloat16}

    def rerun_in_fp32(func: Any, args: tuple, kwargs: dict, half: Any) -> Any:
        inputs = _tensors((args, kwargs))
        # An fp32 (or wider) input means torch's own result would not be half precision.
        wide_input = any(t.dtype in (torch.float32, torch.float64) for t in inputs)
        out = kwargs.pop("out", None)
        up = lambda v: v.float() if isinstance(v, torch.Tensor) and v.dtype == half else v
        result = func(*_map(args, up), **_map(kwargs, up))
        if not wide_input:
            down = lambda v: (v.to(half) if isinstance(v, torch.Tensor) and v.dtype == torch.float32
                              else v)
            result = _map(result, down)
        name = getattr(func, "__name__", "")
        if out is not None:  # out=: write into the caller's tensor(s)
            for target, value in zip(_tensors(out), _tensors(result)):
                target.copy_(value)
            return out
        if name.endswith("_") and not name.endswith("__") and args:  # in place: x.exp_()
            args[0].copy_(result)
            return args[0]
        if name.startswith("__i") and args:  # x += y
            args[0].copy_(result)
            return args[0]
        return result

    class HalfOnCpu(TorchFunctionMode):
        def __torch_function__(self, func: Any, types: Any, args: tuple = (),
                               kwargs: dict | None = None) -> Any:
            kwargs = kwargs or {}
            try:
                return func(*args, **kwargs)
            except RuntimeError as error:
                refused = _REFUSED.search(str(error))
                if refused is None:
                    raise
                half = halves[refused.group(1)]
                if not any(t.dtype == half and t.device.type == "cpu"
                           for t in _tensors((args, kwargs))):
                    raise
            return rerun_in_fp32(func, args, dict(kwargs), half)

    return HalfOnCpu()


def older_than_2_1(version: str) -> bool:
    """Whether a torch version string ("1.13.0a0+gitunknown", "2.13.0+cpu") is before 2.1, the
    first release with fp16 and bf16 matmul on the CPU."""
    parts = version.split("+")[0].split(".")
    try:
        return (int(parts[0]), int(parts[1])) < (2, 1)
    except (IndexError, ValueError):
        return False


def ensure(torch: Any) -> None:
    """Enters the mode once per process, where this torch (before 2.1) lacks fp16 matmul on the
    CPU. Newer releases have the kernels: nothing is probed or entered there."""
    if _installed or not environment.flag("TCPU_TORCH_HALF", True):
        return
    if not older_than_2_1(torch.__version__) or not _lacks_half_matmul(torch):
        _installed.append(None)  # a torch with the kernels: nothing to add, ever
        return
    mode = _make_mode(torch)
    mode.__enter__()  # for the rest of the process, like torch.set_default_dtype
    _installed.append(mode)
