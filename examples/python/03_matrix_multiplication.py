"""Tutorial 03 (our version): blocked C = A @ B with grouped program order and a fused activation.

    python3 -m tcpu examples/python/03_matrix_multiplication.py [--full] [--bench]

One configuration (no autotuning, so runs are reproducible and cheap on a CPU):
BLOCK_SIZE_M = BLOCK_SIZE_N = 64, BLOCK_SIZE_K = 32, GROUP_SIZE_M = 8.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import excommon as ex  # noqa: E402


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr, IEEE: tl.constexpr):
    # Grouped ordering: GROUP_SIZE_M consecutive block-rows are walked column by column, so the
    # programs running together share blocks of A and B.
    pid = tl.program_id(axis=0)
    blocks_m = tl.cdiv(M, BLOCK_SIZE_M)
    blocks_n = tl.cdiv(N, BLOCK_SIZE_N)
    per_group = GROUP_SIZE_M * blocks_n
    group_first_m = (pid // per_group) * GROUP_SIZE_M
    group_rows = min(blocks_m - group_first_m, GROUP_SIZE_M)
    pid_m = group_first_m + ((pid % per_group) % group_rows)
    pid_n = (pid % per_group) // group_rows

    # Rows and columns wrap around (modulo) so loads never leave A or B; K is masked instead.
    rows = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kb in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kb * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < k_left, other=0.0)
        if IEEE:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        else:
            acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(c_ptr.dtype.element_ty)

    out_rows = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    out_cols = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + out_rows[:, None] * stride_cm + out_cols[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(out_rows[:, None] < M) & (out_cols[None, :] < N))


CONFIG = dict(BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8)


def matmul(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, activation: str = "") -> torch.Tensor:
    assert a.shape[1] == b.shape[0] and a.is_contiguous()
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE_M"]) * triton.cdiv(N, meta["BLOCK_SIZE_N"]), )  # noqa: E731
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        ACTIVATION=activation, IEEE=a.dtype == torch.float32, **CONFIG)
    return c


def make(M: int, N: int, K: int, dtype: str, out_dtype, seed: int, dev):
    gen = ex.rng(seed)
    a = ex.normal(gen, (M, K), dtype, dev)
    b = ex.normal(gen, (K, N), dtype, dev)
    return a, b, torch.empty((M, N), dtype=out_dtype, device=dev)


WHY_F16 = ("fp16 inputs on tensor cores (wgmma/mma): the order in which products are accumulated in fp32 "
           "differs from a CPU's; rounding to fp16 then moves a few elements by 1 fp16 ULP (up to 9.8e-4 relative)")
WHY_IEEE = ("input_precision='ieee' fp32 dot is lowered to a chain of FMAs in k order (acc carried through "
            "tl.dot(a, b, acc)); a CPU doing fused multiply-adds in the same k order gets the same bits")


def golden_cases(dev):
    cases = []
    specs = (("matmul_f16", 200, 176, 136, "float16", torch.float16, "", 4, WHY_F16, "relnorm:1e-3"),
             ("matmul_f16_leaky_relu", 128, 96, 160, "float16", torch.float16, "leaky_relu", 5, WHY_F16, "relnorm:1e-3"),
             ("matmul_f32_ieee", 150, 130, 112, "float32", torch.float32, "", 6, WHY_IEEE, "exact"))
    for name, M, N, K, dtype, out_dtype, act, seed, why, rule in specs:
        a, b, c = make(M, N, K, dtype, out_dtype, seed, dev)
        cases.append(
            ex.Case(name=name, kernel="matmul_kernel", seed=seed, inputs={"a": a, "b": b}, outputs={"c": c},
                    rules={"c": (rule, why)}, launch=lambda a=a, b=b, c=c, act=act: matmul(a, b, c, act),
                    shapes=f"M={M} N={N} K={K} {dtype} {act or 'no activation'} " +
                    " ".join(f"{k}={v}" for k, v in CONFIG.items())))
    return cases


def main(argv=None) -> int:
    args = ex.parse_args(__doc__.splitlines()[0], argv)
    dev = ex.device()
    size = 512 if args.full else 256
    ok = True
    details = []
    for dtype, out_dtype, act in (("float16", torch.float16, ""), ("float16", torch.float16, "leaky_relu"),
                                  ("float32", torch.float32, "")):
        a, b, c = make(size, size, size, dtype, out_dtype, 0, dev)
        matmul(a, b, c, act)
        ref = a.double().cpu() @ b.double().cpu()
        if act:
            ref = torch.where(ref >= 0, ref, 0.01 * ref)
        # fp32 accumulation of K=256..512 products of N(0,1) values: |c| ~ sqrt(K) ~ 16-23. fp16
        # output rounding is 2^-11 relative (<= 0.016 absolute there), fp32 accumulation error is far
        # smaller: bound 0.05 absolute for fp16 outputs, 1e-3 for fp32 outputs.
        bound = 0.05 if out_dtype == torch.float16 else 1e-3
        err = ex.max_abs_diff(c, ref)
        ok = ok and err <= bound
        details.append(f"{dtype}{'+' + act if act else ''} max|err|={err:.2e} (<= {bound:g})")
    status = ex.report("03_matrix_multiplication", ok, f"{size}^3: " + "; ".join(details))
    if args.bench:
        for n in ([128 * i for i in range(2, 33, 6)] if args.full else [128, 256, 512]):
            a, b, c = make(n, n, n, "float16", torch.float16, 0, dev)
            ms = ex.time_ms(lambda: matmul(a, b, c), dev)
            ref_ms = ex.time_ms(lambda: torch.matmul(a, b), dev) if dev.type == "cuda" else None
            print(ex.bench_line(f"  fp16 {n}^3", ms, ref_ms, f"{2 * n**3 * 1e-12 / (ms * 1e-3):.3f} TFLOP/s"))
    return status


if __name__ == "__main__":
    sys.exit(main())
