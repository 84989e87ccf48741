"""The launch's fast path (tcpu/frontend/fast_launch.py, a function generated per kernel)
against the general one (launcher.launch): the same specialization keys for the same
arguments, the same results for every kind of argument, and what is read at each launch
(TRITON_DEBUG, TRITON_DEFAULT_FP_FUSION, a kernel's `debug`) still read at each launch."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from tcpu.frontend.fast_launch import fast_launcher
from tcpu.frontend.launcher import launch


@triton.jit
def axpb(x_ptr, out_ptr, n, a, b, flag, none_arg, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(x_ptr + offs, mask=mask) * a + b
    if flag:
        y = -y
    tl.store(out_ptr + offs, y, mask=mask)


def _expected(x: torch.Tensor, a: float, b: float, flag: bool) -> torch.Tensor:
    y = x * a + b
    return -y if flag else y


@pytest.mark.parametrize("n, a, b, flag", [
    (100, 2, 1, False),  # ints; b, equal to 1, is compiled in
    (64, 1.5, 16, True),  # a float, an int divisible by 16, a bool
    (37, 3, 2**40, False),  # an int64
])
def test_fast_path_computes_and_keys_as_the_general_path(n: int, a, b, flag: bool) -> None:
    x = torch.arange(n, dtype=torch.float32)
    out = torch.empty(n)
    before = set(axpb.specializations)
    kernel = axpb[(triton.cdiv(n, 32),)](x, out, n, a, b, flag, None, 32)
    torch.testing.assert_close(out, _expected(x, float(a), float(b), flag))
    added = set(axpb.specializations) - before
    # The general path finds what the fast one compiled: one key for both.
    general = launch(axpb, [x, out, n, a, b, flag, None, 32], (triton.cdiv(n, 32),), {}, False)
    assert general is kernel
    assert set(axpb.specializations) - before == added


def test_callable_and_multi_dimensional_grids() -> None:
    x = torch.arange(100, dtype=torch.float32)
    for grid in (lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),), (4, 1, 1), (4, 1), 4):
        out = torch.zeros(100)
        axpb[grid](x, out, 100, 2.0, 3.0, False, None, 32)
        torch.testing.assert_close(out, x * 2 + 3)
    out = torch.zeros(100)
    axpb[(0,)](x, out, 100, 2.0, 3.0, False, None, 32)  # an empty grid launches nothing
    assert not out.any()


def test_numpy_arrays_and_constexpr_objects_take_the_fast_path() -> None:
    x = np.arange(50, dtype=np.float32)
    out = np.zeros(50, dtype=np.float32)
    axpb[(2,)](x, out, 50, 2.0, 0.5, False, None, tl.constexpr(32))
    np.testing.assert_allclose(out, x * 2 + 0.5)


def test_refused_arguments_name_the_kernel() -> None:
    x = torch.arange(8, dtype=torch.float32)
    with pytest.raises(TypeError, match="axpb.*'x_ptr'"):
        axpb[(1,)]("not a tensor", x, 8, 1.0, 1.0, False, None, 32)
    with pytest.raises(TypeError, match="axpb.*complex128"):
        axpb[(1,)](x.to(torch.complex128), x, 8, 1.0, 1.0, False, None, 32)
    with pytest.raises(OverflowError, match="axpb"):
        axpb[(1,)](x, x, 2**70, 1.0, 1.0, False, None, 32)
    with pytest.raises(TypeError, match="hashable"):
        axpb[(1,)](x, x, 8, 1.0, 1.0, False, None, [32])


def test_environment_set_after_the_first_launch_is_read(monkeypatch) -> None:
    x = torch.arange(40, dtype=torch.float32)
    out = torch.empty(40)
    args = (x, out, 40, 2.0, 1.0, False, None, 64)
    plain = axpb[(1,)](*args)
    monkeypatch.setenv("TRITON_DEBUG", "1")
    checked = axpb[(1,)](*args)
    assert checked is not plain and checked.check_bounds
    monkeypatch.delenv("TRITON_DEBUG")
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")
    unfused = axpb[(1,)](*args)
    assert unfused is not plain and not unfused.check_bounds
    assert any(key[-1] == "unfused" for key in axpb.specializations)
    monkeypatch.delenv("TRITON_DEFAULT_FP_FUSION")
    assert axpb[(1,)](*args) is plain
    torch.testing.assert_close(out, x * 2 + 1)


def test_a_kernels_debug_attribute_is_read_at_each_launch() -> None:
    @triton.jit
    def copy(src, dst, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)

    x = torch.arange(16, dtype=torch.float32)
    out = torch.empty(16)
    assert not copy[(1,)](x, out, 16, 16).check_bounds
    copy.debug = True
    assert copy[(1,)](x, out, 16, 16).check_bounds
    assert fast_launcher(copy) is fast_launcher(copy)  # generated once


def test_a_subclass_run_is_still_called() -> None:
    calls = []

    class Counting(type(axpb)):
        def run(self, *args, **kwargs):
            calls.append(kwargs["grid"])
            return super().run(*args, **kwargs)

    counted = Counting(axpb.fn)
    x = torch.arange(10, dtype=torch.float32)
    out = torch.empty(10)
    counted[(1,)](x, out, 10, 1.0, 0.0, False, None, 32)
    assert calls == [(1,)]
    torch.testing.assert_close(out, x)


@triton.jit
def scaled(x_ptr, out_ptr, n, scale=2.0, BLOCK: tl.constexpr = 32):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * scale, mask=offs < n)


def test_named_and_default_arguments_bind_as_the_general_path() -> None:
    x = torch.arange(100, dtype=torch.float32)
    out = torch.empty(100)
    first = scaled[(4,)](x, out, 100)  # scale and BLOCK from their defaults
    torch.testing.assert_close(out, x * 2)
    assert scaled[(4,)](x, out, 100, 2.0, 32) is first
    assert scaled[(4,)](x, out_ptr=out, n=100, BLOCK=32) is first
    scaled[(4,)](x, out, n=100, scale=3.0)
    torch.testing.assert_close(out, x * 3)
    assert scaled[(4,)](x, out, 100, num_warps=4) is first  # a launch option: the general path
    with pytest.raises(TypeError, match="multiple values"):
        scaled[(4,)](x, out, 100, n=100)
    with pytest.raises(TypeError, match="missing required argument 'n'"):
        scaled[(4,)](x, out)
