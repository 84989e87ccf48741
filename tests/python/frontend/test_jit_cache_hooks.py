"""Triton's JIT internals that cache-warming tools use: `knobs.runtime.jit_cache_hook` and
`jit_post_compile_hook`, called around each new specialization with Triton's arguments (its
`specialization_data` among them), a cache hook that declines the compile, and
`JITFunction.preload(specialization_data)` compiling ahead the specialization that a later
launch finds, as Triton's test_tuple does with `device_caches` and `preload`."""

from __future__ import annotations

import json
from typing import Any

import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON


class Recorder:
    """A compile hook that keeps the keyword arguments of each call."""

    def __init__(self, answer: Any = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.answer = answer

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        assert not args  # Triton passes everything by keyword
        self.calls.append(kwargs)
        return self.answer


@pytest.fixture
def hooks(monkeypatch: pytest.MonkeyPatch) -> tuple[Recorder, Recorder]:
    cache, post = Recorder(), Recorder()
    monkeypatch.setattr(triton.knobs.runtime, "jit_cache_hook", cache)
    monkeypatch.setattr(triton.knobs.runtime, "jit_post_compile_hook", post)
    return cache, post


def test_hooks_see_each_new_specialization_once(device: str, hooks: Any) -> None:
    cache, post = hooks

    @triton.jit
    def scale_kernel(x_ptr, out_ptr, n, factor, FLIP: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + offs, mask=offs < n) * factor
        tl.store(out_ptr + offs, -v if FLIP else v, mask=offs < n)

    x = torch.arange(64, dtype=torch.float32, device=device)
    out = torch.zeros_like(x)
    scale_kernel[(1,)](x, out, 64, 2.0, True, BLOCK=64)
    scale_kernel[(1,)](x, out, 64, 2.0, True, BLOCK=64)
    assert torch.equal(out, -2 * x)
    assert len(cache.calls) == 1 and len(post.calls) == 1
    call = cache.calls[0]
    assert call["is_manual_warmup"] is False and call["already_compiled"] is False
    assert call["fn"].jit_function is scale_kernel and call["fn"].name.endswith("scale_kernel")
    compile = call["compile"]
    assert compile["signature"] == {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                                    "factor": "fp32", "FLIP": "constexpr",
                                    "BLOCK": "constexpr"}
    assert compile["constants"] == {(4,): True, (5,): 64}
    assert compile["configs"][0][(0,)] == [["tt.divisibility", 16]]  # torch's 64-byte alignment
    assert compile["configs"][0][(2,)] == [["tt.divisibility", 16]]  # n = 64
    data = json.loads(compile["specialization_data"])
    assert data["name"] == f"{__name__}.{scale_kernel.fn.__qualname__}"
    assert data["signature"] == compile["signature"]
    assert data["constant_keys"] == [[4], [5]] and data["constant_vals"] == [True, 64]
    assert post.calls[0]["compile"]["specialization_data"] == compile["specialization_data"]

    scale_kernel.warmup(x, out, 64, 2.0, True, BLOCK=32, grid=(1,))  # a new specialization
    assert len(cache.calls) == 2 and cache.calls[1]["is_manual_warmup"] is True


def test_a_declining_cache_hook_compiles_and_runs_nothing(device: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    decline, post = Recorder(answer=True), Recorder()
    monkeypatch.setattr(triton.knobs.runtime, "jit_cache_hook", decline)
    monkeypatch.setattr(triton.knobs.runtime, "jit_post_compile_hook", post)

    @triton.jit
    def fill_kernel(out_ptr, BLOCK: tl.constexpr):
        tl.store(out_ptr + tl.arange(0, BLOCK), 7)

    out = torch.zeros(16, dtype=torch.int32, device=device)
    assert fill_kernel[(1,)](out, BLOCK=16) is None
    assert fill_kernel.warmup(out, BLOCK=16, grid=(1,)) is None
    assert not out.any() and len(decline.calls) == 2 and not post.calls
    monkeypatch.setattr(triton.knobs.runtime, "jit_cache_hook", None)
    fill_kernel[(1,)](out, BLOCK=16)
    assert (out == 7).all() and len(post.calls) == 1


@triton.jit
def _tuple_kernel(out_ptr, pair, DT: tl.constexpr):
    # pair = (a run-time int, (a tl.constexpr, an int equal to 1, compiled in))
    tl.store(out_ptr + tl.arange(0, 4), (pair[0] * pair[1][0] + pair[1][1]).to(DT))


def test_preload_compiles_what_the_hook_recorded(device: str, hooks: Any) -> None:
    cache, _ = hooks
    out = torch.zeros(4, dtype=torch.float32, device=device)
    args = (out, (5, (tl.constexpr(3), 1)), tl.float32)
    _tuple_kernel.device_caches[torch.device(device).type][0].clear()
    warm = _tuple_kernel.warmup(*args, grid=(1,))
    data = cache.calls[-1]["compile"]["specialization_data"]
    recorded = json.loads(data)
    assert recorded["signature"]["pair"] == ["i32", ["constexpr", "constexpr"]]
    assert recorded["constant_keys"] == [[1, 1, 0], [1, 1, 1], [2]]
    assert recorded["constant_vals"] == [3, 1, "fp32"]

    _tuple_kernel.device_caches[torch.device(device).type][0].clear()
    preloaded = _tuple_kernel.preload(data)
    assert preloaded is not None and preloaded.hash == warm.hash
    calls = len(cache.calls)
    _tuple_kernel[(1,)](*args)  # finds the preloaded specialization: no new compile
    assert len(cache.calls) == calls
    assert torch.equal(out, torch.full_like(out, 16))


def test_preload_refuses_another_kernels_data(hooks: Any) -> None:
    cache, _ = hooks

    @triton.jit
    def other_kernel(out_ptr):
        tl.store(out_ptr, 1)

    other_kernel.warmup(torch.zeros(1), grid=(1,))
    with pytest.raises(RuntimeError, match="Specialization data is for"):
        _tuple_kernel.preload(cache.calls[-1]["compile"]["specialization_data"])


@pytest.mark.skipif(REAL_TRITON, reason="tcpu's own attribute (a descriptor's padding)")
def test_preload_keeps_a_descriptors_padding_and_an_annotated_scalar(hooks: Any) -> None:
    from triton.tools.tensor_descriptor import TensorDescriptor
    cache, _ = hooks

    @triton.jit
    def copy_kernel(desc, out_ptr, bias: tl.float16):
        block = desc.load([0, 0])
        offs = tl.arange(0, 8)[:, None] * 32 + tl.arange(0, 32)[None, :]
        tl.store(out_ptr + offs, block + bias)

    src = torch.ones(4, 32, dtype=torch.float16)
    desc = TensorDescriptor.from_tensor(src, [8, 32], padding="nan")
    out = torch.zeros(8, 32, dtype=torch.float16)
    copy_kernel.warmup(desc, out, 0.5, grid=(1,))
    data = cache.calls[-1]["compile"]["specialization_data"]
    copy_kernel.device_caches[0][0].clear()
    copy_kernel.preload(data)
    calls = len(cache.calls)
    copy_kernel[(1,)](desc, out, 0.5)
    assert len(cache.calls) == calls  # the same key: NaN padding and an fp16 scalar
    assert (out[:4] == 1.5).all() and out[4:].isnan().all()


def test_pre_run_hooks_see_each_launchs_arguments(device: str) -> None:
    @triton.jit
    def store_kernel(out_ptr, value, BLOCK: tl.constexpr):
        tl.store(out_ptr + tl.arange(0, BLOCK), value)

    seen = []
    store_kernel.add_pre_run_hook(lambda *args, **kwargs: seen.append((args, kwargs)))
    out = torch.zeros(8, dtype=torch.int32, device=device)
    store_kernel[(1,)](out, 5, BLOCK=8)
    assert (out == 5).all() and len(seen) == 1
    assert seen[0][0][1] == 5 and seen[0][1]["BLOCK"] == 8
    # Every argument by position: the launch's fast path, which must call the hooks too.
    store_kernel[(1,)](out, 6, 8)
    assert (out == 6).all() and len(seen) == 2 and seen[1] == ((out, 6, 8), {})
    assert store_kernel.constexprs == [2] and store_kernel.is_gluon() is False
