"""What a compile error says and where, as Triton lays it out (its own tests and tools read it):

* ``at <line>:<col>:`` of the node at fault, counted in the function's source (its ``def`` is
  line 1, columns from 0), then the source, then what is wrong as the message's last line; tcpu
  adds the file, its line and the kernel's name to the first line;
* an error inside a @jit helper is the ``__cause__`` of an error at the call, each pointing into
  its own function; a helper whose returns disagree in type is refused at its ``def``;
* a failed ``tl.static_assert`` is a CompileTimeAssertionFailure with no cause; a builtin's own
  complaint is the cause of the error at its call, in Triton's words;
* ``not`` of a tuple, which Python would fold, is refused as Triton refuses it; so is an fp8
  format the CPU lacks, in Triton's words, at the statement that makes it;
* tl.extra.cuda's builtins that ask about CUDA's threads and warps are refused with the reason
  (Triton's interpreter refuses them too).
"""

import pytest

import triton
import triton.language as tl
from triton.compiler.errors import CompilationError, CompileTimeAssertionFailure


def compile_error(kernel, signature=None, constexprs=None) -> CompilationError:
    with pytest.raises(CompilationError) as info:
        triton.compile(triton.compiler.ASTSource(fn=kernel, signature=signature or {},
                                                 constexprs=constexprs or {}))
    return info.value


@triton.jit
def k_bad_operand():
    x = 1
    x << 1.5


def test_position_within_the_function_and_message_last():
    err = compile_error(k_bad_operand)
    text = str(err)
    assert text.startswith("at 3:4: "), text
    assert "k_bad_operand" in text.splitlines()[0] and __file__ in text.splitlines()[0]
    assert text.splitlines()[-1] == err.error_message


@triton.jit
def helper_with_bad_name():
    undefined_name  # noqa: F821


@triton.jit
def k_calls_helper():
    # pushes the call to line 3
    helper_with_bad_name()


def test_helper_error_is_the_cause_of_the_error_at_the_call():
    err = compile_error(k_calls_helper)
    assert str(err).startswith("at 3:4: "), str(err)
    assert isinstance(err.__cause__, CompilationError)
    assert str(err.__cause__).startswith("at 2:4: "), str(err.__cause__)
    assert "undefined_name" in str(err.__cause__)


@triton.jit
def helper_returns_two_shapes(n):
    if n == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)


@triton.jit
def k_calls_two_shapes(n):
    helper_returns_two_shapes(n)


def test_return_type_mismatch_points_at_the_def():
    err = compile_error(k_calls_two_shapes, {"n": "i32"})
    assert str(err).startswith("at 2:4: ")
    assert str(err.__cause__).startswith("at 1:0: ")
    assert "Return type mismatch: int32[4] and int32[8]" in str(err.__cause__)


@triton.jit
def k_static_assert():
    tl.static_assert(1 == 2, "one is not two")


def test_static_assert_failure_has_no_cause():
    err = compile_error(k_static_assert)
    assert isinstance(err, CompileTimeAssertionFailure)
    assert err.__cause__ is None
    assert "one is not two" in str(err).splitlines()[-1]


@triton.jit
def k_arange_not_power_of_two():
    tl.arange(2, 7)


@triton.jit
def k_full_not_power_of_two():
    tl.full((16, 33), 0, dtype=tl.int64)


@pytest.mark.parametrize("kernel, message", [
    (k_arange_not_power_of_two, "arange's range must be a power of 2"),
    (k_full_not_power_of_two, "Shape element 1 must be a power of 2"),
])
def test_builtin_complaint_is_the_cause_in_tritons_words(kernel, message):
    err = compile_error(kernel)
    assert str(err.__cause__) == message


@triton.jit
def k_not_tuple():
    not (0, 0)


def test_not_of_a_tuple_is_refused():
    err = compile_error(k_not_tuple)
    assert err.__cause__ is None
    assert str(err).startswith("at 2:4: ")


@triton.jit
def k_num_threads(out):
    n: tl.constexpr = tl.extra.cuda.num_threads()
    tl.store(out + tl.arange(0, n), 1)


def test_cuda_num_threads_is_refused_with_the_reason():
    err = compile_error(k_num_threads, {"out": "*i32"})
    assert "num_threads" in err.error_message and "warps" in err.error_message


@triton.jit
def k_fp8_format(dtype: tl.constexpr):
    a = tl.full((16, 16), 0.0, dtype)
    tl.dot(a, a)


@pytest.mark.parametrize("dtype", [tl.float8e5, tl.float8e4nv, tl.float8e4b15, tl.float8e4b8,
                                   tl.float8e5b16])
def test_every_fp8_format_of_triton_compiles(dtype):
    # Triton's test_fp8_support expects a device that is neither CUDA nor HIP to refuse all but
    # float8e5; tcpu, like Triton's interpreter, runs all five (docs/conformance/triton-tests.md).
    compiled = triton.compile(triton.compiler.ASTSource(fn=k_fp8_format,
                                                        signature={"dtype": "constexpr"},
                                                        constexprs={"dtype": dtype}))
    assert compiled is not None
