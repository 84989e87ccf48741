"""The front end's disk cache (python/tcpu/frontend/build/disk_cache.py): a process whose kernels were
compiled before loads them without lowering or LLVM, and any change to what a kernel reads at
compile time (its source, a helper's, a constexpr global) compiles it again.

Each run is a fresh process over its own cache directory, as users' processes are."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HELPERS = textwrap.dedent("""
    import tcpu.triton as triton
    import tcpu.triton.language as tl

    SCALE = tl.constexpr({scale})

    @triton.jit
    def scaled(x):
        return x * SCALE
""")

KERNEL = textwrap.dedent("""
    import sys
    import numpy as np
    import tcpu.triton as triton
    import tcpu.triton.language as tl
    import helpers

    @triton.jit
    def kernel(a, b, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(b + offs, helpers.scaled(tl.load(a + offs, mask=m)){extra}, mask=m)

    a = np.arange(3000, dtype=np.float32)
    b = np.zeros_like(a)
    kernel[(3,)](a, b, 3000, BLOCK=1024)
    print(float(b[7]), "tcpu._tcpu" in sys.modules)
""")


def run(tmp_path: Path, scale: float = 2.0, extra: str = "", **env_extra: str) -> tuple[float, bool]:
    """Runs the kernel in a new process: (b[7], whether the compiler was loaded)."""
    (tmp_path / "helpers.py").write_text(HELPERS.format(scale=scale))
    (tmp_path / "main.py").write_text(KERNEL.format(extra=extra))
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1",
               **env_extra)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, str(tmp_path / "main.py")], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    value, compiled = out.stdout.split()
    return float(value), compiled == "True"


def entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache" / "python").glob("*/*.json"))


def test_a_warm_process_loads_no_compiler(tmp_path):
    assert run(tmp_path) == (14.0, True)
    assert len(entries(tmp_path)) == 1
    assert run(tmp_path) == (14.0, False)  # neither clang nor LLVM: _tcpu never imported


def test_a_changed_constexpr_global_of_a_helper_compiles_again(tmp_path):
    assert run(tmp_path, scale=2.0) == (14.0, True)
    assert run(tmp_path, scale=3.0) == (21.0, True)
    assert run(tmp_path, scale=3.0) == (21.0, False)
    assert run(tmp_path, scale=2.0) == (14.0, False)  # both entries kept
    assert len(entries(tmp_path)) == 2


def test_a_changed_kernel_body_compiles_again(tmp_path):
    assert run(tmp_path) == (14.0, True)
    assert run(tmp_path, extra=" + 1.0") == (15.0, True)
    assert run(tmp_path, extra=" + 1.0") == (15.0, False)


def test_a_damaged_entry_is_compiled_again(tmp_path):
    run(tmp_path)
    (entry,) = entries(tmp_path)
    entry.write_text("{not json")
    assert run(tmp_path) == (14.0, True)
    json.loads(entry.read_text())  # written anew, whole
    assert run(tmp_path) == (14.0, False)


def test_a_recorded_read_that_changed_meaning_misses(tmp_path):
    """An entry whose recorded globals no longer match (edited here by hand) is not used."""
    run(tmp_path)
    (entry,) = entries(tmp_path)
    sealed = json.loads(entry.read_text())
    meta = sealed["metadata"]  # inside codegen's seal of the library (frontend_seal.hpp)
    reads = [r for r in meta["reads"].values() if "SCALE" in r]
    assert reads and reads[0]["SCALE"] == "float:2.0"
    reads[0]["SCALE"] = "float:5.0"
    entry.write_text(json.dumps(sealed))
    assert run(tmp_path) == (14.0, True)


@pytest.mark.parametrize("env", [{"TCPU_PYTHON_CACHE": "0"}, {"TCPU_CACHE_DISABLE": "1"}])
def test_off_switches(tmp_path, env):
    assert run(tmp_path, **env) == (14.0, True)
    assert run(tmp_path, **env) == (14.0, True)
    assert entries(tmp_path) == []


def test_the_driver_names_the_cpu_without_loading_the_compiler(tmp_path):
    script = ("import sys, tcpu.triton as triton\n"
              "t = triton.runtime.driver.active.get_current_target()\n"
              "print(t.arch, 'tcpu._tcpu' in sys.modules)\n")
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"))
    first, second = (subprocess.run([sys.executable, "-c", script], capture_output=True,
                                    text=True, env=env, timeout=120).stdout.split()
                     for _ in range(2))
    assert first[0] == second[0] and first[0]
    assert (first[1], second[1]) == ("True", "False")


def test_tcpu_cache_clear_removes_the_compiled_kernels(tmp_path):
    from conftest import tcpu_cli
    run(tmp_path)
    assert entries(tmp_path)
    listed = subprocess.run([str(tcpu_cli()), "cache", "ls", "--dir", str(tmp_path / "cache")],
                            capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert "Python kernel, compiled (shared object)" in listed.stdout
    cleared = subprocess.run([str(tcpu_cli()), "cache", "clear", "--dir",
                              str(tmp_path / "cache")], capture_output=True, text=True,
                             timeout=60)
    assert cleared.returncode == 0, cleared.stderr
    assert entries(tmp_path) == []
    assert run(tmp_path) == (14.0, True)


def test_a_load_marks_the_kernel_used(tmp_path):
    """Pruning removes the least recently used first: a warm load sets the .json's access time
    (the disk cache's own write, not the file system's, which noatime mounts skip)."""
    run(tmp_path)
    (entry,) = entries(tmp_path)
    long_ago = entry.stat().st_mtime_ns - 10**9 * 3600 * 24
    os.utime(entry, ns=(long_ago, entry.stat().st_mtime_ns))
    assert run(tmp_path) == (14.0, False)
    assert entry.stat().st_atime_ns > long_ago + 10**9 * 3600


def test_a_kernel_pruned_between_its_json_and_its_library_compiles_again(tmp_path):
    """What a reader sees when another process prunes the entry under it."""
    run(tmp_path)
    (entry,) = entries(tmp_path)
    entry.with_suffix(".so").unlink()
    assert run(tmp_path) == (14.0, True)
    assert run(tmp_path) == (14.0, False)


def test_the_size_limit_covers_the_front_ends_kernels(tmp_path):
    """A store trims the cache to TCPU_CACHE_MAX_SIZE: with a limit of one byte, nothing of the
    kernel stays (codegen's own writes came before the .so and the .json: only the front end's
    trim can have removed those), and the result is right all the same."""
    assert run(tmp_path, TCPU_CACHE_MAX_SIZE="1") == (14.0, True)
    cache = tmp_path / "cache"
    left = [p for p in cache.rglob("*") if p.is_file() and p.suffix != ".lock"]
    assert left == []
    assert run(tmp_path) == (14.0, True)
    assert run(tmp_path) == (14.0, False)


def test_a_bad_size_limit_is_an_error_naming_it(tmp_path):
    (tmp_path / "helpers.py").write_text(HELPERS.format(scale=2.0))
    (tmp_path / "main.py").write_text(KERNEL.format(extra=""))
    env = dict(os.environ, TCPU_CACHE_DIR=str(tmp_path / "cache"), TCPU_CACHE_MAX_SIZE="1.5G")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, str(tmp_path / "main.py")], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode != 0
    assert "TCPU_CACHE_MAX_SIZE='1.5G' is not a size" in out.stderr
