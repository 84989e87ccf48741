# PyTorch's CPU matmul (MKL/oneDNN; in bf16 too, AMX where the CPU has it) and softmax on the shapes bench/aot/aot_bench.cpp times, as the
# baseline on a machine that has PyTorch but no oneDNN development files (the lent GPU host).
# Usage: python3 torch_baseline.py [THREADS] (default: all cores). Medians after one warm-up.
import sys
import time

import torch


def median_seconds(run, repetitions):
    run()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def main() -> None:
    if len(sys.argv) > 1:
        torch.set_num_threads(int(sys.argv[1]))
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    for n in (512, 1024, 2048):
        a, b, c = torch.randn(n, n), torch.randn(n, n), torch.empty(n, n)
        seconds = median_seconds(lambda: torch.mm(a, b, out=c), 21)
        print(f"torch.mm {n}: {seconds * 1e3:.3f} ms, {2 * n**3 / seconds / 1e9:.1f} GFLOP/s")
    for n in (512, 1024, 2048):
        a, b = torch.randn(n, n, dtype=torch.bfloat16), torch.randn(n, n, dtype=torch.bfloat16)
        c = torch.empty(n, n, dtype=torch.bfloat16)
        seconds = median_seconds(lambda: torch.mm(a, b, out=c), 21)
        print(f"torch.mm bf16 {n}: {seconds * 1e3:.3f} ms, {2 * n**3 / seconds / 1e9:.1f} GFLOP/s")
    x = torch.randn(4096, 1024)
    seconds = median_seconds(lambda: torch.softmax(x, 1), 105)
    rate = 2 * x.numel() * 4 / seconds / 1e9
    print(f"torch.softmax 4096x1024: {seconds * 1e3:.3f} ms, {rate:.1f} GB/s")


if __name__ == "__main__":
    main()
