"""Tutorial 01 (our version): add two fp32 vectors, one BLOCK_SIZE-element block per program.

    python3 -m tcpu examples/python/01_vector_add.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Program p owns elements [p * BLOCK_SIZE, (p + 1) * BLOCK_SIZE); the last block is partial.
    first = tl.program_id(axis=0) * BLOCK_SIZE
    idx = first + tl.arange(0, BLOCK_SIZE)
    inside = idx < n_elements
    a = tl.load(x_ptr + idx, mask=inside)
    b = tl.load(y_ptr + idx, mask=inside)
    tl.store(out_ptr + idx, a + b, mask=inside)


BLOCK_SIZE = 1024


def add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]), )  # noqa: E731
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK_SIZE)
    return out


def make(n: int, seed: int, dev):
    gen = ex.rng(seed)
    x = ex.uniform(gen, (n, ), "float32", dev)
    y = ex.uniform(gen, (n, ), "float32", dev)
    return x, y, torch.empty_like(x)


def golden_cases(dev):
    x, y, out = make(98432, 1, dev)
    return [
        ex.Case(name="vector_add", kernel="add_kernel", seed=1, inputs={"x": x, "y": y}, outputs={"out": out},
                rules={"out": ("exact", "one correctly rounded fp32 add per element")},
                launch=lambda: add(x, y, out), shapes="n=98432 BLOCK_SIZE=1024"),
    ]


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    n = 98432  # the tutorial's size, not a multiple of BLOCK_SIZE
    x, y, out = make(n, 0, dev)
    add(x, y, out)
    # fp32 addition is correctly rounded on every device: the result must equal torch's exactly.
    ok = torch.equal(out.cpu(), (x + y).cpu())
    status = ex.report("01_vector_add", ok, f"n={n} max|diff|={ex.max_abs_diff(out, x + y):g} (exact expected)")
    if args.bench:
        sizes = [2**i for i in range(12, 28)] if args.full else [2**12, 2**16, 2**20]
        for size in sizes:
            x, y, out = make(size, 0, dev)
            ms = ex.time_ms(lambda: add(x, y, out), dev)
            ref = ex.time_ms(lambda: torch.add(x, y, out=out), dev)
            gbps = 3 * size * 4 * 1e-9 / (ms * 1e-3)
            print(ex.bench_line(f"  n={size}", ms, ref, f"{gbps:.1f} GB/s"))
    return status


if __name__ == "__main__":
    sys.exit(main())
