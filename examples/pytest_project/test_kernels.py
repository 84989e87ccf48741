import pytest
import torch

from kernels import cross_entropy, gelu, layer_norm


@pytest.mark.parametrize("n", [1, 1000, 4097])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
def test_gelu(n, dtype, device):
    torch.manual_seed(0)
    x = torch.randn(n, device=device, dtype=dtype)
    ref = torch.nn.functional.gelu(x.float()).to(dtype)
    torch.testing.assert_close(gelu(x), ref, atol=1e-3 if dtype == torch.float16 else 1e-6,
                               rtol=1e-3 if dtype == torch.float16 else 1e-5)


@pytest.mark.parametrize("rows, cols", [(1, 8), (37, 300), (128, 1024)])
def test_layer_norm(rows, cols, device):
    torch.manual_seed(1)
    x = torch.randn(rows, cols, device=device)
    w, b = torch.rand(cols, device=device), torch.randn(cols, device=device)
    ref = torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5)
    torch.testing.assert_close(layer_norm(x, w, b), ref, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("rows, classes", [(4, 10), (64, 1000)])
def test_cross_entropy(rows, classes, device):
    torch.manual_seed(2)
    logits = torch.randn(rows, classes, device=device)
    target = torch.randint(0, classes, (rows,), device=device)
    ref = torch.nn.functional.cross_entropy(logits, target)
    torch.testing.assert_close(cross_entropy(logits, target), ref, atol=1e-5, rtol=1e-5)
