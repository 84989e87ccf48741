"""Tuples in kernels, as Triton has them: a tuple argument (nested, a NamedTuple, torch.Size)
whose elements are specialized each as an argument of its own (None, ints equal to 1,
tl.constexpr and @jit functions compiled in), `tl.tuple(...)`, and a comprehension over a
compile-time tuple (python/tcpu/frontend/arguments.py, generate.py)."""

from typing import NamedTuple

import pytest
import torch

import triton
import triton.language as tl


@triton.jit
def _store_each(ptrs, values):
    for i in tl.static_range(len(values)):
        tl.store(ptrs[i], values[i])


@triton.jit
def store_incremented(ptrs, values):
    _store_each(ptrs, tl.tuple([v + 1 for v in values]))


@pytest.mark.parametrize("size", [0, 1, 3])
def test_a_tuple_of_pointers_and_a_tuple_of_ints(size):
    outs = tuple(torch.zeros(1, dtype=torch.float32) for _ in range(size))
    values = tuple(10 * (i + 1) for i in range(size))
    store_incremented[(1,)](outs, values)
    assert [o.item() for o in outs] == [v + 1 for v in values]


@triton.jit
def nested(out, t):
    tl.static_assert(t[1][1] is None)
    tl.static_assert(t[1][3] == 4)
    tl.store(out + 0, tl.load(t[0]))
    tl.store(out + 1, t[1][0])
    tl.store(out + 2, tl.load(t[1][2]))
    tl.store(out + 3, t[1][3] + t[2])


def test_nested_tuples_with_none_constexpr_and_a_one():
    a = torch.tensor([8], dtype=torch.int32)
    b = torch.tensor([12], dtype=torch.int32)
    out = torch.zeros(4, dtype=torch.int32)
    nested[(1,)](out, (a, (7, None, b, tl.constexpr(4)), 1))
    assert out.tolist() == [8, 7, 12, 5]
    # The 1 was compiled in as Triton specializes it; another value is another kernel.
    nested[(1,)](out, (a, (7, None, b, tl.constexpr(4)), 30))
    assert out.tolist() == [8, 7, 12, 34]


class Closure(NamedTuple):
    fn: tl.constexpr
    captured: tuple


class Matrix(NamedTuple):
    ptr: object
    shape: tuple
    stride: tuple


@triton.jit
def _scale(x, a):
    return x * tl.load(a)


@triton.jit
def _as_matrix(ptr, shape, stride):
    return Matrix(ptr=ptr, shape=shape, stride=stride)


@triton.jit
def apply_closure(closure, src, dst, B: tl.constexpr):
    m = tl.arange(0, B)[:, None]
    n = tl.arange(0, B)[None, :]
    s = _as_matrix(src.ptr, src.shape, src.stride)
    mask = (m < s.shape[0]) & (n < s.shape[1])
    x = tl.load(s.ptr + m * s.stride[0] + n * s.stride[1], mask=mask, other=0)
    y = closure.fn(x, *closure.captured)
    mask = (m < dst.shape[0]) & (n < dst.shape[1])
    tl.store(dst.ptr + m * dst.stride[0] + n * dst.stride[1], y, mask=mask)


def test_named_tuples_keep_their_fields_and_carry_a_jit_function():
    x = torch.randn(6, 5)
    y = torch.zeros(3, 4)
    a = torch.tensor([2.5])
    apply_closure[(1,)](Closure(_scale, (a,)), Matrix(x, x.shape, x.stride()),
                        Matrix(y, y.shape, y.stride()), B=8)
    assert torch.equal(y, x[:3, :4] * 2.5)


@triton.jit
def copy_through(pair, n, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(pair[1] + i, tl.load(pair[0] + i, mask=i < n) * 2, mask=i < n)


def test_a_tuple_leaf_read_overlapping_a_written_one_reads_at_the_load():
    # The kernel reads pair[0] and writes pair[1]; passed overlapping, the read must see the
    # memory as it was at the load, as on the GPU (the aliasing check looks into tuples).
    buf = torch.arange(8, dtype=torch.float32)
    copy_through[(1,)]((buf[0:], buf[1:]), 7, B=8)
    assert buf.tolist() == [0, 0, 2, 4, 6, 8, 10, 12]


def test_torch_size_and_strides_are_tuples():
    @triton.jit
    def times_two(x, shape: tl.constexpr, strides):
        p = x + tl.arange(0, shape[0])[:, None] * strides[0] + tl.arange(0, shape[1])[None, :] * strides[1]
        tl.store(p, tl.load(p) * 2)

    x = torch.arange(16).reshape(4, 4)
    expected = x * 2
    times_two[(1,)](x, x.shape, x.stride())
    assert torch.equal(x, expected)


def test_a_comprehension_with_a_condition_is_refused():
    @triton.jit
    def filtered(out, t):
        u = tl.tuple([v for v in t if v > 1])
        tl.store(out, u[0])

    with pytest.raises(triton.CompilationError, match="no 'if' clause"):
        filtered[(1,)](torch.zeros(1), (1, 2))


def test_a_descriptor_inside_a_tuple_is_refused_by_name():
    from triton.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def k(t):
        pass

    x = torch.zeros(8, 8)
    d = TensorDescriptor.from_tensor(x, [8, 8])
    with pytest.raises(TypeError, match=r"'t\[0\]'.*descriptor inside a tuple"):
        k[(1,)]((d,))
