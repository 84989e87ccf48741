"""Tutorial 02 (our version): row-wise softmax, a persistent grid of programs striding over rows.

    python3 -m tcpu examples/python/02_fused_softmax.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    # Each program handles rows pid, pid + P, pid + 2P, ... (P programs); a row fits one block.
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=num_stages):
        cols = tl.arange(0, BLOCK_SIZE)
        inside = cols < n_cols
        x = tl.load(in_ptr + row * in_row_stride + cols, mask=inside, other=-float("inf"))
        shifted = x - tl.max(x, axis=0)  # the padding stays -inf and contributes exp(-inf) = 0
        e = tl.exp(shifted)
        y = e / tl.sum(e, axis=0)
        tl.store(out_ptr + row * out_row_stride + cols, y, mask=inside)


def program_count(n_rows: int, dev) -> int:
    # The tutorial sizes the persistent grid from the device's multiprocessor count and the
    # kernel's occupancy; a few programs per multiprocessor (CPU: per core) is the same idea.
    props = triton.runtime.driver.active.utils.get_device_properties(dev.index if dev.index is not None else 0)
    return max(1, min(n_rows, 4 * props["multiprocessor_count"]))


def softmax(x: torch.Tensor, out: torch.Tensor, programs: int) -> torch.Tensor:
    n_rows, n_cols = x.shape
    softmax_kernel[(programs, 1, 1)](out, x, x.stride(0), out.stride(0), n_rows, n_cols,
                                     BLOCK_SIZE=triton.next_power_of_2(n_cols), num_stages=2, num_warps=8)
    return out


def make(rows: int, cols: int, seed: int, dev):
    x = ex.normal(ex.rng(seed), (rows, cols), "float32", dev)
    return x, torch.empty_like(x)


WHY_EXP = ("tl.exp is exp2.approx of x*log2(e) on NVIDIA (about 2 ULP plus the rounding of the product, "
           "up to ~6 ULP for |x| near 10), fp32 '/' is div.full (2 ULP) and the max and sum reduce in "
           "another order than on a CPU (SLEEF expf: 1 ULP)")


def golden_cases(dev):
    cases = []
    for name, rows, cols, seed in (("softmax_781", 300, 781, 2), ("softmax_128", 97, 128, 3)):
        x, out = make(rows, cols, seed, dev)
        programs = program_count(rows, dev)
        cases.append(
            ex.Case(name=name, kernel="softmax_kernel", seed=seed, inputs={"x": x}, outputs={"out": out},
                    rules={"out": ("ulp:16", WHY_EXP)}, launch=lambda x=x, out=out, p=programs: softmax(x, out, p),
                    shapes=f"{rows}x{cols} fp32, BLOCK_SIZE={triton.next_power_of_2(cols)}, {programs} programs"))
    return cases


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    rows, cols = (1823, 781) if args.full else (300, 781)  # the tutorial's columns; ragged on purpose
    x, out = make(rows, cols, 0, dev)
    softmax(x, out, program_count(rows, dev))
    ref = torch.softmax(x.double().cpu(), dim=1)
    # Every value lies in (0, 1]; exp, the division and the reductions each cost a few fp32 ULP
    # (NVIDIA's approximate exp: up to ~10 ULP), so 1e-6 absolute is ~10 ULP at the top of the range.
    err = ex.max_abs_diff(out, ref)
    status = ex.report("02_fused_softmax", err <= 1e-6, f"{rows}x{cols} max|err|={err:.2e} (bound 1e-6)")
    if args.bench:
        for n in ([128 * i for i in range(2, 100, 8)] if args.full else [256, 1024, 4096]):
            x, out = make(4096 if args.full else 512, n, 0, dev)
            p = program_count(x.shape[0], dev)
            ms = ex.time_ms(lambda: softmax(x, out, p), dev)
            ref_ms = ex.time_ms(lambda: torch.softmax(x, dim=1), dev)
            print(ex.bench_line(f"  {x.shape[0]}x{n}", ms, ref_ms, f"{2 * x.numel() * 4e-9 / (ms * 1e-3):.1f} GB/s"))
    return status


if __name__ == "__main__":
    sys.exit(main())
