"""tcpu._tcpu, the extension module: compile tl C++ source in process, launch it on numpy
arrays, and the errors of both (python/README.md, "The launch interface").

Run: PYTHONPATH=<build>/python /usr/bin/python3 -m pytest tests/python/packaging/test_extension.py
"""

import re

import numpy as np
import pytest

from tcpu import _tcpu

VECTOR_ADD = """
#include "tcpu/tl.h"
namespace tl = tcpu::tl;
template <int BLOCK_SIZE>
struct add_kernel : tl::program {
  void operator()(const float* x_ptr, const float* y_ptr, float* output_ptr,
                  int32_t n_elements) const {
    const auto offsets = program_id(0) * BLOCK_SIZE + tl::arange<0, BLOCK_SIZE>();
    const auto mask = offsets < n_elements;
    tl::store(output_ptr + offsets, tl::load(x_ptr + offsets, mask) + tl::load(y_ptr + offsets, mask),
              mask);
  }
};
TL_KERNEL(add_kernel, add_kernel<256>);
"""

# Writes each scalar it gets into one of two outputs, to check how launch converts them.
SCALARS = """
#include "tcpu/tl.h"
struct scalars : tcpu::tl::program {
  void operator()(int64_t* ints, double* floats, bool flag, int8_t i8, int16_t i16, int32_t i32,
                  int64_t i64, uint8_t u8, uint16_t u16, uint32_t u32, uint64_t u64, _Float16 f16,
                  __bf16 bf16, float f32, double f64) const {
    ints[0] = flag; ints[1] = i8; ints[2] = i16; ints[3] = i32; ints[4] = i64;
    ints[5] = u8; ints[6] = u16; ints[7] = u32; ints[8] = static_cast<int64_t>(u64);
    floats[0] = static_cast<double>(f16); floats[1] = static_cast<double>(static_cast<float>(bf16));
    floats[2] = f32; floats[3] = f64;
  }
};
TL_KERNEL(scalars, scalars);
"""
SCALAR_CODES = "PP?bhilBHILeEfd"

MULTIPLY_ADD = """
#include "tcpu/tl.h"
struct multiply_add : tcpu::tl::program {
  void operator()(const float* x, const float* y, const float* z, float* out, int32_t n) const {
    for (int32_t i = 0; i < n; ++i) out[i] = x[i] * y[i] + z[i];
  }
};
TL_KERNEL(multiply_add, multiply_add);
"""

ASSERTING = """
#include "tcpu/tl.h"
struct checked : tcpu::tl::program {
  void operator()(const int32_t* values, int32_t limit) const {
    device_assert(values[program_id(0)] < limit, "value below the limit");
  }
};
TL_KERNEL(checked, checked);
"""


def address(array):
    return array.ctypes.data


@pytest.fixture(scope="module")
def add():
    return _tcpu.compile_kernel(VECTOR_ADD, "add_kernel")


