"""A @triton.jit kernel registered as a PyTorch operator from Python (torch.library), on
Debian's torch 1.13: callable as torch.ops.<namespace>.<op> in eager mode, with the CPU
dispatch key; errors of the launch reach the caller. (torch 1.13 has no torch.compile, and
autograd needs the usual torch.autograd.Function around the op, as Triton's tutorials do.)"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl


@triton.jit
def _scale_add_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, alpha * x + tl.load(y_ptr + offs, mask=mask), mask=mask)


def _scale_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    _scale_add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, alpha, BLOCK=1024)
    return out


@pytest.fixture(scope="module")
def ops():
    library = torch.library.Library("tcpu_test_ops", "DEF")
    library.define("scale_add(Tensor x, Tensor y, float alpha) -> Tensor")
    library.impl("scale_add", _scale_add, "CPU")
    yield torch.ops.tcpu_test_ops
    del library


def test_the_op_runs_the_kernel(ops):
    x, y = torch.rand(5000), torch.rand(5000)
    got = ops.scale_add(x, y, 0.5)
    expected = (np.float32(0.5) * x.numpy() + y.numpy()).astype(np.float32)
    np.testing.assert_array_equal(got.numpy(), expected)


def test_errors_reach_the_caller(ops):
    # The launch refuses a complex tensor (no Triton dtype): the error comes out of torch.ops
    # with the kernel's argument named.
    x = torch.zeros(4, dtype=torch.complex64)
    with pytest.raises(Exception, match="x_ptr") as error:
        ops.scale_add(x, x, 1.0)
    assert "complex" in str(error.value)
