"""Single-op golden cases: one small @triton.jit kernel per group of Triton operations, on
seeded inputs (NumPy's PCG64), each output with the rule tcpu must meet against real Triton.

scripts/gpu/record_triton_op_goldens.py runs every case under real Triton on an NVIDIA GPU and
writes tests/goldens/triton_ops/<case>/ (`tcpu xcheck`'s format); test_triton_op_goldens.py runs
the same cases on the CPU under tcpu on the recorded inputs and judges each output by its rule.
The rules and their reasons are listed in tests/goldens/README.md.

Policy: `exact` wherever Triton's result is fixed by IEEE arithmetic or integer semantics
(Philox words, wrap-around, casts, correctly rounded fp32 ops, max/min, integer reductions,
atomics on integers, sorting); a ULP bound where NVIDIA computes the function approximately
(PTX `*.approx` instructions, libdevice) and the CPU with SLEEF's 1-ULP functions; a relative
norm where the order of fp32 accumulation is not Triton's to promise (reductions, tensor-core
dots) or where errors compound through several functions (randn). Inputs avoid what is
undefined in Triton's IR (integer division by zero, INT_MIN // -1, shifts by >= the width,
out-of-range float -> int conversions), since both sides would be right whatever they return.

Each launch closure returns what the launch returns (under real Triton the compiled kernel,
whose PTX the recorder inspects). Cases that accumulate (atomics) reset their outputs first.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

import excommon as ex

BLOCK = 1024

# ---------------------------------------------------------------- rules' reasons

EXACT_INT = "integer arithmetic wraps modulo 2^n on both (two's complement; tcpu compiles with -fwrapv)"
EXACT_PHILOX = "Philox 4x32 is integer arithmetic: the same words on every target"
EXACT_RAND = "uint_to_uniform_float: an int -> fp32 conversion and one fp32 multiply, both correctly rounded"
RANDN = ("Box-Muller: on NVIDIA tl.log, tl.sin and tl.cos are libdevice's (inlined, 1-2 ULP) and tl.sqrt is "
         "sqrt.approx.ftz.f32; on the CPU SLEEF's 1-ULP functions and a correctly rounded sqrt; the errors "
         "compound through four functions and a product (a few ULP), bounded here by the relative norm")
EXACT_IEEE = "one correctly rounded IEEE operation per element on both (no FMA contraction possible)"
EXACT_CAST = "IEEE conversion with a defined rounding (RNE or RTZ), subnormals kept: exact on both"
EXACT_MOVE = "bit movement only (bitcast, select, load/store)"
EXACT_MINMAX = ("maxnum/minnum (NONE) and IEEE maximum/minimum (ALL) are exact selections; no pair of "
                "zeros of opposite signs is in the inputs, where the order would be unspecified")
DIV_FULL = ("fp32 `/` is div.full.f32 on NVIDIA, documented within 2 ULP of the quotient; the CPU "
            "divides with IEEE rounding (0.5 ULP): at most 3 apart")
SQRT_APPROX = ("tl.sqrt is sqrt.approx.ftz.f32 on NVIDIA (relative error about 2^-23, i.e. up to 2 ULP; "
               "subnormals flushed, none in these inputs); the CPU's is correctly rounded; 4 leaves one ULP "
               "for the bound's rounding")
EXP = ("tl.exp is ex2.approx.f32(x * log2(e)) on NVIDIA: the product's rounding alone costs up to |x| ULP "
       "of the result (|x| <= 6 here), ex2.approx about 2 more, SLEEF expf 1")
EXP2 = ("tl.exp2 is ex2.approx.ftz.f32 on NVIDIA (relative error about 2^-22, up to 4 ULP; subnormal "
        "results flushed, which x >= -20 does not produce), SLEEF exp2f 1 ULP")
LOG = ("tl.log is libdevice's logf on NVIDIA (inlined __nv_logf in the PTX, no lg2.approx; CUDA documents "
       "1 ULP), SLEEF's logf 1 ULP: at most 2 apart")
SIN = ("tl.sin is libdevice's sinf on NVIDIA (inlined __nv_sinf with its Payne-Hanek reduction in the PTX, "
       "not sin.approx; CUDA documents 2 ULP), SLEEF's sinf 1 ULP: at most 3 apart")
LIBDEVICE_2ULP = ("libdevice's {name}f is documented within 2 ULP (CUDA Math API), SLEEF's {name}f within 1: "
                  "at most 3 apart")
SUM_F32 = ("fp32 sums in another order (the GPU: per-thread then warp-shuffle trees; the CPU: its own "
           "tree): a few ULP of the row sums, far below 1e-5 in relative norm")
DOT_IEEE = ("input_precision='ieee' is Triton's FMA dot on NVIDIA: acc = fma(a[m,k], b[k,n], acc) for k "
            "in order, from acc (or 0); tcpu's dot is the same k-ordered fma chain. The tutorial's fp32 "
            "matmul golden matched a sequential k-order fma chain in every element")
DOT_F16 = ("fp16 products are exact in fp32, but tensor cores (wgmma) add them in their own order and "
           "internal precision; K=64 fp32 accumulations differ by a few ULP")
EXACT_ATOMIC = "integer atomics commute: any order of the contending updates gives the same counts, maxima and totals"


def _t(array: np.ndarray, dev) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(array)).to(dev)


def _zeros(shape, dtype: torch.dtype, dev) -> torch.Tensor:
    return torch.zeros(shape, dtype=dtype, device=dev)


def _grid(n: int):
    return (triton.cdiv(n, BLOCK), )


def _f32_specials() -> np.ndarray:
    info = np.finfo(np.float32)
    return np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -3.0, 0.1, info.max, -info.max, info.tiny,
                     1e-40, -1e-42, 1e30, 1e-30], dtype=np.float32)


# ---------------------------------------------------------------- Philox


@triton.jit
def philox_kernel(seed, off_ptr, randint_ptr, randint7_ptr, w0_ptr, w1_ptr, w2_ptr, w3_ptr, rand_ptr, randn_ptr,
                  n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    offs = tl.load(off_ptr + idx, mask=m, other=0)
    tl.store(randint_ptr + idx, tl.randint(seed, offs), mask=m)
    tl.store(randint7_ptr + idx, tl.randint(seed, offs, n_rounds=7), mask=m)
    w0, w1, w2, w3 = tl.randint4x(seed, offs)
    tl.store(w0_ptr + idx, w0, mask=m)
    tl.store(w1_ptr + idx, w1, mask=m)
    tl.store(w2_ptr + idx, w2, mask=m)
    tl.store(w3_ptr + idx, w3, mask=m)
    tl.store(rand_ptr + idx, tl.rand(seed, offs), mask=m)
    tl.store(randn_ptr + idx, tl.randn(seed, offs), mask=m)


def _philox_case(name: str, seed_value: int, offsets: np.ndarray, case_seed: int, dev, shapes: str) -> ex.Case:
    n = offsets.size
    offs = _t(offsets, dev)
    outs = {k: _zeros((n, ), torch.int32, dev) for k in ("randint", "randint7", "w0", "w1", "w2", "w3")}
    outs["rand"] = _zeros((n, ), torch.float32, dev)
    outs["randn"] = _zeros((n, ), torch.float32, dev)
    rules = {k: ("exact", EXACT_PHILOX) for k in ("randint", "randint7", "w0", "w1", "w2", "w3")}
    rules["rand"] = ("exact", EXACT_RAND)
    rules["randn"] = ("relnorm:1e-5", RANDN)

    def launch():
        o = outs
        return philox_kernel[_grid(n)](seed_value, offs, o["randint"], o["randint7"], o["w0"], o["w1"], o["w2"],
                                       o["w3"], o["rand"], o["randn"], n, BLOCK=BLOCK)

    return ex.Case(name=name, kernel="philox_kernel", seed=case_seed, inputs={"offsets": offs}, outputs=outs,
                   rules=rules, launch=launch, shapes=shapes, extra={"philox_seed": seed_value})


def philox_i32(dev) -> ex.Case:
    gen = ex.rng(101)
    n = 4000
    offsets = gen.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    offsets[:8] = [0, 1, 2, -1, 2**31 - 1, -2**31, 1 << 30, -(1 << 30)]
    offsets[8:1000] = np.arange(992, dtype=np.int32)  # consecutive counters, as kernels use them
    return _philox_case("philox_i32", -7, offsets, 101, dev,
                        f"n={n} int32 offsets (full range, negatives) seed=-7 (negative int32) BLOCK={BLOCK}")


def philox_i64(dev) -> ex.Case:
    gen = ex.rng(102)
    n = 4000
    offsets = gen.integers(-2**63, 2**63 - 1, size=n, dtype=np.int64)
    offsets[:12] = [0, 1, -1, 2**31, 2**32 - 1, 2**32, 2**32 + 5, 2**40 + 3, 2**62, 2**63 - 1, -2**63, -(2**32)]
    offsets[12:1000] = 2**32 - 400 + np.arange(988, dtype=np.int64)  # crosses 2^32: the counter's high word
    seed = 2**40 + 0x1234  # an int64 seed: its high word matters
    return _philox_case("philox_i64", seed, offsets, 102, dev,
                        f"n={n} int64 offsets (full range, around 2^32, negatives) seed=2**40+0x1234 (int64) BLOCK={BLOCK}")


@triton.jit
def philox64_kernel(seed, c0_ptr, c1_ptr, c2_ptr, c3_ptr, w0_ptr, w1_ptr, w2_ptr, w3_ptr, u_ptr, s_ptr, n,
                    BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    c0 = tl.load(c0_ptr + idx, mask=m, other=0)  # int64: bitcast to uint64 by tl.philox
    c1 = tl.load(c1_ptr + idx, mask=m, other=0).to(tl.uint64, bitcast=True)
    c2 = tl.load(c2_ptr + idx, mask=m, other=0)
    c3 = tl.load(c3_ptr + idx, mask=m, other=0)
    w0, w1, w2, w3 = tl.philox(seed, c0, c1, c2, c3)
    tl.store(w0_ptr + idx, w0, mask=m)
    tl.store(w1_ptr + idx, w1, mask=m)
    tl.store(w2_ptr + idx, w2, mask=m)
    tl.store(w3_ptr + idx, w3, mask=m)
    tl.store(u_ptr + idx, tl.uint_to_uniform_float(w0), mask=m)
    s0, _, _, _ = tl.philox(seed, c0, c1, c2, c3, n_rounds=6)
    tl.store(s_ptr + idx, s0, mask=m)


def philox_u64(dev) -> ex.Case:
    gen = ex.rng(103)
    n = 2000
    counters = gen.integers(-2**63, 2**63 - 1, size=(4, n), dtype=np.int64)
    counters[:, :8] = 0
    counters[0, :8] = [0, 1, -1, 2**32, 2**63 - 1, -2**63, 12345, 2**40 + 3]
    counters[0, 8:500] = 2**32 - 100 + np.arange(492, dtype=np.int64)  # consecutive, as kernels count
    counters[1:, 8:500] = 0
    seed = 2**40 + 0x5678  # the whole 64-bit seed is the first key word; the second is 0
    ins = {f"c{i}": _t(counters[i], dev) for i in range(4)}
    outs = {k: _zeros((n, ), torch.int64, dev) for k in ("w0", "w1", "w2", "w3", "w0_6rounds")}
    outs["uniform"] = _zeros((n, ), torch.float32, dev)
    rules = {k: ("exact", "Philox 4x64 (tl.philox with 64-bit counters): integer arithmetic") for k in outs}
    rules["uniform"] = ("exact", "uint_to_uniform_float of 64-bit words: |int64| (x < 0: -x - 1) to fp32 (rounded "
                        "to nearest even) times fp32(2^-63): both exact operations in IEEE arithmetic")

    def launch():
        o = outs
        return philox64_kernel[_grid(n)](seed, ins["c0"], ins["c1"], ins["c2"], ins["c3"], o["w0"], o["w1"], o["w2"],
                                         o["w3"], o["uniform"], o["w0_6rounds"], n, BLOCK=BLOCK)

    return ex.Case(name="philox_u64", kernel="philox64_kernel", seed=103, inputs=ins, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} four int64 counter blocks (full range, consecutive around 2^32) "
                   f"seed=2**40+0x5678 BLOCK={BLOCK}", extra={"philox_seed": seed})


# ---------------------------------------------------------------- integers


@triton.jit
def int32_kernel(x_ptr, y_ptr, s_ptr, add_ptr, sub_ptr, mul_ptr, neg_ptr, shl_ptr, shr_ptr, bits_ptr, lit_ptr,
                 wide_ptr, big, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0)
    y = tl.load(y_ptr + idx, mask=m, other=0)
    s = tl.load(s_ptr + idx, mask=m, other=0)
    tl.store(add_ptr + idx, x + y, mask=m)
    tl.store(sub_ptr + idx, x - y, mask=m)
    tl.store(mul_ptr + idx, x * y, mask=m)
    tl.store(neg_ptr + idx, -x, mask=m)
    tl.store(shl_ptr + idx, x << s, mask=m)
    tl.store(shr_ptr + idx, x >> s, mask=m)
    tl.store(bits_ptr + idx, (x & y) ^ (x | ~y), mask=m)
    tl.store(lit_ptr + idx, x * 65599 + 2147483647, mask=m)
    # `big` is an int64 argument (3e9 does not fit int32): int32 + int64 computes in int64.
    tl.store(wide_ptr + idx, x + big, mask=m)


def int32_wrap(dev) -> ex.Case:
    gen = ex.rng(103)
    n = 4000
    x = gen.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    y = gen.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    edges = np.array([0, 1, -1, 2**31 - 1, -2**31, 2**30, -2**30, 65536, 46341], dtype=np.int32)
    x[:81] = np.repeat(edges, 9)
    y[:81] = np.tile(edges, 9)
    s = gen.integers(0, 32, size=n, dtype=np.int32)
    s[:32] = np.arange(32)
    inputs = {"x": _t(x, dev), "y": _t(y, dev), "s": _t(s, dev)}
    outs = {k: _zeros((n, ), torch.int32, dev) for k in ("add", "sub", "mul", "neg", "shl", "shr", "bits", "lit")}
    outs["wide"] = _zeros((n, ), torch.int64, dev)
    big = 3_000_000_000
    rules = {k: ("exact", EXACT_INT) for k in outs}
    rules["shr"] = ("exact", "arithmetic shift of int32 by 0..31 (never >= 32, which is undefined)")
    rules["wide"] = ("exact", "int32 tensor + int64 scalar argument: Triton promotes to int64 (no wrap)")

    def launch():
        i, o = inputs, outs
        return int32_kernel[_grid(n)](i["x"], i["y"], i["s"], o["add"], o["sub"], o["mul"], o["neg"], o["shl"],
                                      o["shr"], o["bits"], o["lit"], o["wide"], big, n, BLOCK=BLOCK)

    return ex.Case(name="int32_wrap", kernel="int32_kernel", seed=103, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} int32 full range and edges, shifts 0..31, big={big} (int64)")


@triton.jit
def divmod_kernel(x_ptr, y_ptr, q_ptr, r_ptr, q7_ptr, rm3_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0)
    y = tl.load(y_ptr + idx, mask=m, other=1)
    tl.store(q_ptr + idx, x // y, mask=m)
    tl.store(r_ptr + idx, x % y, mask=m)
    tl.store(q7_ptr + idx, x // -7, mask=m)
    tl.store(rm3_ptr + idx, x % -3, mask=m)


def int32_divmod(dev) -> ex.Case:
    gen = ex.rng(104)
    n = 4000
    x = np.where(gen.random(n) < 0.5, gen.integers(-1000, 1001, size=n),
                 gen.integers(-2**31, 2**31, size=n)).astype(np.int32)
    y = np.where(gen.random(n) < 0.7, gen.integers(-50, 51, size=n),
                 gen.integers(-2**31, 2**31, size=n)).astype(np.int32)
    y[y == 0] = 3
    signs = np.array([7, -7, 1, -1, 2**31 - 1, -2**31], dtype=np.int32)
    xs = np.array([7, -7, 6, -6, 0, 2**31 - 1, -2**31 + 1, 13, -13], dtype=np.int32)
    x[:54] = np.repeat(xs, 6)
    y[:54] = np.tile(signs, 9)
    x[54:60] = -2**31
    y[54:60] = [1, 2, -2, 7, 2**31 - 1, -2**31]
    assert not np.any((x == -2**31) & (y == -1))
    inputs = {"x": _t(x, dev), "y": _t(y, dev)}
    outs = {k: _zeros((n, ), torch.int32, dev) for k in ("q", "r", "q7", "rm3")}
    why = ("Triton's integer // and % are C's (truncate toward zero; the remainder takes the dividend's sign), "
           "not Python's; no division by zero or INT_MIN // -1 (undefined) in the inputs")
    rules = {k: ("exact", why) for k in outs}

    def launch():
        return divmod_kernel[_grid(n)](inputs["x"], inputs["y"], outs["q"], outs["r"], outs["q7"], outs["rm3"], n,
                                       BLOCK=BLOCK)

    return ex.Case(name="int32_divmod", kernel="divmod_kernel", seed=104, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} int32, negative operands, literals -7 and -3")


@triton.jit
def int8_kernel(x_ptr, y_ptr, u_ptr, add_ptr, mul_ptr, div_ptr, rem_ptr, shl_ptr, shr_ptr, lit_ptr, mix_ptr, n,
                BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0)
    y = tl.load(y_ptr + idx, mask=m, other=1)
    u = tl.load(u_ptr + idx, mask=m, other=0)
    tl.store(add_ptr + idx, x + y, mask=m)
    tl.store(mul_ptr + idx, x * y, mask=m)
    tl.store(div_ptr + idx, x // y, mask=m)
    tl.store(rem_ptr + idx, x % y, mask=m)
    tl.store(shl_ptr + idx, x << 3, mask=m)
    tl.store(shr_ptr + idx, x >> 2, mask=m)
    # A literal does not widen an int8 tensor (computed in int8, wraps); stored to int32 to show it.
    tl.store(lit_ptr + idx, x + 100, mask=m)
    # int8 + uint8: the unsigned type wins at equal width (uint8); stored to int32 to show it.
    tl.store(mix_ptr + idx, x + u, mask=m)


def int8_ops(dev) -> ex.Case:
    gen = ex.rng(105)
    n = 4000
    x = gen.integers(-128, 128, size=n).astype(np.int8)
    y = gen.integers(-128, 128, size=n).astype(np.int8)
    y[y == 0] = 5
    y[(x == -128) & (y == -1)] = 3
    x[:6] = [-128, 127, -1, 0, 100, -100]
    y[:6] = [1, 2, -128, 127, 100, -7]
    u = gen.integers(0, 256, size=n).astype(np.uint8)
    inputs = {"x": _t(x, dev), "y": _t(y, dev), "u": _t(u, dev)}
    outs = {k: _zeros((n, ), torch.int8, dev) for k in ("add", "mul", "div", "rem", "shl", "shr")}
    outs["lit"] = _zeros((n, ), torch.int32, dev)
    outs["mix"] = _zeros((n, ), torch.int32, dev)
    rules = {k: ("exact", "int8 arithmetic wraps modulo 256 (Triton keeps int8 op int8 in int8)") for k in outs}
    rules["div"] = rules["rem"] = ("exact", "C division and remainder of int8 (no zero divisor, no -128 // -1)")
    rules["lit"] = ("exact", "int8 tensor + Python literal: the literal takes the tensor's type (int8, wraps), "
                    "then the store sign-extends")
    rules["mix"] = ("exact", "int8 + uint8 computes in uint8 (unsigned wins at equal width), then the store "
                    "zero-extends")

    def launch():
        i, o = inputs, outs
        return int8_kernel[_grid(n)](i["x"], i["y"], i["u"], o["add"], o["mul"], o["div"], o["rem"], o["shl"],
                                     o["shr"], o["lit"], o["mix"], n, BLOCK=BLOCK)

    return ex.Case(name="int8_ops", kernel="int8_kernel", seed=105, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} int8 and uint8")


@triton.jit
def uint32_kernel(x_ptr, y_ptr, add_ptr, mul_ptr, div_ptr, rem_ptr, shr_ptr, gt_ptr, max_ptr, f_ptr, n,
                  BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0).to(tl.uint32, bitcast=True)
    y = tl.load(y_ptr + idx, mask=m, other=1).to(tl.uint32, bitcast=True)
    tl.store(add_ptr + idx, (x + y).to(tl.int32, bitcast=True), mask=m)
    tl.store(mul_ptr + idx, (x * y).to(tl.int32, bitcast=True), mask=m)
    tl.store(div_ptr + idx, (x // y).to(tl.int32, bitcast=True), mask=m)
    tl.store(rem_ptr + idx, (x % y).to(tl.int32, bitcast=True), mask=m)
    tl.store(shr_ptr + idx, (x >> 7).to(tl.int32, bitcast=True), mask=m)
    tl.store(gt_ptr + idx, (x > y).to(tl.int32), mask=m)
    tl.store(max_ptr + idx, tl.maximum(x, y).to(tl.int32, bitcast=True), mask=m)
    tl.store(f_ptr + idx, x.to(tl.float32), mask=m)


def uint32_bitcast(dev) -> ex.Case:
    gen = ex.rng(106)
    n = 4000
    x = gen.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
    y = np.where(gen.random(n) < 0.5, gen.integers(1, 1000, size=n, dtype=np.uint64),
                 gen.integers(1, 2**32, size=n, dtype=np.uint64)).astype(np.uint32)
    x[:6] = [0, 1, 2**31, 2**32 - 1, 2**24 + 1, 2**31 + 128]
    y[:6] = [1, 2**32 - 1, 2**31, 3, 2**31 + 1, 7]
    inputs = {"x": _t(x.view(np.int32), dev), "y": _t(y.view(np.int32), dev)}
    outs = {k: _zeros((n, ), torch.int32, dev) for k in ("add", "mul", "div", "rem", "shr", "gt", "max")}
    outs["f"] = _zeros((n, ), torch.float32, dev)
    why = "uint32 (int32 bits bitcast): wrap-around, unsigned division, logical shift, unsigned compare and max"
    rules = {k: ("exact", why) for k in outs}
    rules["f"] = ("exact", "uint32 -> fp32 (uitofp, values >= 2^31 included) rounds to nearest even on both")

    def launch():
        i, o = inputs, outs
        return uint32_kernel[_grid(n)](i["x"], i["y"], o["add"], o["mul"], o["div"], o["rem"], o["shr"], o["gt"],
                                       o["max"], o["f"], n, BLOCK=BLOCK)

    return ex.Case(name="uint32_bitcast", kernel="uint32_kernel", seed=106, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} uint32 as int32 bits")


# ---------------------------------------------------------------- casts


@triton.jit
def cast_f16_kernel(x_ptr, h_ptr, rn_ptr, rz_ptr, back_ptr, up_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0.0)
    h = tl.load(h_ptr + idx, mask=m, other=0.0)
    rn = x.to(tl.float16)
    tl.store(rn_ptr + idx, rn, mask=m)
    tl.store(rz_ptr + idx, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=m)
    tl.store(back_ptr + idx, rn.to(tl.float32), mask=m)
    tl.store(up_ptr + idx, h.to(tl.float32), mask=m)


def _half_ties(gen: np.random.Generator, count: int) -> np.ndarray:
    """fp32 values exactly halfway between two neighbouring fp16 values (normal and subnormal),
    and one fp32 ULP either side of the halfway point."""
    bits = gen.integers(0, 0x7BFF, size=count).astype(np.uint16)  # finite fp16, both binades kinds
    lo = bits.view(np.float16).astype(np.float64)
    hi = (bits + 1).view(np.float16).astype(np.float64)
    mid = ((lo + hi) / 2).astype(np.float32)
    sign = np.where(gen.random(count) < 0.5, -1, 1).astype(np.float32)
    mid = mid * sign
    return np.concatenate([mid, np.nextafter(mid, np.float32(np.inf)), np.nextafter(mid, np.float32(-np.inf))])


def cast_f32_f16(dev) -> ex.Case:
    gen = ex.rng(107)
    n = 4000
    mags = np.float32(10.0) ** gen.uniform(-9, 5.2, size=n).astype(np.float32)
    x = (mags * np.where(gen.random(n) < 0.5, -1, 1)).astype(np.float32)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65519.0, np.nextafter(np.float32(65520), np.float32(0)),
                         65520.0, 65536.0, 1e6, -1e6, 2.0**-14, 2.0**-24, 2.0**-25,
                         np.nextafter(np.float32(2.0**-25), np.float32(1)), 2.0**-26, 3 * 2.0**-25, 1e-40, -1e-40,
                         1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, -(1.0 + 2.0**-11)], dtype=np.float32)
    ties = _half_ties(gen, 300)
    x[:specials.size] = specials
    x[specials.size:specials.size + ties.size] = ties
    sub = gen.uniform(2.0**-25, 2.0**-14, size=400).astype(np.float32)  # fp16 subnormal range
    x[1000:1400] = sub * np.where(gen.random(400) < 0.5, -1, 1)
    h = gen.integers(0, 0x10000, size=n).astype(np.uint16)
    h[:4] = [0x0001, 0x03FF, 0x8001, 0x7C00]  # subnormals, inf
    h = h.view(np.float16)
    inputs = {"x": _t(x, dev), "h": _t(h, dev)}
    outs = {"rn": _zeros((n, ), torch.float16, dev), "rz": _zeros((n, ), torch.float16, dev),
            "back": _zeros((n, ), torch.float32, dev), "up": _zeros((n, ), torch.float32, dev)}
    rules = {"rn": ("exact", "fp32 -> fp16 round-to-nearest-even: ties, fp16 subnormals, overflow to inf; " + EXACT_CAST),
             "rz": ("exact", "fp32 -> fp16 with fp_downcast_rounding='rtz': finite overflow saturates to 65504; "
                    + EXACT_CAST),
             "back": ("exact", "fp16 -> fp32 is exact"),
             "up": ("exact", "fp16 -> fp32 of every kind of fp16 (random bits: subnormals, inf, NaN): exact")}

    def launch():
        return cast_f16_kernel[_grid(n)](inputs["x"], inputs["h"], outs["rn"], outs["rz"], outs["back"], outs["up"],
                                         n, BLOCK=BLOCK)

    return ex.Case(name="cast_f32_f16", kernel="cast_f16_kernel", seed=107, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} fp32 (ties, subnormals, overflow) and fp16 bits")


@triton.jit
def cast_bf16_kernel(x_ptr, rn_ptr, rz_ptr, back_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0.0)
    b = x.to(tl.bfloat16)
    tl.store(rn_ptr + idx, b.to(tl.int16, bitcast=True), mask=m)
    tl.store(rz_ptr + idx, x.to(tl.bfloat16, fp_downcast_rounding="rtz").to(tl.int16, bitcast=True), mask=m)
    tl.store(back_ptr + idx, b.to(tl.float32), mask=m)


def cast_f32_bf16(dev) -> ex.Case:
    gen = ex.rng(108)
    n = 4000
    # Random fp32 bit patterns (no NaN: a NaN's bf16 payload is not specified), with the low 16 bits
    # set to the tie (0x8000) and its neighbours for a third of them.
    bits = gen.integers(0, 0x7F800000, size=n, dtype=np.int64).astype(np.uint32)
    low = np.array([0x8000, 0x7FFF, 0x8001], dtype=np.uint32)[gen.integers(0, 3, size=n)]
    tie = gen.random(n) < 0.35
    bits[tie] = (bits[tie] & 0xFFFF0000) | low[tie]
    bits |= np.where(gen.random(n) < 0.5, 0x80000000, 0).astype(np.uint32)
    bits[:12] = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF,
                 0x00000001, 0x00008000, 0x00018000, 0x007FFFFF, 0x3F808000]
    x = bits.view(np.float32)
    inputs = {"x": _t(x, dev)}
    outs = {"rn": _zeros((n, ), torch.int16, dev), "rz": _zeros((n, ), torch.int16, dev),
            "back": _zeros((n, ), torch.float32, dev)}
    rules = {"rn": ("exact", "fp32 -> bf16 round-to-nearest-even (ties, fp32 subnormals, FLT_MAX -> inf), as bits; "
                    + EXACT_CAST),
             "rz": ("exact", "fp32 -> bf16 with fp_downcast_rounding='rtz' (truncation), as bits"),
             "back": ("exact", "bf16 -> fp32 is exact")}

    def launch():
        return cast_bf16_kernel[_grid(n)](inputs["x"], outs["rn"], outs["rz"], outs["back"], n, BLOCK=BLOCK)

    return ex.Case(name="cast_f32_bf16", kernel="cast_bf16_kernel", seed=108, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} fp32 bit patterns (ties, subnormals, max), bf16 as int16")


@triton.jit
def cast_int_kernel(f_ptr, g_ptr, gu_ptr, i_ptr, l_ptr, s_ptr, fi_ptr, fl_ptr, g8_ptr, gu8_ptr, if_ptr, lf_ptr,
                    sh_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    f = tl.load(f_ptr + idx, mask=m, other=0.0)
    g = tl.load(g_ptr + idx, mask=m, other=0.0)
    gu = tl.load(gu_ptr + idx, mask=m, other=0.0)
    tl.store(fi_ptr + idx, f.to(tl.int32), mask=m)
    tl.store(fl_ptr + idx, f.to(tl.int64), mask=m)
    tl.store(g8_ptr + idx, g.to(tl.int8), mask=m)
    tl.store(gu8_ptr + idx, gu.to(tl.uint8), mask=m)
    i = tl.load(i_ptr + idx, mask=m, other=0)
    lv = tl.load(l_ptr + idx, mask=m, other=0)
    s = tl.load(s_ptr + idx, mask=m, other=0)
    tl.store(if_ptr + idx, i.to(tl.float32), mask=m)
    tl.store(lf_ptr + idx, lv.to(tl.float32), mask=m)
    tl.store(sh_ptr + idx, s.to(tl.float16), mask=m)


def cast_float_int(dev) -> ex.Case:
    gen = ex.rng(109)
    n = 4000
    f = np.where(gen.random(n) < 0.5, gen.uniform(-2.1e9, 2.1e9, size=n), gen.uniform(-20, 20, size=n)).astype(np.float32)
    f[:16] = [0.5, -0.5, 0.999, -0.999, 1.5, -1.5, 2.5, -2.5, -0.0, 1e-30, -2.0**31, 2.0**31 - 128, 16777217.0,
              -7.9999995, 123456.789, -1.0]
    g = gen.uniform(-128.99, 127.99, size=n).astype(np.float32)
    g[:4] = [-128.9, 127.9, -0.7, 0.7]
    gu = gen.uniform(0, 255.99, size=n).astype(np.float32)
    i = gen.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    i[:8] = [2**31 - 1, -2**31, 2**24 + 1, 2**24 + 3, -(2**24 + 1), 2**25 + 2, 2**25 + 6, 0]
    lv = gen.integers(-2**63, 2**63 - 1, size=n, dtype=np.int64)
    lv[:6] = [2**63 - 1, -2**63, 2**53 + 1, 2**24 + 1, 2**40 + 2**16, -1]
    s = gen.integers(-65504, 65505, size=n).astype(np.int32)
    s[:8] = [65504, -65504, 2049, 2051, 4097, 65503, 0, -1]
    inputs = {k: _t(v, dev) for k, v in {"f": f, "g": g, "gu": gu, "i": i, "l": lv, "s": s}.items()}
    outs = {"fi": _zeros((n, ), torch.int32, dev), "fl": _zeros((n, ), torch.int64, dev),
            "g8": _zeros((n, ), torch.int8, dev), "gu8": _zeros((n, ), torch.uint8, dev),
            "if_": _zeros((n, ), torch.float32, dev), "lf": _zeros((n, ), torch.float32, dev),
            "sh": _zeros((n, ), torch.float16, dev)}
    trunc = ("float -> int truncates toward zero on both; only values in the target's range (out of range "
             "is poison in LLVM's fptosi/fptoui, and PTX saturates where x86 returns INT_MIN)")
    rules = {"fi": ("exact", trunc), "fl": ("exact", trunc), "g8": ("exact", trunc), "gu8": ("exact", trunc),
             "if_": ("exact", "int32 -> fp32 rounds to nearest even (|i| > 2^24 included)"),
             "lf": ("exact", "int64 -> fp32 rounds to nearest even"),
             "sh": ("exact", "int32 -> fp16 rounds to nearest even, |i| <= 65504")}

    def launch():
        i_, o = inputs, outs
        return cast_int_kernel[_grid(n)](i_["f"], i_["g"], i_["gu"], i_["i"], i_["l"], i_["s"], o["fi"], o["fl"],
                                         o["g8"], o["gu8"], o["if_"], o["lf"], o["sh"], n, BLOCK=BLOCK)

    return ex.Case(name="cast_float_int", kernel="cast_int_kernel", seed=109, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} fp32 <-> int8/uint8/int32/int64, int32 -> fp16")


@triton.jit
def bitcast_kernel(f_ptr, i_ptr, h_ptr, fbits_ptr, ifloat_ptr, hbits_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    f = tl.load(f_ptr + idx, mask=m, other=0.0)
    i = tl.load(i_ptr + idx, mask=m, other=0)
    h = tl.load(h_ptr + idx, mask=m, other=0.0)
    tl.store(fbits_ptr + idx, f.to(tl.int32, bitcast=True), mask=m)
    tl.store(ifloat_ptr + idx, i.to(tl.float32, bitcast=True), mask=m)
    tl.store(hbits_ptr + idx, h.to(tl.int16, bitcast=True), mask=m)


def bitcast(dev) -> ex.Case:
    gen = ex.rng(110)
    n = 4000
    f = gen.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32)
    f[:8] = [0x7FC00000, 0x7F800001, 0xFFC00123, 0x80000000, 0x00000001, 0x7F800000, 0x807FFFFF, 0x3F800000]
    i = gen.integers(-2**31, 2**31, size=n, dtype=np.int64).astype(np.int32)
    h = gen.integers(0, 0x10000, size=n).astype(np.uint16)
    h[:4] = [0x7E00, 0xFC00, 0x8000, 0x0001]
    inputs = {"f": _t(f.view(np.float32), dev), "i": _t(i, dev), "h": _t(h.view(np.float16), dev)}
    outs = {"fbits": _zeros((n, ), torch.int32, dev), "ifloat": _zeros((n, ), torch.float32, dev),
            "hbits": _zeros((n, ), torch.int16, dev)}
    rules = {"fbits": ("exact", EXACT_MOVE + ": fp32 -> int32 bits of every pattern, NaN payloads included"),
             "ifloat": ("exact", EXACT_MOVE + ": int32 -> fp32 (random bits; NaNs compare as equal)"),
             "hbits": ("exact", EXACT_MOVE + ": fp16 -> int16")}

    def launch():
        return bitcast_kernel[_grid(n)](inputs["f"], inputs["i"], inputs["h"], outs["fbits"], outs["ifloat"],
                                        outs["hbits"], n, BLOCK=BLOCK)

    return ex.Case(name="bitcast", kernel="bitcast_kernel", seed=110, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} random fp32/int32/fp16 bit patterns")


# ---------------------------------------------------------------- elementwise fp32


@triton.jit
def f32_arith_kernel(x_ptr, y_ptr, z_ptr, add_ptr, sub_ptr, mul_ptr, div_rn_ptr, fma_ptr, neg_ptr, abs_ptr, n,
                     BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=1.0)
    y = tl.load(y_ptr + idx, mask=m, other=1.0)
    z = tl.load(z_ptr + idx, mask=m, other=1.0)
    tl.store(add_ptr + idx, x + y, mask=m)
    tl.store(sub_ptr + idx, x - y, mask=m)
    tl.store(mul_ptr + idx, x * y, mask=m)
    tl.store(div_rn_ptr + idx, tl.div_rn(x, y), mask=m)
    tl.store(fma_ptr + idx, tl.fma(x, y, z), mask=m)
    tl.store(neg_ptr + idx, -x, mask=m)
    tl.store(abs_ptr + idx, tl.abs(x), mask=m)


def _scaled(gen: np.random.Generator, n: int, lo: float, hi: float) -> np.ndarray:
    mags = np.float32(10.0) ** gen.uniform(lo, hi, size=n).astype(np.float32)
    return (mags * np.where(gen.random(n) < 0.5, -1, 1)).astype(np.float32)


def f32_arith(dev) -> ex.Case:
    gen = ex.rng(111)
    n = 4000
    x, y, z = (_scaled(gen, n, -6, 6) for _ in range(3))
    sp = _f32_specials()
    x[:sp.size**2] = np.repeat(sp, sp.size)
    y[:sp.size**2] = np.tile(sp, sp.size)
    z[:sp.size**2] = np.roll(np.tile(sp, sp.size), 7)
    # Products and quotients that land in the subnormal range, and sums that cancel.
    x[300:400] = gen.uniform(1, 2, size=100).astype(np.float32) * np.float32(1e-20)
    y[300:400] = gen.uniform(1, 2, size=100).astype(np.float32) * np.float32(1e-19)
    y[400:500] = -np.nextafter(x[400:500], np.float32(np.inf))
    inputs = {"x": _t(x, dev), "y": _t(y, dev), "z": _t(z, dev)}
    outs = {k: _zeros((n, ), torch.float32, dev) for k in ("add", "sub", "mul", "div_rn", "fma", "neg", "abs")}
    rules = {k: ("exact", EXACT_IEEE + "; inf, NaN, signed zeros and subnormals included") for k in outs}
    rules["div_rn"] = ("exact", "tl.div_rn is div.rn.f32 (IEEE, subnormals kept) on NVIDIA, IEEE division on the CPU")
    rules["fma"] = ("exact", "tl.fma is one correctly rounded fused multiply-add on both")
    rules["neg"] = ("exact", "Triton's unary minus is 0.0 - x (semantic.minus; PTX sub.f32 0f00000000, x): "
                    "-(+0.0) is +0.0, not a sign flip")
    rules["abs"] = ("exact", "clears the sign bit (and.b32 0x7fffffff), NaN included")

    def launch():
        i, o = inputs, outs
        return f32_arith_kernel[_grid(n)](i["x"], i["y"], i["z"], o["add"], o["sub"], o["mul"], o["div_rn"], o["fma"],
                                          o["neg"], o["abs"], n, BLOCK=BLOCK)

    return ex.Case(name="f32_arith", kernel="f32_arith_kernel", seed=111, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} fp32 1e-6..1e6 both signs, {sp.size}x{sp.size} special pairs")


@triton.jit
def minmax_kernel(x_ptr, y_ptr, max_ptr, min_ptr, maxall_ptr, minall_ptr, sel_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=1.0)
    y = tl.load(y_ptr + idx, mask=m, other=1.0)
    tl.store(max_ptr + idx, tl.maximum(x, y), mask=m)
    tl.store(min_ptr + idx, tl.minimum(x, y), mask=m)
    tl.store(maxall_ptr + idx, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=m)
    tl.store(minall_ptr + idx, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=m)
    tl.store(sel_ptr + idx, tl.where(x > y, x, y), mask=m)


def f32_minmax_nan(dev) -> ex.Case:
    gen = ex.rng(112)
    n = 4000
    x = ex.normal(gen, (n, ), "float32", "cpu").numpy()
    y = ex.normal(gen, (n, ), "float32", "cpu").numpy()
    x[gen.random(n) < 0.1] = np.nan
    y[gen.random(n) < 0.1] = np.nan
    x[gen.random(n) < 0.03] = np.inf
    y[gen.random(n) < 0.03] = -np.inf
    same = gen.random(n) < 0.05
    y[same] = x[same]
    inputs = {"x": _t(x, dev), "y": _t(y, dev)}
    outs = {k: _zeros((n, ), torch.float32, dev) for k in ("max", "min", "maxall", "minall", "sel")}
    rules = {k: ("exact", EXACT_MINMAX) for k in outs}
    rules["max"] = rules["min"] = ("exact", "propagate_nan NONE (maxnum/minnum): a NaN operand yields the other "
                                   "operand; " + EXACT_MINMAX)
    rules["maxall"] = rules["minall"] = ("exact", "propagate_nan ALL (IEEE maximum/minimum): any NaN operand "
                                         "yields NaN; " + EXACT_MINMAX)
    rules["sel"] = ("exact", "where(x > y, x, y): an ordered compare (false for NaN) and a select")

    def launch():
        o = outs
        return minmax_kernel[_grid(n)](inputs["x"], inputs["y"], o["max"], o["min"], o["maxall"], o["minall"],
                                       o["sel"], n, BLOCK=BLOCK)

    return ex.Case(name="f32_minmax_nan", kernel="minmax_kernel", seed=112, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} fp32 normal, 10% NaN in each, infinities, equal pairs")


@triton.jit
def div_sqrt_kernel(x_ptr, y_ptr, p_ptr, div_ptr, div_rn_ptr, sqrt_ptr, sqrt_rn_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=1.0)
    y = tl.load(y_ptr + idx, mask=m, other=1.0)
    p = tl.load(p_ptr + idx, mask=m, other=1.0)
    tl.store(div_ptr + idx, x / y, mask=m)
    tl.store(div_rn_ptr + idx, tl.div_rn(x, y), mask=m)
    tl.store(sqrt_ptr + idx, tl.sqrt(p), mask=m)
    tl.store(sqrt_rn_ptr + idx, tl.sqrt_rn(p), mask=m)


def f32_div_sqrt(dev) -> ex.Case:
    gen = ex.rng(113)
    n = 4000
    x = _scaled(gen, n, -3, 3)
    y = _scaled(gen, n, -3, 3)
    p = (np.float32(10.0) ** gen.uniform(-4, 4, size=n)).astype(np.float32)
    p[:6] = [1.0, 2.0, 4.0, 0.25, 1e-30, 3e30]
    inputs = {"x": _t(x, dev), "y": _t(y, dev), "p": _t(p, dev)}
    outs = {k: _zeros((n, ), torch.float32, dev) for k in ("div", "div_rn", "sqrt", "sqrt_rn")}
    rules = {"div": ("ulp:3", DIV_FULL),
             "div_rn": ("exact", "tl.div_rn is div.rn.f32 (IEEE) on NVIDIA, IEEE division on the CPU"),
             "sqrt": ("ulp:4", SQRT_APPROX),
             "sqrt_rn": ("exact", "tl.sqrt_rn is sqrt.rn.f32 (IEEE, correctly rounded) on NVIDIA and on the CPU")}

    def launch():
        i, o = inputs, outs
        return div_sqrt_kernel[_grid(n)](i["x"], i["y"], i["p"], o["div"], o["div_rn"], o["sqrt"], o["sqrt_rn"], n,
                                         BLOCK=BLOCK)

    return ex.Case(name="f32_div_sqrt", kernel="div_sqrt_kernel", seed=113, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} fp32 quotients of 1e-3..1e3, roots of 1e-4..1e4")


@triton.jit
def f16_bf16_kernel(x_ptr, y_ptr, xb_ptr, yb_ptr, add_ptr, sub_ptr, mul_ptr, lit_ptr, badd_ptr, bmul_ptr, n,
                    BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=1.0)
    y = tl.load(y_ptr + idx, mask=m, other=1.0)
    xb = tl.load(xb_ptr + idx, mask=m, other=0).to(tl.bfloat16, bitcast=True)
    yb = tl.load(yb_ptr + idx, mask=m, other=0).to(tl.bfloat16, bitcast=True)
    tl.store(add_ptr + idx, x + y, mask=m)
    tl.store(sub_ptr + idx, x - y, mask=m)
    tl.store(mul_ptr + idx, x * y, mask=m)
    tl.store(lit_ptr + idx, x * 2.5, mask=m)
    tl.store(badd_ptr + idx, (xb + yb).to(tl.int16, bitcast=True), mask=m)
    tl.store(bmul_ptr + idx, (xb * yb).to(tl.int16, bitcast=True), mask=m)


def _opposite_near(gen: np.random.Generator, bits: np.ndarray, largest: int) -> np.ndarray:
    """16-bit float patterns within 8 ULP of `bits`' magnitudes, of the opposite sign (sums cancel)."""
    magnitude = ((bits & 0x7FFF).astype(np.int32) + gen.integers(-8, 9, size=bits.size)).clip(0, largest)
    return magnitude.astype(np.uint16) | (~bits & np.uint16(0x8000))


