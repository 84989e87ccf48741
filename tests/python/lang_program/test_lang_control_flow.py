"""Control flow and compile-time evaluation in @triton.jit kernels: if/else on constexprs and
run-time scalars, ternaries, for over range/tl.range/tl.static_range (negative steps too), while
with a run-time condition, loop-carried values, nested @jit helpers (constexpr arguments, tuple
returns, defaults, noinline), early return, the min/max builtins, constexpr parameters of many
kinds, ``X: tl.constexpr = ...`` locals, global constexprs, and integer argument specialization.

Semantics (python/triton/compiler/code_generator.py, runtime/jit.py):
* an ``if`` on a compile-time value visits only the taken branch (the other may not even compile);
* a name assigned in a loop keeps its type; ``x += y`` is ``x = x + y``;
* ``return`` under a top-level ``if`` ends the program early;
* ``min``/``max`` map to tl.minimum/tl.maximum;
* integer arguments: [-2**31, 2**31) -> i32, then i64, then u64; an int argument equal to 1 is
  specialized into a constexpr (unless listed in do_not_specialize), so it behaves like a literal.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from conftest import REAL_TRITON
from triton.compiler.errors import CompilationError

GLOBAL_SCALE = tl.constexpr(3)
GLOBAL_NAME = tl.constexpr("triple")


def zeros(n, dtype, device):
    return torch.zeros(n, dtype=dtype, device=device)


# --------------------------------------------------------------------------------------
# if / else / ternary
# --------------------------------------------------------------------------------------


@triton.jit
def _if_constexpr_kernel(OUT, FLAG: tl.constexpr, MODE: tl.constexpr):
    if FLAG:
        a = 10
    else:
        tl.static_assert(not FLAG)  # never checked when FLAG is true
        a = 20
    if MODE == "add":
        b = a + 1
    elif MODE == "mul":
        b = a * 3
    else:
        tl.static_assert(MODE == "neg", "only reached for MODE == 'neg'")
        b = -a
    tl.store(OUT, b)


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("mode", ["add", "mul", "neg"])
def test_if_on_constexpr(flag, mode, device):
    out = zeros(1, torch.int32, device)
    _if_constexpr_kernel[(1,)](out, FLAG=flag, MODE=mode)
    a = 10 if flag else 20
    assert out.item() == {"add": a + 1, "mul": a * 3, "neg": -a}[mode]


@triton.jit
def _if_runtime_kernel(X, OUT):
    pid = tl.program_id(0)
    v = tl.load(X + pid)
    if v > 0:
        r = v * 2
    elif v == 0:
        r = 100
    else:
        r = -v + 1000
    s = v
    if v % 2 == 0:            # if without else updating an existing value
        s = s + 7
    if (v > 5) & (v < 50):    # a compound run-time condition
        if v > 20:            # nested
            s = s * 10
    tl.store(OUT + 2 * pid, r)
    tl.store(OUT + 2 * pid + 1, s)


def test_if_on_runtime_scalars(device):
    x = np.array([3, 0, -4, 8, 30, 60, -1, 22], dtype=np.int32)
    out = zeros(16, torch.int32, device)
    _if_runtime_kernel[(len(x),)](torch.from_numpy(x).to(device), out)
    got = out.cpu().numpy().reshape(-1, 2)
    for i, v in enumerate(x.tolist()):
        r = v * 2 if v > 0 else (100 if v == 0 else -v + 1000)
        s = v + 7 if v % 2 == 0 else v
        if 5 < v < 50 and v > 20:
            s *= 10
        assert got[i].tolist() == [r, s], (v, got[i])


@triton.jit
def _ternary_kernel(X, OUT, BLOCK: tl.constexpr, BIG: tl.constexpr):
    pid = tl.program_id(0)
    v = tl.load(X + pid)
    a = v * 2 if v > 10 else v - 1                  # run-time condition: both sides i32
    n = 4 if BIG else 2                              # constexpr condition: a constexpr
    offs = tl.arange(0, BLOCK)
    blk = tl.where(offs < n, a, 0)
    tl.store(OUT + pid * BLOCK + offs, blk)


@pytest.mark.parametrize("big", [False, True])
def test_ternary(big, device):
    x = np.array([5, 11, 10, 100], dtype=np.int32)
    out = zeros(4 * 8, torch.int32, device)
    _ternary_kernel[(4,)](torch.from_numpy(x).to(device), out, BLOCK=8, BIG=big)
    got = out.cpu().numpy().reshape(4, 8)
    n = 4 if big else 2
    for i, v in enumerate(x.tolist()):
        a = v * 2 if v > 10 else v - 1
        assert got[i].tolist() == [a] * n + [0] * (8 - n)


@triton.jit
def _identity_tests_kernel(x, OUT):
    # `is`/`is not` on a run-time value compare the objects at compile time (a tensor is not
    # None), and `and` stops at the first constexpr False, so the load below is compiled only
    # when x is an int32 pointer; hasattr sees a block's attributes.
    if (x is not None) and hasattr(x, "dtype") and isinstance(x.dtype, tl.pointer_type) and (
            x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)
    tl.store(OUT, (x is None) * 1 + hasattr(x, "shape") * 2 + hasattr(x, "no_such") * 4)


@pytest.mark.parametrize("kind", ["none", "one", "int", "i32_ptr", "i64_ptr", "f32_ptr"])
def test_is_none_and_hasattr_on_runtime_values(kind, device):
    out = torch.full((1,), -1, dtype=torch.int32, device=device)
    arg = {"none": None, "one": 1, "int": 2}.get(kind)
    if arg is None and kind != "none":
        dtype = {"i32_ptr": torch.int32, "i64_ptr": torch.int64, "f32_ptr": torch.float32}[kind]
        arg = torch.full((1,), 100000, dtype=dtype, device=device)
    _identity_tests_kernel[(1,)](arg, out)
    # None and 1 are constexprs (no attributes); 2 and the pointers are run-time values.
    assert out.item() == {"none": 1, "one": 0}.get(kind, 2)
    if kind.endswith("_ptr"):
        assert arg.item() == (42 if kind == "i32_ptr" else 100000)


# --------------------------------------------------------------------------------------
# for loops
# --------------------------------------------------------------------------------------


@triton.jit
def _loop_order_kernel(OUT, start, end, KIND: tl.constexpr):
    # records the visited indices, in order, to check bounds, steps and direction
    k = 0
    if KIND == "range":
        for i in range(start, end):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "range_step":
        for i in range(start, end, 3):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "range_neg":
        for i in range(end - 1, start - 1, -1):     # negative constant step, run-time bounds
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "range_neg2":
        for i in range(end, start, -2):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "tl_range":
        for i in tl.range(start, end, 2, num_stages=2):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "tl_range_unroll":
        for i in tl.range(start, end, loop_unroll_factor=2):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "static":
        for i in tl.static_range(2, 9, 3):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "static_step_kw":
        for i in tl.static_range(0, 100, step=7):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "static_end_step_kw":
        for i in tl.static_range(10, step=3):        # one bound: the end
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "static_neg_step_kw":
        for i in tl.static_range(arg1=9, arg2=0, step=-4):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "tl_range_step_kw":
        for i in tl.range(start, end, step=3):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "tl_range_end_step_kw":
        for i in tl.range(end, step=3, num_stages=1):
            tl.store(OUT + k, i)
            k += 1
    elif KIND == "tl_range_neg_step_kw":
        for i in tl.range(end, start, step=-2):
            tl.store(OUT + k, i)
            k += 1
    else:
        for i in tl.static_range(8, 0, -3):          # static, negative step
            tl.store(OUT + k, i)
            k += 1
    tl.store(OUT + 63, k)                             # number of iterations


LOOPS = [
    ("range", 3, 11, list(range(3, 11))),
    ("range", 5, 5, []),
    ("range", 7, 2, []),
    ("range_step", -4, 12, list(range(-4, 12, 3))),
    ("range_neg", 3, 11, list(range(10, 2, -1))),
    ("range_neg2", 0, 9, list(range(9, 0, -2))),
    ("range_neg2", 4, 4, []),
    ("tl_range", 1, 10, list(range(1, 10, 2))),
    ("tl_range_unroll", 0, 7, list(range(0, 7))),
    ("static", 0, 0, list(range(2, 9, 3))),
    ("static_neg", 0, 0, list(range(8, 0, -3))),
    ("static_step_kw", 0, 0, list(range(0, 100, 7))),
    ("static_end_step_kw", 0, 0, list(range(0, 10, 3))),
    ("static_neg_step_kw", 0, 0, list(range(9, 0, -4))),
    ("tl_range_step_kw", 2, 13, list(range(2, 13, 3))),
    ("tl_range_end_step_kw", 0, 11, list(range(0, 11, 3))),
    ("tl_range_neg_step_kw", 1, 10, list(range(10, 1, -2))),
]


@pytest.mark.parametrize("kind, start, end, expected", LOOPS)
def test_for_loop_bounds_and_steps(kind, start, end, expected, device):
    """Triton 3.6 binds tl.range(arg1, arg2=None, step=None, ...) and
    tl.static_range(arg1, arg2=None, step=None) as Python binds a call (language/core.py: one
    bound is the end; `step` may be a keyword) and code_generator.py's visit_For iterates
    range(start, end, step), negative steps included. Checked with Triton 3.6.0's interpreter
    (TRITON_INTERPRET=1): tl.static_range(0, 100, step=7) sums to 735, tl.range(10, step=3) to
    18, tl.static_range(100, 0, -7) to 765; tcpu ignored a keyword step (4950 for the first)."""
    out = torch.full((64,), -999, dtype=torch.int32, device=device)
    _loop_order_kernel[(1,)](out, start, end, KIND=kind)
    got = out.cpu().numpy()
    assert got[63] == len(expected)
    assert got[:len(expected)].tolist() == expected


@triton.jit
def _range_keyword_kernel(OUT, KIND: tl.constexpr):
    k = 0
    if KIND == "python_range_step":
        for i in range(0, 8, step=2):
            k += i
    else:
        for i in tl.range(0, 8, stride=2):
            k += i
    tl.store(OUT, k)


@pytest.mark.parametrize("kind", ["python_range_step", "tl_range_unknown"])
def test_range_keywords_refused(kind, device):
    """tl.range refuses a keyword outside its signature (Triton: TypeError, reported as a
    CompilationError). Python's range takes no keywords: Triton 3.6 ignores them (visit_For
    reads only the positional arguments, so range(0, 8, step=2) counts by 1), where tcpu
    refuses rather than count wrongly."""
    if REAL_TRITON and kind == "python_range_step":
        pytest.skip("Triton ignores keywords given to Python's range")
    out = torch.zeros(1, dtype=torch.int32, device=device)
    with pytest.raises(CompilationError, match="step=|stride"):
        _range_keyword_kernel[(1,)](out, KIND=kind)


@triton.jit
def _static_range_kernel(X, OUT, BLOCK: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for i in tl.static_range(N):                      # unrolled; i is a constexpr
        tl.static_assert(i < N)
        x = tl.load(X + i * BLOCK + offs)
        if i % 2 == 0:                                 # resolved at compile time
            acc += x
        else:
            acc -= x * i
    tl.store(OUT + offs, acc)


def test_static_range_index_is_constexpr(device):
    N, BLOCK = 5, 16
    x = np.random.RandomState(0).randint(-100, 100, size=(N, BLOCK)).astype(np.int32)
    out = zeros(BLOCK, torch.int32, device)
    _static_range_kernel[(1,)](torch.from_numpy(x).to(device), out, BLOCK=BLOCK, N=N)
    ref = sum(x[i] if i % 2 == 0 else -x[i] * i for i in range(N))
    np.testing.assert_array_equal(out.cpu().numpy(), ref)


@triton.jit
def _row_sum_kernel(X, OUT, n_rows, n_cols, BLOCK: tl.constexpr):
    # persistent programs (tutorial 02's loop): rows pid, pid + P, ...; columns in chunks
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in tl.range(pid, n_rows, nprog):
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for c0 in range(0, n_cols, BLOCK):            # nested loop, loop-carried block
            cols = c0 + tl.arange(0, BLOCK)
            acc += tl.load(X + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        tl.store(OUT + row, tl.sum(acc, axis=0))


def test_nested_loops_with_program_dependent_bounds(device):
    n_rows, n_cols = 37, 100
    x = np.random.RandomState(1).randint(-5, 6, size=(n_rows, n_cols)).astype(np.float32)
    out = zeros(n_rows, torch.float32, device)
    _row_sum_kernel[(4,)](torch.from_numpy(x).to(device), out, n_rows, n_cols, BLOCK=32)
    np.testing.assert_array_equal(out.cpu().numpy(), x.sum(axis=1))


@triton.jit
def _fib_kernel(OUT, n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b              # tuple assignment of loop-carried scalars
    tl.store(OUT, a)
    x = 1.0
    for i in range(1, n + 1):
        if i % 3 == 0:               # a run-time if inside a loop
            x = x * 0.5
        else:
            x = x + i
    tl.store(OUT + 1, x.to(tl.int32))


@pytest.mark.parametrize("n", [0, 1, 10, 40])
def test_loop_carried_scalars(n, device):
    out = zeros(2, torch.int32, device)
    _fib_kernel[(1,)](out, n)
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) & 0xFFFFFFFF
    a = a - (1 << 32) if a >= 1 << 31 else a
    x = 1.0
    for i in range(1, n + 1):
        x = x * 0.5 if i % 3 == 0 else x + i
    assert out.cpu().tolist() == [a, int(np.float32(x))]


# --------------------------------------------------------------------------------------
# while
# --------------------------------------------------------------------------------------


@triton.jit
def _collatz_kernel(OUT, base):
    n = tl.program_id(0) + base
    steps = 0
    while n != 1:                     # data-dependent trip count
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    tl.store(OUT + tl.program_id(0), steps)


def test_while_with_runtime_condition(device):
    P, base = 40, 1
    out = zeros(P, torch.int32, device)
    _collatz_kernel[(P,)](out, base)

    def steps(v):
        s = 0
        while v != 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            s += 1
        return s

    assert out.cpu().tolist() == [steps(base + p) for p in range(P)]


# A kernel run in a child process, so that one that never ends can be stopped.
SPIN_MODULE = textwrap.dedent('''
    import os
    import sys

    import torch

    if os.environ.get("TCPU_TEST_REAL_TRITON", "0") in ("", "0"):
        import tcpu.aliases
        tcpu.aliases.install()
    import triton
    import triton.language as tl


    @triton.jit
    def spin_kernel(X, OUT, KIND: tl.constexpr):
        v = tl.load(X)
        if KIND == "self_equal":
            while v == v:          # true for any integer: no exit and no side effect
                pass
        elif KIND == "carried":
            while v > 0:           # v | 1 stays positive
                v = v | 1
        else:
            while v < 1000:
                v = v * 2 + 1
        tl.store(OUT, v)


    device, kind = sys.argv[1], sys.argv[2]
    x = torch.ones(1, dtype=torch.int32, device=device)
    out = torch.zeros(1, dtype=torch.int32, device=device)
    spin_kernel.warmup(x, out, KIND=kind, grid=(1,))
    print("launching", flush=True)
    spin_kernel[(1,)](x, out, KIND=kind)
    if device == "cuda":
        torch.cuda.synchronize()
    print("returned", out.item(), flush=True)
''')


def _start_spin(tmp_path, device, kind):
    """The child running spin_kernel, once it has compiled it and is about to launch it."""
    script = tmp_path / "spin.py"
    script.write_text(SPIN_MODULE)
    # Unbuffered bytes: a buffered readline could take the lines after the first with it, which
    # communicate() (reading the pipe itself) would then never see.
    proc = subprocess.Popen([sys.executable, str(script), device, kind], bufsize=0,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline().decode()  # compiles first: no timeout needed until the launch
    if first.strip() != "launching":
        out, err = _communicate(proc, 60)
        raise AssertionError(f"the child failed before the launch:\n{first}{out}{err[-3000:]}")
    return proc


def _communicate(proc, timeout=None):
    out, err = proc.communicate(timeout=timeout)
    return out.decode(), err.decode()


@pytest.mark.parametrize("kind", ["self_equal", "carried"])
def test_endless_loop_without_side_effects_hangs(kind, tmp_path, device):
    """A loop that never ends and has no side effect hangs the kernel, as on the GPU: Triton's
    LLVM IR carries no forward-progress assumption, where C++ lets the compiler assume that such
    a loop ends and delete it (the kernel then returned at once and stored a value). tcpu
    compiles kernels with clang's -fno-finite-loops."""
    proc = _start_spin(tmp_path, device, kind)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
    finally:
        proc.kill()
        out, err = _communicate(proc)
    assert "returned" not in out, out + err[-3000:]


