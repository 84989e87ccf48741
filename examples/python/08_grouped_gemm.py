"""Tutorial 08 (our version): a group of independent fp16 GEMMs computed by one persistent grid.

A fixed number of programs (NUM_SM) walks the tiles of every problem in turn: program p takes
tiles p, p + NUM_SM, ... of the concatenated tile list. The problems' matrices are found through
tables of addresses (int64 tensors of data_ptr()s). Every dimension must be a multiple of the
block sizes, as in the tutorial ("assume full tile").

    python3 -m tcpu examples/python/08_grouped_gemm.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def grouped_matmul_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                          NUM_SM: tl.constexpr, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                          BLOCK_SIZE_K: tl.constexpr):
    tile = tl.program_id(0)
    tiles_before = 0  # tiles of the problems already passed
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        tiles_n = tl.cdiv(gn, BLOCK_SIZE_N)
        tiles = tl.cdiv(gm, BLOCK_SIZE_M) * tiles_n
        while (tile >= tiles_before and tile < tiles_before + tiles):
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            local = tile - tiles_before
            rows = (local // tiles_n) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            cols = (local % tiles_n) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            ks = tl.arange(0, BLOCK_SIZE_K)
            a_ptrs = a_ptr + rows[:, None] * lda + ks[None, :]
            b_ptrs = b_ptr + ks[:, None] * ldb + cols[None, :]
            acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
            for kb in range(0, tl.cdiv(gk, BLOCK_SIZE_K)):
                tl.multiple_of(a_ptrs, [16, 16])
                tl.multiple_of(b_ptrs, [16, 16])
                acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
                a_ptrs += BLOCK_SIZE_K
                b_ptrs += BLOCK_SIZE_K * ldb
            tl.store(c_ptr + rows[:, None] * ldc + cols[None, :], acc.to(tl.float16))
            tile += NUM_SM
        tiles_before = tiles_before + tiles


CONFIG = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, NUM_SM=8)


class Tables:
    """The device tables the kernel reads: addresses, sizes (M, N, K) and leading dimensions."""

    def __init__(self, As, Bs, Cs, dev):
        self.a = torch.tensor([t.data_ptr() for t in As], dtype=torch.int64, device=dev)
        self.b = torch.tensor([t.data_ptr() for t in Bs], dtype=torch.int64, device=dev)
        self.c = torch.tensor([t.data_ptr() for t in Cs], dtype=torch.int64, device=dev)
        sizes, lds = [], []
        for A, B, C in zip(As, Bs, Cs):
            assert A.shape[1] == B.shape[0]
            sizes += [A.shape[0], B.shape[1], A.shape[1]]
            lds += [A.stride(0), B.stride(0), C.stride(0)]
        self.sizes = torch.tensor(sizes, dtype=torch.int32, device=dev)
        self.lds = torch.tensor(lds, dtype=torch.int32, device=dev)
        self.count = len(As)


def grouped_matmul(t: Tables):
    grouped_matmul_kernel[lambda meta: (meta["NUM_SM"], )](t.a, t.b, t.c, t.sizes, t.lds, t.count, **CONFIG)


def make(shapes, seed, dev):
    gen = ex.rng(seed)
    As = [ex.uniform(gen, (m, k), "float16", dev) for m, n, k in shapes]
    Bs = [ex.uniform(gen, (k, n), "float16", dev) for m, n, k in shapes]
    Cs = [torch.empty((m, n), dtype=torch.float16, device=dev) for m, n, k in shapes]
    return As, Bs, Cs, Tables(As, Bs, Cs, dev)


SMALL = [(256, 256, 256), (128, 192, 128), (64, 64, 96), (192, 64, 64)]
TUTORIAL = [(1024, 1024, 1024), (512, 512, 512), (256, 256, 256), (128, 128, 128)]
WHY = ("fp16 dots on tensor cores accumulate in another order than on a CPU; the fp32 sums of K products "
       "of [0, 1) values are rounded to fp16 (a few elements 1 fp16 ULP apart)")


def golden_cases(dev):
    As, Bs, Cs, t = make(SMALL, 21, dev)
    inputs = {"group_gemm_sizes": t.sizes, "g_lds": t.lds}
    inputs.update({f"a{i}": a for i, a in enumerate(As)})
    inputs.update({f"b{i}": b for i, b in enumerate(Bs)})
    return [
        ex.Case(name="grouped_matmul_f16", kernel="grouped_matmul_kernel", seed=21, inputs=inputs,
                outputs={f"c{i}": c for i, c in enumerate(Cs)}, rules={f"c{i}": ("relnorm:1e-3", WHY)
                                                                       for i in range(len(Cs))},
                launch=lambda: grouped_matmul(t),
                shapes="(M,N,K) " + " ".join(f"{m}x{n}x{k}" for m, n, k in SMALL) + " fp16 " +
                " ".join(f"{k}={v}" for k, v in CONFIG.items()) + " (address tables not written)"),
    ]


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    shapes = TUTORIAL if args.full else SMALL
    As, Bs, Cs, t = make(shapes, 0, dev)
    grouped_matmul(t)
    # Entries are sums of K products of [0, 1) values (|c| ~ K/4 <= 256): an fp16 ULP there is
    # 0.25 at most, and the tutorial's 1e-2 absolute would only hold for K <= ~64. Bound: 2^-10
    # relative to the largest entry (fp16 rounding is 2^-11) plus fp32 accumulation error.
    worst = 0.0
    for A, B, C in zip(As, Bs, Cs):
        ref = A.double().cpu() @ B.double().cpu()
        worst = max(worst, ex.max_abs_diff(C, ref) / ref.abs().max().item())
    status = ex.report("08_grouped_gemm", worst <= 2**-10,
                       f"{len(shapes)} problems {' '.join(f'{m}x{n}x{k}' for m, n, k in shapes)} fp16: "
                       f"max|err|/max|c|={worst:.1e} (<= {2**-10:.1e})")
    if args.bench:
        ms = ex.time_ms(lambda: grouped_matmul(t), dev)
        flops = sum(2 * m * n * k for m, n, k in shapes)
        print(ex.bench_line("  group", ms, None, f"{flops * 1e-12 / (ms * 1e-3):.3f} TFLOP/s"))
    return status


if __name__ == "__main__":
    sys.exit(main())
