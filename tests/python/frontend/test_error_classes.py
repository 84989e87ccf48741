"""Triton's exception classes, and the kernels whose refusal or acceptance follows Triton.

What Triton refuses at compile time is a `triton.compiler.errors.CompilationError`, itself a
`triton.TritonError`, carrying `src`, `node`, `error_message` and `message`, with the builtin's
complaint as its `__cause__` (Triton's tests read it there). A launch option Triton's backends
refuse is their AssertionError; a bad host descriptor, their ValueError. None of these messages
shows a C++ diagnostic, and tcpu's own bugs (InternalError) are never one of Triton's classes.
Kernels that used to leak clang's errors and that Triton accepts run with Triton's meaning."""

from __future__ import annotations

import itertools
import pickle
import warnings

import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON
from triton.compiler.errors import CompilationError, CompileTimeAssertionFailure

# What a C++ diagnostic or tcpu's generated source would show.
CPP_MARKS = ("clang", "kernel.cpp", "<tcpu>", "error:", "tcpu::tl", "static_assert", "note:")


def no_cpp(text: str) -> None:
    for mark in CPP_MARKS:
        assert mark not in text, f"{mark!r} reached the user:\n{text}"


def refused(kernel, *args, match: str, **kwargs) -> CompilationError:
    """The CompilationError `kernel[(1,)](*args)` raises: a TritonError too, pointing at this
    file, with what is wrong in its message and its cause, and no C++ in either."""
    with pytest.raises(triton.TritonError) as info:
        kernel[(1,)](*args, **kwargs)
    err = info.value
    assert isinstance(err, CompilationError), type(err)
    text = str(err)
    if not REAL_TRITON:
        assert __file__ in text and "line " in text and "column " in text, text
        no_cpp(text)
    cause = str(err.__cause__) if err.__cause__ is not None else err.error_message
    assert match in cause, cause
    assert match in text
    return err


# --- the classes ------------------------------------------------------------------------------
def test_class_hierarchy_is_tritons():
    assert issubclass(CompilationError, triton.TritonError)
    assert triton.CompilationError is CompilationError
    assert issubclass(CompileTimeAssertionFailure, CompilationError)


def test_triton_compiler_is_an_attribute_of_triton():
    # `import triton` alone reaches triton.compiler.errors, as Triton's tests write it.
    assert triton.compiler.errors.CompilationError is CompilationError


def test_interpreter_error_is_tritons():
    # Triton's tests import it beside CompilationError and expect one or the other.
    from triton.runtime.errors import InterpreterError
    assert issubclass(InterpreterError, triton.TritonError)
    assert not issubclass(InterpreterError, CompilationError)
    assert str(InterpreterError("what went wrong")) == "what went wrong"
    assert str(InterpreterError()) == ""


@pytest.mark.skipif(REAL_TRITON, reason="tcpu's own classes")
def test_tcpu_bugs_are_not_refusals():
    from tcpu.frontend.errors import InternalError, UnsupportedError
    assert issubclass(UnsupportedError, CompilationError)
    # A tcpu bug must not satisfy pytest.raises(triton.TritonError) written for a refusal.
    assert not issubclass(InternalError, triton.TritonError)
    assert issubclass(InternalError, RuntimeError)


@triton.jit
def _static_assert_kernel(X, N: tl.constexpr):
    tl.static_assert(N > 4, "N must exceed 4")
    tl.store(X, N)


def test_compilation_error_attributes_and_except_clause():
    x = torch.zeros(1)
    caught = None
    try:
        _static_assert_kernel[(1,)](x, 2)
    except CompilationError as e:  # a user's except clause, as with Triton
        caught = e
    assert isinstance(caught, CompileTimeAssertionFailure)
    assert "N must exceed 4" in caught.error_message
    assert caught.message == str(caught)
    assert "static_assert" in caught.src and "def _static_assert_kernel" in caught.src
    # node's position is in `src`'s lines, as in Triton's error.
    assert "tl.static_assert" in caught.src.splitlines()[caught.node.lineno - 1]
    copy = pickle.loads(pickle.dumps(caught))  # multiprocessing moves errors by pickle
    assert type(copy) is type(caught) and str(copy) == str(caught)


# --- refused as Triton refuses them -----------------------------------------------------------
@triton.jit
def _atomic_add_kernel(P):
    tl.atomic_add(P + tl.arange(0, 4), 1)


@triton.jit
def _atomic_max_kernel(P):
    tl.atomic_max(P + tl.arange(0, 4), 1)