def test_loop_without_side_effects_that_ends(tmp_path, device):
    proc = _start_spin(tmp_path, device, "ends")
    out, err = _communicate(proc, 120)
    assert proc.returncode == 0 and out.split() == ["returned", "1023"], out + err[-3000:]


@triton.jit
def _while_block_kernel(X, OUT, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    it = 0
    while tl.max(x, axis=0) > 1.0:    # loop-carried block, run-time scalar condition
        x = tl.where(x > 1.0, x * 0.5, x)
        it += 1
    tl.store(OUT + offs, x)
    tl.store(OUT + BLOCK, it.to(tl.float32))


def test_while_with_loop_carried_block(device):
    x = np.array([0.5, 3.0, 17.0, 1.0, 64.0, 0.0, 2.0, 1000.0], dtype=np.float32)
    out = zeros(9, torch.float32, device)
    _while_block_kernel[(1,)](torch.from_numpy(x).to(device), out, BLOCK=8)
    ref = x.copy()
    it = 0
    while ref.max() > 1.0:
        ref = np.where(ref > 1.0, ref * 0.5, ref)
        it += 1
    np.testing.assert_array_equal(out.cpu().numpy(), np.append(ref, np.float32(it)))


# --------------------------------------------------------------------------------------
# @jit helpers
# --------------------------------------------------------------------------------------


@triton.jit
def _divmod_helper(x, D: tl.constexpr):
    return x // D, x % D


@triton.jit
def _scale_helper(x, factor=2, OFFSET: tl.constexpr = 0):
    return x * factor + OFFSET


@triton.jit
def _outer_helper(x, D: tl.constexpr):
    q, r = _divmod_helper(x, D)                   # a helper calling a helper
    return _scale_helper(q, OFFSET=1), _scale_helper(r, factor=10)


@triton.jit(noinline=True)
def _noinline_helper(x, y):
    # Triton 3.6 only passes scalars to noinline functions ("called with non-scalar argument")
    return x * y + 1


@triton.jit
def _helpers_kernel(X, OUT, BLOCK: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    a, b = _outer_helper(x, D)
    tl.store(OUT + offs, a)
    tl.store(OUT + BLOCK + offs, b)
    tl.store(OUT + 2 * BLOCK + offs, b + _noinline_helper(tl.sum(x, axis=0), tl.max(x, axis=0)))
    t = _divmod_helper(x, 3)                      # a tuple kept whole, then indexed
    tl.store(OUT + 3 * BLOCK + offs, t[0] + t[1])


@triton.jit
def _noinline_block_kernel(X):
    offs = tl.arange(0, 8)
    tl.store(X + offs, _noinline_helper(tl.load(X + offs), 2))


def test_noinline_refuses_blocks_as_triton_does(device):
    x = torch.zeros(8, dtype=torch.int32, device=device)
    with pytest.raises(CompilationError, match="marked noinline, but was called with "
                                               "non-scalar argument x"):
        _noinline_block_kernel[(1,)](x)


def test_helpers_and_constants_of_the_enclosing_function(device):
    # As Triton's get_capture_scope: a kernel defined inside a function reads that function's
    # variables it uses (a @jit helper and a constexpr defined beside it).
    scale = tl.constexpr(3)

    @triton.jit
    def compare(x, y):
        return tl.where(x < y, -1, tl.where(x == y, 0, 1))

    @triton.jit
    def kernel(X, Y, Z, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Z + offs, compare(tl.load(X + offs), tl.load(Y + offs)) * scale)

    x = torch.tensor([1, 5, 3, 8], dtype=torch.int32, device=device)
    y = torch.tensor([2, 5, 1, 9], dtype=torch.int32, device=device)
    z = torch.zeros(4, dtype=torch.int32, device=device)
    kernel[(1,)](x, y, z, BLOCK=4)
    assert z.tolist() == [-3, 0, 3, -3]


@pytest.mark.parametrize("d", [3, 7])
def test_nested_jit_helpers(d, device):
    BLOCK = 32
    x = np.random.RandomState(2).randint(0, 1000, size=BLOCK).astype(np.int32)
    out = zeros(4 * BLOCK, torch.int32, device)
    _helpers_kernel[(1,)](torch.from_numpy(x).to(device), out, BLOCK=BLOCK, D=d)
    got = out.cpu().numpy().reshape(4, BLOCK)
    a, b = (x // d) * 2 + 1, (x % d) * 10
    np.testing.assert_array_equal(got[0], a)
    np.testing.assert_array_equal(got[1], b)
    np.testing.assert_array_equal(got[2], b + (int(x.sum()) * int(x.max()) + 1))
    np.testing.assert_array_equal(got[3], x // 3 + x % 3)


@triton.jit
def _annotated_helper(x, offs: tl.constexpr, N: tl.constexpr):
    # Annotated tl.constexpr, yet given run-time values: in Triton the caller's arguments decide
    # what is compile-time (code_generator.call_JitFunction), as tutorial 06 relies on.
    return tl.where(offs < N, x + offs, x)


@triton.jit
def _annotated_helper_kernel(X, OUT, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(OUT + offs, _annotated_helper(tl.load(X + offs), offs, n))


def test_constexpr_annotated_helper_parameters_take_runtime_values(device):
    BLOCK = 64
    x = torch.arange(BLOCK, dtype=torch.int32).to(device)
    out = zeros(BLOCK, torch.int32, device)
    _annotated_helper_kernel[(1,)](x, out, 40, BLOCK=BLOCK)
    offs = np.arange(BLOCK)
    np.testing.assert_array_equal(out.cpu().numpy(), np.where(offs < 40, 2 * offs, offs))


@triton.jit
def _early_return_kernel(X, OUT, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return                                    # programs past the data do nothing
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(OUT + offs, tl.load(X + offs) + 1)


def test_early_return(device):
    BLOCK, n = 16, 48
    x = np.arange(128, dtype=np.int32)
    out = torch.full((128,), -1, dtype=torch.int32, device=device)
    _early_return_kernel[(8,)](torch.from_numpy(x).to(device), out, n, BLOCK=BLOCK)
    got = out.cpu().numpy()
    np.testing.assert_array_equal(got[:n], x[:n] + 1)
    assert (got[n:] == -1).all()


@triton.jit
def _min_max_builtin_kernel(X, OUT, a, b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(OUT + offs, max(x, 0))               # elementwise on a block
    tl.store(OUT + BLOCK + offs, min(x, a))       # block with a run-time scalar
    tl.store(OUT + 2 * BLOCK, min(a, b))          # run-time scalars
    tl.store(OUT + 2 * BLOCK + 1, max(a, b))
    tl.store(OUT + 2 * BLOCK + 2, min(BLOCK, 5))  # constexprs


def test_min_max_builtins(device):
    BLOCK = 16
    x = np.arange(BLOCK, dtype=np.int32) - 8
    out = zeros(2 * BLOCK + 3, torch.int32, device)
    _min_max_builtin_kernel[(1,)](torch.from_numpy(x).to(device), out, 3, -9, BLOCK=BLOCK)
    got = out.cpu().numpy()
    np.testing.assert_array_equal(got[:BLOCK], np.maximum(x, 0))
    np.testing.assert_array_equal(got[BLOCK:2 * BLOCK], np.minimum(x, 3))
    assert got[2 * BLOCK:].tolist() == [-9, 3, 5]


# --------------------------------------------------------------------------------------
# constexpr parameters, locals and globals
# --------------------------------------------------------------------------------------


@triton.jit
def _square(x):
    return x * x


@triton.jit
def _negate(x):
    return -x


@triton.jit
def _constexpr_kinds_kernel(X, OUT, SCALE: tl.constexpr, NAME: tl.constexpr, OPT: tl.constexpr,
                            DT: tl.constexpr, FN: tl.constexpr, FLAG: tl.constexpr, BLOCK: tl.constexpr = 16):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs).to(DT)                  # a dtype
    y = FN(x) * SCALE                             # a @jit function and a float
    if NAME == "shift":                           # a string
        y = y + 100
    if OPT is not None:                           # None or an int
        y = y + OPT
    if FLAG and not (NAME == "plain"):            # bool logic on constexprs
        y = y * 2
    TWICE: tl.constexpr = BLOCK * 2               # a constexpr local
    tl.static_assert(TWICE == 2 * BLOCK)
    tl.store(OUT + offs, y.to(tl.float32))
    tl.store(OUT + BLOCK + tl.arange(0, TWICE // 2), x.to(tl.float32) * GLOBAL_SCALE)  # a global constexpr
    if GLOBAL_NAME == "triple":
        tl.store(OUT + 2 * BLOCK + offs, x.to(tl.float32) * 3)


@pytest.mark.parametrize("scale, name, opt, dt, fn, flag", [
    (0.5, "shift", None, "float32", "square", True),
    (2.0, "plain", 7, "float64", "negate", True),
    (1.5, "shift", -3, "int32", "square", False),
])
def test_constexpr_parameter_kinds(scale, name, opt, dt, fn, flag, device):
    x = np.arange(16, dtype=np.int32) - 5
    out = zeros(48, torch.float32, device)
    jit_fn = {"square": _square, "negate": _negate}[fn]
    _constexpr_kinds_kernel[(1,)](torch.from_numpy(x).to(device), out, SCALE=scale, NAME=name, OPT=opt,
                                  DT=getattr(tl, dt), FN=jit_fn, FLAG=flag)  # BLOCK keeps its default
    xv = x.astype(np.float64)
    y = (xv * xv if fn == "square" else -xv) * scale
    if dt == "int32":
        y = np.array([int(v) for v in (x * x)]) * np.float32(scale)  # int32 * float constexpr -> fp32
    if name == "shift":
        y = y + 100
    if opt is not None:
        y = y + opt
    if flag and name != "plain":
        y = y * 2
    got = out.cpu().numpy()
    np.testing.assert_array_equal(got[:16], y.astype(np.float32))
    np.testing.assert_array_equal(got[16:32], x.astype(np.float32) * 3)
    np.testing.assert_array_equal(got[32:], x.astype(np.float32) * 3)


def _closure_kernel(dtype, scale, helper):
    """A kernel defined in a function reads that function's locals, as Triton's does (its
    get_capture_scope: the module's globals with the closure's variables over them)."""
    GLOBAL_SCALE = tl.constexpr(scale)  # a closure variable hides the module's global

    @triton.jit
    def kernel(X, OUT, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = helper(tl.load(X + offs).to(dtype))
        tl.static_assert(x.dtype == dtype)
        tl.store(OUT + offs, (x * GLOBAL_SCALE).to(tl.float32))

    return kernel


@pytest.mark.parametrize("dt, scale, fn", [("float16", 2, "square"), ("int32", 5, "negate")])
def test_a_kernel_reads_the_variables_it_closes_over(dt, scale, fn, device):
    x = torch.arange(8, dtype=torch.float32, device=device) - 3
    out = zeros(8, torch.float32, device)
    helper = {"square": _square, "negate": _negate}[fn]
    _closure_kernel(getattr(tl, dt), scale, helper)[(1,)](x, out, BLOCK=8)
    expected = (x * x if fn == "square" else -x) * scale
    assert torch.equal(out, expected)


@triton.jit
def _grid_meta_kernel(OUT, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(OUT + offs, offs, mask=offs < n)


def test_grid_callable_receives_meta(device):
    n = 300
    out = torch.full((n,), -1, dtype=torch.int32, device=device)
    _grid_meta_kernel[lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),)](out, n, BLOCK=64)
    np.testing.assert_array_equal(out.cpu().numpy(), np.arange(n))


# --------------------------------------------------------------------------------------
# integer argument specialization
# --------------------------------------------------------------------------------------


@triton.jit
def _int_arg_kernel(OUT, v):
    w = v + 2147483647            # i32 arithmetic wraps; a constexpr 1 folds in Python first
    tl.store(OUT, w)
    tl.store(OUT + 1, v * 2)


@triton.jit(do_not_specialize=["v"])
def _int_arg_nospec_kernel(OUT, v):
    w = v + 2147483647
    tl.store(OUT, w)
    tl.store(OUT + 1, v * 2)


@pytest.mark.parametrize("v, expected", [
    (5, -2147483644),             # i32: 5 + (2**31 - 1) wraps
    (-1, 2147483646),
    (1, 2147483648),              # specialized to a constexpr: 1 + 2147483647 is a literal 2**31 (uint32)
    (2 ** 31, 2 ** 32 - 1),       # i64 argument
    (2 ** 40, 2 ** 40 + 2147483647),
])
def test_int_argument_types_and_specialization(v, expected, device):
    out = zeros(2, torch.int64, device)
    _int_arg_kernel[(1,)](out, v)
    assert out.cpu().tolist() == [expected, 2 * v]


def test_do_not_specialize(device):
    out = zeros(2, torch.int64, device)
    _int_arg_nospec_kernel[(1,)](out, 1)     # stays an i32 argument: wraps like any other i32
    assert out.cpu().tolist() == [-2147483648, 2]
    _int_arg_nospec_kernel[(1,)](out, 16)
    assert out.cpu().tolist() == [-2147483633, 32]


@triton.jit
def _arg_types_kernel(OUT, big, f, b):
    tl.store(OUT, big + 1)                        # u64 argument (>= 2**63)
    tl.store(OUT + 1, (f * 1e6).to(tl.int64))     # float arguments are fp32
    tl.store(OUT + 2, tl.where(b, 11, 5))         # bool arguments are i1


def test_argument_types_u64_float_bool(device):
    out = zeros(3, torch.int64, device)
    big = 2 ** 63 + 5
    _arg_types_kernel[(1,)](out, big, 0.1, True)
    got = out.cpu().numpy()
    assert int(got.view(np.uint64)[0]) == big + 1
    assert got[1] == int(np.float32(np.float32(0.1) * np.float32(1e6)))
    assert got[2] == 11


@triton.jit
def _swizzled_order(OUT, size_i, size_j, size_g):
    for i in tl.range(0, size_i):
        for j in tl.range(0, size_j):
            new_i, new_j = tl.swizzle2d(i, j, size_i, size_j, size_g)
            tl.store(OUT + new_i * size_j + new_j, i * size_j + j)


@pytest.mark.parametrize("size_i, size_j, size_g", [(5, 7, 3), (4, 4, 2), (6, 3, 4)])
def test_swizzle2d_orders_columns_within_groups_of_rows(size_i, size_j, size_g, device):
    out = torch.full((size_i, size_j), -1, dtype=torch.int32, device=device)
    _swizzled_order[(1,)](out, size_i, size_j, size_g)
    # Reference: row-major index k -> column-major position inside its group of size_g rows
    # (the last group holds what is left), as Triton's swizzle2d documents.
    expected = torch.empty_like(out)
    for k in range(size_i * size_j):
        group, r = divmod(k, size_g * size_j)
        off = group * size_g
        rows = min(size_i - off, size_g)
        expected[off + r % rows, r // rows] = k
    assert torch.equal(out, expected)


@triton.jit
def _annotated_scalars(OUT, val: tl.float16, n: "tl.uint8", b: tl.bfloat16, w: "i64"):
    tl.static_assert(val.dtype == tl.float16)
    tl.static_assert(n.dtype == tl.uint8)
    tl.static_assert(b.dtype == tl.bfloat16)
    tl.static_assert(w.dtype == tl.int64)
    tl.store(OUT + 0, val)
    tl.store(OUT + 1, n)
    tl.store(OUT + 2, b)
    tl.store(OUT + 3, w + 0)


def test_a_scalar_annotated_with_a_dtype_is_passed_as_that_dtype(device):
    # As Triton compiles it (its interpreter ignores the annotation): a float annotated
    # tl.float16 arrives rounded to fp16, an int annotated "tl.uint8" is a uint8.
    out = zeros(4, torch.float64, device)
    _annotated_scalars[(1,)](out, 0.1, 3, 1.01, 5)
    assert out.tolist() == [float(torch.tensor(0.1).half()), 3.0,
                            float(torch.tensor(1.01).bfloat16()), 5.0]
    with pytest.raises(TypeError, match="'n' is annotated uint8 but is a float"):
        _annotated_scalars[(1,)](out, 0.1, 2.5, 1.0, 5)
