"""`triton._internal_testing` on tcpu: the helpers Triton's test suites import, with tcpu's
meaning.

The device is the CPU: `get_current_target()` is the CPU target (backend "cpu"), so every
`is_cuda`, `is_hip*`, `is_xpu`, `is_hopper*`, `is_blackwell`... is False, and `is_interpreter()`
is False (tcpu compiles kernels; TRITON_INTERPRET=1 routes `import triton` to a real Triton's
interpreter, so this module never runs under it). Tensors of `to_triton` live on the CPU
whatever `device` names. `supports_tma()` is True: tcpu implements tensor descriptors (TMA's
API); `supports_ws()` is True: `tl.range(..., warp_specialize=True)` is accepted and runs the
loop as written."""

from __future__ import annotations

import os
import re
from typing import Any, Callable, Optional, Set, Union

import numpy as np
import pytest
import torch
from numpy.random import RandomState

from . import knobs
from .language import core as tl
from .runtime.driver import driver
from .runtime.jit import TensorWrapper, reinterpret

int_dtypes = ["int8", "int16", "int32", "int64"]
uint_dtypes = ["uint8", "uint16", "uint32", "uint64"]
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ["float16", "float32", "float64"]
float_dtypes_with_bfloat16 = float_dtypes + ["bfloat16"]
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ["bfloat16"]
torch_float8_dtypes = ["float8_e4m3fn", "float8_e5m2"]
torch_dtypes = ["bool"] + int_dtypes + ["uint8"] + float_dtypes + ["bfloat16"]
tma_dtypes = sorted(set(dtypes_with_bfloat16) - {"int64", "uint64", "float64"})

# Names a test may give a dtype (numpy's, torch's, Triton's short ones) -> tl's name.
_TL_NAMES = {
    "bool": "int1", "int1": "int1", "uint1": "int1", "i1": "int1", "u1": "int1",
    "int8": "int8", "i8": "int8", "int16": "int16", "i16": "int16", "int": "int32",
    "int32": "int32", "i32": "int32", "int64": "int64", "i64": "int64",
    "uint8": "uint8", "u8": "uint8", "uint16": "uint16", "u16": "uint16",
    "uint32": "uint32", "u32": "uint32", "uint64": "uint64", "u64": "uint64",
    "half": "fp16", "float16": "fp16", "fp16": "fp16", "bfloat16": "bf16", "bf16": "bf16",
    "float": "fp32", "float32": "fp32", "fp32": "fp32", "double": "fp64", "float64": "fp64",
    "fp64": "fp64", "float8e4nv": "fp8e4nv", "float8_e4m3fn": "fp8e4nv", "fp8e4nv": "fp8e4nv",
    "float8e5": "fp8e5", "float8_e5m2": "fp8e5", "fp8e5": "fp8e5",
    "float8e4b15": "fp8e4b15", "fp8e4b15": "fp8e4b15", "float8e4b8": "fp8e4b8",
    "float8_e4m3fnuz": "fp8e4b8", "fp8e4b8": "fp8e4b8", "float8e5b16": "fp8e5b16",
    "float8_e5m2fnuz": "fp8e5b16", "fp8e5b16": "fp8e5b16", "void": "void",
}


def is_interpreter() -> bool:
    return False


def get_current_target() -> Any:
    return driver.active.get_current_target()


def _backend_is(name: str) -> bool:
    return get_current_target().backend == name


def is_cuda() -> bool:
    return _backend_is("cuda")


def is_hip() -> bool:
    return _backend_is("hip")


def is_xpu() -> bool:
    return _backend_is("xpu")


def _cuda_major() -> int:
    return torch.cuda.get_device_capability()[0] if is_cuda() else -1


def is_ampere_or_newer() -> bool:
    return _cuda_major() >= 8


def is_hopper_or_newer() -> bool:
    return _cuda_major() >= 9


def is_hopper() -> bool:
    return _cuda_major() == 9


def is_blackwell() -> bool:
    return _cuda_major() == 10


def is_sm12x() -> bool:
    return _cuda_major() == 12


def _hip_arch_has(part: str) -> bool:
    return is_hip() and part in str(get_current_target().arch)


def is_hip_cdna2() -> bool:
    return _hip_arch_has("gfx90a")


def is_hip_cdna3() -> bool:
    return _hip_arch_has("gfx942")


def is_hip_cdna4() -> bool:
    return _hip_arch_has("gfx950")


def is_hip_cdna() -> bool:
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def is_hip_gfx11() -> bool:
    return _hip_arch_has("gfx11")


def is_hip_gfx12() -> bool:
    return _hip_arch_has("gfx12")


def is_hip_gfx1250() -> bool:
    return _hip_arch_has("gfx1250")


def get_hip_lds_size() -> int:
    """An AMD GPU's shared memory per block (tests size blocks by it)."""
    return 163840 if is_hip_cdna4() else 65536


def get_arch() -> str:
    return str(get_current_target().arch)