@triton.jit
def _atomic_cas_kernel(P):
    tl.atomic_cas(P, 0, 1)


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int16, torch.bool])
def test_atomic_rmw_narrow_ints_refused(dtype):
    p = torch.zeros(4, dtype=dtype)
    refused(_atomic_add_kernel, p, match="atomic_add does not support")
    assert not p.any()


def test_atomic_max_fp16_refused_add_accepted():
    p = torch.zeros(4, dtype=torch.float16)
    refused(_atomic_max_kernel, p, match="atomic_max does not support")
    _atomic_add_kernel[(1,)](p)
    assert p.tolist() == [1.0] * 4


@triton.jit
def _or_kernel(X, Y):
    offs = tl.arange(0, 4)
    tl.store(X + offs, tl.load(X + offs) | tl.load(Y + offs))


@pytest.mark.parametrize("x, y", [(torch.uint64, torch.float64), (torch.float64, torch.int16)])
def test_bitwise_op_on_a_float_refused_in_tritons_words(x, y):
    # Triton promotes both operands first (to fp64 here), then refuses the pair; its
    # test_bitwise_op matches "invalid operands of type".
    refused(_or_kernel, torch.zeros(4, dtype=x), torch.zeros(4, dtype=y),
            match="invalid operands of type triton.language.float64 and triton.language.float64")


def test_atomic_cas_widths():
    refused(_atomic_cas_kernel, torch.zeros(1, dtype=torch.int8), match="atomic_cas")
    p = torch.zeros(1, dtype=torch.int16)
    _atomic_cas_kernel[(1,)](p)
    assert p.item() == 1


@triton.jit
def _narrow_descriptor_kernel(X, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, [64, 64], [64, 1], [8, BLOCK])
    tile = desc.load([0, 0])
    desc.store([8, 0], tile)


def test_descriptor_rows_under_16_bytes_refused():
    x = torch.zeros(64, 64, dtype=torch.int32)
    refused(_narrow_descriptor_kernel, x, 2, match="at least 16 bytes in the last dimension")
    _narrow_descriptor_kernel[(1,)](x, 4)  # 4 * 4 bytes: accepted


@triton.jit
def _strided_descriptor_kernel(X):
    desc = tl.make_tensor_descriptor(X, [64, 64], [64, 2], [8, 8])
    desc.store([0, 0], desc.load([0, 0]))


def test_descriptor_last_stride_refused():
    refused(_strided_descriptor_kernel, torch.zeros(64, 64), match="last stride must be 1")


def test_host_descriptor_block_shape_power_of_two():
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = torch.zeros(64, 64)
    with pytest.raises(ValueError, match="Shape element 1 must be a power of 2") as info:
        TensorDescriptor.from_tensor(x, [16, 24])
    assert "24" in str(info.value) and "block_shape" in str(info.value)
    TensorDescriptor.from_tensor(x, [16, 32])


@triton.jit
def _plain_kernel(X):
    tl.store(X, 1.0)


def test_num_warps_must_be_a_power_of_two():
    x = torch.zeros(1)
    with pytest.raises(AssertionError, match="num_warps must be a power of 2") as info:
        _plain_kernel[(1,)](x, num_warps=3)
    assert "3" in str(info.value)
    assert x.item() == 0.0
    with pytest.raises(AssertionError, match="power of 2"):
        _plain_kernel.warmup(x, grid=(1,), num_warps=6)
    for w in (1, 2, 4, 8):
        _plain_kernel[(1,)](x, num_warps=w)
    assert x.item() == 1.0


@triton.jit
def _if_on_block_kernel(X):
    x = tl.load(X + tl.arange(0, 2))
    if x > 0:
        tl.store(X, 1.0)


def test_if_on_a_block_of_two_refused():
    with pytest.raises(CompilationError) as info:
        _if_on_block_kernel[(1,)](torch.zeros(2))
    if not REAL_TRITON:
        no_cpp(str(info.value))


# --- accepted as Triton accepts them (clang's errors used to leak) -----------------------------
@triton.jit
def _bool_mask_kernel(X, Y, M: tl.constexpr, n):
    offs = tl.arange(0, 8)
    a = tl.load(X + offs, mask=M, other=-1.0)
    tl.store(Y + offs, a, mask=True)
    b = tl.load(X + offs, mask=n > 2, other=-2.0)
    tl.store(Y + 8 + offs, b, mask=n > 3)
    tl.store(Y + 16, tl.load(X, mask=M, other=-3.0), mask=M)


