"""Random numbers of triton.language: randint, randint4x, rand, rand4x, randn, randn4x, philox,
compared with a numpy implementation of Philox written here from the algorithm's description
(triton-facts.md; python/triton/language/random.py).

* 32-bit offsets: Philox 4x32-10.  Counter (c0, c1, c2, c3) = ((u32)offset, 0, 0, 0); key
  k0 = (u32)s, k1 = (u32)(s >> 32) with s = (u64)seed (sign-extended from a signed seed);
  each round: c0' = hi(B*c2) ^ c1 ^ k0, c2' = hi(A*c0) ^ c3 ^ k1, c1' = lo(B*c2), c3' = lo(A*c0),
  k0 += 0x9E3779B9, k1 += 0xBB67AE85 (A = 0xD2511F53, B = 0xCD9E8D57).
* 64-bit offsets (Triton 3.6, checked on an H100): still Philox 4x32-10, with the high half in
  the second counter word: c0 = (u32)offset, c1 = (u32)(offset >> 32); the results are 32-bit.
  (Triton's main branch later moved 64-bit offsets to a Philox 4x64 variant; these tests follow 3.6.)
* rand: x = bitcast<int32>(c0); x = x < 0 ? -x - 1 : x; (float)x * 4.6566127342e-10f.
* randn: Box-Muller on u1 = max(1e-7, U(c0)), u2 = U(c1): sqrt(-2 log u1) * cos(6.283185307179586 * u2);
  randn4x pairs (U(c0), U(c1)) -> (r cos, r sin) and (U(c2), U(c3)) likewise.

randint/randint4x/rand/rand4x/philox are compared bit for bit.  randn uses log/sqrt/cos, which
are approximate on NVIDIA (lg2.approx: absolute error ~2**-22, which matters for u1 near 1):
atol 1e-4, rtol 1e-4 against float64 numpy on the exact fp32 uniforms.
"""

import numpy as np
import pytest
import torch

import triton
import triton.language as tl

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF


# --------------------------------------------------------------------------------------
# numpy reference
# --------------------------------------------------------------------------------------


def philox4x32(seed, c0, c1=None, c2=None, c3=None, rounds=10):
    """seed: Python int (as the kernel sees it, sign-extended to 64 bits); c*: uint32 arrays."""
    s = seed & M64
    k0, k1 = np.uint64(s & M32), np.uint64(s >> 32)
    z = np.zeros_like(np.asarray(c0, dtype=np.uint64))
    c = [np.asarray(v, dtype=np.uint64) if v is not None else z for v in (c0, c1, c2, c3)]
    A, B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    KA, KB, mask = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85), np.uint64(M32)
    sh = np.uint64(32)
    for _ in range(rounds):
        pb = B * c[2]  # < 2**64: no overflow
        pa = A * c[0]
        c = [(pb >> sh) ^ c[1] ^ k0, pb & mask, (pa >> sh) ^ c[3] ^ k1, pa & mask]
        k0, k1 = (k0 + KA) & mask, (k1 + KB) & mask
    return [v.astype(np.uint32) for v in c]


def uniform32(bits):
    x = bits.astype(np.uint32).view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def box_muller(u1, u2):
    u1 = np.maximum(np.float32(1e-7), u1)
    th = (np.float32(6.283185307179586) * u2).astype(np.float64)
    r = np.sqrt(-2.0 * np.log(u1.astype(np.float64)))
    return r * np.cos(th), r * np.sin(th)


# --------------------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------------------


@triton.jit
def _store4(P, stride, a, b, c, d):
    # The four blocks of a *4x function (or philox), `stride` elements apart.
    tl.store(P, a)
    tl.store(P + stride, b)
    tl.store(P + 2 * stride, c)
    tl.store(P + 3 * stride, d)


