"""What a loop carries, with Python's assignment semantics: swaps (`a, b = b, a`, and through a
temporary), loop-carried tuples (nested, with numbers, updated by a helper, in a while loop),
tensor descriptors (carried, or made from a carried pointer), @jit helpers called in loops
(their `return` and their local names are not the loop's), and the errors for a carried tuple
whose structure changes.

Python assigns by reference: `t = a` names the value a holds, so after `a = b`, t still holds
the old value, and `a, b = b, a` evaluates the right side before assigning. Triton's code
generator keeps these semantics (its loop-carried values are SSA block arguments), so each case
here is a plain numpy computation."""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from triton.compiler.errors import CompilationError
from conftest import REAL_TRITON

N = 8


@triton.jit
def _swap_kernel(X, OUT, STEPS, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(X + offs)
    b = a * 0 + 100
    for _ in range(STEPS):
        a, b = b, a  # tuple assignment
    c = a
    d = b
    for _ in range(STEPS):
        t = c  # through a temporary
        c = d
        d = t
    s = 1
    r = 2
    for _ in range(STEPS):
        s, r = r, s + r  # both sides read the old values
    tl.store(OUT + offs, a)
    tl.store(OUT + N + offs, c)
    tl.store(OUT + 2 * N + offs, a * 0 + s)
    tl.store(OUT + 3 * N + offs, a * 0 + r)


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 5])
def test_swaps_read_the_values_before_the_assignment(steps, device):
    x = torch.arange(N, dtype=torch.int32, device=device)
    out = torch.zeros(4 * N, dtype=torch.int32, device=device)
    _swap_kernel[(1,)](x, out, steps, N=N)
    a, b = np.arange(N), np.full(N, 100)
    for _ in range(steps):
        a, b = b, a
    c, d = a, b
    for _ in range(steps):
        c, d = d, c
    s, r = 1, 2
    for _ in range(steps):
        s, r = r, s + r
    got = out.cpu().numpy().reshape(4, N)
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1], c)
    np.testing.assert_array_equal(got[2], np.full(N, s))
    np.testing.assert_array_equal(got[3], np.full(N, r))


@triton.jit
def _advance(state, i):
    # (Triton 3.6 cannot unpack into a nested target: `x, (count, k) = state` fails in its
    # jit.py, so the elements are indexed.)
    return state[0] * state[1][1] + i, (state[1][0] + 1, state[1][1])


