"""Tutorial 05 (our version): layer normalization, forward and backward.

The backward pass computes dX per row and accumulates the partial dW/dB of rows into
GROUP_SIZE_M buffers, each guarded by a spin lock (tl.atomic_cas / tl.atomic_xchg); a second
kernel sums the buffers column-block by column-block.

    python3 -m tcpu examples/python/05_layer_norm.py [--full] [--bench]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def layer_norm_fwd_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    # Mean and variance in fp32, BLOCK_SIZE columns at a time.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        d = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        d = tl.where(cols < N, d - mean, 0.)
        acc += d * d
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for start in range(0, N, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        inside = cols < N
        w = tl.load(W + cols, mask=inside)
        b = tl.load(B + cols, mask=inside)
        x = tl.load(X + cols, mask=inside, other=0.).to(tl.float32)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=inside)


@triton.jit
def layer_norm_bwd_dx_kernel(DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr,
                             BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    inside = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # Rows share GROUP_SIZE_M partial-sum buffers; Lock[g] guards buffer g and Lock[GROUP_SIZE_M + g]
    # records whether it was written yet.
    group = row % GROUP_SIZE_M
    Lock += group
    Written = Lock + GROUP_SIZE_M
    DW = DW + group * N + cols
    DB = DB + group * N + cols
    x = tl.load(X + cols, mask=inside, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=inside, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=inside).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(inside, (x - mean) * rstd, 0.)
    wdy = tl.where(inside, w * dy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(DX + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=inside)
    dw = (dy * xhat).to(w.dtype)
    db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    if tl.load(Written) == 0:
        tl.atomic_xchg(Written, 1)
    else:
        dw += tl.load(DW, mask=inside)
        db += tl.load(DB, mask=inside)
    tl.store(DW, dw, mask=inside)
    tl.store(DB, db, mask=inside)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def layer_norm_bwd_dwdb_kernel(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr,
                               BLOCK_SIZE_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for start in range(0, M, BLOCK_SIZE_M):
        rows = start + tl.arange(0, BLOCK_SIZE_M)
        inside = (rows[:, None] < M) & (cols[None, :] < N)
        offsets = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offsets, mask=inside, other=0.)
        db += tl.load(DB + offsets, mask=inside, other=0.)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(FINAL_DB + cols, tl.sum(db, axis=0), mask=cols < N)


def fwd_block(x: torch.Tensor) -> int:
    N = x.shape[-1]
    block = min(65536 // x.element_size(), triton.next_power_of_2(N))
    if N > block:
        raise RuntimeError("feature dimension above 64 KB is not supported")
    return block


def group_size_m(N: int) -> int:
    return 256 if N <= 1024 else 128 if N <= 4096 else 96 if N <= 8192 else 64


def forward(x, w, b, eps, y, mean, rstd):
    M, N = x.shape
    block = fwd_block(x)
    layer_norm_fwd_kernel[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=block,
                                 num_warps=min(max(block // 256, 1), 8))


def backward(dy, x, w, mean, rstd, bufs):
    """bufs: dx, partial dw, partial db, locks, dw, db (the partials and locks are reset here)."""
    dx, pdw, pdb, locks, dw, db = bufs
    M, N = x.shape
    G = pdw.shape[0]
    locks.zero_()
    pdw.zero_()
    pdb.zero_()
    block = fwd_block(x)
    layer_norm_bwd_dx_kernel[(M, )](dx, dy, pdw, pdb, x, w, mean, rstd, locks, x.stride(0), N, GROUP_SIZE_M=G,
                                    BLOCK_SIZE_N=block, num_warps=min(max(block // 256, 1), 8))
    layer_norm_bwd_dwdb_kernel[lambda meta: (triton.cdiv(N, meta["BLOCK_SIZE_N"]), )](
        pdw, pdb, dw, db, min(G, M), N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)


def make(M: int, N: int, seed: int, dev, dtype="float16"):
    gen = ex.rng(seed)
    x = ex.normal(gen, (M, N), dtype, dev, scale=0.5, shift=-2.3)
    w = ex.uniform(gen, (N, ), dtype, dev)
    b = ex.uniform(gen, (N, ), dtype, dev)
    dy = ex.normal(gen, (M, N), dtype, dev, scale=0.1)
    return x, w, b, dy


def stats_fp32(x: torch.Tensor):
    """Mean and 1/std per row computed on the host in float64, rounded to fp32 (inputs of the
    backward case, so the case does not depend on the forward kernel's rounding)."""
    xd = x.double().cpu()
    mean = xd.mean(dim=1)
    rstd = 1.0 / torch.sqrt(((xd - mean[:, None])**2).mean(dim=1) + 1e-5)
    return mean.float().to(x.device), rstd.float().to(x.device)


WHY_STATS = ("fp32 sums reduced in another order than on a CPU, tl.sqrt is sqrt.approx and fp32 '/' is "
             "div.full on NVIDIA (each ~1-2 ULP)")
WHY_F16 = "fp32 results that differ in the last bits, rounded to fp16: a few elements 1 fp16 ULP apart"
WHY_LOCK = "integers: every lock released (0), every used group's written flag 1"


def golden_cases(dev):
    M, N = 200, 1000
    eps = 1e-5
    x, w, b, dy = make(M, N, 10, dev)
    y, mean, rstd = torch.empty_like(x), torch.empty(M, dtype=torch.float32, device=dev), \
        torch.empty(M, dtype=torch.float32, device=dev)
    fwd = ex.Case(name="layer_norm_fwd_f16", kernel="layer_norm_fwd_kernel", seed=10,
                  inputs={"X": x, "W": w, "B": b}, outputs={"Y": y, "Mean": mean, "Rstd": rstd},
                  rules={"Y": ("relnorm:1e-3", WHY_F16), "Mean": ("relnorm:1e-5", WHY_STATS),
                         "Rstd": ("relnorm:1e-5", WHY_STATS)},
                  launch=lambda: forward(x, w, b, eps, y, mean, rstd),
                  shapes=f"M={M} N={N} fp16 eps={eps} BLOCK_SIZE={fwd_block(x)}")
    x2, w2, _, dy2 = make(M, N, 11, dev)
    mean2, rstd2 = stats_fp32(x2)
    G = group_size_m(N)  # 256 >= M: one row per lock group, so the fp16 partial sums are order-free
    bufs = (torch.empty_like(dy2), torch.zeros((G, N), dtype=x2.dtype, device=dev),
            torch.zeros((G, N), dtype=x2.dtype, device=dev), torch.zeros(2 * G, dtype=torch.int32, device=dev),
            torch.empty(N, dtype=w2.dtype, device=dev), torch.empty(N, dtype=w2.dtype, device=dev))
    bwd = ex.Case(name="layer_norm_bwd_f16", kernel="layer_norm_bwd_dx_kernel+layer_norm_bwd_dwdb_kernel", seed=11,
                  inputs={"DY": dy2, "X": x2, "W": w2, "Mean": mean2, "Rstd": rstd2},
                  outputs={"DX": bufs[0], "DW_partial": bufs[1], "DB_partial": bufs[2], "Lock": bufs[3],
                           "DW": bufs[4], "DB": bufs[5]},
                  rules={"DX": ("relnorm:1e-3", WHY_F16 + "; dx = (w*dy - (xhat*c1 + c2)) * rstd cancels near 0"),
                         "DW_partial": ("relnorm:1e-3", WHY_F16 + " (one row per group: no accumulation order)"),
                         "DB_partial": ("exact", "dy rounded fp16 -> fp32 -> fp16: exact, one row per group"),
                         "Lock": ("exact", WHY_LOCK),
                         "DW": ("relnorm:1e-3", "fp32 column sums in another order, rounded to fp16"),
                         "DB": ("relnorm:1e-3", "fp32 column sums in another order, rounded to fp16")},
                  launch=lambda: backward(dy2, x2, w2, mean2, rstd2, bufs),
                  shapes=f"M={M} N={N} fp16 GROUP_SIZE_M={G} BLOCK_SIZE_N={fwd_block(x2)} dwdb 32x128")
    return [fwd, bwd]


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    M, N = (1151, 8192) if args.full else (200, 1000)
    eps = 1e-5
    x, w, b, dy = make(M, N, 0, dev)
    y = torch.empty_like(x)
    mean = torch.empty(M, dtype=torch.float32, device=dev)
    rstd = torch.empty(M, dtype=torch.float32, device=dev)
    forward(x, w, b, eps, y, mean, rstd)
    G = group_size_m(N)
    bufs = (torch.empty_like(dy), torch.zeros((G, N), dtype=x.dtype, device=dev),
            torch.zeros((G, N), dtype=x.dtype, device=dev), torch.zeros(2 * G, dtype=torch.int32, device=dev),
            torch.empty(N, dtype=w.dtype, device=dev), torch.empty(N, dtype=w.dtype, device=dev))
    backward(dy, x, w, mean, rstd, bufs)
    dx, _, _, locks, dw, db = bufs

    # float64 reference through autograd.
    xr, wr, br = (t.double().cpu().requires_grad_() for t in (x, w, b))
    yr = torch.nn.functional.layer_norm(xr, (N, ), wr, br, eps)
    yr.backward(dy.double().cpu())
    # fp16 outputs: |y| <= ~4 and |dx| <= ~1, so one fp16 ULP is <= 2e-3; dw/db sum M rows of fp16
    # partials (each rounded, relative 2^-11) and grow like sqrt(M): the tutorial's 1e-2 absolute
    # holds for M=1151 as well. Locks must all be released.
    errs = {"y": ex.max_abs_diff(y, yr), "dx": ex.max_abs_diff(dx, xr.grad), "dw": ex.max_abs_diff(dw, wr.grad),
            "db": ex.max_abs_diff(db, br.grad)}
    ok = all(v <= 1e-2 for v in errs.values()) and int(locks[:G].abs().sum().item()) == 0
    status = ex.report("05_layer_norm", ok, f"{M}x{N} fp16 " + " ".join(f"{k}={v:.1e}" for k, v in errs.items()) +
                       " (<= 1e-2), locks released")
    if args.bench:
        for n in ([512 * i for i in range(2, 32, 6)] if args.full else [1024, 4096]):
            x, w, b, dy = make(4096 if args.full else 512, n, 0, dev)
            m = x.shape[0]
            mean = torch.empty(m, dtype=torch.float32, device=dev)
            rstd = torch.empty(m, dtype=torch.float32, device=dev)
            ms = ex.time_ms(lambda: forward(x, w, b, eps, torch.empty_like(x), mean, rstd), dev)
            ref = ex.time_ms(lambda: torch.nn.functional.layer_norm(x.float(), (n, ), w.float(), b.float(), eps), dev)
            print(ex.bench_line(f"  forward {m}x{n}", ms, ref))
    return status


if __name__ == "__main__":
    sys.exit(main())
