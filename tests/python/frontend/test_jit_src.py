"""JITFunction.src and _unsafe_update_src as Triton defines them: the kernel's text from `def`
on, read-only, replaced only through _unsafe_update_src, after which launches compile the new
text (test_core's patch_kernel makes its kernels so), never a specialization or a disk-cache
entry of the old text."""

from __future__ import annotations

import pytest
import torch

import triton
import triton.language as tl
from triton.compiler.errors import CompilationError


@triton.jit
def template(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x + 1)


def patched(to_replace: dict[str, str]) -> triton.JITFunction:
    """What Triton's test_core does (patch_kernel): a new JITFunction of the template's
    function with its text edited."""
    kernel = triton.JITFunction(template.fn)
    for old, new in to_replace.items():
        kernel._unsafe_update_src(kernel.src.replace(old, new))
    return kernel


def launch(kernel: triton.JITFunction) -> torch.Tensor:
    x = torch.arange(8, dtype=torch.int32)
    out = torch.zeros_like(x)
    kernel[(1,)](x, out, BLOCK=8)
    return out - x


def test_src_is_the_text_from_def_on() -> None:
    src = template.src
    assert src.startswith("def template(x_ptr, out_ptr, BLOCK: tl.constexpr):\n")
    assert "@triton.jit" not in src
    assert src.rstrip().endswith("tl.store(out_ptr + offs, x + 1)")


def test_src_cannot_be_assigned() -> None:
    kernel = triton.JITFunction(template.fn)
    with pytest.raises(AttributeError):
        kernel.src = "def template(): pass\n"


def test_an_updated_source_is_what_launches_compile(tmp_path, monkeypatch) -> None:
    # With a disk cache of its own: the template's entry must not serve the patched kernels.
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path))
    assert torch.equal(launch(template), torch.ones(8, dtype=torch.int32))
    times_three = patched({"x + 1": "x * 3"})
    assert "x * 3" in times_three.src and "x + 1" not in times_three.src
    assert torch.equal(launch(times_three), torch.arange(8, dtype=torch.int32) * 2)
    assert torch.equal(launch(template), torch.ones(8, dtype=torch.int32))
    # Updated again after it was compiled: its specializations of the old text are dropped.
    times_three._unsafe_update_src(times_three.src.replace("x * 3", "x - 5"))
    assert torch.equal(launch(times_three), torch.full((8,), -5, dtype=torch.int32))


def test_the_same_update_in_a_new_kernel_is_served_by_the_disk_cache(tmp_path,
                                                                     monkeypatch) -> None:
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path))
    assert torch.equal(launch(patched({"x + 1": "x + 7"})), torch.full((8,), 7, dtype=torch.int32))
    stored = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert torch.equal(launch(patched({"x + 1": "x + 7"})), torch.full((8,), 7, dtype=torch.int32))
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == stored


def test_errors_in_an_updated_source_quote_the_updated_line() -> None:
    kernel = patched({"x + 1": "x + undefined_name"})
    with pytest.raises(CompilationError) as info:
        launch(kernel)
    assert "tl.store(out_ptr + offs, x + undefined_name)" in str(info.value)
