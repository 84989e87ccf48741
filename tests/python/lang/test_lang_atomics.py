"""Atomic memory operations of triton.language: atomic_add/and/or/xor/xchg/cas/min/max on scalars
and blocks, with masks, ``sem`` and ``scope``; the results are exact, including counts under
contention between many programs.

Semantics (python/triton/language/semantic.py, atom_red_typechecking_impl and atomic_*):
* every atomic returns the value that was in memory before the operation;
* the value is converted to the pointer's element type; ``mask`` disables lanes;
* int8/int16 are rejected; fp16/bf16 only for atomic_add; atomic_cas takes 16/32/64-bit elements;
* fp32/fp64 atomic_max/min are built from integer max/umin (min/umax) on the bit patterns, so
  negative values and -inf/+inf initial values must work;
* ``sem``: "relaxed", "acquire", "release", "acq_rel" (the default); ``scope``: "gpu" (default),
  "cta", "sys".
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl
from lang_support import NP, TORCH, dev

G = 64  # programs contending for the same addresses


# --------------------------------------------------------------------------------------
# atomic_add
# --------------------------------------------------------------------------------------


@triton.jit
def _counter_kernel(COUNTER, OLDS, SEM: tl.constexpr, SCOPE: tl.constexpr):
    pid = tl.program_id(0)
    if SEM is None:
        old = tl.atomic_add(COUNTER, 1)
    else:
        old = tl.atomic_add(COUNTER, 1, sem=SEM, scope=SCOPE)
    tl.store(OLDS + pid, old)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "float16"])
def test_atomic_add_scalar_counter(dtype, device):
    counter = torch.zeros(1, dtype=TORCH[dtype], device=device)
    olds = torch.full((G,), -1, dtype=TORCH[dtype], device=device)
    _counter_kernel[(G,)](counter, olds, SEM=None, SCOPE=None)
    assert counter.cpu().item() == G
    # each program saw a distinct previous value: 0, 1, ..., G-1 in some order
    np.testing.assert_array_equal(np.sort(olds.cpu().numpy().astype(np.int64)), np.arange(G))


@pytest.mark.parametrize("sem, scope", [("relaxed", "gpu"), ("acquire", "gpu"), ("release", "sys"),
                                        ("acq_rel", "gpu"), ("acq_rel", "sys")])
def test_atomic_add_sem_scope(sem, scope, device):
    counter = torch.zeros(1, dtype=torch.int32, device=device)
    olds = torch.full((G,), -1, dtype=torch.int32, device=device)
    _counter_kernel[(G,)](counter, olds, SEM=sem, SCOPE=scope)
    assert counter.cpu().item() == G
    np.testing.assert_array_equal(np.sort(olds.cpu().numpy()), np.arange(G))


@triton.jit
def _block_counter_kernel(X, OLDS, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(X + offs, offs + 1)        # every program hits the same BLOCK addresses
    tl.store(OLDS + pid * BLOCK + offs, old)


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_atomic_add_block_returns_old_values(dtype, device):
    BLOCK = 32
    x = torch.zeros(BLOCK, dtype=TORCH[dtype], device=device)
    olds = torch.zeros(G * BLOCK, dtype=TORCH[dtype], device=device)
    _block_counter_kernel[(G,)](x, olds, BLOCK=BLOCK)
    inc = np.arange(1, BLOCK + 1)
    np.testing.assert_array_equal(x.cpu().numpy(), (G * inc).astype(NP[dtype]))
    o = olds.cpu().numpy().reshape(G, BLOCK).astype(np.int64)
    # per lane, the old values are 0, inc, 2*inc, ..., (G-1)*inc in some order
    np.testing.assert_array_equal(np.sort(o, axis=0), np.arange(G)[:, None] * inc[None, :])


@triton.jit
def _histogram_atomic_kernel(X, BINS, n, NB: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0)
    tl.atomic_add(BINS + x % NB, 1, mask=mask)                   # duplicates within a block too
    tl.atomic_add(BINS + NB + x % NB, 0.5, mask=mask & (x >= 0))  # fp conversion to int32 element: 0


def test_atomic_add_masked_histogram(device):
    n, NB = 5000, 16
    x = np.random.RandomState(0).randint(0, 1000, size=n).astype(np.int32)
    bins = torch.zeros(2 * NB, dtype=torch.int32, device=device)
    _histogram_atomic_kernel[(triton.cdiv(n, 128),)](dev(x, device), bins, n, NB=NB, BLOCK=128)
    got = bins.cpu().numpy()
    np.testing.assert_array_equal(got[:NB], np.bincount(x % NB, minlength=NB))
    assert (got[NB:] == 0).all()  # 0.5 is converted to the int32 element type (0) before adding


@triton.jit
def _float_sum_kernel(X, OUT, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    tl.atomic_add(OUT, tl.sum(x, axis=0))
    tl.atomic_add(OUT + 1 + offs % 4, x, mask=offs < n)


def test_atomic_add_float_exact_integers(device):
    n = 3000
    x = np.random.RandomState(1).randint(-50, 50, size=n).astype(np.float32)  # sums stay exact
    out = torch.zeros(5, dtype=torch.float32, device=device)
    _float_sum_kernel[(triton.cdiv(n, 256),)](dev(x, device), out, n, BLOCK=256)
    got = out.cpu().numpy()
    assert got[0] == x.sum()
    np.testing.assert_array_equal(got[1:], [x[i::4].sum() for i in range(4)])


# --------------------------------------------------------------------------------------
# atomic_max / atomic_min
# --------------------------------------------------------------------------------------


@triton.jit
def _minmax_kernel(X, MX, MN, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + pid * BLOCK + offs)
    tl.atomic_max(MX + offs, x)
    tl.atomic_min(MN + offs, x)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_atomic_max_min_contention(dtype, device):
    BLOCK = 32
    rs = np.random.RandomState(2)
    if dtype.startswith("float"):
        x = rs.uniform(-100, 100, size=(G, BLOCK)).astype(NP[dtype])
        x[:, :4] = -np.abs(x[:, :4])  # columns of negative values only
        x[:, 4:8] = np.abs(x[:, 4:8])  # positive only
        lo, hi = -np.inf, np.inf
    else:
        x = rs.randint(-10 ** 6, 10 ** 6, size=(G, BLOCK)).astype(NP[dtype])
        lo, hi = np.iinfo(NP[dtype]).min, np.iinfo(NP[dtype]).max
    mx = torch.full((BLOCK,), lo, dtype=TORCH[dtype], device=device)
    mn = torch.full((BLOCK,), hi, dtype=TORCH[dtype], device=device)
    _minmax_kernel[(G,)](dev(x, device), mx, mn, BLOCK=BLOCK)
    np.testing.assert_array_equal(mx.cpu().numpy(), x.max(axis=0))
    np.testing.assert_array_equal(mn.cpu().numpy(), x.min(axis=0))


@triton.jit
def _minmax_uint_kernel(X, MX, MN, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + pid * BLOCK + offs).to(tl.uint32, bitcast=True)
    tl.atomic_max(MX.to(tl.pointer_type(tl.uint32)) + offs, x)   # unsigned comparison
    tl.atomic_min(MN.to(tl.pointer_type(tl.uint32)) + offs, x)


def test_atomic_max_min_unsigned(device):
    BLOCK = 16
    x = np.random.RandomState(3).randint(0, 2 ** 32, size=(8, BLOCK), dtype=np.uint64).astype(np.uint32)
    x[0, :] = 0x80000000  # large unsigned, negative as int32
    mx = torch.zeros(BLOCK, dtype=torch.int32, device=device)
    mn = torch.full((BLOCK,), -1, dtype=torch.int32, device=device)  # 0xFFFFFFFF
    _minmax_uint_kernel[(8,)](dev(x.view(np.int32), device), mx, mn, BLOCK=BLOCK)
    np.testing.assert_array_equal(mx.cpu().numpy().view(np.uint32), x.max(axis=0))
    np.testing.assert_array_equal(mn.cpu().numpy().view(np.uint32), x.min(axis=0))


@triton.jit
def _minmax_scalar_kernel(P, OLD_MX, OLD_MN):
    pid = tl.program_id(0)
    v = (pid * 37) % 64 - 20                       # a permutation of -20..43
    old = tl.atomic_max(P, v)
    tl.store(OLD_MX + pid, old)
    old2 = tl.atomic_min(P + 1, v)
    tl.store(OLD_MN + pid, old2)


def test_atomic_max_min_scalar_returns_old(device):
    p = torch.tensor([-1000, 1000], dtype=torch.int32, device=device)
    omx = torch.empty(G, dtype=torch.int32, device=device)
    omn = torch.empty(G, dtype=torch.int32, device=device)
    _minmax_scalar_kernel[(G,)](p, omx, omn)
    assert p.cpu().tolist() == [43, -20]
    v = (np.arange(G) * 37) % 64 - 20
    # an old value is the initial value or one of the other programs' values, never above the result
    assert set(omx.cpu().numpy().tolist()) <= set(v.tolist()) | {-1000}
    assert set(omn.cpu().numpy().tolist()) <= set(v.tolist()) | {1000}
    assert (omx.cpu().numpy() <= 43).all() and (omn.cpu().numpy() >= -20).all()
    assert -1000 in omx.cpu().numpy().tolist() and 1000 in omn.cpu().numpy().tolist()


# --------------------------------------------------------------------------------------
# bitwise atomics
# --------------------------------------------------------------------------------------


@triton.jit
def _bitwise_kernel(OR_, AND_, XOR_, OLD, BITS: tl.constexpr):
    pid = tl.program_id(0)
    bit = pid % BITS
    one = tl.full((), 1, OR_.dtype.element_ty)
    tl.atomic_or(OR_, one << bit)                        # sets bit `pid % BITS`
    tl.atomic_and(AND_, ~(one << bit), sem="relaxed")    # clears it
    tl.atomic_xor(XOR_ + pid % 2, one << bit)            # toggles it (twice for BITS < G/2)
    old = tl.atomic_or(OLD + pid, 5)                     # returns the old value
    tl.store(OLD + G_OFF + pid, old)


G_OFF = tl.constexpr(64)


@pytest.mark.parametrize("dtype, bits", [("int32", 32), ("int64", 64), ("int32", 8)])
def test_atomic_bitwise(dtype, bits, device):
    t = TORCH[dtype]
    or_ = torch.zeros(1, dtype=t, device=device)
    and_ = torch.full((1,), -1, dtype=t, device=device)
    xor_ = torch.zeros(2, dtype=t, device=device)
    old = torch.zeros(2 * G, dtype=t, device=device)
    old[:G] = torch.arange(G, dtype=t, device=device)
    n = 2 * bits if bits <= 32 else G  # programs
    _bitwise_kernel[(n,)](or_, and_, xor_, old, BITS=bits)
    pids = np.arange(n)
    full = np.int64(-1) if bits == 64 else np.int64((1 << bits) - 1)
    ref_or = np.int64(0)
    ref_xor = [np.int64(0), np.int64(0)]
    for p in pids:
        ref_or |= np.int64(1) << np.int64(p % bits)
        ref_xor[p % 2] ^= np.int64(1) << np.int64(p % bits)
    assert or_.cpu().numpy().astype(np.int64)[0] == ref_or.astype(NP[dtype])
    assert and_.cpu().numpy().astype(np.int64)[0] == (np.int64(-1) & ~full).astype(NP[dtype])
    np.testing.assert_array_equal(xor_.cpu().numpy(), np.array(ref_xor).astype(NP[dtype]))
    o = old.cpu().numpy()
    np.testing.assert_array_equal(o[G:G + n], np.arange(n))
    np.testing.assert_array_equal(o[:n], np.arange(n) | 5)


# --------------------------------------------------------------------------------------
# atomic_xchg and atomic_cas
# --------------------------------------------------------------------------------------


@triton.jit
def _xchg_kernel(SLOT, OLDS):
    pid = tl.program_id(0)
    old = tl.atomic_xchg(SLOT, pid + 1)
    tl.store(OLDS + pid, old)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32"])
def test_atomic_xchg_scalar(dtype, device):
    slot = torch.zeros(1, dtype=TORCH[dtype], device=device)
    olds = torch.full((G,), -1, dtype=TORCH[dtype], device=device)
    _xchg_kernel[(G,)](slot, olds)
    seen = np.concatenate([olds.cpu().numpy(), slot.cpu().numpy()]).astype(np.int64)
    # the exchanges form one chain: every value 0..G appears exactly once
    np.testing.assert_array_equal(np.sort(seen), np.arange(G + 1))


@triton.jit
def _xchg_block_kernel(X, V, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs % 3 != 0
    old = tl.atomic_xchg(X + offs, tl.load(V + offs), mask=mask)
    tl.store(OLD + offs, old, mask=mask)


def test_atomic_xchg_block_masked(device):
    BLOCK = 32
    x = np.arange(BLOCK, dtype=np.float32) * 10
    v = -np.arange(BLOCK, dtype=np.float32)
    xd = dev(x, device)
    old = torch.zeros(BLOCK, dtype=torch.float32, device=device)
    _xchg_block_kernel[(1,)](xd, dev(v, device), old, BLOCK=BLOCK)
    m = np.arange(BLOCK) % 3 != 0
    np.testing.assert_array_equal(xd.cpu().numpy(), np.where(m, v, x))
    np.testing.assert_array_equal(old.cpu().numpy(), np.where(m, x, 0))


@triton.jit
def _cas_block_kernel(X, CMP, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    # atomic_cas does not convert cmp/val: they must have the element type already
    old = tl.atomic_cas(X + offs, tl.load(CMP + offs), (offs * 100).to(X.dtype.element_ty))
    tl.store(OLD + offs, old)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_atomic_cas_block(dtype, device):
    BLOCK = 16
    x = np.arange(BLOCK).astype(NP[dtype])
    cmp = x.copy()
    cmp[1::2] += 1  # odd lanes mismatch
    xd = dev(x, device)
    old = torch.zeros(BLOCK, dtype=TORCH[dtype], device=device)
    _cas_block_kernel[(1,)](xd, dev(cmp, device), old, BLOCK=BLOCK)
    np.testing.assert_array_equal(old.cpu().numpy(), x)                      # always the old value
    np.testing.assert_array_equal(xd.cpu().numpy(), np.where(x == cmp, np.arange(BLOCK) * 100, x))


@triton.jit
def _cas_increment_kernel(C, TRIES):
    # a lock-free increment: read, then compare-and-swap until no other program interfered
    done = 0
    tries = 0
    while done == 0:
        cur = tl.atomic_add(C, 0)                # an atomic read
        prev = tl.atomic_cas(C, cur, cur + 1)
        done = (prev == cur).to(tl.int32)
        tries += 1
    tl.atomic_add(TRIES, tries)


def test_atomic_cas_lock_free_counter(device):
    c = torch.zeros(1, dtype=torch.int32, device=device)
    tries = torch.zeros(1, dtype=torch.int32, device=device)
    _cas_increment_kernel[(G,)](c, tries)
    assert c.cpu().item() == G
    assert tries.cpu().item() >= G


@triton.jit
def _mutex_kernel(LOCK, COUNT, LOG):
    # tutorial 05's pattern: spin on atomic_cas, do plain loads/stores, release with atomic_xchg
    pid = tl.program_id(0)
    while tl.atomic_cas(LOCK, 0, 1) == 1:
        pass
    n = tl.load(COUNT, volatile=True)
    tl.store(LOG + n, pid)
    tl.store(COUNT, n + 1)
    tl.atomic_xchg(LOCK, 0)


def test_atomic_cas_mutex(device):
    lock = torch.zeros(1, dtype=torch.int32, device=device)
    count = torch.zeros(1, dtype=torch.int32, device=device)
    log = torch.full((G,), -1, dtype=torch.int32, device=device)
    _mutex_kernel[(G,)](lock, count, log)
    assert count.cpu().item() == G
    assert lock.cpu().item() == 0
    np.testing.assert_array_equal(np.sort(log.cpu().numpy()), np.arange(G))


@triton.jit
def _cas_scope_kernel(X, OLD, SEM: tl.constexpr, SCOPE: tl.constexpr):
    old = tl.atomic_cas(X, 7, 9, sem=SEM, scope=SCOPE)
    tl.store(OLD, old)
    old2 = tl.atomic_xchg(X + 1, 3, sem=SEM, scope=SCOPE)
    tl.store(OLD + 1, old2)


@pytest.mark.parametrize("sem, scope", [("acquire", "cta"), ("release", "gpu"), ("relaxed", "sys"),
                                        ("acq_rel", "cta")])
def test_atomic_cas_xchg_sem_scope(sem, scope, device):
    x = torch.tensor([7, 11], dtype=torch.int32, device=device)
    old = torch.zeros(2, dtype=torch.int32, device=device)
    _cas_scope_kernel[(1,)](x, old, SEM=sem, SCOPE=scope)
    assert x.cpu().tolist() == [9, 3]
    assert old.cpu().tolist() == [7, 11]


# --------------------------------------------------------------------------------------
# compiled in memory
# --------------------------------------------------------------------------------------


@triton.jit
def _in_memory_counter_kernel(COUNTER):
    tl.atomic_add(COUNTER, 1)


def test_atomics_of_a_kernel_compiled_in_memory(device, monkeypatch):
    # Without the disk cache (TCPU_PYTHON_CACHE=0 here; always on macOS, where no shared objects
    # are written) a kernel is linked in memory by codegen's JIT, which must bind the runtime's
    # atomic stripe locks as a cached shared object binds them (this kernel's first specialization
    # in the process: it is compiled here, not found).
    monkeypatch.setenv("TCPU_PYTHON_CACHE", "0")
    counter = torch.zeros(1, dtype=torch.int32, device=device)
    _in_memory_counter_kernel[(G,)](counter)
    assert counter.item() == G