@triton.jit
def _rand_kernel(OUT, seed, base, stride, FN: tl.constexpr, WIDE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    local = pid * BLOCK + tl.arange(0, BLOCK)
    if WIDE:
        offs = local.to(tl.int64) + base          # 64-bit offsets
    else:
        offs = local + base                       # 32-bit offsets (wrap around like uint32)
    o = OUT + local
    if FN == "randint":
        tl.store(o, tl.randint(seed, offs))
    elif FN == "randint_7":
        tl.store(o, tl.randint(seed, offs, n_rounds=7))
    elif FN == "randint4x":
        a, b, c, d = tl.randint4x(seed, offs)
        _store4(o, stride, a, b, c, d)
    elif FN == "rand":
        r = tl.rand(seed, offs)
        tl.static_assert(r.dtype == tl.float32)
        tl.store(o, r)
    elif FN == "rand4x":
        a, b, c, d = tl.rand4x(seed, offs)
        _store4(o, stride, a, b, c, d)
    elif FN == "randn":
        tl.store(o, tl.randn(seed, offs))
    elif FN == "randn4x":
        a, b, c, d = tl.randn4x(seed, offs)
        _store4(o, stride, a, b, c, d)
    else:
        tl.static_assert(False, "unknown function")


def run(fn, seed, n, device, base=0, wide=False, block=64, words=1):
    total = n
    if "4x" in fn:
        words = 4
    dtype = torch.int32 if fn.startswith("randint") else torch.float32
    out = torch.zeros(words * total, dtype=dtype, device=device)
    _rand_kernel[(triton.cdiv(n, block),)](out, seed, base, total, FN=fn, WIDE=wide, BLOCK=block)
    got = out.cpu().numpy().reshape(words, total)
    return got


SEEDS = [0, 42, 2 ** 31 - 1, -7, 2 ** 31 + 5, 0x123456789ABC]  # the last two are i64 arguments


# --------------------------------------------------------------------------------------
# 32-bit offsets: Philox 4x32
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("block", [64, 256])
def test_randint(seed, block, device):
    n = 512
    got = run("randint", seed, n, device, block=block)[0].view(np.uint32)
    ref = philox4x32(seed, np.arange(n, dtype=np.uint32))[0]
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("seed", [1234, -1, 2 ** 40 + 3])
def test_randint4x(seed, device):
    n = 256
    got = run("randint4x", seed, n, device).view(np.uint32)
    ref = philox4x32(seed, np.arange(n, dtype=np.uint32))
    for w in range(4):
        np.testing.assert_array_equal(got[w], ref[w], err_msg=f"word {w}")


def test_randint_offsets_wrap_as_uint32(device):
    # int32 offsets past 2**31 - 1 wrap to negative values: the counter is their uint32 bit pattern
    n, base = 256, 2 ** 31 - 100
    got = run("randint", 99, n, device, base=base)[0].view(np.uint32)
    ref = philox4x32(99, ((np.arange(n, dtype=np.int64) + base) & M32).astype(np.uint32))[0]
    np.testing.assert_array_equal(got, ref)


def test_randint_n_rounds(device):
    n = 128
    got = run("randint_7", 5, n, device)[0].view(np.uint32)
    np.testing.assert_array_equal(got, philox4x32(5, np.arange(n, dtype=np.uint32), rounds=7)[0])
    assert not np.array_equal(got, philox4x32(5, np.arange(n, dtype=np.uint32))[0])


@triton.jit
def _through_tl_random(X, OUT, n: tl.constexpr):
    idx = tl.arange(0, n)
    tl.store(OUT + idx, tl.random.uint_to_uniform_float(tl.load(X + idx)))
    tl.store(OUT + n + idx, tl.random.rand(7, idx, tl.random.N_ROUNDS_DEFAULT))


def test_tl_random_is_the_module_of_the_random_builtins(device):
    # tl.random.<name> is tl.<name>, as in Triton (its test_random calls it so).
    assert tl.random.randint is tl.randint and tl.random.N_ROUNDS_DEFAULT == 10
    x = torch.tensor([-2 ** 31, 2 ** 31 - 1, 0, -1], dtype=torch.int32, device=device)
    out = torch.empty(8, dtype=torch.float32, device=device)
    _through_tl_random[(1,)](x, out, 4)
    expected = uniform32(x.cpu().numpy().view(np.uint32))
    np.testing.assert_array_equal(out[:4].cpu().numpy(), expected)
    assert out[0] == out[1] and out[0] < 1.0  # the extremes map to the largest value below 1
    np.testing.assert_array_equal(out[4:].cpu().numpy(),
                                  uniform32(philox4x32(7, np.arange(4, dtype=np.uint32))[0]))


@pytest.mark.parametrize("seed", [0, 17, -3, 2 ** 35])
def test_rand(seed, device):
    n = 1024
    got = run("rand", seed, n, device, base=1000)[0]
    ref = uniform32(philox4x32(seed, np.arange(1000, 1000 + n, dtype=np.uint32))[0])
    np.testing.assert_array_equal(got, ref)  # bit-exact: integer ops, one conversion, one multiply
    assert (got >= 0).all() and (got < 1).all()


@pytest.mark.parametrize("seed", [3, 2 ** 33 + 1])
def test_rand4x(seed, device):
    n = 256
    got = run("rand4x", seed, n, device)
    words = philox4x32(seed, np.arange(n, dtype=np.uint32))
    for w in range(4):
        np.testing.assert_array_equal(got[w], uniform32(words[w]), err_msg=f"word {w}")


@pytest.mark.parametrize("seed", [0, 77])
def test_randn(seed, device):
    n = 1024
    got = run("randn", seed, n, device)[0]
    words = philox4x32(seed, np.arange(n, dtype=np.uint32))
    ref, _ = box_muller(uniform32(words[0]), uniform32(words[1]))
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4)


