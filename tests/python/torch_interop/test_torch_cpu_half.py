"""fp16/bf16 references on a torch without those CPU kernels
(python/tcpu/triton/runtime/torch_cpu_half.py): what torch refuses is computed in fp32 and
rounded once, what torch can do is left to it, and the driver turns it on with the device."""

import importlib
import os
import subprocess
import sys

import pytest
import torch

half = importlib.import_module("tcpu.triton.runtime.torch_cpu_half")
drivers = importlib.import_module("tcpu.triton.runtime.driver")

LACKS = half._lacks_half_matmul(torch)
needs_old_torch = pytest.mark.skipif(not LACKS, reason="this torch has fp16 CPU kernels")


@pytest.fixture(scope="module", autouse=True)
def installed():
    drivers.driver.active.get_active_torch_device()  # as a Triton script does
    yield


@needs_old_torch
def test_matmul_is_fp32_rounded_once():
    g = torch.Generator().manual_seed(3)
    a = torch.rand((64, 256), generator=g).half()
    b = torch.rand((256, 32), generator=g).half()
    got = torch.matmul(a, b)
    assert got.dtype == torch.float16
    assert torch.equal(got, (a.float() @ b.float()).half())
    assert torch.equal(a @ b, got)  # the operator form goes the same way


@needs_old_torch
def test_bf16_and_methods():
    x = torch.linspace(-2, 2, 33).to(torch.bfloat16)
    got = x.exp()
    assert got.dtype == torch.bfloat16
    assert torch.equal(got, x.float().exp().to(torch.bfloat16))


@needs_old_torch
def test_layer_norm_forward_and_backward():
    g = torch.Generator().manual_seed(4)
    x = torch.randn((8, 64), generator=g).half().requires_grad_()
    w = torch.rand(64, generator=g).half().requires_grad_()
    b = torch.rand(64, generator=g).half().requires_grad_()
    y = torch.nn.functional.layer_norm(x, (64,), w, b, 1e-5)
    assert y.dtype == torch.float16
    y.backward(torch.ones_like(y))
    assert x.grad.dtype == torch.float16 and w.grad.dtype == torch.float16
    ref = torch.nn.functional.layer_norm(x.detach().float(), (64,), w.detach().float(),
                                         b.detach().float(), 1e-5).half()
    assert torch.equal(y.detach(), ref)


@needs_old_torch
def test_out_and_in_place_write_the_callers_tensor():
    a = torch.full((4, 4), 0.5).half()
    out = torch.empty((4, 4), dtype=torch.float16)
    returned = torch.mm(a, a, out=out)
    assert returned is out and torch.equal(out, torch.full((4, 4), 1.0).half())
    x = torch.zeros(5).half()
    assert x.exp_() is x and torch.equal(x, torch.ones(5).half())


@needs_old_torch
def test_a_wider_input_keeps_a_wide_result():
    # An fp32 operand makes the result fp32 (torch's promotion): it is not rounded to fp16.
    # (torch 1.13 refuses baddbmm for the fp16 operands: "baddbmm" not implemented for 'Half'.)
    h = torch.full((1, 2, 2), 1.0 / 3).half()
    f = torch.full((1, 2, 2), 1.0 / 3, dtype=torch.float32)
    got = torch.baddbmm(f, h, h)
    assert got.dtype == torch.float32
    assert torch.equal(got, torch.baddbmm(f, h.float(), h.float()))


def test_other_errors_are_torchs():
    with pytest.raises(RuntimeError, match="cannot be multiplied|size mismatch|shapes"):
        torch.mm(torch.ones((2, 3)).half(), torch.ones((2, 3)).half())


@needs_old_torch
def test_off_switch_leaves_torch_alone():
    code = ("import torch, tcpu.triton as triton\n"
            "triton.runtime.driver.active.get_active_torch_device()\n"
            "a = torch.ones((2, 2)).half()\n"
            "try:\n    torch.mm(a, a)\nexcept RuntimeError as e:\n    print('refused', e)\n")
    env = dict(os.environ, TCPU_TORCH_HALF="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert "refused" in out and "Half" in out


def test_python_m_tcpu_needs_no_device_question(tmp_path):
    # Projects that pick their own device never ask the driver: under `python3 -m tcpu` (and
    # the pytest plugin) an old torch gets the fallbacks at the start (tcpu.aliases).
    script = tmp_path / "reference.py"
    script.write_text("import torch\n"
                      "a = torch.ones((8, 8), dtype=torch.float16)\n"
                      "print((a @ a).dtype, (a @ a)[0, 0].item())\n")
    result = subprocess.run([sys.executable, "-m", "tcpu", str(script)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split() == ["torch.float16", "8.0"]
