"""Element-wise operators of triton.language: arithmetic, bitwise, shifts, comparisons,
unary operators, where, maximum/minimum, casts and bitcasts, fp32 -> fp16/bf16 rounding.

Every kernel here is our own; numpy gives the references.  The dtype rules checked
(Triton 3.x, python/triton/language/semantic.py, computation_type_impl / to_tensor_type):

* block (+) block: fp64 > fp32 > fp16 > bf16 > ints; fp16 with bf16 -> fp16 (the bf16 operand is
  converted to fp16); bf16 with an int -> fp32; fp16/bf16 ``/`` and ``%`` are computed in fp32; int ``/`` int -> fp32 (int64 too);
  ints follow C's usual conversions, except that equal ranks of different signedness give the
  unsigned type (uint8 + int8 -> uint8).
* block (+) Python scalar (a literal or a constexpr): a scalar of the same or a lower kind
  (bool < uint < int < float) never widens the block (int8 + 100 -> int8, fp16 * 0.1 -> fp16),
  except that fp16/bf16 ``/`` and ``%`` still go to fp32; a float scalar with an int block gives fp32.
* A run-time scalar argument is a 0-d tensor, not a Python scalar: it does widen (int8 + i32 arg -> int32).
* Literal types by magnitude: [-2**31, 2**31) -> int32, [2**31, 2**32) -> uint32, then int64;
  a Python float -> fp32 (fp64 outside fp32's normal range).
* ``//`` and ``%`` on integer blocks truncate like C (``%`` has the dividend's sign);
  ``%`` on floats is fmod; ``//`` on float blocks is rejected.

uint32 data travels in int32 torch tensors (torch 1.13 has no uint32) and is bitcast in the kernel.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import NP, TORCH, dev, host, tl_dtype

# --------------------------------------------------------------------------------------
# helpers (with lang_support's)
# --------------------------------------------------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32"]
FLOAT_DTYPES = ["float16", "bfloat16", "float32", "float64"]
ALL_DTYPES = INT_DTYPES + FLOAT_DTYPES

_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint32": 32}


def load_cast(name):
    """The dtype a kernel bitcasts its loaded data to (uint32 arrives as int32), or None."""
    return tl.uint32 if name == "uint32" else None


def bf16_round(a):
    """fp32 -> bf16 with round-to-nearest-even, returned as fp32 values."""
    a = np.asarray(a, dtype=np.float32)
    shape = a.shape
    a = a.reshape(-1)  # (numpy 1.x promotes uint64 scalars with Python ints to float64)
    u = a.view(np.uint32).astype(np.uint64)
    s16, one = np.uint64(16), np.uint64(1)
    r = (((u + np.uint64(0x7FFF) + ((u >> s16) & one)) >> s16) << s16).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), np.float32(np.nan), r).astype(np.float32).reshape(shape)


def bf16_rtz(a):
    a = np.asarray(a, dtype=np.float32)
    r = (a.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(a), np.float32(np.nan), r).astype(np.float32)


def fp16_rtz(a):
    """fp32 -> fp16 rounding toward zero (numpy only rounds to nearest)."""
    a = np.asarray(a, dtype=np.float32)
    with np.errstate(over="ignore"):
        r = a.astype(np.float16)
    bits = r.view(np.uint16).copy()
    too_big = (np.abs(r.astype(np.float32)) > np.abs(a)) & ~np.isnan(a)
    bits[too_big] -= 1  # one step toward zero in sign-magnitude (inf -> max finite)
    return bits.view(np.float16)


def round_to(name, a):
    """Round float64/float32 values to the representable values of dtype `name` (as numpy)."""
    if name == "bfloat16":
        return bf16_round(np.asarray(a, np.float64).astype(np.float32))
    return np.asarray(a).astype(NP[name])


def rand_data(name, n, rs, lo=None, hi=None, nonzero=False):
    if name in INT_DTYPES:
        if name == "int64":
            lo = -(2 ** 40) if lo is None else lo
            hi = 2 ** 40 if hi is None else hi
        elif name == "uint32":
            lo = 0 if lo is None else lo
            hi = 2 ** 32 - 1 if hi is None else hi
        else:
            info = np.iinfo(NP[name])
            lo = int(info.min) + 1 if lo is None else lo  # never INT_MIN (INT_MIN // -1 overflows)
            hi = int(info.max) if hi is None else hi
        x = rs.randint(lo, hi + 1, size=n, dtype=np.int64).astype(NP[name])
        if nonzero:
            x[x == 0] = 1
        return x
    lo = -10.0 if lo is None else lo
    hi = 10.0 if hi is None else hi
    x = rs.uniform(lo, hi, size=n)
    if nonzero:
        x[np.abs(x) < 0.5] = 1.25
    return round_to(name, x)


def empty(n, name, device):
    return torch.empty(n, dtype=TORCH[name], device=device)


def np_shl(x, y):
    """Left shift with wrap-around for any integer dtype (done on the unsigned view)."""
    ut = np.dtype("u%d" % x.dtype.itemsize)
    return (x.view(ut) << y.astype(ut)).view(x.dtype)


def np_trunc_div(x, y):
    """C division (truncation toward zero) for integer arrays of one dtype."""
    q = np.abs(x.astype(np.int64)) // np.abs(y.astype(np.int64))
    q = np.where((x < 0) != (y < 0), -q, q)
    return q.astype(x.dtype)


def np_trunc_mod(x, y):
    return (x.astype(np.int64) - np_trunc_div(x, y).astype(np.int64) * y.astype(np.int64)).astype(x.dtype)


def assert_exact(got, ref):
    np.testing.assert_array_equal(np.asarray(got), np.asarray(ref))


BLOCK = 128

# --------------------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------------------


@triton.jit
def _apply_binary(x, y, OP: tl.constexpr):
    if OP == "+":
        z = x + y
    elif OP == "-":
        z = x - y
    elif OP == "*":
        z = x * y
    elif OP == "/":
        z = x / y
    elif OP == "//":
        z = x // y
    elif OP == "%":
        z = x % y
    elif OP == "&":
        z = x & y
    elif OP == "|":
        z = x | y
    elif OP == "^":
        z = x ^ y
    elif OP == "<<":
        z = x << y
    elif OP == ">>":
        z = x >> y
    elif OP == "r-":
        z = y - x
    elif OP == "r/":
        z = y / x
    elif OP == "r//":
        z = y // x
    elif OP == "r%":
        z = y % x
    else:
        tl.static_assert(False, "unknown operator")
    return z


@triton.jit
def _load_operands(X, Y, XT: tl.constexpr, YT: tl.constexpr, BLOCK: tl.constexpr):
    # Blocks of BLOCK elements at X and Y, bitcast to XT and YT where given (see load_cast).
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    if XT is not None:
        x = x.to(XT, bitcast=True)
    if YT is not None:
        y = y.to(YT, bitcast=True)
    return x, y


@triton.jit
def _binary_kernel(X, Y, Z, OP: tl.constexpr, XT: tl.constexpr, YT: tl.constexpr, ZT: tl.constexpr,
                   BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y = _load_operands(X, Y, XT, YT, BLOCK)
    z = _apply_binary(x, y, OP)
    tl.static_assert(ZT == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z)


@triton.jit
def _three_ops_kernel(X, Y, Z0, Z1, Z2, OP0: tl.constexpr, OP1: tl.constexpr, OP2: tl.constexpr,
                      XT: tl.constexpr, ZT0: tl.constexpr, ZT1: tl.constexpr, ZT2: tl.constexpr,
                      BLOCK: tl.constexpr):
    # Three operators of one kind on the same operands; "" skips a slot.
    offs = tl.arange(0, BLOCK)
    x, y = _load_operands(X, Y, XT, XT, BLOCK)
    z0 = _apply_binary(x, y, OP0)
    tl.static_assert(ZT0 == z0.dtype, "unexpected result dtype (slot 0)")
    tl.store(Z0 + offs, z0)
    if OP1 != "":
        z1 = _apply_binary(x, y, OP1)
        tl.static_assert(ZT1 == z1.dtype, "unexpected result dtype (slot 1)")
        tl.store(Z1 + offs, z1)
    if OP2 != "":
        z2 = _apply_binary(x, y, OP2)
        tl.static_assert(ZT2 == z2.dtype, "unexpected result dtype (slot 2)")
        tl.store(Z2 + offs, z2)


@triton.jit
def _scalar_const_kernel(X, Z, S: tl.constexpr, OP: tl.constexpr, XT: tl.constexpr, ZT: tl.constexpr,
                         BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if XT is not None:
        x = x.to(XT, bitcast=True)
    z = _apply_binary(x, S, OP)
    tl.static_assert(ZT == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z)


@triton.jit
def _scalar_arg_kernel(X, Z, s, OP: tl.constexpr, ZT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    z = _apply_binary(x, s, OP)
    tl.static_assert(ZT == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z)


# --------------------------------------------------------------------------------------
# arithmetic on blocks of one dtype
# --------------------------------------------------------------------------------------


def _ref_binary(op, x, y, zname):
    """numpy reference: both operands converted to the result dtype first."""
    zt = NP[zname]
    with np.errstate(all="ignore"):
        if zname in INT_DTYPES:
            a, b = x.astype(zt), y.astype(zt)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "//":
                return np_trunc_div(a, b)
            if op == "%":
                return np_trunc_mod(a, b)
            if op == "&":
                return a & b
            if op == "|":
                return a | b
            if op == "^":
                return a ^ b
            if op == "<<":
                return np_shl(a, b)
            if op == ">>":
                return a >> b.astype(zt)  # arithmetic for signed, logical for unsigned
        else:
            # + - * of two values of a float format are correctly rounded when computed in
            # float64 and rounded once (double rounding is harmless for p' >= 2p + 2).
            a, b = x.astype(np.float64), y.astype(np.float64)
            if op == "+":
                return round_to(zname, a + b)
            if op == "-":
                return round_to(zname, a - b)
            if op == "*":
                return round_to(zname, a * b)
            if op == "/":
                return round_to(zname, a / b)
            if op == "%":
                return round_to(zname, np.fmod(a, b))
    raise AssertionError(op)


def _div_result(name):
    return "float64" if name == "float64" else "float32"


def run_three_ops(x, y, dtype, ops, result_dtypes, device):
    """x OP y for up to three operators in one launch of _three_ops_kernel, on blocks of `dtype`;
    the kernel checks that the result of ops[i] has dtype result_dtypes[i]. A slot past the
    operators given, or whose operator is "", is left out. The results as numpy arrays."""
    ops = tuple(ops) + ("",) * (3 - len(ops))
    zts = tuple(result_dtypes) + (dtype,) * (3 - len(result_dtypes))
    outs = [empty(BLOCK, zt, device) for zt in zts]
    _three_ops_kernel[(1,)](dev(x, device, dtype), dev(y, device, dtype), *outs,
                            OP0=ops[0], OP1=ops[1], OP2=ops[2], XT=load_cast(dtype),
                            ZT0=tl_dtype(zts[0]), ZT1=tl_dtype(zts[1]), ZT2=tl_dtype(zts[2]), BLOCK=BLOCK)
    return [host(out, zt) for out, zt in zip(outs, zts)]


def check_exact_ops(x, y, dtype, ops, device):
    """Three operators whose results keep the operands' dtype, each checked exactly."""
    for op, got in zip(ops, run_three_ops(x, y, dtype, ops, [dtype] * 3, device)):
        assert_exact(got, _ref_binary(op, x, y, dtype))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_add_sub_mul(dtype, device):
    rs = np.random.RandomState(0)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs)
    if dtype in FLOAT_DTYPES:  # exercise inf/nan propagation too
        x[:3] = [np.inf, -np.inf, np.nan]
    # Exact: IEEE +,-,* are correctly rounded on every backend (no contraction here).
    check_exact_ops(x, y, dtype, "+-*", device)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_div_mod(dtype, device):
    rs = np.random.RandomState(1)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs, nonzero=True)
    if dtype in INT_DTYPES and dtype not in ("uint8", "uint32"):
        # all four sign combinations, small divisors too
        x[:8] = [7, -7, 7, -7, 100, -100, 0, 1]
        y[:8] = [2, 2, -2, -2, 3, -3, 5, -1]
    if dtype in FLOAT_DTYPES:
        # keep fmod away from quotients that sit next to an integer (GPU frem computes
        # x - trunc(x / y) * y) and from huge quotients
        q = x.astype(np.float64) / y.astype(np.float64)
        frac = np.abs(q - np.trunc(q))
        bad = (frac < 0.02) | (frac > 0.98) | (np.abs(q) > 1000)
        x[bad] = round_to(dtype, 5.5)
        y[bad] = round_to(dtype, 2.0)
    is_int = dtype in INT_DTYPES
    div_t = _div_result(dtype)
    mod_t = dtype if is_int else div_t
    quotient, remainder, int_quotient = run_three_ops(x, y, dtype, ("/", "%", "//" if is_int else ""),
                                                      (div_t, mod_t, dtype), device)
    # `/`: int / int and fp16/bf16 / are computed in fp32.  fp32 division may be the
    # approximate div.full on NVIDIA (<= 2 ulp): rtol 3e-7; fp64 is exact.
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    ref_div = (xd.astype(np.float32) / yd.astype(np.float32)) if div_t == "float32" else xd / yd
    np.testing.assert_allclose(quotient, ref_div, rtol=3e-7 if div_t == "float32" else 0)
    if is_int:
        assert_exact(remainder, np_trunc_mod(x, y))
        assert_exact(int_quotient, np_trunc_div(x, y))
    else:
        # fmod is exact in IEEE; allow for the GPU's x - trunc(x/y)*y (error ~ ulp(x)).
        ref_mod = np.fmod(xd, yd)
        scale = np.abs(xd) * (2e-7 if mod_t == "float32" else 1e-15)
        np.testing.assert_array_less(np.abs(remainder - ref_mod), scale + 1e-30)


