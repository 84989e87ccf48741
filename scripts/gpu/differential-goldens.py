"""Kernels where tcpu and Triton's interpreter disagreed and the verdict is that the
interpreter deviates from Triton on a GPU (docs/conformance/differential-testing.md), plus the
Python-number promotion that tcpu was fixed to follow. Each kernel's outputs are printed as JSON
beside what the reasoning expects on the GPU ("expected"); "device" says where they ran.

    python3 scripts/gpu/differential-goldens.py            # on an NVIDIA GPU: the verdicts
    python3 -m tcpu scripts/gpu/differential-goldens.py    # the same kernels on tcpu
    TRITON_INTERPRET=1 python3 scripts/gpu/differential-goldens.py   # the interpreter

A kernel that raises prints its error instead of outputs. Every value is a plain integer or
float (NaN as the string "nan")."""

from __future__ import annotations

import json
import math

import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def _plain(values):
    return ["nan" if isinstance(v, float) and math.isnan(v) else v for v in values]


@triton.jit
def invert_kernel(x, out, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(out + o, ~tl.load(x + o))


@triton.jit
def _or(a, b):
    return a | b


@triton.jit
def reduce_keep_dims_kernel(x, out, OP: tl.constexpr):
    o = tl.arange(0, 2)[:, None] * 4 + tl.arange(0, 4)[None, :]
    v = tl.load(x + o)
    if OP == 0:
        r = tl.xor_sum(v, axis=None, keep_dims=True)
    else:
        r = tl.reduce(v, None, _or, keep_dims=True)
    tl.static_assert(len(r.shape) == 2)
    tl.store(out + o, tl.broadcast_to(r, (2, 4)))


@triton.jit
def nan_extremes_kernel(x, y, out):
    o = tl.arange(0, 4)
    a = tl.load(x + o)
    b = tl.load(y + o)
    tl.store(out + o, tl.minimum(a, b))
    tl.store(out + 4 + o, tl.maximum(a, b))
    tl.store(out + 8 + o, tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + 12 + tl.arange(0, 1), tl.max(a, axis=0) + tl.zeros([1], tl.float32))
    tl.store(out + 13 + tl.arange(0, 1), tl.min(a, axis=0) + tl.zeros([1], tl.float32))


@triton.jit
def bf16_arith_kernel(x, y, out):
    o = tl.arange(0, 4)
    a = tl.load(x + o)
    b = tl.load(y + o)
    tl.store(out + o, (-a).to(tl.float32))
    tl.store(out + 4 + o, (a + b).to(tl.float32))
    tl.store(out + 8 + o, (a * b).to(tl.float32))
    tl.store(out + 12 + o, (a < b).to(tl.float32))
    tl.store(out + 16 + o, a.to(tl.float16).to(tl.float32))
    tl.store(out + 20 + o, tl.full([4], 3, tl.int32).to(tl.bfloat16).to(tl.float32))


@triton.jit
def bool_argument_kernel(flag, out):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.where(flag, o, -o))


@triton.jit
def scalar_comparison_kernel(x8, u8, h, s, out):
    o = tl.arange(0, 4)
    a = tl.load(x8 + o)
    b = tl.load(u8 + o)
    c = tl.load(h + o)
    tl.store(out + o, (a == 300).to(tl.int64))
    tl.store(out + 4 + o, (b > -1).to(tl.int64))
    tl.store(out + 8 + o, (c < 0.1).to(tl.int64))
    tl.store(out + 12 + o, (-8589934592 > s).to(tl.int64) + o * 0)
    tl.store(out + 16 + o, (2147483651 == b).to(tl.int64))
    tl.store(out + 20 + o, (c.to(tl.float64) == 0.1).to(tl.int64))
    tl.store(out + 24 + o, tl.maximum(a, 1000).to(tl.int64))


@triton.jit
def float_argument_kernel(s, h, out):
    o = tl.arange(0, 4)
    tl.store(out + o, (s + tl.load(h + o)).to(tl.float32))  # fp32 scalar + fp16 block: fp32


