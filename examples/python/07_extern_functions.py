"""Tutorial 07 (our version): call a math-library function (libdevice's asin) from a kernel.

On a GPU, triton.language.extra.libdevice.asin is CUDA's __nv_asinf; under tcpu it is the CPU
math library's asinf (SLEEF). Unlike the Triton tutorial, this version does not pass
`extern_libs` or check for a CUDA backend, so it runs on either.

    python3 -m tcpu examples/python/07_extern_functions.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.language.extra import libdevice  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def asin_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    inside = idx < n_elements
    x = tl.load(x_ptr + idx, mask=inside)
    tl.store(y_ptr + idx, libdevice.asin(x), mask=inside)


BLOCK_SIZE = 1024


def asin(x, y):
    n = x.numel()
    asin_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]), )](x, y, n, BLOCK_SIZE=BLOCK_SIZE)
    return y


def make(n: int, seed: int, dev):
    # Uniform in [-1, 1): asin's whole domain, both signs.
    x = ex.uniform(ex.rng(seed), (n, ), "float32", dev) * 2 - 1
    return x, torch.empty_like(x)


WHY = "CUDA documents asinf within 2 ULP (libdevice), SLEEF's asinf is within 1 ULP: at most 3 apart"


def golden_cases(dev):
    x, y = make(10007, 9, dev)
    return [
        ex.Case(name="asin", kernel="asin_kernel", seed=9, inputs={"x": x}, outputs={"y": y},
                rules={"y": ("ulp:4", WHY)}, launch=lambda: asin(x, y), shapes="n=10007 fp32 in [-1, 1)"),
    ]


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    n = 98432  # the tutorial's size
    x, y = make(n, 0, dev)
    asin(x, y)
    ref = torch.asin(x.double().cpu())
    # Both libraries are within 2 ULP of asin; |asin| <= pi/2, where an fp32 ULP is 1.2e-7: 1e-6
    # absolute leaves room for ~8 ULP.
    err = ex.max_abs_diff(y, ref)
    status = ex.report("07_extern_functions", err <= 1e-6, f"n={n} max|err|={err:.2e} (<= 1e-6)")
    if args.bench:
        x, y = make(1 << 22 if args.full else 1 << 20, 0, dev)
        print(ex.bench_line(f"  n={x.numel()}", ex.time_ms(lambda: asin(x, y), dev),
                            ex.time_ms(lambda: torch.asin(x), dev)))
    return status


if __name__ == "__main__":
    sys.exit(main())
