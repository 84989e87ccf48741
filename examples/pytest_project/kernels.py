"""Three kernels in the style of real Triton projects, with their PyTorch wrappers: a fused
GELU (erf form), a row-wise layer norm and a cross-entropy loss. Nothing here knows about tcpu:
on a GPU machine they run on real Triton, and under `pytest -p tcpu.pytest_plugin` on the CPU."""

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    n = x.numel()
    gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = diff * rstd * w + b
    tl.store(y_ptr + row * stride + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layer_norm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float = 1e-5):
    rows, cols = x.shape
    y = torch.empty_like(x)
    layer_norm_kernel[(rows,)](x, w, b, y, x.stride(0), cols, eps,
                               BLOCK=triton.next_power_of_2(cols))
    return y


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, stride, n_classes,
                         BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_classes
    logits = tl.load(logits_ptr + row * stride + cols, mask=mask,
                     other=-float("inf")).to(tl.float32)
    m = tl.max(logits, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(logits - m), axis=0))
    target = tl.load(target_ptr + row)
    picked = tl.load(logits_ptr + row * stride + target).to(tl.float32)
    tl.store(loss_ptr + row, lse - picked)


def cross_entropy(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    rows, classes = logits.shape
    loss = torch.empty(rows, dtype=torch.float32, device=logits.device)
    cross_entropy_kernel[(rows,)](logits, target, loss, logits.stride(0), classes,
                                  BLOCK=triton.next_power_of_2(classes))
    return loss.mean()
