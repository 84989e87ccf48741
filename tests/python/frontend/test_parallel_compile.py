"""compile_in_parallel (tcpu.frontend.build.parallel): independent specializations compiled on
threads at once give the kernels one-by-one compiles give, each kept for its launches; a failing
one is raised after the others have finished."""

from __future__ import annotations

import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON

pytestmark = pytest.mark.skipif(REAL_TRITON, reason="tcpu's own compile entry point")


@triton.jit
def scaled_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr, FACTOR: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * FACTOR, mask=mask)


def test_specializations_compiled_at_once_are_kept_and_compute() -> None:
    from tcpu.frontend.build.parallel import compile_in_parallel
    n = 1000
    x = torch.arange(n, dtype=torch.float32)
    out = torch.empty_like(x)
    shapes = [(64, 2.0), (128, 3.0), (256, 5.0)]
    before = len(scaled_copy.specializations)
    compiled = compile_in_parallel(
        [lambda b=b, f=f: scaled_copy.warmup(x, out, n, BLOCK=b, FACTOR=f, grid=(1,))
         for b, f in shapes], workers=3)
    assert len(compiled) == 3 and len({id(k) for k in compiled}) == 3
    assert len(scaled_copy.specializations) == before + 3
    for block, factor in shapes:
        scaled_copy[(triton.cdiv(n, block),)](x, out, n, BLOCK=block, FACTOR=factor)
        assert torch.equal(out, x * factor)
    assert len(scaled_copy.specializations) == before + 3  # the launches compiled nothing


def test_a_failure_is_raised_after_the_others_finish() -> None:
    from tcpu.frontend.build.parallel import compile_in_parallel
    finished = []

    def fails() -> None:
        raise ValueError("this config cannot compile")

    def works() -> int:
        finished.append(1)
        return 7

    with pytest.raises(ValueError, match="cannot compile"):
        compile_in_parallel([fails, works, works], workers=2)
    assert finished == [1, 1]
    assert compile_in_parallel([works, works], workers=1) == [7, 7]