def test_vector_add_over_a_ragged_grid(add):
    n = 1000  # not a multiple of the block: the last program is masked
    x = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
    y = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    out = np.full(n + 8, -7.0, dtype=np.float32)  # past n: must stay untouched
    add.launch((n + 255) // 256, 1, 1, 0, "PPPi", (address(x), address(y), address(out), n))
    np.testing.assert_array_equal(out[:n], x + y)
    np.testing.assert_array_equal(out[n:], np.full(8, -7.0, dtype=np.float32))
    assert add.name == "add_kernel" and add.num_params == 4


def test_args_may_be_a_list_and_threads_set_per_launch(add):
    before = _tcpu.get_num_threads()
    x = np.arange(512, dtype=np.float32)
    out = np.zeros(512, dtype=np.float32)
    add.launch(2, 1, 1, 1, "PPPi", [address(x), address(x), address(out), 512])
    np.testing.assert_array_equal(out, 2 * x)
    assert _tcpu.get_num_threads() == before  # num_threads applied to that launch only


def test_set_num_threads():
    before = _tcpu.get_num_threads()
    try:
        _tcpu.set_num_threads(1)
        assert _tcpu.get_num_threads() == 1
    finally:
        _tcpu.set_num_threads(0)
    assert _tcpu.get_num_threads() == before
    with pytest.raises(_tcpu.Error) as raised:
        _tcpu.set_num_threads(-1)
    assert raised.value.code == "TCPU_ERROR_INVALID_VALUE"


def test_every_scalar_code_converts_exactly():
    kernel = _tcpu.compile_kernel(SCALARS, "scalars")
    ints = np.zeros(9, dtype=np.int64)
    floats = np.zeros(4, dtype=np.float64)
    values = (True, -128, -32768, -(2**31), -(2**63), 255, 65535, 2**32 - 1, 2**64 - 1,
              0.1, 1 / 3, 0.1, 0.1)
    kernel.launch(1, 1, 1, 0, SCALAR_CODES, (address(ints), address(floats)) + values)
    assert ints[:8].tolist() == [1, -128, -32768, -(2**31), -(2**63), 255, 65535, 2**32 - 1]
    assert ints[8:].view(np.uint64)[0] == 2**64 - 1
    assert floats[0] == float(np.float16(0.1))
    import torch  # bf16 rounds to nearest even, as torch converts a Python float
    assert floats[1] == torch.tensor(1 / 3, dtype=torch.bfloat16).item()
    assert floats[2] == float(np.float32(0.1))
    assert floats[3] == 0.1
    # numpy scalars are ints and floats too
    kernel.launch(1, 1, 1, 0, SCALAR_CODES,
                  (address(ints), address(floats), np.bool_(False), np.int8(3), 4, 5, 6, 7, 8, 9,
                   np.uint64(10), 1.5, 2.5, np.float32(3.5), np.float64(4.5)))
    assert ints.tolist() == [0, 3, 4, 5, 6, 7, 8, 9, 10]
    assert floats.tolist() == [1.5, 2.5, 3.5, 4.5]


def test_fp_contract_off_rounds_the_product():
    rng = np.random.default_rng(3)
    x, y, z = (rng.standard_normal(4096, dtype=np.float32) for _ in range(3))
    out = np.zeros(4096, dtype=np.float32)
    args = (address(x), address(y), address(z), address(out), 4096)
    _tcpu.compile_kernel(MULTIPLY_ADD, "multiply_add", fp_contract=False).launch(
        1, 1, 1, 0, "PPPPi", args)
    np.testing.assert_array_equal(out, x * y + z)  # numpy rounds x * y to fp32 first
    if "+fma" in _tcpu.host_target()[1].split(","):
        _tcpu.compile_kernel(MULTIPLY_ADD, "multiply_add").launch(1, 1, 1, 0, "PPPPi", args)
        fused = (x.astype(np.float64) * y + z).astype(np.float32)  # the product is exact
        assert np.count_nonzero(out != x * y + z) > 0, "fp_contract=True did not fuse"
        np.testing.assert_array_equal(out, fused)


def test_check_bounds_is_accepted():
    for check in (True, False, None):
        kernel = _tcpu.compile_kernel(VECTOR_ADD, "add_kernel", check_bounds=check)
        x = np.ones(256, dtype=np.float32)
        out = np.zeros(256, dtype=np.float32)
        kernel.launch(1, 1, 1, 0, "PPPi", (address(x), address(x), address(out), 256))
        assert out.tolist() == [2.0] * 256


def test_compile_error_carries_clangs_diagnostic():
    source = '#include "tcpu/tl.h"\nint broken() { return undeclared_name; }\n'
    with pytest.raises(_tcpu.Error) as raised:
        _tcpu.compile_kernel(source, "broken")
    error = raised.value
    assert isinstance(error, RuntimeError)
    assert error.code == "TCPU_ERROR_INVALID_SOURCE"
    assert re.search(r":2:23: error: use of undeclared identifier 'undeclared_name'", error.detail)
    assert error.detail in str(error)


def test_unknown_kernel_name_is_an_error():
    with pytest.raises(_tcpu.Error) as raised:
        _tcpu.compile_kernel(VECTOR_ADD, "no_such_kernel")
    assert raised.value.code == "TCPU_ERROR_NOT_FOUND"
    assert "no_such_kernel" in raised.value.detail


@pytest.mark.parametrize("codes, message", [
    ("PPP", r"has 4 parameters but codes 'PPP' has 3"),
    ("PPPiP", r"has 4 parameters but codes 'PPPiP' has 5"),
    ("PxPi", r"codes\[1\]='x' \(for argument 1 \('y_ptr'\)\) is not a code"),
    ("fPPi", r"codes\[0\]='f' \(fp32\) does not match argument 0 \('x_ptr'\), which is ptr"),
    ("PPPl", r"codes\[3\]='l' \(i64\) does not match argument 3 \('n_elements'\), which is i32"),
])
def test_bad_codes_raise_value_error(add, codes, message):
    out = np.zeros(4, dtype=np.float32)
    with pytest.raises(ValueError, match=message):
        add.launch(1, 1, 1, 0, codes, (address(out),) * 3 + (4,))


def test_bad_arguments_raise_type_and_overflow_errors(add):
    out = np.zeros(4, dtype=np.float32)
    p = address(out)
    with pytest.raises(TypeError, match=r"takes 4 arguments, got 3"):
        add.launch(1, 1, 1, 0, "PPPi", (p, p, p))
    with pytest.raises(TypeError, match=r"argument 1 \('y_ptr'\) \(code 'P', pointer\): expected an int address"):
        add.launch(1, 1, 1, 0, "PPPi", (p, out, p, 4))
    with pytest.raises(TypeError, match=r"argument 3 \('n_elements'\) \(code 'i', i32\): expected an int"):
        add.launch(1, 1, 1, 0, "PPPi", (p, p, p, 4.0))
    with pytest.raises(OverflowError, match=r"argument 3 \('n_elements'\).*out of the type's range"):
        add.launch(1, 1, 1, 0, "PPPi", (p, p, p, 2**31))
    with pytest.raises(OverflowError, match=r"argument 0 \('x_ptr'\)"):
        add.launch(1, 1, 1, 0, "PPPi", (-1, p, p, 4))
    with pytest.raises(TypeError, match=r"args must be a tuple"):
        add.launch(1, 1, 1, 0, "PPPi", p)
    with pytest.raises(TypeError, match=r"codes must be a str"):
        add.launch(1, 1, 1, 0, b"PPPi", (p, p, p, 4))
    with pytest.raises(ValueError, match=r"gy=-1 is not an int in \[0, 2\*\*32\)"):
        add.launch(1, -1, 1, 0, "PPPi", (p, p, p, 4))
    # none of these launched: the output is untouched
    assert out.tolist() == [0.0] * 4


def test_failed_device_assert_raises_assert_error():
    kernel = _tcpu.compile_kernel(ASSERTING, "checked")
    values = np.array([1, 2, 30, 4], dtype=np.int32)
    kernel.launch(4, 1, 1, 0, "Pi", (address(values), 100))  # holds everywhere
    with pytest.raises(_tcpu.AssertError) as raised:
        kernel.launch(4, 1, 1, 0, "Pi", (address(values), 10))
    error = raised.value
    assert isinstance(error, _tcpu.Error)
    assert error.code == "TCPU_ERROR_ASSERT"
    assert "value below the limit" in error.detail
    assert "(2, 0, 0)" in error.detail  # the failing program


def test_host_target_and_version():
    cpu, features = _tcpu.host_target()
    assert cpu and isinstance(cpu, str)
    assert all(feature[0] in "+-" for feature in features.split(",") if feature)
    assert re.fullmatch(r"\d+\.\d+\.\d+", _tcpu.version())
