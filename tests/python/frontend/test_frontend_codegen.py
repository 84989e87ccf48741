"""What the front end writes for tl, where it decides speed or semantics: read-only pointers
are const (tl fuses their loads into their uses), written ones are not; pointers advanced by
scalars in a loop keep tl's structured types (contiguous rows, not gathers); `#line`
directives map the C++ back to the kernel's Python lines; isinstance(x, tl.tensor) holds for
run-time values; `kernel.asm` holds that C++ only, and asking for one of Triton's IRs says
why it is absent."""

from __future__ import annotations

import inspect

import pytest
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


def test_asm_holds_the_cpp_source_and_names_why_triton_irs_are_absent() -> None:
    x, y, out = torch.rand(8), torch.rand(8), torch.empty(8)
    kernel = axpy[(1,)](x, y, out, 8, 2.0, BLOCK=8)
    assert list(kernel.asm) == ["source"] and "ttir" not in kernel.asm
    with pytest.raises(KeyError, match="compiler stage 'ttir' does not exist on the CPU"):
        kernel.asm["ttir"]


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


@triton.jit
def rescaled_products(a_ptr, b_ptr, out_ptr, steps, scale, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    acc = tl.zeros((N, N), dtype=tl.float32)
    for _ in range(steps):
        acc = acc * scale  # the attention tutorial's rescaling, then its product
        acc = tl.dot(a, b, acc)
    tl.store(out_ptr + r[:, None] * N + r[None, :], acc)


@triton.jit
def self_products(a_ptr, b_ptr, out_ptr, steps, N: tl.constexpr):
    r = tl.arange(0, N)
    acc = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    for _ in range(steps):
        acc = tl.dot(acc, b, acc)  # the product reads the accumulator it writes
    tl.store(out_ptr + r[:, None] * N + r[None, :], acc)


def test_accumulating_dot_written_back_is_in_place() -> None:
    # `acc = tl.dot(a, b, acc)` as a loop's last assignment is computed in acc itself
    # (tl::dot_into), with the rescaled accumulator evaluated into acc first, not copied.
    g = torch.Generator().manual_seed(7)
    a, b = torch.rand(64, 64, generator=g) - 0.5, torch.rand(64, 64, generator=g) - 0.5
    out = torch.empty(64, 64)
    kernel = rescaled_products[(1,)](a, b, out, 3, 0.5, N=64)
    want = torch.zeros(64, 64, dtype=torch.float64)
    for _ in range(3):
        want = want * 0.5 + a.double() @ b.double()
    assert torch.allclose(out.double(), want, rtol=1e-5, atol=1e-5)
    source = kernel.asm["source"]
    assert "tl::dot_into(acc_" in source
    assert "std::as_const(acc_" in source  # acc * scale read in place


def test_dot_reading_its_accumulator_is_not_in_place() -> None:
    # With a = acc, writing acc before the product has read all of a would change it: the
    # product goes through its own block. 64 columns are two of dot's column tiles, so an
    # in-place product would read rows already overwritten.
    g = torch.Generator().manual_seed(8)
    a, b = torch.rand(64, 64, generator=g) - 0.5, (torch.rand(64, 64, generator=g) - 0.5) / 16
    out = torch.empty(64, 64)
    kernel = self_products[(1,)](a, b, out, 3, N=64)
    want = a.double()
    for _ in range(3):
        want = want + want @ b.double()
    assert torch.allclose(out.double(), want, rtol=1e-5, atol=1e-6)
    assert "tl::dot_into" not in kernel.asm["source"]


@triton.jit
def locked_row_sums(x_ptr, sums_ptr, lock_ptr, n_cols, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    # Layer norm backward's pattern: a spin lock per group of rows around a read-modify-write.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    lock = lock_ptr + row % GROUPS
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.store(sums_ptr + row % GROUPS, tl.load(sums_ptr + row % GROUPS) + tl.sum(x, axis=0))
    tl.atomic_xchg(lock, 0)


@triton.jit
def histogram(x_ptr, counts_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.atomic_add(counts_ptr + tl.load(x_ptr + offs, mask=mask, other=0) % BINS, 1, mask=mask)


def test_only_kernels_whose_programs_wait_are_dealt_in_launch_order() -> None:
    """Codegen marks a kernel whose programs wait for each other (a loop on atomic_cas), which
    the runtime then deals in runs of programs in launch order; atomics that only update (a
    histogram) leave the kernel on the default schedule."""
    x = torch.ones(64, 100)
    sums, locks = torch.zeros(4), torch.zeros(4, dtype=torch.int32)
    locked = locked_row_sums[(64,)](x, sums, locks, 100, GROUPS=4, BLOCK=128)
    assert torch.equal(sums, torch.full((4,), 1600.0)) and torch.equal(locks, torch.zeros(4, dtype=torch.int32))
    assert locked.handle.programs_wait
    values = torch.arange(1000, dtype=torch.int32)
    counts = torch.zeros(8, dtype=torch.int32)
    binned = histogram[(8,)](values, counts, 1000, BINS=8, BLOCK=128)
    assert torch.equal(counts, torch.full((8,), 125, dtype=torch.int32))
    assert not binned.handle.programs_wait
