"""tl.map_elementwise: a scalar @jit function applied to each element of its operands, which
broadcast to one shape. Its control flow decides per element (an `if` whose branches return
different constants, a `while` with a per-element trip count), it may return several values of
their own dtypes, and `pack` hands it several elements of each operand at once; scalars alone
are refused, as Triton's op maps over tensors only. References are NumPy, computed element by
element in Python."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import triton
import triton.language as tl

from lang_support import dev, host


@triton.jit
def _sign_of_difference(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def _compare_kernel(X, Y, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    z = tl.map_elementwise(_sign_of_difference, tl.load(X + offs), tl.load(Y + offs))
    tl.store(Z + offs, z)


def test_branches_returning_constants(device):
    rs = np.random.RandomState(3)
    x = rs.randint(-4, 4, size=256).astype(np.int32)
    y = rs.randint(-4, 4, size=256).astype(np.int32)
    z = torch.empty(256, dtype=torch.int32, device=device)
    _compare_kernel[(1,)](dev(x, device), dev(y, device), z, BLOCK=256)
    expected = [(-1 if a < b else (0 if a == b else 1)) for a, b in zip(x, y)]
    np.testing.assert_array_equal(host(z), np.array(expected, dtype=np.int32))


@triton.jit
def _selu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def _broadcast_kernel(X, Y, Z, alpha, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(X + rows)  # [M, 1]
    y = tl.load(Y + cols)  # [1, N]
    z = tl.map_elementwise(_selu_scalar, x + y, alpha)
    tl.store(Z + rows * N + cols, z)


def test_broadcast_operands_and_a_scalar(device):
    rs = np.random.RandomState(5)
    x = rs.uniform(-3, 3, size=16).astype(np.float32)
    y = rs.uniform(-3, 3, size=32).astype(np.float32)
    z = torch.empty((16, 32), dtype=torch.float32, device=device)
    _broadcast_kernel[(1,)](dev(x, device), dev(y, device), z, 1.5, M=16, N=32)
    s = (x[:, None] + y[None, :]).astype(np.float64)
    expected = np.where(s > 0, s, 1.5 * np.expm1(np.minimum(s, 0)))
    np.testing.assert_allclose(host(z), expected, rtol=1e-5, atol=1e-6)


@triton.jit
def _collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps, n > 0


@triton.jit
def _loop_kernel(X, STEPS, POSITIVE, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    steps, positive = tl.map_elementwise(_collatz_steps, tl.load(X + offs))
    tl.store(STEPS + offs, steps)
    tl.store(POSITIVE + offs, positive.to(tl.int8))


def test_loop_and_two_outputs_of_their_own_dtypes(device):
    x = np.arange(1, 65, dtype=np.int64) * 7
    steps = torch.empty(64, dtype=torch.int32, device=device)
    positive = torch.empty(64, dtype=torch.int8, device=device)
    _loop_kernel[(1,)](dev(x, device), steps, positive, BLOCK=64)

    def collatz(n: int) -> int:
        count = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            count += 1
        return count

    np.testing.assert_array_equal(host(steps), [collatz(int(n)) for n in x])
    np.testing.assert_array_equal(host(positive), np.ones(64, dtype=np.int8))


@triton.jit
def _packed_fn2(a0, a1, b0, b1):
    return a0 - b0, a1 - b1, a0 * b0 + 1, a1 * b1 + 1


@triton.jit
def _packed_fn4(a0, a1, a2, a3, b0, b1, b2, b3):
    return a0 - b0, a1 - b1, a2 - b2, a3 - b3, a0 * b0 + 1, a1 * b1 + 1, a2 * b2 + 1, a3 * b3 + 1


@triton.jit
def _pack_kernel(A, B, C, D, PACK: tl.constexpr, R: tl.constexpr, S: tl.constexpr,
                 T: tl.constexpr):
    offs = (tl.arange(0, R)[:, None, None] * (S * T) + tl.arange(0, S)[None, :, None] * T
            + tl.arange(0, T)[None, None, :])
    a, b = tl.load(A + offs), tl.load(B + offs)
    # (Triton 3.6 cannot take the function as a constexpr parameter: it is named here.)
    if PACK == 2:
        c, d = tl.map_elementwise(_packed_fn2, a, b, pack=2)
    else:
        c, d = tl.map_elementwise(_packed_fn4, a, b, pack=4)
    tl.store(C + offs, c)
    tl.store(D + offs, d)


@pytest.mark.parametrize("pack", [2, 4])
def test_pack_hands_consecutive_elements_operand_by_operand(pack, device):
    rs = np.random.RandomState(pack)
    a = rs.randint(-100, 100, size=(2, 4, 8)).astype(np.int32)
    b = rs.randint(-100, 100, size=(2, 4, 8)).astype(np.int32)
    c = torch.empty((2, 4, 8), dtype=torch.int32, device=device)
    d = torch.empty((2, 4, 8), dtype=torch.int32, device=device)
    _pack_kernel[(1,)](dev(a, device), dev(b, device), c, d, PACK=pack, R=2, S=4, T=8)
    np.testing.assert_array_equal(host(c), a - b)
    np.testing.assert_array_equal(host(d), a * b + 1)


@triton.jit
def _hypot_scalar(x, y):
    return tl.sqrt(x * x + y * y)


@triton.jit
def _scalar_kernel(X, Y, OUT):
    tl.store(OUT, tl.map_elementwise(_hypot_scalar, tl.load(X), tl.load(Y)))


def test_scalar_operands_are_refused_as_in_triton(device):
    # Triton's tt.map_elementwise maps over ranked tensors; its verifier refuses scalars.
    out = torch.empty(1, dtype=torch.float32, device=device)
    with pytest.raises(triton.CompilationError):
        _scalar_kernel[(1,)](torch.tensor([3.0], device=device),
                             torch.tensor([4.0], device=device), out)


@triton.jit
def _packed_fn3(a0, a1, a2, b0, b1, b2):
    return a0 + b0, a1 + b1, a2 + b2, a0, a1, a2


@triton.jit
def _pack_mismatch_kernel(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b = tl.map_elementwise(_packed_fn3, tl.load(X + offs), tl.load(X + offs), pack=3)
    tl.store(X + offs, a + b)


def test_pack_that_does_not_divide_the_block_is_refused(device):
    x = torch.zeros(16, dtype=torch.int32, device=device)
    with pytest.raises(triton.CompilationError):
        _pack_mismatch_kernel[(1,)](x, BLOCK=16)
