"""The AOT part of tcpu_ops for the setuptools and JIT builds (CMake does the same with
tcpu_compile_kernel / tcpu_link_kernels): compiles every specialization of specializations.py
with `python3 -m tcpu.compile`, links one dispatcher per name with `tcpu link`, compiles the
dispatchers, and returns what a torch extension build needs. tcpu is found where its Python
package is installed (<prefix>/bin/tcpu, <prefix>/include, <prefix>/lib)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from specializations import SPECIALIZATIONS  # noqa: E402


def tcpu_prefix() -> pathlib.Path:
    from tcpu.compile import tcpu_tool
    prefix = tcpu_tool().parents[1]
    if not (prefix / "include" / "tcpu" / "tcpu.h").is_file():
        raise RuntimeError(f"tcpu at {prefix} is not an installed package (no include/tcpu): "
                           "build against `cmake --install`'s prefix")
    return prefix


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}):\n"
                           f"{result.stdout}{result.stderr}")


def build(out_dir: os.PathLike[str]) -> dict[str, list[str]]:
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    prefix = tcpu_prefix()
    libdir = next(d for d in (prefix / "lib", prefix / "lib64")
                  if (d / "libtcpu_runtime.so").exists() or (d / "libtcpu_runtime.dylib").exists())
    objects: list[str] = []
    for name, kernel, signature, grid in SPECIALIZATIONS:
        _run([sys.executable, "-m", "tcpu.compile", str(HERE / "kernels.py"), "--kernel-name",
              kernel, "--signature", signature, "--grid", grid, "--out-name", name,
              "--out-path", str(out / name)])
        headers = sorted(str(h) for h in out.glob(f"{name}.*_*.h"))
        objects += [h[:-2] + ".o" for h in headers]
        _run([str(prefix / "bin" / "tcpu"), "link", *headers, "-o", str(out / name)])
        _run([os.environ.get("CC", "cc"), "-c", "-fPIC", "-O2", f"-I{prefix / 'include'}",
              f"-I{out}", str(out / f"{name}.c"), "-o", str(out / f"{name}.c.o")])
        objects.append(str(out / f"{name}.c.o"))
    return {"objects": objects, "include_dirs": [str(out), str(prefix / "include")],
            "library_dirs": [str(libdir)], "libraries": ["tcpu_runtime", "sleef"]}
