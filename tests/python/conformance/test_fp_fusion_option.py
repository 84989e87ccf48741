"""`enable_fp_fusion` at launch: on by default (a*b+c may be one FMA, rounded once, as on
Triton's GPU backends), off with enable_fp_fusion=False (each operation rounded, as Triton's
interpreter computes). The differential tests (tests/differential) launch with it off."""

from __future__ import annotations

import torch
import triton
import triton.language as tl


@triton.jit
def _mul_add(a, b, c, out):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.load(a + o) * tl.load(b + o) + tl.load(c + o))


def _operands(device):
    # a*b = 1 - 2**-46 exactly; rounded to fp32 it is 1.0, so a*b - 1 is 0 unfused and
    # -2**-46 fused.
    a = torch.full((4,), 1 + 2.0**-23, dtype=torch.float32, device=device)
    b = torch.full((4,), 1 - 2.0**-23, dtype=torch.float32, device=device)
    c = torch.full((4,), -1.0, dtype=torch.float32, device=device)
    return a, b, c


def test_enable_fp_fusion_false_rounds_each_operation(device):
    a, b, c = _operands(device)
    out = torch.empty(4, dtype=torch.float32, device=device)
    _mul_add[(1,)](a, b, c, out, enable_fp_fusion=False)
    assert out.cpu().tolist() == [0.0] * 4


def test_fp_fusion_is_on_by_default(device):
    a, b, c = _operands(device)
    out = torch.empty(4, dtype=torch.float32, device=device)
    _mul_add[(1,)](a, b, c, out)
    # Fused where the target has an FMA instruction; x86-64's baseline has none.
    assert out.cpu().tolist() in ([-(2.0**-46)] * 4, [0.0] * 4)