def numpy_random(shape: Any, dtype_str: str, rs: Optional[RandomState] = None,
                 low: Any = None, high: Any = None) -> np.ndarray:
    """Random test data of `dtype_str`, from `rs` (else a fixed seed, so that two calls give
    the same data); integers are never 0 (tests divide by them), fp8 data is int8 bytes in a
    narrow range, bfloat16 data is float32 with the low 16 bits cleared."""
    shape = (shape,) if isinstance(shape, int) else shape
    rs = RandomState(seed=17) if rs is None else rs
    if dtype_str in int_dtypes + uint_dtypes:
        info = np.iinfo(getattr(np, dtype_str))
        low = info.min if low is None else max(low, info.min)
        high = info.max if high is None else min(high, info.max)
        values = rs.randint(low, high, shape, dtype=getattr(np, dtype_str))
        values[values == 0] = 1
        return values
    if dtype_str and "float8" in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == "bfloat16":
        bits = rs.normal(0, 1, shape).astype("float32").view("uint32") & np.uint32(0xFFFF0000)
        return bits.view("float32")
    if dtype_str in ("bool", "int1", "bool_"):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError(f"Unknown dtype {dtype_str}")


def to_triton(x: np.ndarray, device: Any = None, dst_type: Optional[str] = None
              ) -> Union[TensorWrapper, torch.Tensor]:
    """A kernel argument holding `x`, on the CPU (tcpu's device, whatever `device` names):
    unsigned data as its signed twin reinterpreted (torch lacks most unsigned types), fp8 as
    bytes reinterpreted, float32 as bfloat16 when `dst_type` asks."""
    name = x.dtype.name
    if name in uint_dtypes:
        signed = x.astype(getattr(np, name[1:]))
        return reinterpret(torch.tensor(signed), getattr(tl, name))
    if dst_type and "float8" in dst_type:
        return reinterpret(torch.tensor(x), str_to_triton_dtype(dst_type))
    if name == "float32" and dst_type == "bfloat16":
        return torch.tensor(x).bfloat16()
    return torch.tensor(x)


def str_to_triton_dtype(x: str) -> tl.dtype:
    return tl.DTYPES_BY_NAME[_TL_NAMES[x]]


def torch_dtype_name(dtype: Any) -> str:
    """A triton.language or torch dtype's name ("int64" for torch.int64)."""
    if isinstance(dtype, tl.dtype):
        return dtype.name
    if isinstance(dtype, torch.dtype):
        found = re.match(r"^torch\.(\w+)$", str(dtype))
        if found:
            return found.group(1)
    raise TypeError(f"not a triton or torch dtype: {type(dtype)}")


def to_numpy(x: Any) -> np.ndarray:
    """A kernel argument's data as numpy: a reinterpreted tensor as its dtype's numpy type,
    bfloat16 as float32."""
    if isinstance(x, TensorWrapper):
        return x.base.cpu().numpy().astype(getattr(np, torch_dtype_name(x.dtype)))
    if isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    raise ValueError(f"Not a triton-compatible tensor: {x}")


def supports_tma(byval_only: bool = False) -> bool:
    return True


def supports_ws() -> bool:
    return True


def tma_skip_msg(byval_only: bool = False) -> str:
    if byval_only:
        return "needs __grid_constant__ TMA (NVIDIA Hopper or newer, CUDA 12.0 or newer)"
    return "needs TMA (NVIDIA Hopper or newer, CUDA 12.3 or newer)"


requires_tma = pytest.mark.skipif(not supports_tma(), reason=tma_skip_msg())


def default_alloc_fn(size: int, align: int, _: Any) -> torch.Tensor:
    """Scratch memory for triton.set_allocator, on the CPU."""
    return torch.empty(size, dtype=torch.int8)


def unwrap_tensor(t: Union[torch.Tensor, TensorWrapper]) -> torch.Tensor:
    return t.base if isinstance(t, TensorWrapper) else t


def _fresh_knobs_impl(skipped_attr: Optional[Set[str]] = None
                      ) -> tuple[Callable[[], Any], Callable[[], None]]:
    """(fresh, reset) for the `fresh_knobs` fixture: `fresh` replaces each knob set of
    `triton.knobs` (but those named in `skipped_attr`) with one that holds no assigned value
    and unsets their environment variables, then returns the module; `reset` puts back the
    sets, the variables and `propagate_env`."""
    skipped = skipped_attr or set()
    sets = {name: value for name, value in vars(knobs).items()
            if isinstance(value, knobs.base_knobs) and name not in skipped}
    saved_env: dict[str, Optional[str]] = {}
    saved_propagate = knobs.propagate_env

    def fresh() -> Any:
        for name, knob_set in sets.items():
            setattr(knobs, name, knob_set.copy().reset())
            for knob in knob_set.knob_descriptors.values():
                saved_env.setdefault(knob.key, os.environ.get(knob.key))
                os.environ.pop(knob.key, None)
        knobs.propagate_env = True
        return knobs

    def reset() -> None:
        for name, knob_set in sets.items():
            setattr(knobs, name, knob_set)
        for key, text in saved_env.items():
            if text is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = text
        knobs.propagate_env = saved_propagate

    return fresh, reset
