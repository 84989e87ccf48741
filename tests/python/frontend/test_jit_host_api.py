"""The host side of @triton.jit kernels as Triton's tutorials use it: autotune and heuristics
over real kernels, warmup() returning a compiled kernel that launches with [grid] (tutorial
02's pattern), numpy arrays as arguments, num_threads, and python3 -m tcpu."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from conftest import ROOT


@triton.autotune(configs=[triton.Config({"BLOCK": 64}, num_warps=2),
                          triton.Config({"BLOCK": 256}, num_warps=4)], key=["n"])
@triton.jit
def tuned_scale(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


def test_autotune_picks_a_config_and_computes() -> None:
    for n in (1000, 5000):
        x = torch.arange(n, dtype=torch.float32)
        out = torch.empty_like(x)
        tuned_scale[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n, 2.0)
        assert torch.equal(out, x * 2.0)
        assert tuned_scale.best_config.kwargs["BLOCK"] in (64, 256)
    assert len(tuned_scale.cache) == 2  # one tuning per value of the key


@triton.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def copy_heuristic(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)
    else:
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) - 1, mask=mask)


@pytest.mark.parametrize("n, delta", [(256, 1), (250, -1)])
def test_heuristics_reach_the_kernel(n: int, delta: int) -> None:
    x = torch.arange(n, dtype=torch.int32)
    out = torch.zeros_like(x)
    copy_heuristic[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)
    assert torch.equal(out, x + delta)


@triton.jit
def rows_kernel(out_ptr, in_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        x = tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(out_ptr + row * n_cols + cols, x * 3, mask=cols < n_cols)


def test_warmup_returns_a_launchable_compiled_kernel() -> None:
    x = torch.randn(37, 50)
    out = torch.empty_like(x)
    kernel = rows_kernel.warmup(out, x, 37, 50, BLOCK=64, num_warps=8, grid=(1,))
    kernel._init_handles()
    assert kernel.n_regs > 0 and kernel.metadata.shared > 0 and kernel.n_spills == 0
    props = triton.runtime.driver.active.utils.get_device_properties(None)
    occupancy = props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * 8)
    programs = min(props["multiprocessor_count"] * occupancy, 37)
    kernel[(programs, 1, 1)](out, x, 37, 50, 64)
    assert torch.equal(out, x * 3)


def test_numpy_arrays_and_num_threads() -> None:
    x = np.arange(300, dtype=np.float32)
    out = np.zeros_like(x)
    rows_kernel[(3,)](out, x, 3, 100, BLOCK=128, num_threads=1)
    np.testing.assert_array_equal(out, x * 3)
    rows_kernel[(3,)](out, x, 3, 100, BLOCK=128, num_cpu_threads=2)
    np.testing.assert_array_equal(out, x * 3)


def test_in_place_aliasing_reads_at_the_load() -> None:
    # x and out are the same memory: the kernel reads before it writes, as on the GPU.
    x = torch.arange(200, dtype=torch.float32)
    expected = x * 3
    rows_kernel[(2,)](x, x, 2, 100, BLOCK=128)
    assert torch.equal(x, expected)


def test_python_m_tcpu_runs_a_script(tmp_path) -> None:
    script = tmp_path / "script.py"
    script.write_text("import sys, triton, triton.language as tl\n"
                      "print(triton.__version__, tl.float32, sys.argv[1:])\n")
    out = subprocess.run([sys.executable, "-m", "tcpu", str(script), "a", "b"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0].endswith("+tcpu") and "fp32" in out.stdout
    assert "['a', 'b']" in out.stdout


@pytest.mark.parametrize("value, type_name", [(-1, "i32"), (2**31, "i64"), (2**63, "u64")])
def test_jit_repr_names_each_specialization(value: int, type_name: str) -> None:
    seen = []

    def name_of(specialization) -> str:
        seen.append(specialization)
        ones = "_".join(k for k, v in specialization.constants.items() if v == 1)
        return f"k_{specialization.signature['value']}_{ones}"

    @triton.jit(repr=name_of)
    def kernel(value, is_one, X, F, B: tl.constexpr):
        pass

    x = torch.zeros(1)
    compiled = kernel.warmup(value, 1, x, 2.5, 7, grid=(1,))
    assert compiled.name == f"k_{type_name}_is_one"
    assert seen[-1].signature == {"value": type_name, "is_one": "constexpr", "X": "*fp32",
                                  "F": "fp32", "B": "constexpr"}
    assert seen[-1].constants == {"is_one": 1, "B": 7}
@triton.jit
def _compiled_only(X, n, SCALE: tl.constexpr, BLOCK: tl.constexpr = 8):
    tl.static_assert(SCALE > 0)
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, tl.load(X + offs, mask=offs < n) * SCALE, mask=offs < n)


def test_triton_compile_an_ast_source_without_launching() -> None:
    # triton.compile(ASTSource(fn, signature, constexprs)), as Triton's tests check what
    # compiles: the compiled kernel launches like a warmup's; a refusal is a CompilationError.
    src = triton.compiler.ASTSource(fn=_compiled_only, signature={"X": "*fp32", "n": "i32"},
                                    constexprs={"SCALE": 3})
    kernel = triton.compile(src)
    x = torch.arange(8, dtype=torch.float32)
    kernel[(1,)](x, 5, 3, 8)
    assert x.tolist() == [0, 3, 6, 9, 12, 5, 6, 7]
    assert "float* X" in kernel.asm["source"] and "int32_t n" in kernel.asm["source"]
    bad = triton.compiler.ASTSource(fn=_compiled_only, signature={"X": "*fp32", "n": "i32",
                                                                 "SCALE": "constexpr"},
                                    constexprs={(2,): 0})
    with pytest.raises(triton.CompilationError):
        triton.compile(bad)
    with pytest.raises(TypeError, match="'n'"):
        triton.compile(triton.compiler.ASTSource(fn=_compiled_only, signature={"X": "*fp32"},
                                                 constexprs={"SCALE": 1}))
