"""What a kernel receives for an array argument (python/tcpu/frontend/specialize.py): as in
Triton, the address of its first element, whatever its strides (strides are the kernel's own
arguments), from a torch tensor, a NumPy array or any DLPack producer; results are written in
place, into the caller's memory. A read-only NumPy array is refused (a kernel may write through
any pointer), naming the argument."""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl


@triton.jit
def strided_copy(src, dst, n, src_stride, dst_stride, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    mask = i < n
    tl.store(dst + i * dst_stride, tl.load(src + i * src_stride, mask=mask) * 2, mask=mask)


def test_a_torch_view_is_the_address_of_its_first_element():
    base = torch.arange(40, dtype=torch.float32).reshape(8, 5)
    column = base[:, 3]  # offset 3, stride 5
    out = torch.zeros(8)
    strided_copy[(1,)](column, out, 8, column.stride(0), 1, BLOCK=8)
    assert torch.equal(out, column * 2)
    # Written in place through a strided view: the base tensor changes, nothing else.
    before = base.clone()
    strided_copy[(1,)](out, base[:, 1], 8, 1, base.stride(0), BLOCK=8)
    expected = before.clone()
    expected[:, 1] = out * 2
    assert torch.equal(base, expected)


def test_a_transposed_tensor_is_its_base_address():
    m = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    t = m.T  # (4, 3), strides (1, 4): the kernel walks it with the strides it is given
    out = torch.zeros(4)
    strided_copy[(1,)](t[:, 2], out, 4, t.stride(0), 1, BLOCK=4)
    assert torch.equal(out, m[2] * 2)


def test_numpy_slices_and_strided_views():
    a = np.arange(20, dtype=np.int32)
    out = np.zeros(5, np.int32)
    strided_copy[(1,)](a[3:], out, 5, 1, 1, BLOCK=8)
    np.testing.assert_array_equal(out, a[3:8] * 2)
    strided_copy[(1,)](a[1::4], out, 5, 4, 1, BLOCK=8)  # a view: its first element, a[1]
    np.testing.assert_array_equal(out, a[1::4] * 2)
    target = np.zeros(10, np.int32)
    strided_copy[(1,)](out, target[::2], 5, 1, 2, BLOCK=8)  # written in place, every other
    np.testing.assert_array_equal(target, np.repeat(out * 2, 2) * np.tile([1, 0], 5))


class DLPackOnly:
    """A producer with nothing but the DLPack protocol (as CuPy, JAX or TensorFlow arrays
    present themselves on the CPU)."""

    def __init__(self, tensor: torch.Tensor) -> None:
        self._tensor = tensor

    def __dlpack__(self, stream=None):
        return torch.utils.dlpack.to_dlpack(self._tensor)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def test_any_dlpack_producer_and_results_in_place():
    src = torch.linspace(0, 1, 16)
    dst = torch.zeros(16)
    strided_copy[(1,)](DLPackOnly(src), DLPackOnly(dst), 16, 1, 1, BLOCK=16)
    assert torch.equal(dst, src * 2)  # the producer's own memory was written


def test_a_read_only_numpy_array_is_refused_naming_the_argument():
    src = np.arange(8, dtype=np.float32)
    frozen = np.zeros(8, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(TypeError, match="argument 'dst' is a read-only array"):
        strided_copy[(1,)](src, frozen, 8, 1, 1, BLOCK=8)
    assert not frozen.any()
    # A read-only input is refused too: a kernel's pointers are all writable in Triton.
    with pytest.raises(TypeError, match="argument 'src' is a read-only array"):
        strided_copy[(1,)](frozen, np.zeros(8, np.float32), 8, 1, 1, BLOCK=8)


@pytest.mark.parametrize("scalar", [np.int64(8), np.int32(8), np.uint8(8), np.bool_(True),
                                    np.float32(8.0)], ids=lambda s: type(s).__name__)
def test_a_numpy_scalar_is_refused_as_triton_refuses_it(scalar):
    # Triton's launcher refuses numpy scalars ("failed to specialize argument of type:
    # numpy.int64"); tcpu took their 0-d array interface for a pointer to a temporary, so a
    # kernel read an address as its n.
    src, dst = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    with pytest.raises(TypeError, match=f"argument 'n' of type: numpy.{type(scalar).__name__}"):
        strided_copy[(1,)](src, dst, scalar, 1, 1, BLOCK=8)
    assert not dst.any()