@triton.jit
def _tuple_kernel(X, OUT, STEPS, N: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.arange(0, N)
    state = (tl.load(X + offs), (0, SCALE))  # numbers in an assigned tuple become run-time
    for i in range(STEPS):
        state = _advance(state, i)
    pair = (tl.zeros((N,), tl.float32), tl.zeros((N,), tl.int32))
    j = 0
    while j < STEPS:
        pair = (pair[0] + 0.5, pair[1] + j)
        j += 1
    tl.store(OUT + offs, state[0])
    tl.store(OUT + N + offs, state[0] * 0 + state[1][0])
    tl.store(OUT + 2 * N + offs, (pair[0] * 2).to(tl.int32) + pair[1] * 1000)


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_loop_carried_tuples(steps, device):
    x = torch.arange(N, dtype=torch.int32, device=device)
    out = torch.zeros(3 * N, dtype=torch.int32, device=device)
    _tuple_kernel[(1,)](x, out, steps, N=N, SCALE=3)
    v = np.arange(N)
    for i in range(steps):
        v = v * 3 + i
    got = out.cpu().numpy().reshape(3, N)
    np.testing.assert_array_equal(got[0], v)
    np.testing.assert_array_equal(got[1], np.full(N, steps))
    np.testing.assert_array_equal(got[2], np.full(N, steps + 1000 * sum(range(steps))))


@triton.jit
def _scaled(a, k):
    acc = a * k  # the same name as the caller's loop-carried variable
    if k > 100:
        return acc - 1
    return acc


@triton.jit
def _helper_in_loop_kernel(X, OUT, STEPS, N: tl.constexpr):
    offs = tl.arange(0, N)
    acc = tl.load(X + offs)
    for i in range(STEPS):
        acc = _scaled(acc, 2) + i
    tl.store(OUT + offs, acc)


def test_helpers_called_in_a_loop_have_their_own_names_and_returns(device):
    x = torch.arange(N, dtype=torch.int32, device=device)
    out = torch.zeros(N, dtype=torch.int32, device=device)
    _helper_in_loop_kernel[(1,)](x, out, 3, N=N)
    acc = np.arange(N)
    for i in range(3):
        acc = acc * 2 + i
    np.testing.assert_array_equal(out.cpu().numpy(), acc)


@triton.jit
def _tuple_grows_kernel(OUT, STEPS):
    t = (1, 2.0)
    for i in range(STEPS):
        t = (t[0] + 1, t[1], 3)
    tl.store(OUT, t[0])


@triton.jit
def _tuple_element_type_kernel(OUT, STEPS):
    t = (tl.zeros((4,), tl.int32), 1.0)
    for i in range(STEPS):
        t = (t[0].to(tl.float32), t[1])
    tl.store(OUT + tl.arange(0, 4), t[0])


@triton.jit
def _tuple_dtype_changes_kernel(OUT, STEPS):
    t = (tl.zeros((4,), tl.float32), tl.float32)
    for i in range(STEPS):
        t = (t[0] + i, tl.float16)
    tl.store(OUT + tl.arange(0, 4), t[0].to(t[1]))


@pytest.mark.parametrize("kernel", [_tuple_grows_kernel, _tuple_element_type_kernel,
                                    _tuple_dtype_changes_kernel],
                         ids=["structure", "element-type", "compile-time-element"])
def test_a_carried_tuple_that_changes_is_refused(kernel, device):
    out = torch.zeros(4, dtype=torch.float32, device=device)
    # Real Triton raises RuntimeError("error encountered during parsing") for the first two.
    with pytest.raises((CompilationError, RuntimeError) if REAL_TRITON else CompilationError) as e:
        kernel[(1,)](out, 2)
    assert type(e.value).__name__ != "InternalError", str(e.value)  # refused, not a clang failure


@triton.jit
def _descriptor_alias_kernel(X, OUT, STEPS, N: tl.constexpr):
    p = X
    for i in range(STEPS):
        d = tl.make_tensor_descriptor(p, shape=[N * 8], strides=[1], block_shape=[N])
        p = p + N  # p's variable is written in place; d keeps the pointer it was made from
        tl.store(OUT + i * N + tl.arange(0, N), d.load([0]))


@triton.jit
def _descriptor_carried_kernel(X, OUT, STEPS, N: tl.constexpr):
    d = tl.make_tensor_descriptor(X, shape=[N * 8], strides=[1], block_shape=[N])
    for i in range(STEPS):
        tl.store(OUT + i * N + tl.arange(0, N), d.load([0]))
        d = tl.make_tensor_descriptor(X + (i + 1) * N, shape=[N * 8], strides=[1], block_shape=[N])


@pytest.mark.parametrize("kernel", [_descriptor_alias_kernel, _descriptor_carried_kernel],
                         ids=["alias", "carried"])
def test_tensor_descriptors_in_loops(kernel, device):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device=device))
    x = torch.arange(4 * 8, dtype=torch.int32, device=device)
    out = torch.full((12,), -1, dtype=torch.int32, device=device)
    kernel[(1,)](x, out, 3, N=4)
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(12))


@triton.jit
def _self_update_kernel(X, OUT, STEPS, N: tl.constexpr):
    rows = tl.arange(0, N)
    x = tl.load(X + rows[:, None] * N + rows[None, :])
    acc = x
    flipped = x
    total = x
    older = x
    for i in range(STEPS):
        older = acc  # a name for the value before the update
        acc = tl.where(acc > 3, acc * 0.5, acc) + (x + i)  # elementwise in acc: in place
        flipped = tl.trans(flipped) + tl.flip(flipped, 1)  # reads other elements of itself
        total = total + tl.sum(total, axis=0)[None, :] * 0.125
    tl.store(OUT + rows[:, None] * N + rows[None, :], acc)
    tl.store(OUT + N * N + rows[:, None] * N + rows[None, :], flipped)
    tl.store(OUT + 2 * N * N + rows[:, None] * N + rows[None, :], total)
    tl.store(OUT + 3 * N * N + rows[:, None] * N + rows[None, :], older)


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_a_carried_block_updated_from_itself(steps, device):
    """`acc = acc * 0.5 + x` writes acc in place (its reads go through a const reference, so the
    lazy expression does not copy the block: lowering/loop_state.py's read_in_place); updates
    that read other elements of the block, and names holding the old value, still see it whole."""
    x = torch.arange(N * N, dtype=torch.float32, device=device).reshape(N, N) / 7
    out = torch.zeros(4 * N * N, dtype=torch.float32, device=device)
    _self_update_kernel[(1,)](x, out, steps, N=N)
    xs = x.cpu().numpy()
    acc, flipped, total, older = xs.copy(), xs.copy(), xs.copy(), xs.copy()
    for i in range(steps):
        older = acc
        acc = np.where(acc > 3, acc * np.float32(0.5), acc) + (xs + np.float32(i))
        flipped = flipped.T + flipped[:, ::-1]
        total = total + total.sum(axis=0, dtype=np.float32)[None, :] * np.float32(0.125)
    got = out.cpu().numpy().reshape(4, N, N)
    np.testing.assert_array_equal(got[0], acc)
    np.testing.assert_array_equal(got[1], flipped)
    np.testing.assert_allclose(got[2], total, rtol=1e-6)  # the column sums' order is Triton's
    np.testing.assert_array_equal(got[3], older)
