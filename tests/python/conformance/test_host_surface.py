"""The host API of real Triton 3.6 that tests and projects use, against tcpu's: the names of
`triton`, `triton.runtime`, `triton.compiler` and `triton.testing`, the attributes of a
@triton.jit function (a JITFunction), and every knob of `triton.knobs`. Each must exist in tcpu,
or be in REFUSED below with the reason tcpu lacks it; the test fails on a silent gap, and on a
REFUSED entry that tcpu now has. (triton.language's names: test_language_surface.py.)

Triton's names are read in a subprocess by an interpreter with the real package (see
real_triton.run_json); skipped, saying so, where none has Triton 3.6."""

from __future__ import annotations

import pytest

from real_triton import run_json

# Run by the interpreter with the real Triton; prints its names as JSON.
_ENUMERATE = r"""
import importlib.util, json, os, tempfile
import triton, triton.knobs as knobs, triton.testing, triton.runtime, triton.compiler

def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))

# Triton's @jit reads the function's source file: the kernel is written to one.
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "surface_kernel.py")
    with open(path, "w") as f:
        f.write("import triton\n@triton.jit\ndef kernel(x):\n    pass\n")
    spec = importlib.util.spec_from_file_location("surface_kernel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = module.kernel

print(json.dumps({
    "file": triton.__file__, "version": triton.__version__,
    "triton": sorted(triton.__all__), "runtime": sorted(triton.runtime.__all__),
    "compiler": sorted(triton.compiler.__all__),
    "testing": [n for n in public(triton.testing) if callable(getattr(triton.testing, n))
                and getattr(getattr(triton.testing, n), "__module__", "") == "triton.testing"],
    "jit_function": public(kernel),
    "knobs": [f"{s}.{k}" for s in public(knobs)
              if isinstance(getattr(knobs, s), knobs.base_knobs)
              for k in public(getattr(knobs, s))],
}))
"""


def _refusals(*groups: tuple[str, str]) -> dict[str, str]:
    """{name: reason} from (whitespace-separated names, reason) pairs."""
    return {name: reason for names, reason in groups for name in names.split()}


_GPU_TOOL = "a tool of NVIDIA's GPUs (its driver, clocks or memory checker): no CPU meaning"
REFUSED: dict[str, dict[str, str]] = {
    "triton": _refusals(
        ("AsyncCompileMode FutureKernel", "Triton's asynchronous compile mode: not implemented "
         "yet (tcpu.frontend.build.parallel compiles specializations at once)"),
        ("constexpr_function", "not implemented yet"),
    ),
    "runtime": _refusals(
        ("RemoteCacheBackend RedisRemoteCacheBackend", "backends of Triton's remote compile "
         "cache: tcpu's cache is a local directory (knobs.cache.dir)"),
    ),
    "compiler": _refusals(
        ("IRSource", "compiles Triton's MLIR files: tcpu has no Triton IR"),
        ("get_cache_key make_backend", "Triton's GPU compiler's internals: tcpu's cache keys "
         "and its single CPU backend are its own"),
    ),
    "testing": _refusals(
        ("cuda_memcheck nvsmi set_gpu_clock get_dram_gbps get_max_simd_tflops "
         "get_max_tensorcore_tflops", _GPU_TOOL),
    ),
    "jit_function": _refusals(
        ("cache_key hash", "the hash of the kernel's source and dependencies in Triton's cache: "
         "tcpu's disk cache keys by its own fingerprints (frontend/build/cache_key.py)"),
        ("create_binder parse type used_global_vals", "internals of Triton's launcher and code "
         "generator (its generated binder, its AST, the globals its code generator read)"),
    ),
    "knobs": _refusals(
        ("build.backend_dirs", "the directories of Triton's GPU backends: none on tcpu"),
        ("cache.get_triton_dir", "not implemented yet (cache.dir is tcpu's cache)"),
    ),
}


@pytest.fixture(scope="module")
def real_names() -> dict:
    return run_json(_ENUMERATE)


def _tcpu_has(section: str, name: str) -> bool:
    import triton
    import triton.compiler
    import triton.knobs as knobs
    import triton.runtime
    import triton.testing

    if section == "knobs":
        group, knob = name.split(".")
        return hasattr(getattr(knobs, group, None), knob)
    if section == "jit_function":
        @triton.jit
        def kernel(x):
            pass
        return hasattr(kernel, name)
    module = {"triton": triton, "runtime": triton.runtime, "compiler": triton.compiler,
              "testing": triton.testing}[section]
    return hasattr(module, name)


@pytest.mark.parametrize("section", list(REFUSED))
def test_every_host_name_is_there_or_refused_by_name(real_names, section):
    gaps = [n for n in real_names[section]
            if n not in REFUSED[section] and not _tcpu_has(section, n)]
    assert not gaps, (f"{section}: names of Triton {real_names['version']} that tcpu neither "
                      f"has nor refuses by name: {gaps} (implement them, or add them to REFUSED "
                      "with the reason)")


@pytest.mark.parametrize("section", list(REFUSED))
def test_no_refused_host_name_is_there_or_gone(real_names, section):
    stale = sorted(n for n in REFUSED[section] if n not in real_names[section])
    assert not stale, f"REFUSED[{section!r}] names what Triton does not have: {stale}"
    done = sorted(n for n in REFUSED[section] if _tcpu_has(section, n))
    assert not done, f"REFUSED[{section!r}] lists names tcpu now has: {done}"