def f16_bf16_arith(dev) -> ex.Case:
    gen = ex.rng(122)
    n = 4000
    # Finite fp16 of every exponent (subnormals included) and both signs; sums and products overflow
    # to inf at the top. No inf or NaN operands, so no NaN results (a bf16 NaN's bits are unspecified).
    x = gen.integers(0, 0x7C00, size=n).astype(np.uint16) | np.where(gen.random(n) < 0.5, 0x8000, 0).astype(np.uint16)
    y = gen.integers(0, 0x7C00, size=n).astype(np.uint16) | np.where(gen.random(n) < 0.5, 0x8000, 0).astype(np.uint16)
    near = gen.random(n) < 0.3  # operands of similar magnitude: cancellation and carries
    y[near] = _opposite_near(gen, x[near], 0x7BFF)
    xb = gen.integers(0, 0x7F80, size=n).astype(np.uint16) | np.where(gen.random(n) < 0.5, 0x8000, 0).astype(np.uint16)
    yb = gen.integers(0, 0x7F80, size=n).astype(np.uint16) | np.where(gen.random(n) < 0.5, 0x8000, 0).astype(np.uint16)
    yb[near] = _opposite_near(gen, xb[near], 0x7F7F)
    inputs = {"x": _t(x.view(np.float16), dev), "y": _t(y.view(np.float16), dev),
              "xb": _t(xb.view(np.int16), dev), "yb": _t(yb.view(np.int16), dev)}
    outs = {k: _zeros((n, ), torch.float16, dev) for k in ("add", "sub", "mul", "lit")}
    outs["badd"] = _zeros((n, ), torch.int16, dev)
    outs["bmul"] = _zeros((n, ), torch.int16, dev)
    why = ("fp16 op fp16 stays fp16 in Triton; native fp16 arithmetic and fp32 arithmetic rounded once to fp16 "
           "agree (24 >= 2*11+2: no double-rounding error), subnormals and overflow included")
    rules = {k: ("exact", why) for k in ("add", "sub", "mul")}
    rules["lit"] = ("exact", "fp16 tensor * Python float literal: computed in fp16 (the literal does not widen it)")
    bwhy = ("bf16 op bf16 stays bf16; native bf16 arithmetic and fp32 arithmetic rounded once agree "
            "(24 >= 2*8+2), as bits")
    rules["badd"] = rules["bmul"] = ("exact", bwhy)

    def launch():
        i, o = inputs, outs
        return f16_bf16_kernel[_grid(n)](i["x"], i["y"], i["xb"], i["yb"], o["add"], o["sub"], o["mul"], o["lit"],
                                         o["badd"], o["bmul"], n, BLOCK=BLOCK)

    return ex.Case(name="f16_bf16_arith", kernel="f16_bf16_kernel", seed=122, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} finite fp16 and bf16 bit patterns (bf16 as int16)")



