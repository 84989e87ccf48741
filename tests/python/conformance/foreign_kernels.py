"""Kernels for test_foreign_kernels.py: loaded once with the real Triton and once with tcpu's
alias, they must lower to the same C++. They use what a kernel module holds of Triton: the
language module, a helper @jit function, a constexpr global, a dtype global, libdevice and
tl.math, constexpr annotations."""

import triton
import triton.language as tl
from triton.language.extra import libdevice

SCALE: tl.constexpr = tl.constexpr(0.5)
OUT_DTYPE = tl.float16


@triton.jit
def _scaled(x, factor: tl.constexpr):
    return x * factor


@triton.jit
def mixed_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, DT: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = libdevice.asin(_scaled(x, SCALE)) + tl.math.exp2(x)
    tl.store(out_ptr + offs, y.to(DT), mask=mask)


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    acc = tl.zeros((M, N), dtype=tl.float32)
    acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(OUT_DTYPE))
