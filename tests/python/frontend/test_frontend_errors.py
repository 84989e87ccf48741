"""Kernels Triton rejects, and bad launches: each raises a Python exception that names the
kernel's file, line and column and shows the source line (compile errors), or names the
argument and value (launch errors), and changes nothing. No C++ diagnostic reaches the user."""

from __future__ import annotations

import inspect

import pytest
import torch

import triton
import triton.language as tl
from tcpu.frontend.errors import CompilationError, InternalError, UnsupportedError

GLOBAL_INT = 7  # not a tl.constexpr: kernels may not read it
GLOBAL_CONST = tl.constexpr(4)


def line_of(fn, text: str) -> int:
    """The file line of the first source line of `fn` containing `text`."""
    lines, first = inspect.getsourcelines(fn.fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def compile_error(kernel, *args, grid=(1,), **kwargs) -> CompilationError:
    with pytest.raises(CompilationError) as info:
        kernel[grid](*args, **kwargs)
    err = info.value
    assert not isinstance(err, InternalError), str(err)
    assert __file__ in str(err) or "test_frontend_errors.py" in str(err)
    assert "error:" not in str(err)  # no clang diagnostic
    return err


def out() -> torch.Tensor:
    return torch.zeros(16)


@triton.jit
def k_break(X):
    for i in range(4):
        break
    tl.store(X, 1.0)


@triton.jit
def k_chained(X, n):
    if 0 < n < 4:
        tl.store(X, 1.0)


@triton.jit
def k_global(X):
    tl.store(X, GLOBAL_INT)


@triton.jit
def k_global_ok(X):
    tl.store(X + tl.arange(0, GLOBAL_CONST), 2.0)


@triton.jit
def k_undefined(X):
    tl.store(X, not_defined_anywhere)  # noqa: F821


@triton.jit
def k_if_types(X, n):
    if n > 0:
        y = 1.0
    else:
        y = 1
    tl.store(X, y)


@triton.jit
def k_loop_type(X, n):
    acc = 0
    for i in range(n):
        acc += 1.5
    tl.store(X, acc)


@triton.jit
def k_arange_pow2(X):
    tl.store(X + tl.arange(0, 12), 1.0)


@triton.jit
def k_arange_runtime(X, n):
    tl.store(X + tl.arange(0, n), 1.0)


@triton.jit
def k_other_without_mask(X):
    x = tl.load(X + tl.arange(0, 16), other=0.0)
    tl.store(X + tl.arange(0, 16), x)


@triton.jit
def k_static_assert(X, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.store(X, 1.0)


@triton.jit
def k_return_in_loop(X, n):
    for i in range(n):
        return
    tl.store(X, 1.0)


@triton.jit
def k_subscript_store(X):
    x = tl.load(X + tl.arange(0, 16))
    x[0] = 1.0
    tl.store(X + tl.arange(0, 16), x)


@triton.jit
def k_argmax_right(X):
    i = tl.argmax(tl.arange(0, 4), 0, tie_break_left=False)
    tl.store(X, i.to(tl.float32))


@triton.jit
def helper_bad(x):
    return x + tl.arange(0, 3)


@triton.jit
def k_calls_helper(X):
    tl.store(X + tl.arange(0, 4), helper_bad(1.0))


@triton.jit
def k_shapes(X):
    a = tl.arange(0, 16)
    b = tl.arange(0, 8)
    tl.store(X + a, a + b)


@triton.jit
def k_ok(X, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, 1.0, mask=offs < n)


# fp8: what Triton 3.6 refuses (measured on an H200: its front end says "cannot cast" for
# integers; its NVIDIA backend fails on fp8 arithmetic, comparisons, reductions and fp64).
@triton.jit
def k_fp8_add(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e5)
    tl.store(X + tl.arange(0, 16), (x + x).to(tl.float32))


@triton.jit
def k_fp8_compare(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e4nv)
    tl.store(X + tl.arange(0, 16), (x < x).to(tl.float32))


@triton.jit
def k_fp8_sum(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e5)
    tl.store(X, tl.sum(x, 0).to(tl.float32))


@triton.jit
def k_fp8_int(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e5)
    tl.store(X + tl.arange(0, 16), x.to(tl.int32).to(tl.float32))


@triton.jit
def k_fp8_fp64(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e4nv)
    tl.store(X + tl.arange(0, 16), x.to(tl.float64).to(tl.float32))


@triton.jit
def k_fp8_rtz(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float16)
    tl.store(X + tl.arange(0, 16), x.to(tl.float8e5, fp_downcast_rounding="rtz").to(tl.float32))


@triton.jit
def k_fp8_full(X):
    x = tl.full((16,), 1.5, tl.float8e4nv)
    tl.store(X + tl.arange(0, 16), x.to(tl.float32))


@triton.jit
def k_fp8_dot_fp16(X):
    a = tl.load(X + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    c = tl.dot(a.to(tl.float8e5), a.to(tl.float16))
    tl.store(X + tl.arange(0, 16), tl.sum(c, 1))


@triton.jit
def k_fp8_store_int(X):
    p = X.to(tl.pointer_type(tl.float8e5))
    tl.store(p + tl.arange(0, 16), tl.arange(0, 16))


@triton.jit
def k_fp8_with_fp64(X):
    x = tl.load(X + tl.arange(0, 16)).to(tl.float8e5)
    y = x + tl.load(X + tl.arange(0, 16)).to(tl.float64)
    tl.store(X + tl.arange(0, 16), y.to(tl.float32))


@triton.jit
def k_cat_ordered(X):
    x = tl.arange(0, 8)
    tl.store(X + tl.arange(0, 16), tl.cat(x, x).to(tl.float32))


@triton.jit
def k_cat_2d(X):
    x = tl.arange(0, 4)[:, None] + tl.arange(0, 4)[None, :]
    y = tl.cat(x, x, can_reorder=True)
    tl.store(X + tl.arange(0, 16), tl.ravel(y).to(tl.float32))


@triton.jit
def k_philox_widths(X):
    c = tl.arange(0, 16)
    a, b, _, _ = tl.philox(7, c.to(tl.int64), c, c, c)
    tl.store(X + c, a.to(tl.float32))


@triton.jit
def k_inline_asm(X):
    x = tl.load(X + tl.arange(0, 16))
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True,
                                  pack=1)
    tl.store(X + tl.arange(0, 16), y)


@triton.jit
def k_mask_wider(X):
    x = tl.arange(0, 8)
    tl.store(X + x[None, :], 1.0, mask=(x[:, None] + x[None, :]) < 8)


@triton.jit
def k_atomic_mask_wider(X):
    x = tl.arange(0, 8)
    tl.atomic_add(X + x[None, :], 1.0, mask=(x[:, None] + x[None, :]) < 8)


@triton.jit
def k_cat_scalar(X):
    x = tl.arange(0, 8)
    tl.store(X + tl.arange(0, 16), tl.cat(x, 1, can_reorder=True).to(tl.float32))


@triton.jit
def k_histogram_2d(X):
    x = tl.arange(0, 4)[:, None] + tl.arange(0, 4)[None, :]
    h = tl.histogram(x, 8)
    tl.store(X + tl.arange(0, 8), h.to(tl.float32))


@triton.jit
def k_gather_ranks(X):
    x = tl.arange(0, 4)[:, None] + tl.arange(0, 4)[None, :]
    g = tl.gather(x, tl.arange(0, 4), 0)
    tl.store(X + tl.arange(0, 4), g.to(tl.float32))


@triton.jit
def k_constexpr_in_loop(X, n):
    for s in tl.static_range(2):
        for i in range(n):
            s = s + 1
        tl.store(X + s, 1.0)


@triton.jit
def k_expand_duplicate(X):
    y = tl.expand_dims(tl.arange(0, 4), (0, -3))
    tl.store(X + tl.arange(0, 4), tl.ravel(y).to(tl.float32))


CASES = [
    (k_mask_wider, (), "tl.store(X + x[None", "mask of shape [8, 8] cannot be broadcast"),
    (k_atomic_mask_wider, (), "tl.atomic_add(", "atomic_add's mask of shape [8, 8]"),
    (k_cat_scalar, (), "tl.cat(x, 1", "cat takes 1-D blocks"),
    (k_histogram_2d, (), "h = tl.histogram", "tl.histogram takes a 1-D block"),
    (k_gather_ranks, (), "g = tl.gather", "source and index must be blocks of one rank"),
    (k_constexpr_in_loop, (3,), "for i in range(n):", "cannot reassign constexpr 's'"),
    (k_expand_duplicate, (), "y = tl.expand_dims", "duplicate axes"),
    (k_inline_asm, (), "y = tl.inline_asm", "which a CPU cannot run"),
    (k_philox_widths, (), "tl.philox(7,", "cannot bitcast int32 to uint64"),
    (k_cat_ordered, (), "tl.cat(x, x)", "pass can_reorder=True"),
    (k_cat_2d, (), "y = tl.cat", "cat takes 1-D blocks, got int32[4, 4]"),
    (k_fp8_store_int, (), "tl.store(p +", "cannot cast int32[16] to fp8e5"),
    (k_fp8_with_fp64, (), "y = x +", "fp8 <-> fp64 conversions"),
    (k_fp8_add, (), "(x + x)", "'+' on fp8e5: Triton cannot compute in fp8"),
    (k_fp8_compare, (), "(x < x)", "'<' on fp8e4nv: Triton cannot compute in fp8"),
    (k_fp8_sum, (), "tl.sum(x, 0)", "tl.sum on fp8e5"),
    (k_fp8_int, (), "x.to(tl.int32)", "cannot cast fp8e5[16] to int32"),
    (k_fp8_fp64, (), "x.to(tl.float64)", "fp8 <-> fp64 conversions"),
    (k_fp8_rtz, (), "fp_downcast_rounding", "only from fp32 to float8e5"),
    (k_fp8_full, (), "tl.full((16,), 1.5", "Triton has no fp8 constants other than 0"),
    (k_fp8_dot_fp16, (), "tl.dot(a.to", "both operands must have one dtype, got fp8e5 and fp16"),
    (k_break, (), "        break", "'break' is not supported"),
    (k_chained, (3,), "0 < n < 4", "chained comparisons"),
    (k_global, (), "GLOBAL_INT)", "global variable GLOBAL_INT"),
    (k_undefined, (), "not_defined_anywhere", "name 'not_defined_anywhere' is not defined"),
    (k_if_types, (3,), "if n > 0", "between the then-branch (fp32) and the else-branch (int32)"),
    (k_loop_type, (3,), "acc += 1.5", "loop-carried variable 'acc'"),
    (k_arange_pow2, (), "tl.arange(0, 12)", "power of 2"),
    (k_arange_runtime, (5,), "tl.arange(0, n)", "must be a compile-time constant"),
    (k_other_without_mask, (), "other=0.0", "`other` cannot be provided without `mask`"),
    (k_return_in_loop, (3,), "        return", "return inside a loop"),
    (k_subscript_store, (), "x[0] = 1.0", "assignment to a subscript"),
    (k_shapes, (), "a + b", "cannot broadcast shapes [16] and [8]"),
]


@pytest.mark.parametrize("kernel, args, where, message", CASES,
                         ids=[c[0].__name__ for c in CASES])
def test_rejected_kernel_names_its_line(kernel, args, where, message) -> None:
    err = compile_error(kernel, out(), *args)
    assert message in str(err), str(err)
    assert err.location is not None
    assert err.location.line == line_of(kernel, where), str(err)
    assert where.split("(")[0].strip() in err.location.source_line
    assert kernel.__name__ in str(err)


def test_static_assert_message_and_line() -> None:
    err = compile_error(k_static_assert, out(), BLOCK=16)
    assert "BLOCK must be a multiple of 32" in str(err)
    assert err.location.line == line_of(k_static_assert, "tl.static_assert")
    k_static_assert[(1,)](out(), BLOCK=64)  # the same kernel with a valid constexpr compiles


def test_error_inside_helper_points_at_the_helper() -> None:
    # As Triton's: the error is raised at the call, from the error in the helper (its cause),
    # so the message shows both lines.
    err = compile_error(k_calls_helper, out())
    assert err.location.line == line_of(k_calls_helper, "helper_bad(1.0)")
    assert isinstance(err.__cause__, CompilationError)
    assert err.__cause__.location.line == line_of(helper_bad, "tl.arange(0, 3)")
    assert "power of 2" in str(err) and "power of 2" in str(err.__cause__)


def test_unsupported_feature_is_named() -> None:
    with pytest.raises(UnsupportedError) as info:
        k_argmax_right[(1,)](out())
    assert "tie_break_left=False" in str(info.value)
    assert info.value.location.line == line_of(k_argmax_right, "tie_break_left=False")


def test_constexpr_global_is_allowed() -> None:
    x = out()
    k_global_ok[(1,)](x)
    assert x[:4].tolist() == [2.0] * 4 and x[4:].sum().item() == 0


def test_jit_function_is_not_callable_from_python() -> None:
    with pytest.raises(RuntimeError, match="outside of a kernel"):
        k_ok(out(), 3, 16)


@pytest.mark.parametrize("grid, message", [
    ((-1,), "out of range"), ((1, 2, 3, 4), "1 to 3 ints"), (("a",), "must be an int"),
    (lambda meta: [2**31], "out of range"),
])
def test_bad_grid_raises_and_launches_nothing(grid, message) -> None:
    x = out()
    with pytest.raises(ValueError, match=message):
        k_ok[grid](x, 16, BLOCK=16)
    assert x.sum().item() == 0


def test_bad_arguments_raise_and_launch_nothing() -> None:
    x = out()
    with pytest.raises(TypeError, match="missing required argument 'n'"):
        k_ok[(1,)](x, BLOCK=16)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        k_ok[(1,)](x, 16, BLOCK=16, bogus=1)
    with pytest.raises(TypeError, match="takes 3 arguments but 4 were given"):
        k_ok[(1,)](x, 16, 16, 5)
    with pytest.raises(TypeError, match="argument 'X' is on device 'meta'"):
        k_ok[(1,)](torch.empty(16, device="meta"), 16, BLOCK=16)
    with pytest.raises(TypeError, match="argument 'X' has dtype torch.complex64"):
        k_ok[(1,)](torch.zeros(16, dtype=torch.complex64), 16, BLOCK=16)
    with pytest.raises(TypeError, match="argument 'n' is a str"):
        k_ok[(1,)](x, "16", BLOCK=16)
    # An int outside [-2**63, 2**64) is Triton's OverflowError.
    with pytest.raises(OverflowError, match="argument 'n' = 36893488147419103232 does not fit"):
        k_ok[(1,)](x, 2**65, BLOCK=16)
    with pytest.raises(OverflowError, match="does not fit"):
        k_ok[(1,)](x, -2**63 - 1, BLOCK=16)
    k_ok.warmup(x, 2**64 - 1, BLOCK=16, grid=(1,))  # u64
    k_ok.warmup(x, -2**63, BLOCK=16, grid=(1,))  # i64
    assert x.sum().item() == 0
    # GPU-only launch options are accepted and ignored; the launch then works.
    k_ok[(1,)](x, 16, BLOCK=16, num_warps=8, num_stages=3, num_ctas=1, maxnreg=128)
    assert x.sum().item() == 16