@triton.jit
def one_argument_kernel(x, s, out):
    o = tl.arange(0, 4)
    # s == 1 is specialized into the constant 1: where() of two Python numbers, uint32.
    tl.store(out + o, tl.where(tl.load(x + o) != 0, s, 2147483651).to(tl.int64))


@triton.jit
def bf16_other_kernel(x, out, n):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.load(x + o, mask=o < n, other=-1).to(tl.float32))
    tl.store(out + 4 + o, tl.load(x + o, mask=o < n, other=True).to(tl.float32))


@triton.jit
def bf16_subnormal_kernel(x, out):
    o = tl.arange(0, 4)
    tl.store(out + o, tl.load(x + o).to(tl.float32))


@triton.jit
def ashr_promoted_kernel(x, k, out):
    o = tl.arange(0, 4)
    # int16 >> uint16: computed in uint16, shifted arithmetically (the left operand is
    # signed), the result uint16: -16 >> 2 is 0xFFFC, widened to int64 as 65532.
    tl.store(out + o, (tl.load(x + o) >> tl.load(k + o)).to(tl.int64))


@triton.jit
def umulhi_signed_kernel(x, out):
    o = tl.arange(0, 4)
    v = tl.load(x + o)
    tl.store(out + o, tl.umulhi(v, v).to(tl.int64))  # the unsigned high half (mul.hi.u32)


def _run(name, expected, launch):
    try:
        values = launch()
        record = {"kernel": name, "outputs": _plain(values)}
    except Exception as e:  # noqa: BLE001 - the refusal is the result
        record = {"kernel": name, "error": f"{type(e).__name__}: {str(e).splitlines()[0]}"}
    record["expected"] = _plain(expected)
    record["device"] = DEVICE
    print(json.dumps(record))


def _tensor(values, dtype):
    return torch.tensor(values, dtype=dtype, device=DEVICE)


