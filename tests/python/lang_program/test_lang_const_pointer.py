"""`tl.const` pointer parameters, as Triton types them: a parameter annotated `tl.const` is a
`const_pointer` (pointers derived from it too), loads through it work, a store through it is
refused ("Cannot store to a constant pointer"), and a const and a mutable pointer are two types:
one name bound to either in a run-time `if`, a run-time conditional expression or the returns of
a helper is refused with Triton's messages. Chosen at compile time, the choice is fine."""

import pytest
import torch

import triton
import triton.language as tl
from triton.compiler.errors import CompilationError

SIZE = 64


@triton.jit
def k_copy(src: tl.const, dst, n, BLOCK: tl.constexpr):
    tl.static_assert(src.dtype.is_const())
    tl.static_assert(not dst.dtype.is_const())
    offs = tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def test_load_through_a_const_pointer(device):
    src = torch.randn(SIZE, device=device)
    dst = torch.zeros(SIZE, device=device)
    k_copy[(1, )](src, dst, SIZE, BLOCK=SIZE)
    assert torch.equal(src, dst)


@triton.jit
def k_store_through_const(src: tl.const, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(src + offs, 1.0)


@triton.jit
def k_choose_at_run_time_if(src: tl.const, dst, choose):
    if choose:
        target = src
    else:
        target = dst
    tl.store(dst, tl.load(target))


@triton.jit
def k_choose_at_run_time_ternary(src: tl.const, dst, choose):
    target = src if choose else dst
    tl.store(dst, tl.load(target))


@triton.jit
def either(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a


@triton.jit
def k_choose_in_helper(src: tl.const, dst, choose):
    tl.store(dst, tl.load(either(dst, src, choose)))


@triton.jit
def k_choose_at_compile_time(src: tl.const, dst, CHOOSE_SRC: tl.constexpr):
    if CHOOSE_SRC:
        target = src
    else:
        target = dst
    tl.store(dst + 1, tl.load(target))


@pytest.mark.parametrize("kernel, args, message", [
    (k_store_through_const, dict(BLOCK=SIZE), "Cannot store to a constant pointer"),
    (k_choose_at_run_time_if, dict(choose=3), "Mismatched type for target"),
    (k_choose_at_run_time_ternary, dict(choose=3),
     "Ternary expression with dynamic condition has inconsistent type"),
    (k_choose_in_helper, dict(choose=3), "Return type mismatch"),
])
def test_const_refusals(device, kernel, args, message):
    src = torch.ones(SIZE, device=device)
    dst = torch.zeros(SIZE, device=device)
    with pytest.raises(CompilationError) as info:
        kernel[(1, )](src, *([dst] if "dst" in kernel.arg_names else []), **args)
    err = info.value
    assert message in (err.error_message or "") + str(err.__cause__), str(err)


def test_const_chosen_at_compile_time(device):
    src = torch.full((SIZE, ), 7.0, device=device)
    dst = torch.zeros(SIZE, device=device)
    k_choose_at_compile_time[(1, )](src, dst, CHOOSE_SRC=True)
    assert dst[1].item() == 7.0