def test_randn4x(device):
    n, seed = 512, 2024
    got = run("randn4x", seed, n, device)
    w = philox4x32(seed, np.arange(n, dtype=np.uint32))
    u = [uniform32(v) for v in w]
    n1, n2 = box_muller(u[0], u[1])
    n3, n4 = box_muller(u[2], u[3])
    for k, ref in enumerate([n1, n2, n3, n4]):
        np.testing.assert_allclose(got[k], ref, rtol=1e-4, atol=1e-4, err_msg=f"word {k}")


def test_distribution_sanity(device):
    n = 8192
    u = run("rand", 11, n, device)[0]
    g = run("randn", 11, n, device)[0]
    assert abs(u.mean() - 0.5) < 0.02 and abs(u.var() - 1 / 12) < 0.01
    assert abs(g.mean()) < 0.05 and abs(g.std() - 1) < 0.05
    assert len(np.unique(u)) > n * 0.99


@triton.jit
def _philox_kernel(C, OUT, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c0 = tl.load(C + offs)
    c1 = tl.load(C + BLOCK + offs)
    c2 = tl.load(C + 2 * BLOCK + offs)
    c3 = tl.load(C + 3 * BLOCK + offs)
    a, b, c, d = tl.philox(seed, c0, c1, c2, c3)
    _store4(OUT + offs, BLOCK, a, b, c, d)


@pytest.mark.parametrize("seed", [0, 987654321])
def test_philox_full_counter(seed, device):
    block = 64
    c = np.random.RandomState(seed % 1000).randint(0, 2 ** 32, size=(4, block), dtype=np.uint64).astype(np.uint32)
    out = torch.zeros(4 * block, dtype=torch.int32, device=device)
    _philox_kernel[(1,)](torch.from_numpy(c.view(np.int32).ravel().copy()).to(device), out, seed, BLOCK=block)
    got = out.cpu().numpy().view(np.uint32).reshape(4, block)
    ref = philox4x32(seed, c[0], c[1], c[2], c[3])
    for w in range(4):
        np.testing.assert_array_equal(got[w], ref[w], err_msg=f"word {w}")


def philox4x64(seed, c, rounds=10):
    """Triton 3.6's tl.philox for 64-bit counters: key (seed as uint64, 0); c: 4 lists of ints."""
    A, B = 0xD2E7470EE14C6C93, 0xCA5A826395121157
    KA, KB = 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B
    out = []
    for c0, c1, c2, c3 in zip(*c):
        k0, k1 = seed & M64, 0
        for _ in range(rounds):
            pb, pa = B * c2, A * c0  # exact Python ints: high and low 64 bits
            c0, c1, c2, c3 = (pb >> 64) ^ c1 ^ k0, pb & M64, (pa >> 64) ^ c3 ^ k1, pa & M64
            k0, k1 = (k0 + KA) & M64, (k1 + KB) & M64
        out.append((c0, c1, c2, c3))
    return [np.array([w[i] for w in out], dtype=np.uint64) for i in range(4)]


@triton.jit
def _philox64_kernel(C, OUT, U, seed, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    c0 = tl.load(C + offs)  # int64 and uint64 counters: tl.philox bitcasts them
    c1 = tl.load(C + BLOCK + offs).to(tl.uint64, bitcast=True)
    c2 = tl.load(C + 2 * BLOCK + offs)
    c3 = tl.load(C + 3 * BLOCK + offs)
    a, b, c, d = tl.philox(seed, c0, c1, c2, c3, n_rounds=ROUNDS)
    tl.static_assert(a.dtype == tl.uint64)
    _store4(OUT + offs, BLOCK, a, b, c, d)
    tl.store(U + offs, tl.uint_to_uniform_float(a))


@pytest.mark.parametrize("seed, rounds", [(0, 10), (2 ** 40 + 17, 10), (-5, 7)])
def test_philox_64_bit_counters(seed, rounds, device):
    block = 64
    rs = np.random.RandomState(abs(seed) % 1000)
    c = rs.randint(-2 ** 63, 2 ** 63 - 1, size=(4, block), dtype=np.int64)
    out = torch.zeros(4 * block, dtype=torch.int64, device=device)
    u = torch.zeros(block, dtype=torch.float32, device=device)
    _philox64_kernel[(1,)](torch.from_numpy(c.ravel().copy()).to(device), out, u, seed,
                           BLOCK=block, ROUNDS=rounds)
    got = out.cpu().numpy().view(np.uint64).reshape(4, block)
    ref = philox4x64(seed, [[int(x) & M64 for x in row] for row in c], rounds)
    for w in range(4):
        np.testing.assert_array_equal(got[w], ref[w], err_msg=f"word {w}")
    x = ref[0].view(np.int64)
    mag = np.where(x < 0, -(x + 1), x)  # -x - 1 without overflow
    np.testing.assert_array_equal(u.cpu().numpy(),
                                  mag.astype(np.float32) * np.float32(1.0842020432385337e-19))


def test_same_numbers_for_any_grid_decomposition(device):
    a = run("randint", 31337, 1024, device, block=32)
    b = run("randint", 31337, 1024, device, block=1024)
    np.testing.assert_array_equal(a, b)


# --------------------------------------------------------------------------------------
# 64-bit offsets
# --------------------------------------------------------------------------------------


def split64(offsets):
    o = np.asarray(offsets, dtype=np.uint64)
    return (o & np.uint64(M32)).astype(np.uint32), (o >> np.uint64(32)).astype(np.uint32)


@pytest.mark.parametrize("seed, base", [(42, 0), (42, 2 ** 33), (-5, 2 ** 40 + 7)])
def test_randint_int64_offsets(seed, base, device):
    n = 128
    got = run("randint", seed, n, device, base=base, wide=True)[0].view(np.uint32)
    lo, hi = split64([base + i for i in range(n)])
    np.testing.assert_array_equal(got, philox4x32(seed, lo, hi)[0])


def test_randint4x_and_rand_int64_offsets(device):
    n, seed, base = 128, 8, 2 ** 34 + 3
    lo, hi = split64([base + i for i in range(n)])
    words = philox4x32(seed, lo, hi)
    got = run("randint4x", seed, n, device, base=base, wide=True).view(np.uint32)
    for w in range(4):
        np.testing.assert_array_equal(got[w], words[w], err_msg=f"word {w}")
    np.testing.assert_array_equal(run("rand", seed, n, device, base=base, wide=True)[0], uniform32(words[0]))
