"""Records Triton's own tl.randint4x / tl.rand / tl.randn outputs on a GPU, as
goldens for tcpu's bit-exact Philox (tests/goldens/philox_triton.txt).

Run on a machine with an NVIDIA GPU, PyTorch and Triton:
    python3 scripts/gpu/philox_goldens.py > tests/goldens/philox_triton.txt
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def philox_kernel(seed, offsets_ptr, out_ptr, n, BLOCK: tl.constexpr):
    idx = tl.arange(0, BLOCK)
    mask = idx < n
    offsets = tl.load(offsets_ptr + idx, mask=mask, other=0)
    r0, r1, r2, r3 = tl.randint4x(seed, offsets)
    u = tl.rand(seed, offsets)
    g = tl.randn(seed, offsets)
    base = out_ptr + idx * 6
    tl.store(base + 0, r0.to(tl.int64, bitcast=False), mask=mask)
    tl.store(base + 1, r1.to(tl.int64, bitcast=False), mask=mask)
    tl.store(base + 2, r2.to(tl.int64, bitcast=False), mask=mask)
    tl.store(base + 3, r3.to(tl.int64, bitcast=False), mask=mask)
    tl.store(base + 4, u.to(tl.float32, bitcast=True).to(tl.int32, bitcast=True).to(tl.int64), mask=mask)
    tl.store(base + 5, g.to(tl.float32, bitcast=True).to(tl.int32, bitcast=True).to(tl.int64), mask=mask)


SEEDS = [0, 42, 123, 512, 0xFFFFFFFF, 0xFCAFEB0B]
OFFSETS = list(range(0, 20)) + [
    1000, 123456, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 7, 2**62 + 12345, 2**63 - 1,
]


def main():
    offsets = torch.tensor(OFFSETS, dtype=torch.int64, device="cuda")
    n = len(OFFSETS)
    print("# Triton", triton.__version__, "on", torch.cuda.get_device_name(0))
    print("# seed offset randint4x[0..3] (as unsigned 32-bit) rand_bits randn_bits (fp32 bit patterns, hex)")
    for seed in SEEDS:
        out = torch.zeros(n * 6, dtype=torch.int64, device="cuda")
        philox_kernel[(1,)](seed, offsets, out, n, BLOCK=64)
        rows = out.view(n, 6).cpu().tolist()
        for offset, row in zip(OFFSETS, rows):
            words = [v & 0xFFFFFFFF for v in row]
            print(f"{seed} {offset} " + " ".join(f"{w:08x}" for w in words))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
