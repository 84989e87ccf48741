"""`a if cond else b` with a run-time condition: each side runs only when chosen (Triton lowers
it to an scf.if), so a side's loads and stores do not run otherwise, and two stores make a
ternary with no value (Triton's test_if[if_exp_dynamic_void])."""

from __future__ import annotations

import torch

import triton
import triton.language as tl


@triton.jit
def _store_either(X, Y, OUT):
    pid = tl.program_id(0)
    tl.store(OUT + pid, tl.load(X + pid)) if pid % 2 == 0 else tl.store(OUT + pid, tl.load(Y + pid))


def test_a_ternary_of_two_stores_runs_one() -> None:
    x, y = torch.arange(8.0), -torch.arange(8.0) - 1
    out = torch.zeros(8)
    _store_either[(8,)](x, y, out)
    assert torch.equal(out, torch.where(torch.arange(8) % 2 == 0, x, y))


@triton.jit
def _guarded_load(X, OUT, n, FAR: tl.constexpr):
    pid = tl.program_id(0)
    # The untaken side reads far outside X: it must not run.
    v = tl.load(X + pid) if pid < n else tl.load(X + pid + FAR)
    w = tl.load(X + pid) + 1.0 if pid < n else 2.0
    tl.store(OUT + pid, v + w)


def test_the_side_not_chosen_does_not_load() -> None:
    x = torch.arange(16.0)
    out = torch.zeros(16)
    _guarded_load[(16,)](x, out, 16, FAR=1 << 40)
    assert torch.equal(out, 2 * x + 1)


@triton.jit
def _count_stores(P, flag):
    tl.atomic_add(P, 1) if flag else tl.atomic_add(P + 1, 1)


def test_only_the_chosen_side_has_effects() -> None:
    p = torch.zeros(2, dtype=torch.int32)
    _count_stores[(3,)](p, 1)
    _count_stores[(2,)](p, 0)
    assert p.tolist() == [3, 2]