# ---------------------------------------------------------------- fp8

FP8_UP = "fp8 -> wider float is exact (every fp8e5 and fp8e4nv value is a fp16, bf16 and fp32 value)"
FP8_DOWN = ("-> fp8 rounds to nearest even once (cvt.rn.satfinite on sm_90): out of range goes to the largest "
            "finite value of the sign, inf too (satfinite); NaN to the format's NaN; subnormals kept")


def _fp8_values(bits: np.ndarray, e4: bool) -> np.ndarray:
    """fp8e5 / fp8e4nv bit patterns as fp64 (NaN for NaN patterns), decoded from the formats."""
    bits = bits.astype(np.int64)
    sign = np.where(bits & 0x80, -1.0, 1.0)
    exp_bits, man_bits, bias = (4, 3, 7) if e4 else (5, 2, 15)
    exp = (bits >> man_bits) & ((1 << exp_bits) - 1)
    man = bits & ((1 << man_bits) - 1)
    value = np.where(exp == 0, man / 2.0**man_bits * 2.0**(1 - bias),
                     (1 + man / 2.0**man_bits) * 2.0**(exp - bias))
    if e4:
        value = np.where((exp == 15) & (man == 7), np.nan, value)
    else:
        value = np.where(exp == 31, np.where(man == 0, np.inf, np.nan), value)
    return sign * value