@pytest.mark.parametrize("m, n", [(True, 4), (False, 3), (True, 2)])
def test_scalar_masks_on_blocks(device, m, n):
    x = torch.arange(8, dtype=torch.float32, device=device)
    y = torch.full((17,), 9.0, device=device)
    _bool_mask_kernel[(1,)](x, y, m, n)
    expect = (x.cpu().tolist() if m else [-1.0] * 8)
    expect += (x.cpu().tolist() if n > 2 else [-2.0] * 8) if n > 3 else [9.0] * 8
    expect += [0.0 if m else 9.0]
    assert y.cpu().tolist() == expect


@triton.jit
def _nested_return_kernel(Flags, Vals, Out):
    # Out[0] keeps -1 only where the inner else returns.
    out = -7
    if tl.load(Flags) != 0:
        if tl.load(Flags + 1) != 0:
            out = tl.load(Vals) * 10
        else:
            return
    else:
        if tl.load(Flags + 2) != 0:
            out = tl.load(Vals + 1) * 10
        else:
            out = tl.load(Vals + 2) * 10
    tl.store(Out, out)


@pytest.mark.parametrize("f0, f1, f2", list(itertools.product([1, 0], repeat=3)))
def test_nested_if_with_early_return(device, f0, f1, f2):
    flags = torch.tensor([f0, f1, f2], dtype=torch.int32, device=device)
    vals = torch.tensor([4, 5, 6], dtype=torch.int32, device=device)
    out = torch.full((1,), -1, dtype=torch.int32, device=device)
    _nested_return_kernel[(1,)](flags, vals, out)
    expect = (40 if f1 else -1) if f0 else (50 if f2 else 60)
    assert out.item() == expect


@triton.jit
def _if_on_one_element_kernel(X, Y):
    x = tl.load(X + tl.arange(0, 1))
    if x > 0:
        tl.store(Y, 1.0)
    else:
        tl.store(Y, 2.0)


@pytest.mark.parametrize("value, expect", [(3.0, 1.0), (-3.0, 2.0)])
def test_if_on_a_one_element_block(device, value, expect):
    x = torch.full((1,), value, device=device)
    y = torch.zeros(1, device=device)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _if_on_one_element_kernel[(1,)](x, y)
    assert y.item() == expect
    if not REAL_TRITON:  # the first compile warns (Triton warns too), at the kernel's line
        assert not caught or any(w.filename == __file__ for w in caught)


# --- must_use_result ---------------------------------------------------------------------------
@triton.must_use_result("Assign it.")
@triton.jit
def _cube(x):
    return x * x * x


@triton.jit
def _drops_a_must_use_result(X):
    _cube(tl.load(X))


@triton.jit
def _uses_a_must_use_result(X):
    x = _cube(tl.load(X))
    tl.store(X, x)


@triton.jit
def _drops_an_advance(X):
    p = tl.make_block_ptr(X, shape=(16,), strides=(1,), offsets=(0,), block_shape=(16,),
                          order=(0,))
    tl.advance(p, (8,))
    tl.store(p, tl.load(p) + 1)


def test_a_dropped_must_use_result_is_refused_as_tritons():
    x = torch.full((16,), 2.0)
    refused(_drops_a_must_use_result, x, match="The result of _cube is not being used. Assign it.")
    _uses_a_must_use_result[(1,)](x)
    assert x[0].item() == 8.0
    # tl.advance changes nothing: Triton refuses a call that drops its result.
    refused(_drops_an_advance, x, match="The result of tl.advance is not being used.")


# --- refusals Triton makes at compile time -----------------------------------------------------
@triton.jit(do_not_specialize=["N"])
def _constexpr_not_to_specialize(X, N: tl.constexpr):
    tl.store(X, N)


@triton.jit
def _fp8_dot_imprecise(X, ACC: tl.constexpr):
    a = tl.full((16, 16), 0.0, tl.float8e5)
    tl.store(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :],
             tl.dot(a, a, max_num_imprecise_acc=ACC))


def test_a_constexpr_listed_in_do_not_specialize_is_refused():
    refused(_constexpr_not_to_specialize, torch.zeros(1), 5,
            match="N marked as constexpr and listed in do_not_specialize")


def test_max_num_imprecise_acc_beyond_k_is_refused_for_fp8():
    x = torch.zeros(256)
    refused(_fp8_dot_imprecise, x, 32, match="max_num_imprecise_acc (32) must be <= K (16)")
    _fp8_dot_imprecise[(1,)](x, 16)  # up to K is accepted (the CPU accumulates exactly anyway)
