"""Checks a build of tcpu_ops against PyTorch: python3 check_ops.py <library .so>.
Loads the library (torch.ops.load_library), compares torch.ops.tcpu_ops.matmul and .gelu with
torch on fp32, fp16 and bf16, strided inputs and out=, and checks that bad inputs raise errors
naming the argument. Exits non-zero on the first failure."""

import sys

import torch

torch.ops.load_library(sys.argv[1])
ops = torch.ops.tcpu_ops
g = torch.Generator().manual_seed(0)


def reference_matmul(a, b):
    # fp32 accumulation, rounded once to the inputs' dtype (as the kernel and the GPU do).
    return (a.double() @ b.double()).to(a.dtype)


for dtype, atol in ((torch.float32, 1e-4), (torch.float16, 2e-2), (torch.bfloat16, 1.5e-1)):
    a = torch.randn((70, 45), generator=g).to(dtype)
    b = torch.randn((45, 33), generator=g).to(dtype)
    got = ops.matmul(a, b)
    assert got.dtype == dtype and got.shape == (70, 33)
    torch.testing.assert_close(got.float(), reference_matmul(a, b).float(), atol=atol, rtol=1e-2)
    # Strided inputs: the kernel takes the strides.
    at, bt = a.T.contiguous().T, b[:, ::1]
    torch.testing.assert_close(ops.matmul(at, bt).float(), got.float(), atol=0, rtol=0)
    out = torch.empty((70, 33), dtype=dtype)
    assert ops.matmul(a, b, out).data_ptr() == out.data_ptr()
    torch.testing.assert_close(out.float(), got.float(), atol=0, rtol=0)
    x = torch.randn(3001, generator=g).to(dtype)
    torch.testing.assert_close(ops.gelu(x).float(),
                               torch.nn.functional.gelu(x.float()).to(dtype).float(),
                               atol=atol, rtol=1e-2)

a, b = torch.randn(8, 4), torch.randn(4, 6)
for call, message in [
    (lambda: ops.matmul(a.double(), b.double()), "a must be float32, float16 or bfloat16"),
    (lambda: ops.matmul(a, a), "a.size(1) must equal b.size(0)"),
    (lambda: ops.matmul(a, b.half()), "a and b must have one dtype"),
    (lambda: ops.matmul(a[None], b), "a and b must be 2-D"),
    (lambda: ops.matmul(a, b, torch.empty(8, 5)), "out is [8, 5], the product is [8, 6]"),
    (lambda: ops.matmul(a, b, torch.empty(8, 6).half()), "out has dtype Half"),
    (lambda: ops.matmul(torch.randn(6, 6), torch.randn(6, 6), None), None),
]:
    if message is None:
        call()
        continue
    try:
        call()
    except RuntimeError as error:
        assert message in str(error), f"{message!r} not in {error}"
    else:
        raise AssertionError(f"no error for: {message}")
square = torch.randn(6, 6)
try:
    ops.matmul(square, torch.randn(6, 6), square)
except RuntimeError as error:
    assert "out overlaps a" in str(error), str(error)
else:
    raise AssertionError("out aliasing a was accepted")
print("tcpu_ops: all checks passed")