def main() -> None:
    for dtype, bits in ((torch.uint8, 8), (torch.uint16, 16), (torch.uint32, 32)):
        def launch(dtype=dtype):
            x = _tensor([0, 1, 5, 100], dtype)
            out = torch.zeros(4, dtype=dtype, device=DEVICE)
            invert_kernel[(1,)](x, out, N=4)
            return [int(v) for v in out.cpu().to(torch.int64).tolist()]
        _run(f"invert_{dtype}", [2**bits - 1 - v for v in (0, 1, 5, 100)], launch)

    for op, expected in ((0, 1 ^ 2 ^ 4 ^ 8 ^ 16 ^ 32 ^ 64 ^ 128), (1, 255)):
        def launch(op=op):
            x = _tensor([1, 2, 4, 8, 16, 32, 64, 128], torch.int32)
            out = torch.zeros(8, dtype=torch.int32, device=DEVICE)
            reduce_keep_dims_kernel[(1,)](x, out, OP=op)
            return out.cpu().tolist()
        _run(f"reduce_axis_none_keep_dims_{'xor_sum' if op == 0 else 'reduce_or'}",
             [expected] * 8, launch)

    def launch_nan():
        nan = float("nan")
        x = _tensor([nan, 1.0, nan, -2.0], torch.float32)
        y = _tensor([3.0, nan, nan, 5.0], torch.float32)
        out = torch.zeros(14, dtype=torch.float32, device=DEVICE)
        nan_extremes_kernel[(1,)](x, y, out)
        return out.cpu().tolist()
    nan = float("nan")
    # PropagateNan.NONE: the GPU's min/max.f32 return the other operand (NaN only when both
    # are); ALL propagates. The reductions combine with NONE.
    _run("nan_min_max", [3.0, 1.0, nan, -2.0, 3.0, 1.0, nan, 5.0, nan, nan, nan, -2.0,
                         1.0, -2.0], launch_nan)

    def launch_bf16():
        x = _tensor([1.5, -2.0, 0.25, 3.0], torch.bfloat16)
        y = _tensor([2.0, 0.5, -4.0, 3.0], torch.bfloat16)
        out = torch.zeros(24, dtype=torch.float32, device=DEVICE)
        bf16_arith_kernel[(1,)](x, y, out)
        return out.cpu().tolist()
    _run("bf16_arithmetic", [-1.5, 2.0, -0.25, -3.0, 3.5, -1.5, -3.75, 6.0, 3.0, -1.0, -1.0,
                             9.0, 1.0, 1.0, 0.0, 0.0, 1.5, -2.0, 0.25, 3.0, 3.0, 3.0, 3.0,
                             3.0], launch_bf16)

    def launch_bool():
        out = torch.zeros(4, dtype=torch.int32, device=DEVICE)
        bool_argument_kernel[(1,)](True, out)
        first = out.cpu().tolist()
        bool_argument_kernel[(1,)](False, out)
        return first + out.cpu().tolist()
    _run("bool_argument", [0, 1, 2, 3, 0, -1, -2, -3], launch_bool)

    def launch_float_argument():
        h = _tensor([0.1290283203125, -3.0, 0.0012683868408203125, 0.24365234375],
                    torch.float16)
        out = torch.zeros(4, dtype=torch.float32, device=DEVICE)
        float_argument_kernel[(1,)](27.296679937056183, h, out)
        return out.cpu().tolist()
    s32 = torch.tensor(27.296679937056183, dtype=torch.float32)
    _run("float_argument_promotes_as_fp32",
         [(s32 + torch.tensor(v, dtype=torch.float16).float()).item()
          for v in (0.1290283203125, -3.0, 0.0012683868408203125, 0.24365234375)],
         launch_float_argument)

    def launch_one():
        out = torch.zeros(4, dtype=torch.int64, device=DEVICE)
        one_argument_kernel[(1,)](_tensor([1, 0, 5, 0], torch.int32), 1, out)
        return out.cpu().tolist()
    _run("int_argument_one_specialized", [1, 2147483651, 1, 2147483651], launch_one)

    def launch_bf16_other():
        out = torch.zeros(8, dtype=torch.float32, device=DEVICE)
        bf16_other_kernel[(1,)](_tensor([1.5, 2.0, 3.0, 4.0], torch.bfloat16), out, 2)
        return out.cpu().tolist()
    _run("bf16_load_other_int", [1.5, 2.0, -1.0, -1.0, 1.5, 2.0, 1.0, 1.0], launch_bf16_other)

    def launch_bf16_subnormal():
        bits = torch.tensor([1, -32767, 0x0080, 0x3F80], dtype=torch.int16, device=DEVICE)
        out = torch.zeros(4, dtype=torch.float32, device=DEVICE)
        bf16_subnormal_kernel[(1,)](bits.view(torch.bfloat16), out)
        return out.cpu().tolist()
    _run("bf16_subnormal_to_fp32", [2.0**-133, -(2.0**-133), 2.0**-126, 1.0],
         launch_bf16_subnormal)

    def launch_ashr():
        out = torch.zeros(4, dtype=torch.int64, device=DEVICE)
        ashr_promoted_kernel[(1,)](_tensor([-16, 9, -17, -1], torch.int16),
                                   _tensor([2, 1, 0, 15], torch.uint16), out)
        return out.cpu().tolist()
    _run("ashr_signed_by_unsigned", [65532, 4, 65519, 65535], launch_ashr)

    def launch_umulhi():
        out = torch.zeros(4, dtype=torch.int64, device=DEVICE)
        umulhi_signed_kernel[(1,)](_tensor([-11, 3, -1, 65536], torch.int32), out)
        return out.cpu().tolist()
    _run("umulhi_int32_negative", [-22, 0, -2, 1], launch_umulhi)

    def launch_comparison():
        x8 = _tensor([44, 1, -1, 0], torch.int8)
        u8 = _tensor([0, 1, 255, 3], torch.uint8)
        h = _tensor([0.1, 0.09997, 0.2, -1.0], torch.float16)
        out = torch.zeros(28, dtype=torch.int64, device=DEVICE)
        scalar_comparison_kernel[(1,)](x8, u8, h, 5, out)
        return out.cpu().tolist()
    _run("python_number_comparisons", [0] * 4 + [1] * 4 + [1, 1, 0, 1] + [0] * 4 + [0] * 4
         + [0] * 4 + [1000] * 4, launch_comparison)


if __name__ == "__main__":
    main()
