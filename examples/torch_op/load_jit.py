"""tcpu_ops built just in time with torch.utils.cpp_extension.load: compiles the kernels ahead
of time (build_kernels.py), then the operator library, and loads it (torch.ops.tcpu_ops.*).
    python3 load_jit.py [BUILD_DIR]"""

import pathlib
import sys

import torch
from torch.utils.cpp_extension import load

import build_kernels


def build_and_load(build_dir: pathlib.Path) -> None:
    aot = build_kernels.build(build_dir / "tcpu_kernels")
    library_flags = [f"-L{d}" for d in aot["library_dirs"]] + \
        [f"-Wl,-rpath,{d}" for d in aot["library_dirs"]] + [f"-l{l}" for l in aot["libraries"]]
    (build_dir / "jit").mkdir(parents=True, exist_ok=True)
    load(name="tcpu_ops_jit", sources=[str(pathlib.Path(__file__).parent / "tcpu_ops.cpp")],
         extra_include_paths=aot["include_dirs"], extra_ldflags=aot["objects"] + library_flags,
         build_directory=str(build_dir / "jit"), is_python_module=False, verbose=False)


if __name__ == "__main__":
    build_and_load(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build"))
    a, b = torch.randn(64, 48), torch.randn(48, 32)
    print("max |tcpu_ops.matmul - torch.matmul| =",
          (torch.ops.tcpu_ops.matmul(a, b) - a @ b).abs().max().item())
