"""tcpu.testing.xcheck (python/tcpu/testing.py): the same kernels, run on an H100 by real
Triton 3.6 (record mode, on the lent GPU host: TCPU_TEST_REAL_TRITON=1 python3 -m pytest
tests/python/conformance/test_xcheck.py writes tests/goldens/xcheck/) and on the CPU by tcpu (compare mode,
here), judged by each output's rule. Goldens made from other sources, arguments or inputs are
refused; a wrong output fails naming the element."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON, ROOT
from tcpu.testing import XcheckError, xcheck

GOLDENS = ROOT / "tests" / "goldens" / "xcheck"
not_on_gpu = pytest.mark.skipif(REAL_TRITON, reason="judges tcpu's CPU runs (compare mode)")


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def _row_max(x):
    return tl.max(x, axis=0)


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=-float("inf"))
    e = tl.exp(x - _row_max(x))
    tl.store(out_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=cols < n_cols)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                  BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, BK)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def hash_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    h = (x ^ (x >> 7)) * 0x5BD1E995
    tl.store(out_ptr + offs, h ^ (h >> 13), mask=offs < n)


@triton.jit
def bf16_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, (x * 3.0).to(tl.bfloat16), mask=offs < n)


def _device(array):
    return torch.from_numpy(array).to("cuda" if REAL_TRITON else "cpu")


def cases():
    """(name, kernel, grid, args, meta, outputs): inputs from NumPy's seeded generator, the
    same bytes on every machine."""
    rs = np.random.RandomState(7)
    n = 5000
    x, y = rs.rand(n).astype(np.float32), rs.rand(n).astype(np.float32)
    sx = (rs.randn(33, 300) * 4).astype(np.float32)
    a = rs.rand(32, 256).astype(np.float16)
    b = rs.rand(256, 64).astype(np.float16)
    ints = rs.randint(-2**31, 2**31 - 1, size=3000).astype(np.int32)
    xb = rs.randn(1000).astype(np.float32)
    return [
        # One fp32 addition per element: the same on both.
        ("add", add_kernel, (triton.cdiv(n, 1024),),
         [x, y, np.zeros(n, np.float32), n], {"BLOCK": 1024}, {"out_ptr": "exact"}),
        # exp: Triton computes exp(x) as ex2.approx(x * log2(e)) with the product rounded to
        # fp32 first, which costs the smallest outputs (x - max near -24) many ULP (measured:
        # 19 ULP at [6, 270], 2.5e-11), while SLEEF's expf is within 1 ULP; the sums' orders
        # differ too. Relative norm 1.1e-7 measured.
        ("softmax", softmax_kernel, (33,),
         [sx, np.zeros_like(sx), 300], {"BLOCK": 512}, {"out_ptr": "relnorm:1e-6"}),
        # fp16 inputs, fp32 accumulation (tensor cores sum in another order), rounded to fp16:
        # within an absolute 1/8 of values around 64 (half an fp16 ULP there is 1/32).
        ("matmul_f16", matmul_kernel, (1,),
         [a, b, np.zeros((32, 64), np.float16)], {"M": 32, "N": 64, "K": 256, "BK": 32},
         {"c_ptr": "abs:0.125"}),
        # Integer arithmetic wraps identically.
        ("int_hash", hash_kernel, (3,), [ints, np.zeros_like(ints), 3000], {"BLOCK": 1024},
         {"out_ptr": "exact"}),
        # fp32 product rounded to bf16 (round to nearest even on both): exact; bf16 travels as
        # its bits.
        ("bf16_round", bf16_kernel, (1,),
         [torch.from_numpy(xb), torch.zeros(1000, dtype=torch.bfloat16), 1000], {"BLOCK": 1024},
         {"out_ptr": "exact"}),
    ]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_matches_real_triton(case):
    name, kernel, grid, args, meta, outputs = case
    report = xcheck(kernel, grid, args, meta, outputs=outputs, golden=GOLDENS / name)
    assert report.mode == ("record" if REAL_TRITON else "compare")
    assert report.passed, report


def _case(name):
    return next(c for c in cases() if c[0] == name)


@not_on_gpu
def test_other_inputs_are_refused():
    name, kernel, grid, args, meta, outputs = _case("add")
    args = list(args)
    args[0] = args[0].copy()
    args[0][17] += 1
    with pytest.raises(XcheckError, match="recorded with other inputs"):
        xcheck(kernel, grid, args, meta, outputs=outputs, golden=GOLDENS / name)


def _another_add_kernel():
    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):  # same name, other source
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) - tl.load(y_ptr + offs,
                 mask=mask), mask=mask)
    return add_kernel


@not_on_gpu
def test_another_source_meta_or_scalar_is_refused():
    name, kernel, grid, args, meta, outputs = _case("add")
    with pytest.raises(XcheckError, match="recorded with other kernel source"):
        xcheck(_another_add_kernel(), grid, args, meta, outputs=outputs, golden=GOLDENS / name)
    with pytest.raises(XcheckError, match="recorded with other kernel than"):
        xcheck(hash_kernel, grid, [np.zeros(5000, np.int32), np.zeros(5000, np.int32), 5000],
               meta, outputs=outputs, golden=GOLDENS / name)
    with pytest.raises(XcheckError, match="recorded with other meta"):
        xcheck(kernel, grid, args, {"BLOCK": 2048}, outputs=outputs, golden=GOLDENS / name)
    with pytest.raises(XcheckError, match="recorded with other scalar arguments"):
        xcheck(kernel, grid, args[:3] + [4999], meta, outputs=outputs, golden=GOLDENS / name)


@not_on_gpu
def test_an_output_beyond_its_rule_fails_naming_the_element(tmp_path):
    name, kernel, grid, args, meta, outputs = _case("softmax")
    golden = tmp_path / name
    shutil.copytree(GOLDENS / name, golden)
    out = np.load(golden / "out_ptr.npy")
    out[5, 123] += np.float32(0.01)  # relative norm ~3e-3 (the outputs' norm is ~3.2)
    np.save(golden / "out_ptr.npy", out)
    with pytest.raises(XcheckError) as failure:
        xcheck(kernel, grid, args, meta, outputs=outputs, golden=golden)
    text = str(failure.value)
    assert "FAILED" in text and "at [5, 123]" in text, text


@not_on_gpu
def test_modes_that_need_a_gpu_say_so():
    name, kernel, grid, args, meta, outputs = _case("add")
    with pytest.raises(XcheckError, match="live mode needs real Triton and a CUDA GPU"):
        xcheck(kernel, grid, args, meta, outputs=outputs)
    with pytest.raises(XcheckError, match="recording needs real Triton and a CUDA GPU"):
        xcheck(kernel, grid, args, meta, outputs=outputs, golden="unused", mode="record")
    with pytest.raises(XcheckError, match="output 'n' is not an array argument"):
        xcheck(kernel, grid, args, meta, outputs={"n": "exact"}, golden=GOLDENS / name)
    with pytest.raises(XcheckError, match="mode must be one of"):
        xcheck(kernel, grid, args, meta, outputs=outputs, golden=GOLDENS / name, mode="both")


@not_on_gpu
def test_imports_without_the_compiled_extension():
    # The GPU host records with real Triton alone: tcpu.testing must not need tcpu._tcpu.
    code = ("import sys; sys.modules['tcpu._tcpu'] = None\n"
            "import tcpu.testing\nprint(tcpu.testing.MODES)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "record" in out.stdout
