"""What the test_lang_*.py files share: the dtypes by name, test data, moving arrays to the
device and back, a @jit helper for 2-D offsets, and kernels converting to and from an fp8
format held in uint8 arrays."""

import numpy as np
import torch

import triton
import triton.language as tl

# numpy's type for a dtype name (bfloat16 values are held as float32)...
NP = {"int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
      "uint32": np.uint32, "float16": np.float16, "bfloat16": np.float32, "float32": np.float32,
      "float64": np.float64}
# ...and torch's (uint32 travels in int32 tensors: torch 1.13 has no uint32).
TORCH = {"int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
         "uint8": torch.uint8, "uint32": torch.int32, "float16": torch.float16,
         "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64}


def tl_dtype(name):
    return getattr(tl, name)


def data(dtype, shape, seed=0):
    """Random values of `dtype` (as NP[dtype]): floats in [-100, 100), bfloat16 ones exact in
    bf16; integers over the type's range, clipped to +-10**6."""
    rs = np.random.RandomState(seed)
    n = int(np.prod(shape))
    if dtype == "bfloat16":  # values representable in bf16, held as fp32
        x = torch.from_numpy(rs.uniform(-100, 100, size=n).astype(np.float32)).to(torch.bfloat16).float()
        return x.numpy().reshape(shape)
    if dtype in ("float16", "float32", "float64"):
        return rs.uniform(-100, 100, size=n).astype(NP[dtype]).reshape(shape)
    info = np.iinfo(NP[dtype])
    return rs.randint(max(int(info.min), -10 ** 6), min(int(info.max), 10 ** 6) + 1, size=n).astype(
        NP[dtype]).reshape(shape)


def int_valued(dtype, shape, seed, lo=-50, hi=50):
    """Integer values in [lo, hi) (exact in every dtype they are used with), as NP[dtype]."""
    x = np.random.RandomState(seed).randint(lo, hi, size=shape)
    return x.astype(NP[dtype])


def dev(arr, device, dtype=None):
    """A copy of `arr` on `device`; with a dtype name, converted to TORCH[dtype] (uint32: the
    bits, as int32)."""
    arr = np.ascontiguousarray(arr)
    if dtype == "uint32":
        arr = arr.astype(np.uint32).view(np.int32)
    t = torch.from_numpy(arr.copy())
    if dtype is not None:
        t = t.to(TORCH[dtype])
    return t.to(device)


def host(t, dtype=None):
    """A tensor as numpy: bfloat16 as float32; with dtype "uint32", the int32 bits as uint32."""
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy().view(np.uint32) if dtype == "uint32" else t.numpy()


@triton.jit
def offsets3(A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    """Row-major offsets of an [A, B, C] block."""
    i = tl.arange(0, A)[:, None, None]
    j = tl.arange(0, B)[None, :, None]
    k = tl.arange(0, C)[None, None, :]
    return i * (B * C) + j * C + k


# The offsets of a row-major (M, N) block.
@triton.jit
def offsets2(M: tl.constexpr, N: tl.constexpr):
    return tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]


@triton.jit
def to_fp8_kernel(X, OUT, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(OUT.to(tl.pointer_type(DT)) + offs, x.to(DT))


@triton.jit
def from_fp8_kernel(B, OUT, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(B.to(tl.pointer_type(DT)) + offs)
    tl.store(OUT + offs, x.to(OUT.dtype.element_ty))
