"""Names of triton.language that Triton accepts and tcpu once refused (issue 38), each with
Triton 3.6's meaning: the tensor methods `cast` and `item`, `tl.condition` around a while
test, a 1-tuple `tl.reduce` / `tl.associative_scan` (a 1-tuple in gives a 1-tuple out),
`tl.str_to_ty`, `tl.const`, and the dtype attributes (exponent_bias, itemsize, kind, ...)."""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl


@triton.jit
def _cast_item_kernel(X, Y, S):
    x = tl.load(X + tl.arange(0, 8))
    tl.store(Y + tl.arange(0, 8), x.cast(tl.int32) + x.to(tl.int32))
    one = tl.load(X + tl.arange(0, 1))  # a block of shape [1]
    tl.store(S, one.item() * 2.0)


def test_cast_method_and_item():
    x = torch.tensor([0.5, 1.5, 2.7, -3.2, 4.0, 5.9, -6.1, 7.0])
    y = torch.empty(8, dtype=torch.int32)
    s = torch.empty(1)
    _cast_item_kernel[(1,)](x, y, s)
    assert y.tolist() == (x.to(torch.int32) * 2).tolist()
    assert s.item() == 1.0


@triton.jit
def _item_of_many_kernel(X):
    tl.store(X, tl.load(X + tl.arange(0, 4)).item())


def test_item_refuses_a_block_of_several_elements():
    with pytest.raises(triton.CompilationError, match="single-element"):
        _item_of_many_kernel[(1,)](torch.zeros(4))


@triton.jit
def _condition_kernel(Out, N):
    i = 0
    total = 0
    while tl.condition(i < N, disable_licm=True):
        total += i
        i += 1
    tl.store(Out, total)


def test_condition_wraps_a_while_test():
    out = torch.zeros(1, dtype=torch.int32)
    _condition_kernel[(1,)](out, 10)
    assert out.item() == 45


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _one_tuple_kernel(X, R, C):
    x = tl.load(X + tl.arange(0, 8))
    r = tl.reduce((x,), 0, _add)
    c = tl.associative_scan((x,), 0, _add)
    tl.static_assert(isinstance(r, tuple) and len(r) == 1)
    tl.static_assert(isinstance(c, tuple) and len(c) == 1)
    tl.store(R, r[0])
    tl.store(C + tl.arange(0, 8), c[0])


def test_reduce_and_scan_of_a_one_tuple_give_a_one_tuple():
    x = torch.arange(8, dtype=torch.int32)
    r = torch.zeros(1, dtype=torch.int32)
    c = torch.zeros(8, dtype=torch.int32)
    _one_tuple_kernel[(1,)](x, r, c)
    assert r.item() == 28
    assert c.tolist() == np.cumsum(np.arange(8)).tolist()


def test_str_to_ty_reads_signature_names():
    assert tl.str_to_ty("fp16", None) == tl.float16
    assert tl.str_to_ty("i32", None) == tl.int32
    assert tl.str_to_ty("u8", None) == tl.uint8
    assert tl.str_to_ty("B", None) == tl.int1
    p = tl.str_to_ty("*fp32", None)
    assert p.is_ptr() and p.element_ty == tl.float32 and not p.const
    assert tl.str_to_ty("*kbf16", None).const
    with pytest.raises(KeyError):
        tl.str_to_ty("float", None)


def test_const_is_an_annotation_class():
    assert isinstance(tl.const, type)


# Values as Triton 3.6 defines them (language/core.py's dtype.__init__).
@pytest.mark.parametrize("dt, mantissa, bias", [
    (tl.float8e4b15, 3, 15), (tl.float8e4nv, 3, 7), (tl.float8e4b8, 3, 8), (tl.float8e5, 2, 15),
    (tl.float8e5b16, 2, 16), (tl.float16, 10, 15), (tl.bfloat16, 7, 127), (tl.float32, 23, 127),
    (tl.float64, 52, 1023)])
def test_float_layout(dt, mantissa, bias):
    assert (dt.fp_mantissa_width, dt.exponent_bias) == (mantissa, bias)
    assert dt.kind() == tl.dtype.KIND.FLOATING
    assert not hasattr(dt, "int_signedness")


def test_integer_attributes():
    assert tl.int8.get_int_min_value() == -128 and tl.int8.get_int_max_value() == 127
    assert tl.uint16.get_int_max_value() == 65535 and tl.uint16.get_int_min_value() == 0
    assert tl.int64.int_signedness == tl.dtype.SIGNEDNESS.SIGNED
    assert tl.int1.int_signedness == tl.dtype.SIGNEDNESS.UNSIGNED
    assert tl.int1.kind() == tl.dtype.KIND.BOOLEAN and tl.int32.kind() == tl.dtype.KIND.INTEGRAL
    assert not hasattr(tl.int32, "exponent_bias")
    assert [tl.int32.mangle(), tl.uint8.mangle(), tl.float16.mangle()] == ["i32", "u8", "fp16"]
    assert tl.int32.is_int32() and not tl.uint32.is_int32() and tl.uint32.is_uint32()


def test_dtype_lists_and_names():
    assert tl.dtype.STANDARD_FP_TYPES == ["fp16", "bf16", "fp32", "fp64"]
    assert tl.dtype.is_dtype("fp8e5") and not tl.dtype.is_dtype("float32")
    assert tl.float8e5.is_fp8e5() and not tl.float8e5.is_fp8e4nv()
    assert tl.bfloat16.is_standard_floating() and not tl.float8e5.is_standard_floating()
    assert (tl.float16.itemsize, tl.float64.itemsize, tl.int1.itemsize) == (2, 8, 0)
    assert tl.bfloat16.codegen_name() == "bfloat16" and tl.float16.codegen_name() == "float16"
    for name in ("float16", "bfloat16", "float64", "int8", "uint32", "int1"):  # evaluable
        assert repr(getattr(tl, name)) == f"triton.language.{name}"
    assert tl.float32.with_element_ty(tl.int8) == tl.int8


@triton.jit
def _add_sub_mul_kernel(X, Y):
    x = tl.load(X + tl.arange(0, 4))
    tl.store(Y + tl.arange(0, 4), tl.mul(tl.sub(tl.add(x, 3), 1, sanitize_overflow=False), x))


def test_add_sub_mul_functions():
    x = torch.tensor([1, -2, 3, 100], dtype=torch.int8)
    y = torch.empty(4, dtype=torch.int8)
    _add_sub_mul_kernel[(1,)](x, y)
    assert y.tolist() == [3, 0, 15, -40]  # int8 wraps: 102 * 100 = 10200 = -40 mod 256
