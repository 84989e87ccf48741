"""Tutorial 04 (our version): dropout with an explicit keep mask, and seeded dropout that draws its
mask from Philox (tl.rand) so that only a seed has to be kept.

    python3 -m tcpu examples/python/04_low_memory_dropout.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def dropout_kernel(x_ptr, keep_ptr, out_ptr, n_elements, p, BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    inside = idx < n_elements
    x = tl.load(x_ptr + idx, mask=inside)
    keep = tl.load(keep_ptr + idx, mask=inside)  # int32 0/1, used directly as the condition
    tl.store(out_ptr + idx, tl.where(keep, x / (1 - p), 0.0), mask=inside)


@triton.jit
def seeded_dropout_kernel(x_ptr, out_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    idx = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    inside = idx < n_elements
    x = tl.load(x_ptr + idx, mask=inside)
    # One uniform draw per element index: the same (seed, index) always gives the same mask.
    keep = tl.rand(seed, idx) > p
    tl.store(out_ptr + idx, tl.where(keep, x / (1 - p), 0.0), mask=inside)


BLOCK_SIZE = 1024


def dropout(x, keep, out, p):
    n = x.numel()
    dropout_kernel[(triton.cdiv(n, BLOCK_SIZE), )](x, keep, out, n, p, BLOCK_SIZE=BLOCK_SIZE)
    return out


def seeded_dropout(x, out, p, seed):
    n = x.numel()
    seeded_dropout_kernel[(triton.cdiv(n, BLOCK_SIZE), )](x, out, n, p, seed, BLOCK_SIZE=BLOCK_SIZE)
    return out


def make(n: int, seed: int, dev):
    gen = ex.rng(seed)
    x = ex.normal(gen, (n, ), "float32", dev)
    keep = (ex.uniform(gen, (n, ), "float32", dev) > 0.5).to(torch.int32)
    return x, keep, torch.empty_like(x)


WHY = ("data movement and Philox 4x32-10 integers; with p = 0.5, x / (1 - p) divides by 0.5, which even "
       "NVIDIA's approximate fp32 division (div.full: reciprocal of a power of two, then a product) gets exact")


def golden_cases(dev):
    n = 10007
    x, keep, out = make(n, 7, dev)
    x2, _, out2 = make(n, 8, dev)
    return [
        ex.Case(name="dropout_mask", kernel="dropout_kernel", seed=7, inputs={"x": x, "keep": keep},
                outputs={"out": out}, rules={"out": ("exact", WHY)}, launch=lambda: dropout(x, keep, out, 0.5),
                shapes=f"n={n} p=0.5"),
        ex.Case(name="seeded_dropout", kernel="seeded_dropout_kernel", seed=8, inputs={"x": x2},
                outputs={"out": out2}, rules={"out": ("exact", WHY)}, launch=lambda: seeded_dropout(x2, out2, 0.5, 123),
                shapes=f"n={n} p=0.5 philox seed=123", extra={"philox_seed": 123}),
    ]


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    n = 10 if args.full else 10007  # the tutorial prints 10 elements; 10007 spans several blocks
    p = 0.5
    x, keep, out = make(n, 0, dev)
    dropout(x, keep, out, p)
    # Exact: kept values are x * 2 (exact in fp32), dropped ones are 0.
    ok_mask = torch.equal(out.cpu(), torch.where(keep.cpu() != 0, x.cpu() / (1 - p), torch.zeros_like(x.cpu())))
    a = seeded_dropout(x, torch.empty_like(x), p, 123)
    b = seeded_dropout(x, torch.empty_like(x), p, 123)
    c = seeded_dropout(x, torch.empty_like(x), p, 512)
    kept = (a != 0).double().mean().item()
    # Same seed, same mask; another seed, another mask; about half the elements kept (for n=10007,
    # a binomial(10007, 0.5) fraction is within 0.5 +- 0.05 with overwhelming probability).
    ok_seeded = torch.equal(a.cpu(), b.cpu()) and not torch.equal(a.cpu(), c.cpu()) and (n < 100 or abs(kept - 0.5) < 0.05)
    ok_values = torch.equal(a[a != 0].cpu(), (x[a != 0] * 2).cpu())
    status = ex.report("04_low_memory_dropout", ok_mask and ok_seeded and ok_values,
                       f"n={n} mask-dropout exact={ok_mask} seeded: reproducible/varies/kept={kept:.3f} -> {ok_seeded}")
    if args.bench:
        x, keep, out = make(1 << 22, 0, dev)
        ms = ex.time_ms(lambda: seeded_dropout(x, out, p, 123), dev)
        ref = ex.time_ms(lambda: torch.nn.functional.dropout(x, p), dev)
        print(ex.bench_line("  seeded dropout n=2^22", ms, ref))
    return status


if __name__ == "__main__":
    sys.exit(main())
