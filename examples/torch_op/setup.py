"""tcpu_ops with setuptools (torch's CppExtension / BuildExtension):
    PYTHONPATH=<tcpu prefix>/lib/python3/dist-packages \
        python3 -m pip wheel --no-build-isolation --no-deps -w dist .
or `python3 setup.py build_ext --inplace`. The kernels are compiled ahead of time first
(build_kernels.py); the library registers torch.ops.tcpu_ops.* (torch.ops.load_library)."""

import pathlib

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

import build_kernels

here = pathlib.Path(__file__).resolve().parent
aot = build_kernels.build(here / "build" / "tcpu_kernels")
setup(
    name="tcpu_ops",
    version="0.1.0",
    ext_modules=[CppExtension(
        "tcpu_ops_lib", [str(here / "tcpu_ops.cpp")], include_dirs=aot["include_dirs"],
        extra_objects=aot["objects"], library_dirs=aot["library_dirs"],
        libraries=aot["libraries"], runtime_library_dirs=aot["library_dirs"])],
    cmdclass={"build_ext": BuildExtension},
)