def _fp8_rounding_inputs(gen: np.random.Generator, n: int) -> np.ndarray:
    """fp32 values that decide a rounding to fp8e5 and fp8e4nv: every midpoint between neighbouring
    finite values of both formats and one fp32 ULP either side of it, the overflow thresholds,
    subnormals, specials, and random magnitudes from 2^-20 to 2^20."""
    picks = []
    for e4 in (False, True):
        finite = np.unique(_fp8_values(np.arange(128), e4))
        finite = finite[np.isfinite(finite)]
        mids = ((finite[:-1] + finite[1:]) / 2).astype(np.float32)
        picks += [mids, np.nextafter(mids, np.float32(np.inf)), np.nextafter(mids, np.float32(0))]
    top = np.array([57344, 61439, 61440, 61441, 65504, 1e6, 448, 463, 464, 465, 480, 2.0**-17, 2.0**-16,
                    3 * 2.0**-18, 2.0**-10, 2.0**-9, 3 * 2.0**-11, 1e-30], dtype=np.float32)
    picks.append(top)
    picks.append(np.array([0.0, -0.0, np.inf, -np.inf, np.nan], dtype=np.float32))
    fixed = np.concatenate(picks)
    fixed = np.concatenate([fixed, -fixed])
    magnitudes = 2.0**gen.uniform(-20, 20, size=max(0, n - fixed.size))
    random = (magnitudes * np.where(gen.random(magnitudes.size) < 0.5, -1, 1)).astype(np.float32)
    return np.concatenate([fixed, random])[:n]


