"""Kernels decorated by a real Triton, run by tcpu (python/tcpu/frontend/foreign.py): the same
module loaded with the real Triton and with tcpu's alias lowers to the same C++, so a user
keeps one kernel definition for the GPU and for tcpu (tcpu.testing.xcheck's live mode).

Needs a real Triton installed beside tcpu (the tests' .venv has Triton 3.6, imported without a
GPU: only the front end's pure-Python part runs, it writes C++; nothing is compiled), or the lent
GPU host (TCPU_TEST_REAL_TRITON=1 python3 -m pytest tests/python/conformance/test_foreign_kernels.py)."""

from __future__ import annotations

import functools
import importlib.util
import pathlib
import sys

import pytest

from conftest import REAL_TRITON
from tcpu import aliases

HERE = pathlib.Path(__file__).resolve().parent
pytestmark = pytest.mark.skipif(not REAL_TRITON and aliases.real_triton_version() is None,
                                reason="needs a real Triton installed beside tcpu")


@functools.cache  # once each: a real Triton's extension module cannot be imported twice
def _load(module_name: str, with_tcpu: bool):
    saved = {n: m for n, m in sys.modules.items() if n == "triton" or n.startswith("triton.")}
    finders = list(sys.meta_path)
    for n in saved:  # each side imports its own triton
        del sys.modules[n]
    if with_tcpu:
        aliases.install()
    else:  # conftest routed `import triton` to tcpu: the real one, for this module only
        sys.meta_path[:] = [f for f in finders if not isinstance(f, aliases._AliasFinder)]
    try:
        spec = importlib.util.spec_from_file_location(module_name, HERE / "foreign_kernels.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.meta_path[:] = finders
        for n in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
            del sys.modules[n]
        sys.modules.update(saved)


def _generate(kernel, kinds, constexprs):
    from tcpu.frontend.foreign import kernel_def
    from tcpu.frontend.generate import generate
    return generate(kernel_def(kernel), kinds, constexprs, False, False)[0]


@pytest.mark.parametrize("kernel, kinds, constexprs", [
    ("mixed_kernel", [("P", "fp32", True), ("P", "fp16", True), ("i", "int32", False)],
     {"BLOCK": 256, "DT": "float16"}),
    ("dot_kernel", [("P", "fp16", True), ("P", "fp16", True), ("P", "fp16", True)],
     {"M": 16, "N": 32, "K": 64}),
])
def test_real_tritons_kernel_lowers_as_tcpus(kernel, kinds, constexprs):
    real = _load("foreign_kernels_real", with_tcpu=False)
    ours = _load("foreign_kernels_tcpu", with_tcpu=True)
    from tcpu.frontend.real_triton import is_real_triton
    real_kernel, our_kernel = getattr(real, kernel), getattr(ours, kernel)
    assert is_real_triton(real_kernel) and not is_real_triton(our_kernel)
    names = list(our_kernel.arg_names)
    kinds = kinds + [("c", None)] * (len(names) - len(kinds))
    # A dtype constexpr as each side's launch would pass it: the real tl.float16, or tcpu's.
    def values(module):
        return {k: (getattr(module.tl, v) if isinstance(v, str) else v)
                for k, v in constexprs.items()}
    real_text = _generate(real_kernel, kinds, _tcpu_values(values(real)))
    our_text = _generate(our_kernel, kinds, values(ours))
    assert real_text == our_text


def _tcpu_values(values):
    from tcpu.frontend.foreign import to_tcpu
    return {k: to_tcpu(v) for k, v in values.items()}
