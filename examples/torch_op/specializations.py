"""The AOT specializations tcpu_ops links, one list for the three build ways (CMake reads it
through `python3 specializations.py --cmake`): (dispatcher name, kernel, signature, grid)."""

import sys

MATMUL_GRID = "((M+31)/32)*((N+31)/32),1,1"
GELU_GRID = "(n+1023)/1024,1,1"
SPECIALIZATIONS = [
    (f"matmul_{name}", "matmul_kernel",
     f"*{t}, *{t}, *{t}, i32, i32, i32, i32, i32, i32, i32, i32, i32, 32, 32, 32", MATMUL_GRID)
    for name, t in (("f32", "fp32"), ("f16", "fp16"), ("bf16", "bf16"))
] + [
    (f"gelu_{name}", "gelu_kernel", f"*{t}, *{t}, i32, 1024", GELU_GRID)
    for name, t in (("f32", "fp32"), ("f16", "fp16"), ("bf16", "bf16"))
]

if __name__ == "__main__" and sys.argv[1:] == ["--cmake"]:
    # name|kernel|signature|grid per line, for CMakeLists.txt
    print("\n".join("|".join(s) for s in SPECIALIZATIONS))