@triton.jit
def cast_fp8_kernel(b_ptr, x_ptr, h_ptr, g_ptr, e5f_ptr, e4f_ptr, e5h_ptr, e4h_ptr, e5g_ptr, e4g_ptr, e5p_ptr,
                    xe5_ptr, xe4_ptr, xe5p_ptr, he5_ptr, he4_ptr, ge5_ptr, ge4_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    b = tl.load(b_ptr + idx, mask=m, other=0)
    e5 = b.to(tl.float8e5, bitcast=True)
    e4 = b.to(tl.float8e4nv, bitcast=True)
    tl.store(e5f_ptr + idx, e5.to(tl.float32), mask=m)
    tl.store(e4f_ptr + idx, e4.to(tl.float32), mask=m)
    tl.store(e5h_ptr + idx, e5.to(tl.float16), mask=m)
    tl.store(e4h_ptr + idx, e4.to(tl.float16), mask=m)
    tl.store(e5g_ptr + idx, e5.to(tl.bfloat16).to(tl.float32), mask=m)
    tl.store(e4g_ptr + idx, e4.to(tl.bfloat16).to(tl.float32), mask=m)
    # fp8 through typed pointers: a load, and (below) a store.
    e5_loaded = tl.load(b_ptr.to(tl.pointer_type(tl.float8e5)) + idx, mask=m, other=0.0)
    tl.store(e5p_ptr + idx, e5_loaded.to(tl.float32), mask=m)
    x = tl.load(x_ptr + idx, mask=m, other=0.0)
    tl.store(xe5_ptr + idx, x.to(tl.float8e5).to(tl.uint8, bitcast=True), mask=m)
    tl.store(xe4_ptr + idx, x.to(tl.float8e4nv).to(tl.uint8, bitcast=True), mask=m)
    tl.store(xe5p_ptr.to(tl.pointer_type(tl.float8e5)) + idx, x.to(tl.float8e5), mask=m)
    h = tl.load(h_ptr + idx, mask=m, other=0.0)
    tl.store(he5_ptr + idx, h.to(tl.float8e5).to(tl.uint8, bitcast=True), mask=m)
    tl.store(he4_ptr + idx, h.to(tl.float8e4nv).to(tl.uint8, bitcast=True), mask=m)
    g = tl.load(g_ptr + idx, mask=m, other=0).to(tl.bfloat16, bitcast=True)
    tl.store(ge5_ptr + idx, g.to(tl.float8e5).to(tl.uint8, bitcast=True), mask=m)
    tl.store(ge4_ptr + idx, g.to(tl.float8e4nv).to(tl.uint8, bitcast=True), mask=m)


def cast_fp8(dev) -> ex.Case:
    gen = ex.rng(131)
    n = 2048
    bits = np.tile(np.arange(256, dtype=np.uint8), n // 256)
    x = _fp8_rounding_inputs(gen, n)
    # fp16 and bf16: the fp32 inputs where they are exact in the narrower type, random patterns elsewhere.
    h_bits = gen.integers(0, 0x10000, size=n).astype(np.uint16)
    with np.errstate(over="ignore"):  # those past fp16's range become inf, and are not exact
        exact16 = x.astype(np.float16).astype(np.float32) == x
    h_bits[exact16] = x[exact16].astype(np.float16).view(np.uint16)
    g_bits = gen.integers(0, 0x10000, size=n).astype(np.uint16)
    exact_bf16 = (x.view(np.uint32) & 0xFFFF) == 0
    g_bits[exact_bf16] = (x[exact_bf16].view(np.uint32) >> 16).astype(np.uint16)
    inputs = {"bits": _t(bits, dev), "x": _t(x, dev), "h": _t(h_bits.view(np.float16), dev),
              "g": _t(g_bits.view(np.int16), dev)}
    outs = {"e5f": _zeros((n, ), torch.float32, dev), "e4f": _zeros((n, ), torch.float32, dev),
            "e5h": _zeros((n, ), torch.float16, dev), "e4h": _zeros((n, ), torch.float16, dev),
            "e5g": _zeros((n, ), torch.float32, dev), "e4g": _zeros((n, ), torch.float32, dev),
            "e5p": _zeros((n, ), torch.float32, dev)}
    outs.update({k: _zeros((n, ), torch.uint8, dev) for k in ("xe5", "xe4", "xe5p", "he5", "he4", "ge5", "ge4")})
    rules = {"e5f": ("exact", f"fp8e5 -> fp32, all 256 patterns: {FP8_UP}"),
             "e4f": ("exact", f"fp8e4nv -> fp32, all 256 patterns: {FP8_UP}"),
             "e5h": ("exact", "fp8e5 -> fp16"), "e4h": ("exact", "fp8e4nv -> fp16"),
             "e5g": ("exact", "fp8e5 -> bf16 (stored through fp32): exact for finite values; sm_90 moves the "
                     "fields without checking for inf/NaN, so exponent 31 reads as 2^16 (inf -> 65536, NaN -> "
                     "81920/98304/114688, signed), which tcpu reproduces"),
             "e4g": ("exact", "fp8e4nv -> bf16 (stored through fp32, exact)"),
             "e5p": ("exact", "fp8e5 loaded through a pointer_type(float8e5) cast of a uint8 pointer: " + EXACT_MOVE),
             "xe5": ("exact", f"fp32 -> fp8e5 as bits (midpoints, their neighbours, overflow): {FP8_DOWN}"),
             "xe4": ("exact", f"fp32 -> fp8e4nv as bits: {FP8_DOWN}"),
             "xe5p": ("exact", "fp32 -> fp8e5 stored through a pointer_type(float8e5) cast"),
             "he5": ("exact", f"fp16 -> fp8e5 as bits: {FP8_DOWN}"), "he4": ("exact", f"fp16 -> fp8e4nv: {FP8_DOWN}"),
             "ge5": ("exact", f"bf16 -> fp8e5 as bits: {FP8_DOWN}"), "ge4": ("exact", f"bf16 -> fp8e4nv: {FP8_DOWN}")}

    def launch():
        i, o = inputs, outs
        return cast_fp8_kernel[_grid(n)](i["bits"], i["x"], i["h"], i["g"], o["e5f"], o["e4f"], o["e5h"], o["e4h"],
                                         o["e5g"], o["e4g"], o["e5p"], o["xe5"], o["xe4"], o["xe5p"], o["he5"],
                                         o["he4"], o["ge5"], o["ge4"], n, BLOCK=BLOCK)

    return ex.Case(name="cast_fp8", kernel="cast_fp8_kernel", seed=131, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n}: every fp8 pattern; fp32/fp16/bf16 midpoints, overflow, specials")


@triton.jit
def cast_fp8_rtz_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    x = tl.load(x_ptr + idx, mask=m, other=0.0)
    tl.store(out_ptr + idx, x.to(tl.float8e5, fp_downcast_rounding="rtz").to(tl.uint8, bitcast=True), mask=m)


def cast_fp8_rtz(dev) -> ex.Case:
    gen = ex.rng(133)
    n = 2048
    x = _fp8_rounding_inputs(gen, n)
    inputs = {"x": _t(x, dev)}
    outs = {"rz": _zeros((n, ), torch.uint8, dev)}
    rules = {"rz": ("exact", "fp32 -> fp8e5 with fp_downcast_rounding='rtz' (the one fp8 rounding Triton 3.6 "
                    "compiles besides rtne on sm_90) as bits: what it does at overflow, inf, NaN and subnormals is "
                    "recorded here, not assumed")}

    def launch():
        return cast_fp8_rtz_kernel[_grid(n)](inputs["x"], outs["rz"], n, BLOCK=BLOCK)

    return ex.Case(name="cast_fp8_rtz", kernel="cast_fp8_rtz_kernel", seed=133, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} fp32: fp8 midpoints, overflow, specials, subnormals")


@triton.jit
def dot_fp8_kernel(a_ptr, b_ptr, c_ptr, e5_ptr, e4_ptr, mixed_ptr, acc_ptr, M: tl.constexpr, N: tl.constexpr,
                   K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    out = rm[:, None] * N + rn[None, :]
    tl.store(e5_ptr + out, tl.dot(a.to(tl.float8e5, bitcast=True), b.to(tl.float8e5, bitcast=True)))
    tl.store(e4_ptr + out, tl.dot(a.to(tl.float8e4nv, bitcast=True), b.to(tl.float8e4nv, bitcast=True)))
    tl.store(mixed_ptr + out, tl.dot(a.to(tl.float8e5, bitcast=True), b.to(tl.float8e4nv, bitcast=True)))
    tl.store(acc_ptr + out, tl.dot(a.to(tl.float8e4nv, bitcast=True), b.to(tl.float8e4nv, bitcast=True), acc=c))


def dot_fp8(dev) -> ex.Case:
    gen = ex.rng(132)
    M, N, K = 32, 32, 64

    def moderate(shape):
        # Patterns finite and of moderate magnitude in both formats: exponent fields 4..11 of e5m2
        # (2^-11..2^-4) read as e4m3 are 2^-3..2^4; random mantissas and signs.
        exp = gen.integers(4, 12, size=shape)
        return ((exp << 3) | gen.integers(0, 8, size=shape) | (gen.integers(0, 2, size=shape) << 7)).astype(np.uint8)

    a, b = _t(moderate((M, K)), dev), _t(moderate((K, N)), dev)
    c = ex.normal(gen, (M, N), "float32", dev)
    outs = {k: _zeros((M, N), torch.float32, dev) for k in ("e5", "e4", "mixed", "acc")}
    why = ("fp8 operands widen exactly to fp16 on both (sm_90's PTX: cvt to f16x2, then mma.sync f16 with fp32 "
           "accumulation; the CPU: tl's fp16 dot, a k-ordered fp32 FMA chain); the MMA adds in its own order: "
           "measured relative norms 0 (e4 x e4, bit-identical) to 1.3e-7")
    rules = {k: ("relnorm:1e-6", why) for k in outs}

    def launch():
        return dot_fp8_kernel[(1, )](a, b, c, outs["e5"], outs["e4"], outs["mixed"], outs["acc"], M=M, N=N, K=K)

    return ex.Case(name="dot_fp8", kernel="dot_fp8_kernel", seed=132, inputs={"a": a, "b": b, "c": c},
                   outputs=outs, rules=rules, launch=launch,
                   shapes=f"M={M} N={N} K={K} fp8e5/fp8e4nv operands (as uint8 bits), fp32 results")

# ---------------------------------------------------------------- fp32 math


@triton.jit
def math_kernel(xe_ptr, x2_ptr, xl_ptr, xs_ptr, xf_ptr, xa_ptr, xt_ptr, exp_ptr, exp2_ptr, log_ptr, sin_ptr, erf_ptr,
                asin_ptr, tanh_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    tl.store(exp_ptr + idx, tl.exp(tl.load(xe_ptr + idx, mask=m, other=0.0)), mask=m)
    tl.store(exp2_ptr + idx, tl.exp2(tl.load(x2_ptr + idx, mask=m, other=0.0)), mask=m)
    tl.store(log_ptr + idx, tl.log(tl.load(xl_ptr + idx, mask=m, other=1.0)), mask=m)
    tl.store(sin_ptr + idx, tl.sin(tl.load(xs_ptr + idx, mask=m, other=0.0)), mask=m)
    tl.store(erf_ptr + idx, tl.erf(tl.load(xf_ptr + idx, mask=m, other=0.0)), mask=m)
    tl.store(asin_ptr + idx, libdevice.asin(tl.load(xa_ptr + idx, mask=m, other=0.0)), mask=m)
    tl.store(tanh_ptr + idx, libdevice.tanh(tl.load(xt_ptr + idx, mask=m, other=0.0)), mask=m)


def f32_math(dev) -> ex.Case:
    gen = ex.rng(114)
    n = 4000
    xe = gen.uniform(-6, 6, size=n).astype(np.float32)
    x2 = gen.uniform(-20, 20, size=n).astype(np.float32)
    xl = np.where(gen.random(n) < 0.5, gen.uniform(1e-3, 0.5, size=n), gen.uniform(2, 1000, size=n)).astype(np.float32)
    xs = gen.uniform(-math.pi, math.pi, size=n).astype(np.float32)
    xf = gen.uniform(-3, 3, size=n).astype(np.float32)
    xa = gen.uniform(-1, 1, size=n).astype(np.float32)
    xt = gen.uniform(-5, 5, size=n).astype(np.float32)
    inputs = {k: _t(v, dev) for k, v in
              {"xe": xe, "x2": x2, "xl": xl, "xs": xs, "xf": xf, "xa": xa, "xt": xt}.items()}
    outs = {k: _zeros((n, ), torch.float32, dev) for k in ("exp", "exp2", "log", "sin", "erf", "asin", "tanh")}
    rules = {"exp": ("ulp:16", EXP), "exp2": ("ulp:8", EXP2), "log": ("ulp:4", LOG), "sin": ("ulp:4", SIN),
             "erf": ("ulp:4", LIBDEVICE_2ULP.format(name="erf") + " (tl.erf is libdevice's erff on NVIDIA)"),
             "asin": ("ulp:4", LIBDEVICE_2ULP.format(name="asin")),
             "tanh": ("ulp:4", LIBDEVICE_2ULP.format(name="tanh"))}

    def launch():
        i, o = inputs, outs
        return math_kernel[_grid(n)](i["xe"], i["x2"], i["xl"], i["xs"], i["xf"], i["xa"], i["xt"], o["exp"],
                                     o["exp2"], o["log"], o["sin"], o["erf"], o["asin"], o["tanh"], n, BLOCK=BLOCK)

    return ex.Case(name="f32_math", kernel="math_kernel", seed=114, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch,
                   shapes=(f"n={n} fp32: exp [-6,6], exp2 [-20,20], log [1e-3,0.5]+[2,1000], sin [-pi,pi], "
                           "erf [-3,3], asin [-1,1], tanh [-5,5]"))


# ---------------------------------------------------------------- reductions and scans


@triton.jit
def reduce_int_kernel(x_ptr, b_ptr, s_ptr, rowsum_ptr, colsum_ptr, b_rowsum_ptr, colmax_ptr, argmax_ptr, argmin_ptr,
                      cumsum_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs)
    b = tl.load(b_ptr + offs)
    s = tl.load(s_ptr + offs)
    tl.store(rowsum_ptr + rows, tl.sum(x, axis=1))
    tl.store(colsum_ptr + cols, tl.sum(x, axis=0))
    tl.store(b_rowsum_ptr + rows, tl.sum(b, axis=1))
    tl.store(colmax_ptr + cols, tl.max(x, axis=0))
    tl.store(argmax_ptr + rows, tl.argmax(s, axis=1))
    tl.store(argmin_ptr + rows, tl.argmin(s, axis=1))
    tl.store(cumsum_ptr + offs, tl.cumsum(x, axis=1))


def reduce_int(dev) -> ex.Case:
    gen = ex.rng(115)
    M, N = 32, 128
    x = gen.integers(-2**30, 2**30, size=(M, N)).astype(np.int32)
    b = gen.integers(-128, 128, size=(M, N)).astype(np.int8)
    b[0, :] = 127  # a row sum far outside int8
    s = gen.integers(0, 8, size=(M, N)).astype(np.int32)  # many ties for argmax/argmin
    inputs = {"x": _t(x, dev), "b": _t(b, dev), "s": _t(s, dev)}
    outs = {"rowsum": _zeros((M, ), torch.int32, dev), "colsum": _zeros((N, ), torch.int32, dev),
            "b_rowsum": _zeros((M, ), torch.int32, dev), "colmax": _zeros((N, ), torch.int32, dev),
            "argmax": _zeros((M, ), torch.int32, dev), "argmin": _zeros((M, ), torch.int32, dev),
            "cumsum": _zeros((M, N), torch.int32, dev)}
    wrap = "int32 sums wrap modulo 2^32, which is associative: any reduction order gives the same bits"
    rules = {"rowsum": ("exact", wrap), "colsum": ("exact", wrap),
             "b_rowsum": ("exact", "tl.sum of int8 accumulates in int32 (Triton widens integer sums below 32 bits)"),
             "colmax": ("exact", "integer max"),
             "argmax": ("exact", "values in 0..7, many ties: Triton returns the first index of the maximum"),
             "argmin": ("exact", "values in 0..7, many ties: Triton returns the first index of the minimum"),
             "cumsum": ("exact", "inclusive int32 prefix sums, wrapping; " + wrap)}

    def launch():
        i, o = inputs, outs
        return reduce_int_kernel[(1, )](i["x"], i["b"], i["s"], o["rowsum"], o["colsum"], o["b_rowsum"], o["colmax"],
                                        o["argmax"], o["argmin"], o["cumsum"], M=M, N=N)

    return ex.Case(name="reduce_int", kernel="reduce_int_kernel", seed=115, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"{M}x{N} int32 (|x| < 2^30) and int8, one program")


@triton.jit
def reduce_f32_kernel(x_ptr, rowsum_ptr, colsum_ptr, rowmax_ptr, colmin_ptr, argmax_ptr, M: tl.constexpr,
                      N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    tl.store(rowsum_ptr + rows, tl.sum(x, axis=1))
    tl.store(colsum_ptr + cols, tl.sum(x, axis=0))
    tl.store(rowmax_ptr + rows, tl.max(x, axis=1))
    tl.store(colmin_ptr + cols, tl.min(x, axis=0))
    tl.store(argmax_ptr + rows, tl.argmax(x, axis=1))


def reduce_f32(dev) -> ex.Case:
    gen = ex.rng(116)
    M, N = 32, 128
    x = ex.normal(gen, (M, N), "float32", dev)
    inputs = {"x": x}
    outs = {"rowsum": _zeros((M, ), torch.float32, dev), "colsum": _zeros((N, ), torch.float32, dev),
            "rowmax": _zeros((M, ), torch.float32, dev), "colmin": _zeros((N, ), torch.float32, dev),
            "argmax": _zeros((M, ), torch.int32, dev)}
    rules = {"rowsum": ("relnorm:1e-5", SUM_F32), "colsum": ("relnorm:1e-5", SUM_F32),
             "rowmax": ("exact", "max selects one of the inputs: independent of the order"),
             "colmin": ("exact", "min selects one of the inputs: independent of the order"),
             "argmax": ("exact", "the index of the (unique) row maximum")}

    def launch():
        o = outs
        return reduce_f32_kernel[(1, )](x, o["rowsum"], o["colsum"], o["rowmax"], o["colmin"], o["argmax"], M=M, N=N)

    return ex.Case(name="reduce_f32", kernel="reduce_f32_kernel", seed=116, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"{M}x{N} fp32 normal, one program")


# ---------------------------------------------------------------- dot


@triton.jit
def dot_f32_kernel(a_ptr, b_ptr, c_ptr, out_ptr, outacc_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, input_precision="ieee"))
    tl.store(outacc_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, acc=c, input_precision="ieee"))


def dot_f32_ieee(dev) -> ex.Case:
    gen = ex.rng(117)
    M, N, K = 32, 32, 64
    a = ex.normal(gen, (M, K), "float32", dev)
    b = ex.normal(gen, (K, N), "float32", dev)
    c = ex.normal(gen, (M, N), "float32", dev)
    outs = {"out": _zeros((M, N), torch.float32, dev), "outacc": _zeros((M, N), torch.float32, dev)}
    rules = {"out": ("exact", DOT_IEEE), "outacc": ("exact", DOT_IEEE)}

    def launch():
        return dot_f32_kernel[(1, )](a, b, c, outs["out"], outs["outacc"], M=M, N=N, K=K)

    return ex.Case(name="dot_f32_ieee", kernel="dot_f32_kernel", seed=117, inputs={"a": a, "b": b, "c": c},
                   outputs=outs, rules=rules, launch=launch,
                   shapes=f"M={M} N={N} K={K} fp32 input_precision='ieee', without and with acc")


@triton.jit
def dot_f16_kernel(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))


def dot_f16(dev) -> ex.Case:
    gen = ex.rng(118)
    M, N, K = 64, 64, 64
    a = ex.normal(gen, (M, K), "float16", dev)
    b = ex.normal(gen, (K, N), "float16", dev)
    out = _zeros((M, N), torch.float32, dev)

    def launch():
        return dot_f16_kernel[(1, )](a, b, out, M=M, N=N, K=K)

    return ex.Case(name="dot_f16", kernel="dot_f16_kernel", seed=118, inputs={"a": a, "b": b}, outputs={"out": out},
                   rules={"out": ("relnorm:1e-5", DOT_F16)}, launch=launch,
                   shapes=f"M={M} N={N} K={K} fp16 operands, fp32 result")


# ---------------------------------------------------------------- atomics


@triton.jit
def atomic_kernel(bins_ptr, vals_ptr, counts_ptr, maxes_ptr, total_ptr, n, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    bins = tl.load(bins_ptr + idx, mask=m, other=0)
    vals = tl.load(vals_ptr + idx, mask=m, other=0)
    tl.atomic_add(counts_ptr + bins, tl.full((BLOCK, ), 1, tl.int32), mask=m)
    tl.atomic_max(maxes_ptr + bins, vals, mask=m)
    tl.atomic_add(total_ptr, tl.sum(tl.where(m, vals, 0), axis=0))


def atomic_counts(dev) -> ex.Case:
    gen = ex.rng(119)
    n, nbins = 16000, 64
    bins = np.where(gen.random(n) < 0.5, 0, gen.integers(0, nbins, size=n)).astype(np.int32)  # bin 0: heavy contention
    vals = gen.integers(-1000, 1001, size=n).astype(np.int32)
    inputs = {"bins": _t(bins, dev), "vals": _t(vals, dev)}
    outs = {"counts": _zeros((nbins, ), torch.int32, dev), "maxes": _zeros((nbins, ), torch.int32, dev),
            "total": _zeros((1, ), torch.int32, dev)}
    rules = {k: ("exact", EXACT_ATOMIC) for k in outs}

    def launch():
        outs["counts"].zero_()
        outs["maxes"].fill_(-2**31)
        outs["total"].zero_()
        return atomic_kernel[_grid(n)](inputs["bins"], inputs["vals"], outs["counts"], outs["maxes"], outs["total"], n,
                                       BLOCK=BLOCK)

    return ex.Case(name="atomic_counts", kernel="atomic_kernel", seed=119, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} into {nbins} bins (half into bin 0), {triton.cdiv(n, BLOCK)} programs")


@triton.jit
def gather_scatter_kernel(idx_ptr, perm_ptr, src_ptr, gathered_ptr, masked_ptr, scattered_ptr, n,
                          BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx_ptr + offs, mask=m, other=0)
    g = tl.load(src_ptr + i, mask=m)
    tl.store(gathered_ptr + offs, g, mask=m)
    tl.store(masked_ptr + offs, tl.load(src_ptr + i, mask=m & (i < 256), other=-1.5), mask=m)
    p = tl.load(perm_ptr + offs, mask=m, other=0)
    tl.store(scattered_ptr + p, g, mask=m)


def gather_scatter(dev) -> ex.Case:
    gen = ex.rng(123)
    n, nsrc = 4000, 512
    idx = gen.integers(0, nsrc, size=n).astype(np.int32)  # repeats
    perm = gen.permutation(n).astype(np.int32)
    src = ex.normal(gen, (nsrc, ), "float32", "cpu").numpy()
    inputs = {"idx": _t(idx, dev), "perm": _t(perm, dev), "src": _t(src, dev)}
    outs = {k: _zeros((n, ), torch.float32, dev) for k in ("gathered", "masked", "scattered")}
    rules = {"gathered": ("exact", EXACT_MOVE + ": a gather through loaded int32 indices (with repeats)"),
             "masked": ("exact", EXACT_MOVE + ": a gather masked by the indices' values, other=-1.5 elsewhere"),
             "scattered": ("exact", EXACT_MOVE + ": a scatter through a permutation (no two lanes store to one address)")}

    def launch():
        i, o = inputs, outs
        return gather_scatter_kernel[_grid(n)](i["idx"], i["perm"], i["src"], o["gathered"], o["masked"],
                                               o["scattered"], n, BLOCK=BLOCK)

    return ex.Case(name="gather_scatter", kernel="gather_scatter_kernel", seed=123, inputs=inputs, outputs=outs,
                   rules=rules, launch=launch, shapes=f"n={n} indices into {nsrc} fp32, a permutation of {n}")


# ---------------------------------------------------------------- sort and where


@triton.jit
def sort_kernel(x_ptr, f_ptr, asc_ptr, desc_ptr, fasc_ptr, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs)
    f = tl.load(f_ptr + offs)
    tl.store(asc_ptr + offs, tl.sort(x))
    tl.store(desc_ptr + offs, tl.sort(x, descending=True))
    tl.store(fasc_ptr + offs, tl.sort(f))


def sort_i32(dev) -> ex.Case:
    gen = ex.rng(120)
    M, N = 32, 64
    x = np.where(gen.random((M, N)) < 0.5, gen.integers(-10, 10, size=(M, N)),
                 gen.integers(-2**31, 2**31, size=(M, N))).astype(np.int32)
    x[0, :4] = [2**31 - 1, -2**31, 0, -1]
    f = ex.normal(gen, (M, N), "float32", "cpu").numpy()
    inputs = {"x": _t(x, dev), "f": _t(f, dev)}
    outs = {"asc": _zeros((M, N), torch.int32, dev), "desc": _zeros((M, N), torch.int32, dev),
            "fasc": _zeros((M, N), torch.float32, dev)}
    why = "sorting is a permutation: one answer (duplicates included)"
    rules = {"asc": ("exact", why), "desc": ("exact", why + "; descending=True"),
             "fasc": ("exact", why + "; fp32 without NaN or signed zeros")}

    def launch():
        return sort_kernel[(1, )](inputs["x"], inputs["f"], outs["asc"], outs["desc"], outs["fasc"], M=M, N=N)

    return ex.Case(name="sort_i32", kernel="sort_kernel", seed=120, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"{M}x{N} int32 (many duplicates, extremes) and fp32, sorted along rows")


@triton.jit
def where_kernel(m_ptr, m8_ptr, a_ptr, b_ptr, i_ptr, j_ptr, out_ptr, out8_ptr, outi_ptr, outs_ptr, n,
                 BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    mk = tl.load(m_ptr + idx, mask=m, other=0)
    m8 = tl.load(m8_ptr + idx, mask=m, other=0)
    a = tl.load(a_ptr + idx, mask=m, other=0.0)
    b = tl.load(b_ptr + idx, mask=m, other=0.0)
    i = tl.load(i_ptr + idx, mask=m, other=0)
    j = tl.load(j_ptr + idx, mask=m, other=0)
    tl.store(out_ptr + idx, tl.where(mk, a, b), mask=m)
    tl.store(out8_ptr + idx, tl.where(m8, a, b), mask=m)
    tl.store(outi_ptr + idx, tl.where(mk, i, j), mask=m)
    tl.store(outs_ptr + idx, tl.where(mk & 6, a, -1.5), mask=m)


def where_int_mask(dev) -> ex.Case:
    gen = ex.rng(121)
    n = 4000
    mk = np.array([0, 1, -1, 2, 256, -2**31, 0, 0], dtype=np.int32)[gen.integers(0, 8, size=n)]
    m8 = np.array([0, 1, -1, 2, -128, 64, 0, 0], dtype=np.int8)[gen.integers(0, 8, size=n)]
    a = ex.normal(gen, (n, ), "float32", "cpu").numpy()
    b = ex.normal(gen, (n, ), "float32", "cpu").numpy()
    i = gen.integers(-1000, 1000, size=n).astype(np.int32)
    j = gen.integers(-1000, 1000, size=n).astype(np.int32)
    inputs = {k: _t(v, dev) for k, v in {"m": mk, "m8": m8, "a": a, "b": b, "i": i, "j": j}.items()}
    outs = {"out": _zeros((n, ), torch.float32, dev), "out8": _zeros((n, ), torch.float32, dev),
            "outi": _zeros((n, ), torch.int32, dev), "outs": _zeros((n, ), torch.float32, dev)}
    why = ("an integer condition is cast to int1 as `!= 0` (2, 256, -2^31 and -128 are true, not truncated to "
           "their low bit); Triton 3.6 warns that non-boolean conditions are deprecated")
    rules = {k: ("exact", why) for k in outs}

    def launch():
        i_, o = inputs, outs
        return where_kernel[_grid(n)](i_["m"], i_["m8"], i_["a"], i_["b"], i_["i"], i_["j"], o["out"], o["out8"],
                                      o["outi"], o["outs"], n, BLOCK=BLOCK)

    return ex.Case(name="where_int_mask", kernel="where_kernel", seed=121, inputs=inputs, outputs=outs, rules=rules,
                   launch=launch, shapes=f"n={n} int32 and int8 masks (0, 1, -1, 2, 256, -2^31 / -128, 64)")


BUILDERS = [philox_i32, philox_i64, philox_u64, int32_wrap, int32_divmod, int8_ops, uint32_bitcast, cast_f32_f16, cast_f32_bf16,
            cast_float_int, bitcast, f32_arith, f32_minmax_nan, f32_div_sqrt, f16_bf16_arith, f32_math, reduce_int,
            reduce_f32, dot_f32_ieee, dot_f16, cast_fp8, cast_fp8_rtz, dot_fp8, atomic_counts, gather_scatter, sort_i32, where_int_mask]


def golden_cases(dev) -> list:
    return [build(dev) for build in BUILDERS]
