"""A @triton.jit kernel as a PyTorch operator (torch.library.custom_op with register_fake), and
torch.compile of a function that calls it, on the CPU: what test_torch_compile.py runs in a
fresh process. argv[1]: "tcpu" imports tcpu's triton by name (`from tcpu import triton`);
"triton" uses plain `import triton` (run under `python3 -m tcpu`)."""

import sys

import torch

if sys.argv[1] == "tcpu":
    import tcpu.triton.language as tl
    from tcpu import triton
else:
    import triton
    import triton.language as tl


@triton.jit
def _scale_add(x, y, out, n, ALPHA: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) * ALPHA + tl.load(y + offs, mask=mask),
             mask=mask)


@torch.library.custom_op("tcpu_test::scale_add", mutates_args=())
def scale_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    _scale_add[(triton.cdiv(n, 256),)](x, y, out, n, ALPHA=3.0, BLOCK=256)
    return out


@scale_add.register_fake
def _(x, y):
    return torch.empty_like(x)


def f(x, y):
    return torch.relu(scale_add(x, y)) + 1


x, y = torch.randn(1000), torch.randn(1000)
expected = torch.relu(x * 3 + y) + 1
torch.testing.assert_close(f(x, y), expected)
torch.testing.assert_close(torch.compile(f)(x, y), expected)
torch.testing.assert_close(torch.compile(f)(x[:77], y[:77]), expected[:77])  # a new shape
print("compiled and checked with", triton.__name__)