def test_int_division_truncates_like_c(device):
    # The table of C semantics, explicitly: -7 // 2 == -3 and -7 % 2 == -1 (Python: -4 and 1).
    x = np.array([-7, 7, -7, 7, -1, 1, -9, 9] * 16, dtype=np.int32)
    y = np.array([2, -2, -2, 2, 4, -4, 3, -3] * 16, dtype=np.int32)
    q, r, _ = run_three_ops(x, y, "int32", ("//", "%"), ("int32", "int32"), device)
    assert list(q[:8]) == [-3, -3, 3, 3, 0, 0, -3, -3]
    assert list(r[:8]) == [-1, 1, -1, 1, -1, 1, 0, 0]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_bitwise(dtype, device):
    rs = np.random.RandomState(2)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs)
    check_exact_ops(x, y, dtype, "&|^", device)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_shifts(dtype, device):
    rs = np.random.RandomState(3)
    x = rand_data(dtype, BLOCK, rs)
    if dtype not in ("uint8", "uint32"):
        x[: BLOCK // 2] = -np.abs(x[: BLOCK // 2])  # negative values: >> is arithmetic
    y = rs.randint(0, _BITS[dtype], size=BLOCK).astype(NP[dtype])  # shift < bit width
    shl, shr, _ = run_three_ops(x, y, dtype, ("<<", ">>"), (dtype, dtype), device)
    assert_exact(shl, np_shl(x, y))
    assert_exact(shr, x >> y)


@triton.jit
def _shift_right_mixed_kernel(X, Y, Z, XT: tl.constexpr, YT: tl.constexpr, ZT: tl.constexpr,
                              ST: tl.constexpr):
    offs = tl.arange(0, 8)
    x = tl.load(X + offs).to(XT)
    y = tl.load(Y + offs).to(YT)
    z = x >> y
    tl.static_assert(z.dtype == ZT, "unexpected result dtype")
    tl.store(Z + offs, z.to(ST, bitcast=True))  # the bits, as the signed type of their width


SHIFT_RIGHT_MIXED = [
    # (shifted dtype, shift dtype, result dtype)
    ("int32", "uint32", "uint32"),
    ("int8", "uint16", "uint16"),
    ("int8", "uint8", "uint8"),
    ("int16", "uint64", "uint64"),
    ("int64", "uint32", "int64"),
    ("uint32", "int32", "uint32"),
    ("uint16", "int16", "uint16"),
    ("uint8", "int32", "int32"),
]


@pytest.mark.parametrize("xt, yt, zt", SHIFT_RIGHT_MIXED)
def test_shift_right_signedness_of_shifted_operand(xt, yt, zt, device):
    """Triton 3.6's tensor.__rshift__ (language/core.py) picks ashr when the shifted operand's
    own dtype is signed, lshr otherwise, and semantic.py's bitwise_op_type_checking_impl
    converts both operands to the promoted type first: int32 >> uint32 is a uint32 whose bits
    were shifted arithmetically (-8 >> 1 is 0xFFFFFFFC). Read in Triton's sources and checked
    with Triton 3.6.0's interpreter (TRITON_INTERPRET=1); tcpu shifted by the promoted type's
    signedness (logically here)."""
    x = torch.tensor([-8, -1, 8, -2**31, 100, -100, 5, -5], dtype=torch.int32)
    y = torch.tensor([1, 4, 1, 7, 0, 2, 5, 6], dtype=torch.int32)
    bits = np.dtype(zt).itemsize * 8
    signed_np, unsigned_np = np.dtype(f"int{bits}"), np.dtype(f"uint{bits}")
    z = torch.empty(8, dtype=getattr(torch, f"int{bits}"), device=device)
    _shift_right_mixed_kernel[(1,)](x.to(device), y.to(device), z, XT=tl_dtype(xt),
                                    YT=tl_dtype(yt), ZT=tl_dtype(zt),
                                    ST=tl_dtype(f"int{bits}"))
    xz = x.numpy().astype(np.dtype(xt)).astype(np.dtype(zt))  # wraps and extends as Triton
    shifted_as = signed_np if np.dtype(xt).kind == "i" else unsigned_np
    want = (xz.view(shifted_as) >> y.numpy().astype(shifted_as)).view(signed_np)
    assert_exact(z.cpu().numpy(), want)


# --------------------------------------------------------------------------------------
# promotion: block (+) block of different dtypes
# --------------------------------------------------------------------------------------

MIXED = [
    # (x dtype, y dtype, op, result dtype)
    ("int8", "int32", "+", "int32"),
    ("uint8", "int8", "+", "uint8"),      # same rank, different signedness -> unsigned
    ("int32", "uint32", "-", "uint32"),
    ("uint32", "int64", "+", "int64"),
    ("int8", "uint32", "&", "uint32"),   # int8 is sign-extended first
    ("int32", "float16", "*", "float16"),
    ("int64", "float32", "+", "float32"),  # int64 blocks are converted to fp32
    ("float16", "bfloat16", "+", "float16"),  # fp16 wins over bf16 (rule order in semantic.py)
    ("bfloat16", "int32", "+", "float32"),  # bf16 stays bf16 only with bf16
    ("float64", "int32", "-", "float64"),
    ("int8", "int32", "//", "int32"),
    ("int16", "int8", "%", "int16"),
    ("float16", "int8", "/", "float32"),
    ("float16", "float64", "/", "float64"),
]


@pytest.mark.parametrize("xt, yt, op, zt", MIXED)
def test_mixed_dtype_promotion(xt, yt, op, zt, device):
    rs = np.random.RandomState(4)
    nonzero = op in ("/", "//", "%")
    def data(t):
        if t in INT_DTYPES:  # small ints: representable in every type involved
            return rand_data(t, BLOCK, rs, lo=0 if t.startswith("u") else -100, hi=100, nonzero=nonzero)
        return rand_data(t, BLOCK, rs, nonzero=nonzero)

    x, y = data(xt), data(yt)
    z = empty(BLOCK, zt, device)
    _binary_kernel[(1,)](dev(x, device, xt), dev(y, device, yt), z, OP=op, XT=load_cast(xt),
                         YT=load_cast(yt), ZT=tl_dtype(zt), BLOCK=BLOCK)
    got = host(z, zt)
    if zt in INT_DTYPES:
        assert_exact(got, _ref_binary(op, x, y, zt))
    elif op == "/":
        ref = x.astype(np.float64).astype(NP[zt]) / y.astype(np.float64).astype(NP[zt])
        np.testing.assert_allclose(got, ref, rtol=3e-7 if zt == "float32" else 0)
    else:
        # operands converted to the result type (exactly, or with one rounding for int64 -> fp32)
        xa = round_to(zt, x.astype(np.float64)) if xt in INT_DTYPES else x
        ya = round_to(zt, y.astype(np.float64)) if yt in INT_DTYPES else y
        assert_exact(got, _ref_binary(op, xa, ya, zt))


# --------------------------------------------------------------------------------------
# promotion: block (+) Python scalar (constexpr or literal) and run-time scalar arguments
# --------------------------------------------------------------------------------------

SCALAR_CASES = [
    # (block dtype, op, scalar, result dtype)
    ("int8", "+", 100, "int8"),          # wraps in int8
    ("uint8", "*", 3, "uint8"),
    ("int8", "*", 2.5, "float32"),       # a float scalar with an int block -> fp32
    ("float16", "+", 0.1, "float16"),    # the scalar is rounded to fp16
    ("bfloat16", "*", 3, "bfloat16"),
    ("float16", "/", 2, "float32"),      # fp16 / is computed in fp32
    ("bfloat16", "/", 3.0, "float32"),
    ("int32", "/", 2, "float32"),        # int / int -> fp32
    ("int64", "//", 3, "int64"),
    ("int32", "%", -3, "int32"),         # sign of the dividend
    ("int8", "r-", 7, "int8"),           # 7 - x
    ("int16", "r//", 1000, "int16"),     # 1000 // x
    ("uint32", "+", 7, "uint32"),
    ("uint32", "%", 7, "uint32"),        # the literal takes no part: no signedness mismatch
    ("uint32", "//", 7, "uint32"),
    ("float64", "*", 0.1, "float64"),    # 0.1 as a double
    ("float32", "r/", 1, "float32"),     # 1 / x
]


def _scalar_ref(xt, op, s, zt, x):
    if zt in INT_DTYPES:
        sv = np.full(x.shape, s, dtype=np.int64).astype(NP[zt])
        xv = x.astype(NP[zt])
    else:
        sv = round_to(zt, np.full(x.shape, s, dtype=np.float64))
        xv = round_to(zt, x.astype(np.float64)) if xt in INT_DTYPES else x.astype(np.float64)
    if op.startswith("r"):
        return _ref_binary(op[1:], sv, xv, zt)
    return _ref_binary(op, xv, sv, zt)


@pytest.mark.parametrize("xt, op, s, zt", SCALAR_CASES)
def test_scalar_does_not_promote_block(xt, op, s, zt, device):
    """A Python scalar beside a block of its kind or a higher one takes no part in promotion
    (semantic.py's computation_type_impl). Triton 3.6's mod compares signedness only after both
    operands were converted, so uint32_block % 7 is a uint32 (read in semantic.py; Triton 3.6.0's
    interpreter gives uint32 results for % 4 and // 4); tcpu refused the % as mixed signedness."""
    rs = np.random.RandomState(5)
    x = rand_data(xt, BLOCK, rs, nonzero=op.startswith("r"))
    if xt == "int16" and op == "r//":
        x[:4] = [3, -3, 7, -7]
    z = empty(BLOCK, zt, device)
    _scalar_const_kernel[(1,)](dev(x, device, xt), z, S=s, OP=op, XT=load_cast(xt), ZT=tl_dtype(zt),
                               BLOCK=BLOCK)
    got, ref = host(z, zt), _scalar_ref(xt, op, s, zt, x)
    if "/" in op and "//" not in op and zt == "float32":
        np.testing.assert_allclose(got, ref, rtol=3e-7)  # approximate fp32 division on NVIDIA
    else:
        assert_exact(got, ref)


def test_int8_plus_literal_wraps(device):
    x = np.array([100, 27, 28, -128 + 1, 0] + [1] * (BLOCK - 5), dtype=np.int8)
    z = empty(BLOCK, "int8", device)
    _scalar_const_kernel[(1,)](dev(x, device, "int8"), z, S=100, OP="+", XT=None, ZT=tl.int8,
                               BLOCK=BLOCK)
    assert list(host(z, "int8")[:5]) == [-56, 127, -128, -27, 100]


@triton.jit
def _div_mod_kernel(X, Y, Z, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    if OP == "/":
        z = x / y
    elif OP == "//":
        z = x // y
    else:
        z = x % y
    tl.store(Z + offs, z)


@pytest.mark.parametrize("xt, yt", [("int8", "uint8"), ("uint8", "int32")])
@pytest.mark.parametrize("op", ["/", "//", "%"])
def test_div_mod_of_mixed_signedness_refused(xt, yt, op, device):
    """Triton refuses /, // and % between blocks of different signedness, in words that its own
    test_core.py's test_bin_op matches; tcpu refused them in other words, so that test failed."""
    rs = np.random.RandomState(8)
    x, y = rand_data(xt, BLOCK, rs), rand_data(yt, BLOCK, rs, nonzero=True)
    z = empty(BLOCK, "float32", device)
    with pytest.raises(triton.TritonError,
                       match="Cannot use .* because they have different signedness"):
        _div_mod_kernel[(1,)](dev(x, device, xt), dev(y, device, yt), z, OP=op, BLOCK=BLOCK)


RUNTIME_SCALAR_CASES = [
    # (block dtype, op, value passed as a run-time argument, result dtype)
    ("int8", "+", 3, "int32"),            # i32 argument: a 0-d tensor takes part in promotion
    ("uint8", "+", 5, "int32"),
    ("int32", "+", 2 ** 33, "int64"),     # an int argument >= 2**31 is i64
    ("float16", "*", 0.5, "float32"),     # a float argument is fp32
    ("bfloat16", "+", 2.0, "float32"),
]


@pytest.mark.parametrize("xt, op, s, zt", RUNTIME_SCALAR_CASES)
def test_runtime_scalar_argument_promotes(xt, op, s, zt, device):
    rs = np.random.RandomState(6)
    x = rand_data(xt, BLOCK, rs)
    z = empty(BLOCK, zt, device)
    _scalar_arg_kernel[(1,)](dev(x, device, xt), z, s, OP=op, ZT=tl_dtype(zt), BLOCK=BLOCK)
    if zt in INT_DTYPES:
        ref = _ref_binary(op, x.astype(NP[zt]), np.full(BLOCK, s, dtype=np.int64).astype(NP[zt]), zt)
    else:
        sv = np.full(BLOCK, np.float32(s), dtype=np.float64)
        ref = _ref_binary(op, x.astype(np.float64), sv, zt)
    assert_exact(host(z, zt), ref)


@triton.jit
def _literal_int_kernel(OUT):
    a = 2147483647                      # fits int32
    tl.static_assert(a.dtype == tl.int32)
    tl.store(OUT + 0, a + 1)            # int32 arithmetic wraps
    b = 2147483648                      # [2**31, 2**32) -> uint32
    tl.static_assert(b.dtype == tl.uint32)
    tl.store(OUT + 1, b + 1)
    c = 4294967296                      # >= 2**32 -> int64
    tl.static_assert(c.dtype == tl.int64)
    tl.store(OUT + 2, c + 1)
    d = -5
    tl.static_assert(d.dtype == tl.int32)
    tl.store(OUT + 3, d // 2)           # -2: truncation


def test_int_literal_types(device):
    out = torch.zeros(4, dtype=torch.int64, device=device)
    _literal_int_kernel[(1,)](out)
    assert out.cpu().tolist() == [-(2 ** 31), 2 ** 31 + 1, 2 ** 32 + 1, -2]


@triton.jit
def _literal_float_kernel(OUT):
    f = 0.1                             # a Python float is fp32
    tl.static_assert(f.dtype == tl.float32)
    tl.store(OUT + 0, f)
    g = 1e300                           # outside fp32's range -> fp64
    tl.static_assert(g.dtype == tl.float64)
    tl.store(OUT + 1, g)
    h = 3 / 2                           # constexpr arithmetic is Python's
    tl.store(OUT + 2, h)


def test_float_literal_types(device):
    out = torch.zeros(3, dtype=torch.float64, device=device)
    _literal_float_kernel[(1,)](out)
    got = out.cpu().numpy()
    assert got[0] == float(np.float32(0.1))
    assert got[1] == 1e300
    assert got[2] == 1.5


@triton.jit
def _float_floordiv_kernel(X, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Z + offs, x // x)


def test_floordiv_on_float_blocks_is_rejected(device):
    x = torch.ones(BLOCK, dtype=torch.float32, device=device)
    with pytest.raises(Exception):
        _float_floordiv_kernel[(1,)](x, x, BLOCK=BLOCK)


# --------------------------------------------------------------------------------------
# comparisons
# --------------------------------------------------------------------------------------


@triton.jit
def _compare_kernel(X, Y, EQ, NE, LT, LE, GT, GE, XT: tl.constexpr, YT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y = _load_operands(X, Y, XT, YT, BLOCK)
    tl.static_assert((x == y).dtype == tl.int1)
    tl.store(EQ + offs, x == y)
    tl.store(NE + offs, x != y)
    tl.store(LT + offs, x < y)
    tl.store(LE + offs, x <= y)
    tl.store(GT + offs, x > y)
    tl.store(GE + offs, x >= y)


def _check_compare(xt, yt, x, y, device, xref=None, yref=None):
    outs = [torch.zeros(BLOCK, dtype=torch.bool, device=device) for _ in range(6)]
    _compare_kernel[(1,)](dev(x, device, xt), dev(y, device, yt), *outs, XT=load_cast(xt),
                          YT=load_cast(yt), BLOCK=BLOCK)
    a = x if xref is None else xref
    b = y if yref is None else yref
    with np.errstate(invalid="ignore"):
        refs = [a == b, a != b, a < b, a <= b, a > b, a >= b]
    for name, out, ref in zip(["==", "!=", "<", "<=", ">", ">="], outs, refs):
        np.testing.assert_array_equal(out.cpu().numpy(), ref, err_msg=name)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_comparisons(dtype, device):
    rs = np.random.RandomState(7)
    x = rand_data(dtype, BLOCK, rs)
    y = rand_data(dtype, BLOCK, rs)
    y[::4] = x[::4]  # equal lanes
    if dtype in FLOAT_DTYPES:
        x[1], y[2], x[3], y[3] = np.nan, np.nan, np.nan, np.nan  # NaN: only != is true
        x[5], y[5] = np.inf, -np.inf
        x[6], y[6] = 0.0, -0.0  # equal
    _check_compare(dtype, dtype, x, y, device)


def test_compare_unsigned_high_values(device):
    # uint32 values >= 2**31 are large, not negative
    x = np.array([0x80000000, 5, 0xFFFFFFFF, 7] * 32, dtype=np.uint32)
    y = np.array([5, 0x80000000, 0x7FFFFFFF, 7] * 32, dtype=np.uint32)
    _check_compare("uint32", "uint32", x, y, device)


def test_compare_int_with_float_block(device):
    # int32 vs fp32: the int is converted to fp32 first (16777217 -> 16777216.0)
    x = np.array([16777217, 3, -2, 7] * 32, dtype=np.int32)
    y = np.array([16777216.0, 3.5, -2.0, 6.5] * 32, dtype=np.float32)
    _check_compare("int32", "float32", x, y, device, xref=x.astype(np.float32), yref=y)


# --------------------------------------------------------------------------------------
# unary operators
# --------------------------------------------------------------------------------------


@triton.jit
def _unary_kernel(X, NEG, INV, XT: tl.constexpr, IS_INT: tl.constexpr, BLOCK: tl.constexpr):
    # (unary + is not defined on Triton 3.6 tensors: "'tensor' object has no attribute '__pos__'")
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if XT is not None:
        x = x.to(XT, bitcast=True)
    tl.static_assert((-x).dtype == x.dtype)
    tl.store(NEG + offs, -x)
    if IS_INT:
        tl.store(INV + offs, ~x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_unary_minus_invert(dtype, device):
    rs = np.random.RandomState(8)
    x = rand_data(dtype, BLOCK, rs)
    is_int = dtype in INT_DTYPES
    neg, inv = (empty(BLOCK, dtype, device) for _ in range(2))
    _unary_kernel[(1,)](dev(x, device, dtype), neg, inv, XT=load_cast(dtype), IS_INT=is_int, BLOCK=BLOCK)
    with np.errstate(over="ignore"):
        ref_neg = (np.zeros_like(x) - x) if is_int else -x  # unsigned negation wraps
    assert_exact(host(neg, dtype), ref_neg)
    if is_int:
        assert_exact(host(inv, dtype), ~x)


@triton.jit
def _not_kernel(X, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    c = x > 0
    d = not c
    tl.static_assert(d.dtype == tl.int1)
    tl.store(Z + offs, tl.where(d, 1, 0))


def test_logical_not_of_bool_block(device):
    x = np.arange(BLOCK, dtype=np.int32) - BLOCK // 2
    z = torch.empty(BLOCK, dtype=torch.int32, device=device)
    _not_kernel[(1,)](dev(x, device, "int32"), z, BLOCK=BLOCK)
    assert_exact(z.cpu().numpy(), (x <= 0).astype(np.int32))


# --------------------------------------------------------------------------------------
# where
# --------------------------------------------------------------------------------------


@triton.jit
def _where_kernel(C, X, Y, Z, XT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c = tl.load(C + offs) != 0
    x, y = _load_operands(X, Y, XT, XT, BLOCK)
    z = tl.where(c, x, y)
    tl.static_assert(z.dtype == x.dtype)
    tl.store(Z + offs, z)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "bfloat16", "float64"])
def test_where(dtype, device):
    rs = np.random.RandomState(9)
    c = rs.randint(0, 2, size=BLOCK).astype(np.int8)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs)
    z = empty(BLOCK, dtype, device)
    _where_kernel[(1,)](dev(c, device, "int8"), dev(x, device, dtype), dev(y, device, dtype),
                        z, XT=load_cast(dtype), BLOCK=BLOCK)
    assert_exact(host(z, dtype), np.where(c != 0, x, y))


@triton.jit
def _where_int_condition_kernel(C, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Z + offs, tl.where(tl.load(C + offs), 1.0, -1.0))


def test_where_on_a_non_boolean_condition_warns_and_tests_nonzero(device, monkeypatch):
    # Triton deprecates a condition that is not int1 with a UserWarning while compiling (only
    # then, as Triton: no disk cache here, so that this process compiles); the value is
    # condition != 0.
    monkeypatch.setenv("TCPU_PYTHON_CACHE", "0")
    c = torch.tensor([0, 3, 0, 2 ** 31, 1, 0, 7, 0], dtype=torch.uint32, device=device)
    z = torch.empty(8, dtype=torch.float32, device=device)
    with pytest.warns(UserWarning, match="condition should be boolean"):
        _where_int_condition_kernel[(1,)](c, z, BLOCK=8)
    assert z.tolist() == [-1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0]


@triton.jit
def _where_scalars_kernel(X, Z0, Z1, Z2, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)                 # int8
    c = x > 0
    z0 = tl.where(c, x, 0)                # literal takes the block's type
    tl.static_assert(z0.dtype == tl.int8)
    z1 = tl.where(c, x, 1.5)              # float literal with int8 block -> fp32
    tl.static_assert(z1.dtype == tl.float32)
    z2 = tl.where(c, 7, -7)               # two scalars broadcast to the condition's shape
    tl.static_assert(z2.dtype == tl.int32)
    tl.static_assert(z2.shape[0] == BLOCK)
    tl.store(Z0 + offs, z0)
    tl.store(Z1 + offs, z1)
    tl.store(Z2 + offs, z2)


def test_where_with_scalars(device):
    x = (np.arange(BLOCK) - 60).astype(np.int8)
    z0 = torch.empty(BLOCK, dtype=torch.int8, device=device)
    z1 = torch.empty(BLOCK, dtype=torch.float32, device=device)
    z2 = torch.empty(BLOCK, dtype=torch.int32, device=device)
    _where_scalars_kernel[(1,)](dev(x, device, "int8"), z0, z1, z2, BLOCK=BLOCK)
    assert_exact(z0.cpu().numpy(), np.where(x > 0, x, 0).astype(np.int8))
    assert_exact(z1.cpu().numpy(), np.where(x > 0, x.astype(np.float32), np.float32(1.5)))
    assert_exact(z2.cpu().numpy(), np.where(x > 0, 7, -7).astype(np.int32))


# --------------------------------------------------------------------------------------
# maximum / minimum
# --------------------------------------------------------------------------------------


@triton.jit
def _maxmin_kernel(X, Y, MX, MN, XT: tl.constexpr, PROPAGATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x, y = _load_operands(X, Y, XT, XT, BLOCK)
    if PROPAGATE:
        mx = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
        mn = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
    else:
        mx = tl.maximum(x, y)
        mn = tl.minimum(x, y)
    tl.store(MX + offs, mx)
    tl.store(MN + offs, mn)


def run_maximum_minimum(x, y, dtype, propagate, device):
    """tl.maximum and tl.minimum of blocks x and y of `dtype` (propagate: PropagateNan.ALL), as
    numpy arrays."""
    mx, mn = empty(BLOCK, dtype, device), empty(BLOCK, dtype, device)
    _maxmin_kernel[(1,)](dev(x, device, dtype), dev(y, device, dtype), mx, mn,
                         XT=load_cast(dtype), PROPAGATE=propagate, BLOCK=BLOCK)
    return host(mx, dtype), host(mn, dtype)


@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "bfloat16"])
def test_maximum_minimum(dtype, device):
    rs = np.random.RandomState(10)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs)
    if dtype == "uint32":
        x[:4] = [0x80000000, 1, 0xFFFFFFFF, 0]
        y[:4] = [1, 0x80000000, 0, 0xFFFFFFFF]
    mx, mn = run_maximum_minimum(x, y, dtype, False, device)
    assert_exact(mx, np.maximum(x, y))
    assert_exact(mn, np.minimum(x, y))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("propagate", [False, True], ids=["NONE", "ALL"])
def test_maximum_minimum_nan(dtype, propagate, device):
    rs = np.random.RandomState(11)
    x, y = rand_data(dtype, BLOCK, rs), rand_data(dtype, BLOCK, rs)
    x[0:BLOCK:4] = np.nan      # NaN on the left
    y[1:BLOCK:4] = np.nan      # NaN on the right
    x[2:BLOCK:8] = np.nan      # NaN on both sides
    y[2:BLOCK:8] = np.nan
    mx, mn = run_maximum_minimum(x, y, dtype, propagate, device)
    if propagate:   # PropagateNan.ALL: NaN if either operand is NaN
        ref_mx, ref_mn = np.maximum(x, y), np.minimum(x, y)
    else:           # default PropagateNan.NONE: the non-NaN operand (IEEE maxNum/minNum)
        ref_mx, ref_mn = np.fmax(x, y), np.fmin(x, y)
    assert_exact(mx, ref_mx)
    assert_exact(mn, ref_mn)


# --------------------------------------------------------------------------------------
# casts
# --------------------------------------------------------------------------------------


@triton.jit
def _cast_kernel(X, Z, XT: tl.constexpr, DST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if XT is not None:
        x = x.to(XT, bitcast=True)
    z = x.to(DST)
    tl.static_assert(DST == z.dtype)
    tl.store(Z + offs, z)


def _cast_data(src, dst, rs):
    if src in INT_DTYPES:
        x = rand_data(src, BLOCK, rs)
        x[:2] = [0, 1]
        if src in ("int32", "int64") and dst in ("float32", "bfloat16", "float16"):
            # large magnitudes: the conversion rounds to nearest even
            big = 2 ** 24 + 1 if dst == "float32" else 2 ** 11 + 1
            hi = 2 ** 31 - 1 if src == "int32" else 2 ** 62
            x[2:6] = [big, -big, hi, -hi]
            if dst == "float16":
                x = np.clip(x, -65504, 65504).astype(x.dtype)
        if src == "uint32":
            x[2:4] = [0xFFFFFFFF, 0x80000001]  # converted as unsigned
        return x
    if dst in INT_DTYPES:
        # in range of the destination; fractional parts are truncated toward zero
        if dst.startswith("u"):
            lo, hi = 0.0, 255.0 if dst == "uint8" else 1e9
        else:
            info = np.iinfo(NP[dst])
            lo, hi = max(float(info.min) + 1, -6e4), min(float(info.max) - 1, 6e4)
        x = rand_data(src, BLOCK, rs, lo=lo, hi=hi)
        x[:6] = round_to(src, [0.0, -0.0, 0.75, -0.75, 2.5, -2.5 if lo < 0 else 3.5])
        return x
    x = rand_data(src, BLOCK, rs, lo=-1000.0, hi=1000.0)
    x[:5] = [np.inf, -np.inf, np.nan, 0.0, -0.0]
    if src == "float64":
        x[5:8] = [1.0 + 2.0 ** -40, 1e-40, 3e38 * 10]  # rounding, fp32 subnormal, overflow
    return x


def _cast_ref(src, dst, x):
    if dst in INT_DTYPES:
        if src in INT_DTYPES:
            return x.astype(NP[dst])  # wrap / sign- or zero-extend like C
        return np.trunc(x.astype(np.float64)).astype(NP[dst])
    with np.errstate(over="ignore"):
        return round_to(dst, x.astype(np.float64) if src != "float64" else x)


CASTS = [
    ("int32", "int8"), ("uint8", "int32"), ("int8", "uint32"), ("uint32", "int64"),
    ("int32", "float32"), ("int64", "float32"), ("uint32", "float32"), ("int16", "bfloat16"),
    ("float32", "int32"), ("float64", "int64"), ("float32", "uint8"), ("float32", "float64"),
    ("float64", "float32"), ("bfloat16", "float32"), ("float16", "bfloat16"), ("float64", "bfloat16"),
]


@pytest.mark.parametrize("src, dst", CASTS)
def test_cast(src, dst, device):
    rs = np.random.RandomState(12)
    x = _cast_data(src, dst, rs)
    z = empty(BLOCK, dst, device)
    _cast_kernel[(1,)](dev(x, device, src), z, XT=load_cast(src), DST=tl_dtype(dst), BLOCK=BLOCK)
    ref = _cast_ref(src, dst, x)
    if src == "float64" and dst == "bfloat16":
        # fp64 -> bf16 may round twice (through fp32) on some backends: allow 1 ulp there
        np.testing.assert_allclose(host(z, dst), ref, rtol=2 ** -8)
    else:
        assert_exact(host(z, dst), ref)


@triton.jit
def _bool_cast_kernel(X, Z0, Z1, Z2, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    b = x.to(tl.int1)                       # x != 0 (NaN is true)
    tl.store(Z0 + offs, tl.where(b, 1, 0))
    tl.store(Z1 + offs, (x > 0).to(tl.int32))  # true -> 1 (zero-extended), not -1
    tl.store(Z2 + offs, (x > 0).to(tl.float32))


def test_casts_to_and_from_bool(device):
    x = np.array([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, 1e-30, -1e-30] * (BLOCK // 8), dtype=np.float32)
    z0, z1 = (torch.empty(BLOCK, dtype=torch.int32, device=device) for _ in range(2))
    z2 = torch.empty(BLOCK, dtype=torch.float32, device=device)
    _bool_cast_kernel[(1,)](dev(x, device, "float32"), z0, z1, z2, BLOCK=BLOCK)
    assert_exact(z0.cpu().numpy(), (x != 0).astype(np.int32))
    with np.errstate(invalid="ignore"):
        assert_exact(z1.cpu().numpy(), (x > 0).astype(np.int32))
        assert_exact(z2.cpu().numpy(), (x > 0).astype(np.float32))


@triton.jit
def _bitcast_kernel(X, Z, DST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    z = x.to(DST, bitcast=True)
    tl.static_assert(DST == z.dtype)
    tl.store(Z + offs, z)


@pytest.mark.parametrize("src, dst", [("float32", "int32"), ("int32", "float32"), ("float16", "int16"),
                                      ("bfloat16", "int16"), ("float64", "int64")])
def test_bitcast(src, dst, device):
    rs = np.random.RandomState(13)
    if src == "int32":
        # bit patterns of ordinary floats (no NaNs, whose payload is not compared)
        x = rs.uniform(-100, 100, size=BLOCK).astype(np.float32).view(np.int32)
    else:
        x = rand_data(src, BLOCK, rs)
        if src in FLOAT_DTYPES:
            x[:3] = [np.inf, -0.0, 1.0]
    xd = dev(x, device, src)
    z = empty(BLOCK, dst, device)
    _bitcast_kernel[(1,)](xd, z, DST=tl_dtype(dst), BLOCK=BLOCK)
    if src == "bfloat16":
        expected_bits = xd.cpu().view(torch.int16).numpy()
    else:
        expected_bits = x.view(NP[dst])
    assert_exact(host(z, dst), expected_bits)


# --------------------------------------------------------------------------------------
# fp32 -> fp16 / bf16 rounding
# --------------------------------------------------------------------------------------


@triton.jit
def _downcast_kernel(X, Z, DST: tl.constexpr, ROUNDING: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if ROUNDING is None:
        z = x.to(DST)
    else:
        z = x.to(DST, fp_downcast_rounding=ROUNDING)
    tl.store(Z + offs, z)


def _rounding_inputs(dst):
    rs = np.random.RandomState(14)
    if dst == "float16":
        u = 2.0 ** -10  # ulp of fp16 at 1.0
        special = [1 + u / 2, 1 + 3 * u / 2, -(1 + u / 2), -(1 + 3 * u / 2),      # ties -> even
                   1 + u / 2 + 2 ** -20, 1 + u / 2 - 2 ** -20,                  # just off a tie
                   65504.0, 65519.0, 65520.0, 70000.0, -70000.0,                 # overflow threshold
                   2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 1e-6, -1e-6,          # subnormals
                   np.inf, -np.inf, np.nan, 0.0, -0.0]
    else:
        u = 2.0 ** -7  # ulp of bf16 at 1.0
        special = [1 + u / 2, 1 + 3 * u / 2, -(1 + u / 2), -(1 + 3 * u / 2),
                   1 + u / 2 + 2 ** -20, 1 + u / 2 - 2 ** -20,
                   3.3895313892515355e38, 3.4e38, -3.4e38,                        # max bf16, overflow
                   1e-39, 1e-40, np.inf, -np.inf, np.nan, 0.0, -0.0]
    x = rs.uniform(-1000, 1000, size=BLOCK).astype(np.float32)
    x[: len(special)] = np.array(special, dtype=np.float64).astype(np.float32)
    return x


@pytest.mark.parametrize("dst, rounding", [("float16", None), ("float16", "rtz"), ("bfloat16", None),
                                           ("bfloat16", "rtne"), ("bfloat16", "rtz")])
def test_fp32_downcast_rounding(dst, rounding, device):
    x = _rounding_inputs(dst)
    z = empty(BLOCK, dst, device)
    _downcast_kernel[(1,)](dev(x, device, "float32"), z, DST=tl_dtype(dst), ROUNDING=rounding,
                           BLOCK=BLOCK)
    with np.errstate(over="ignore"):
        if rounding == "rtz":
            ref = fp16_rtz(x) if dst == "float16" else bf16_rtz(x)
        else:  # default: round to nearest, ties to even
            ref = x.astype(np.float16) if dst == "float16" else bf16_round(x)
    assert_exact(host(z, dst), ref)


@triton.jit
def _store_cast_kernel(X, Z16, Z8, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)                   # fp32
    tl.store(Z16 + offs, x)                 # the store converts to the pointer's fp16 (RTNE)
    tl.store(Z8 + offs, x.to(tl.int32))     # int32 -> int8: truncating store


def test_store_converts_to_element_type(device):
    x = _rounding_inputs("float16")
    x[~np.isfinite(x)] = 1.0
    x = np.clip(x, -60000, 60000).astype(np.float32)
    z16 = torch.empty(BLOCK, dtype=torch.float16, device=device)
    z8 = torch.empty(BLOCK, dtype=torch.int8, device=device)
    _store_cast_kernel[(1,)](dev(x, device, "float32"), z16, z8, BLOCK=BLOCK)
    assert_exact(z16.cpu().numpy(), x.astype(np.float16))
    assert_exact(z8.cpu().numpy(), np.trunc(x).astype(np.int64).astype(np.int32).astype(np.int8))
