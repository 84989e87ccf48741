"""Assignment of compile-time values, as Triton's code generator does it (visit_Assign,
visit_AnnAssign, the returns of a @jit helper):

* a Python number assigned to a name (``x = 1``, or a constexpr's value ``x = BLOCK``) becomes a
  run-time scalar of its literal dtype (1 -> int32, 2**40 -> int64, 2.5 -> fp32, True -> int1);
  so ``x.dtype`` is that dtype and an ``if x:`` is a run-time branch;
* ``x: tl.constexpr = ...`` and constexpr parameters stay compile-time: their ``.type`` is
  ``tl.constexpr_type(value)``, equal for equal values;
* a helper that returns in one branch and falls off its end in the other returns an undefined
  value of the returned type on that path (Triton's poison), not nothing.
"""

import pytest
import torch

import triton
import triton.language as tl
from triton.compiler.errors import CompilationError


@triton.jit
def k_literal_dtypes(out, BLOCK: tl.constexpr):
    small = 1
    big = 2**40
    half = 2.5
    flag = True
    lifted = BLOCK
    tl.static_assert(small.dtype == tl.int32)
    tl.static_assert(big.dtype == tl.int64)
    tl.static_assert(half.dtype == tl.float32)
    tl.static_assert(flag.dtype == tl.int1)
    tl.static_assert(lifted.type == tl.int32)  # a scalar tensor's type is its dtype
    kept: tl.constexpr = BLOCK
    tl.static_assert(kept.type == tl.constexpr_type(BLOCK))
    tl.static_assert(BLOCK.type == tl.constexpr_type(16))
    tl.static_assert(BLOCK.type != tl.constexpr_type(17))
    tl.store(out, small + half + lifted)


def test_assigned_literals_are_scalars_of_their_dtype(device):
    out = torch.zeros(1, dtype=torch.float32, device=device)
    k_literal_dtypes[(1, )](out, BLOCK=16)
    assert out.item() == 19.5


def test_constexpr_type_compares_by_value():
    assert tl.constexpr_type(3) == tl.constexpr_type(3)
    assert tl.constexpr_type(3) != tl.constexpr_type(4)
    assert tl.constexpr(5).type == tl.constexpr_type(5)
    assert hash(tl.constexpr_type((5, 6))) == hash(tl.constexpr_type((5, 6)))


@triton.jit
def k_branch_on_assigned_literal(out):
    choose = False
    if choose:  # a run-time branch in Triton: both sides are typed, and must agree
        x = tl.arange(0, 4)
    else:
        x = tl.arange(0, 8)
    tl.store(out + x, x)


@triton.jit
def k_branch_on_constexpr(out, CHOOSE: tl.constexpr):
    if CHOOSE:  # a compile-time branch: only the taken side is lowered
        x = tl.arange(0, 4)
    else:
        x = tl.arange(0, 8)
    tl.store(out + x, x)


def test_if_on_an_assigned_literal_is_a_run_time_branch(device):
    out = torch.zeros(8, dtype=torch.int32, device=device)
    with pytest.raises(CompilationError) as info:
        k_branch_on_assigned_literal[(1, )](out)
    assert "Mismatched type for x" in str(info.value)
    k_branch_on_constexpr[(1, )](out, CHOOSE=False)
    assert out.tolist() == list(range(8))


@triton.jit
def returns_in_one_branch(x, flag):
    if flag:
        return x


@triton.jit
def returns_poison(x):
    never = False
    if never:
        return x


@triton.jit
def k_partial_return(out, flag):
    zero = 0
    value = 41
    tl.store(out, returns_in_one_branch(value, flag) + 1)
    tl.store(out + 1, returns_poison(zero))  # compiles; the value is undefined


def test_helper_falling_off_its_end_returns_a_value(device):
    out = torch.zeros(2, dtype=torch.int32, device=device)
    k_partial_return[(1, )](out, 5)
    assert out[0].item() == 42
