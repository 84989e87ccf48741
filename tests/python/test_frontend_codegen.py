"""What the front end writes for tl, where it decides speed or semantics: read-only pointers
are const (tl fuses their loads into their uses), written ones are not; pointers advanced by
scalars in a loop keep tl's structured types (contiguous rows, not gathers); `#line`
directives map the C++ back to the kernel's Python lines; isinstance(x, tl.tensor) holds for
run-time values."""

from __future__ import annotations

import inspect

import torch

import triton
import triton.language as tl


@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, a, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, a * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def row_sums(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    ptrs = x_ptr + row * n_cols + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        acc += tl.load(ptrs, mask=start + tl.arange(0, BLOCK) < n_cols, other=0.0)
        ptrs += BLOCK
    if isinstance(acc, tl.tensor):
        tl.store(out_ptr + row, tl.sum(acc, axis=0))


def test_const_pointers_and_line_directives() -> None:
    x, y, out = torch.rand(100), torch.rand(100), torch.empty(100)
    kernel = axpy[(2,)](x, y, out, 100, 2.0, BLOCK=64)
    assert torch.allclose(out, 2.0 * x + y)
    source = kernel.asm["source"]
    assert "const float* x_ptr" in source and "const float* y_ptr" in source
    assert "float* out_ptr" in source and "const float* out_ptr" not in source
    first = inspect.getsourcelines(axpy.fn)[1]
    assert f'#line {first + 3} "{__file__}"' in source  # offs = ...


def test_pointers_advanced_in_loops_stay_structured() -> None:
    x = torch.rand(3, 1000)
    out = torch.empty(3)
    kernel = row_sums[(3,)](x, out, 1000, BLOCK=128)
    assert torch.allclose(out, x.sum(dim=1), rtol=1e-5)
    assert "tl::carried(" in kernel.asm["source"]  # the Ptr is carried, not a Block<float*>
    assert "tl::Block<const float*" not in kernel.asm["source"]
