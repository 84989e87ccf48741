"""Triton-language kernels, compiled ahead of time into a C program (CMakeLists.txt): the
program runs them through libtcpu_runtime, with no Python and no LLVM. The same file runs on
real Triton on a GPU."""

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    # One program per row (the grid is n_rows): the row's maximum, an exact int32 reduction.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=(cols < n_cols) & (row < n_rows),
                other=-2147483648)
    tl.store(out_ptr + row, tl.max(x, axis=0), mask=row < n_rows)
