"""Debugging facilities of triton.language: device_print (and the print builtin), device_assert
(and the assert statement) with debug=True, static_assert, static_print, debug_barrier, and the
compiler hints (multiple_of, max_contiguous, max_constancy, assume).

Semantics (python/triton/language/core.py, semantic.py, compiler/code_generator.py):
* device_print prints one line per element: ``pid (x, y, z) idx (i, ...) <prefix>: <value>``
  (scalars: ``idx ()``); integers in decimal (``hex=True``: 0x-prefixed, zero-padded), floats with %f.
  The prefix gets ": " appended.  On a GPU an element may be printed by several threads, so the
  checks below ask for every expected line at least once.
* device_assert and ``assert`` only check when the kernel is compiled with debug=True; a failed
  check makes the launch fail (a device-side assert on CUDA, an exception on tcpu).
* static_assert fails the compilation; static_print prints once per compilation.

A failed device-side assert poisons the CUDA context, so on CUDA those launches run in a
subprocess (as Triton's own test_core does); on other devices they run in this process.
"""

import ctypes
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import torch

import triton
import triton.language as tl


def flush_device_output(device):
    if device == "cuda":
        torch.cuda.synchronize()
    ctypes.CDLL(None).fflush(None)   # device printf goes through C stdio


LINE = re.compile(r"pid \((\d+),\s*(\d+),\s*(\d+)\)\s*idx \(([\d,\s]*)\)\s*(.*?):\s*(\S+)\s*$")


def parse_print_lines(text, prefix):
    """{(pid, idx tuple, value string)} for the lines carrying `prefix`."""
    found = set()
    for line in text.splitlines():
        m = LINE.search(line)
        if m and m.group(5).strip() == prefix:
            pid = tuple(int(v) for v in m.group(1, 2, 3))
            idx = tuple(int(v) for v in m.group(4).replace(" ", "").split(",") if v != "")
            found.add((pid, idx, m.group(6)))
    return found


# --------------------------------------------------------------------------------------
# device_print
# --------------------------------------------------------------------------------------


@triton.jit
def _print_kernel(X, BLOCK: tl.constexpr, KIND: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    if KIND == "device_print":
        tl.device_print("val", x)
    elif KIND == "builtin_print":
        print("val", x)
    elif KIND == "hex":
        tl.device_print("val", x, hex=True)
    else:
        tl.device_print("val", tl.sum(x, axis=0))   # a scalar


@pytest.mark.parametrize("kind", ["device_print", "builtin_print", "hex", "scalar"])
def test_device_print_int(kind, capfd, device):
    BLOCK, P = 16, 2
    x = (np.arange(P * BLOCK, dtype=np.int32) * 3 - 20)
    capfd.readouterr()
    _print_kernel[(P,)](torch.from_numpy(x).to(device), BLOCK=BLOCK, KIND=kind)
    flush_device_output(device)
    found = parse_print_lines(capfd.readouterr().out, "val")
    if kind == "scalar":
        expected = {((p, 0, 0), (), str(int(x[p * BLOCK:(p + 1) * BLOCK].sum()))) for p in range(P)}
    elif kind == "hex":
        expected = {((p, 0, 0), (i,), "0x%08x" % (int(x[p * BLOCK + i]) & 0xFFFFFFFF))
                    for p in range(P) for i in range(BLOCK)}
    else:
        expected = {((p, 0, 0), (i,), str(int(x[p * BLOCK + i]))) for p in range(P) for i in range(BLOCK)}
    assert expected <= found, sorted(expected - found)[:5]


@triton.jit
def _print2d_kernel(X, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.device_print("m", tl.load(X + offs))


def test_device_print_2d_float(capfd, device):
    M, N = 4, 8
    x = (np.arange(M * N, dtype=np.float32) * 0.25 - 3)
    capfd.readouterr()
    _print2d_kernel[(1,)](torch.from_numpy(x).to(device), M=M, N=N)
    flush_device_output(device)
    found = parse_print_lines(capfd.readouterr().out, "m")
    got = {(idx, float(v)) for pid, idx, v in found if pid == (0, 0, 0)}
    expected = {((i, j), float(x[i * N + j])) for i in range(M) for j in range(N)}
    assert expected <= got, sorted(expected - got)[:5]
    # %f formatting: six decimals
    assert any(v == "%f" % x[1] for _, _, v in found)


# --------------------------------------------------------------------------------------
# device_assert / assert (run as a module: in a subprocess on CUDA)
# --------------------------------------------------------------------------------------

ASSERT_MODULE = textwrap.dedent('''
    import sys
    import torch
    import triton
    import triton.language as tl


    @triton.jit(debug=DEBUG)
    def checked_kernel(X, OUT, BLOCK: tl.constexpr, KIND: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(X + offs)
        if KIND == "device_assert":
            tl.device_assert(x < 100, "x must stay below 100")
        elif KIND == "assert_stmt":
            assert x < 100, "x must stay below 100"
        else:
            s = tl.sum(x, axis=0)
            tl.device_assert(s < 10000, "the sum must stay below 10000")
        tl.store(OUT + offs, x + 1)


    def main(device, kind, bad):
        x = torch.arange(16, dtype=torch.int32, device=device)
        if bad:
            x[5] = 100000
        out = torch.zeros(16, dtype=torch.int32, device=device)
        checked_kernel[(1,)](x, out, BLOCK=16, KIND=kind)
        if device == "cuda":
            torch.cuda.synchronize()
        return out.cpu().tolist(), x.cpu().tolist()


    if __name__ == "__main__":
        try:
            out, x = main(sys.argv[1], sys.argv[2], sys.argv[3] == "1")
        except Exception as e:  # a failed device-side assert surfaces here on CUDA
            print("RAISED", type(e).__name__, e)
            sys.exit(3)
        assert out == [v + 1 for v in x], out
        print("OK")
''')


def run_assert_case(tmp_path, device, debug, kind, bad):
    """Returns (raised, text)."""
    name = "assert_mod_%d_%s_%d_%d" % (int(debug), kind, int(bad), time.time_ns() % 10 ** 9)
    path = tmp_path / (name + ".py")
    path.write_text(ASSERT_MODULE.replace("DEBUG", str(debug)))
    if device == "cuda":
        proc = subprocess.run([sys.executable, str(path), device, kind, "1" if bad else "0"],
                              capture_output=True, text=True, timeout=300)
        text = proc.stdout + proc.stderr
        assert proc.returncode in (0, 3) or "Assertion" in text or "assert" in text, text
        return proc.returncode != 0, text
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    try:
        out, x = mod.main(device, kind, bad)
    except Exception as e:  # noqa: BLE001 - any error type is acceptable for a failed assert
        return True, "%s: %s" % (type(e).__name__, e)
    assert out == [v + 1 for v in x], out
    return False, ""


@pytest.mark.parametrize("kind", ["device_assert", "assert_stmt", "scalar"])
def test_failing_assert_with_debug_raises(kind, tmp_path, device):
    raised, text = run_assert_case(tmp_path, device, debug=True, kind=kind, bad=True)
    assert raised, "a failed device assert did not fail the launch"


@pytest.mark.parametrize("kind", ["device_assert", "assert_stmt"])
def test_passing_assert_with_debug(kind, tmp_path, device):
    raised, text = run_assert_case(tmp_path, device, debug=True, kind=kind, bad=False)
    assert not raised, text


@pytest.mark.parametrize("kind", ["device_assert", "assert_stmt"])
def test_assert_is_inactive_without_debug(kind, tmp_path, device):
    raised, text = run_assert_case(tmp_path, device, debug=False, kind=kind, bad=True)
    assert not raised, text


# --------------------------------------------------------------------------------------
# debug=True compiles bounds-checked (tcpu's own: a GPU reports an illegal address at the kernel)
# --------------------------------------------------------------------------------------


@triton.jit
def _store_past_end(X, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, offs, mask=offs < N)


@triton.jit(debug=True)
def _store_past_end_debug(X, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(X + offs, offs, mask=offs < N)


OUT_OF_BOUNDS = (r"kernel '{}': TCPU_ERROR_ILLEGAL_ADDRESS: .* program \(0, 0, 0\): parameter 0 "
                 r"'X' \(\*i32\): store of 4 bytes at offset 64 \(element 16\) outside its "
                 r"registered host range of 64 bytes")


@pytest.mark.parametrize("how", ["decorator", "launch_option", "TRITON_DEBUG"])
@pytest.mark.parametrize("array", ["torch", "numpy"])
def test_store_past_the_end_with_debug_raises_naming_the_kernel(how, array, monkeypatch, device):
    if device != "cpu":
        pytest.skip("a store past a buffer poisons a CUDA context")
    from tcpu import _tcpu_rt
    x = torch.zeros(16, dtype=torch.int32) if array == "torch" else np.zeros(16, dtype=np.int32)
    kernel, options = _store_past_end, {}
    if how == "decorator":
        kernel = _store_past_end_debug
    elif how == "launch_option":
        options = {"debug": True}
    else:
        monkeypatch.setenv("TRITON_DEBUG", "1")
    with pytest.raises(_tcpu_rt.Error, match=OUT_OF_BOUNDS.format(kernel.__name__)):
        kernel[(1,)](x, 64, BLOCK=64, **options)   # 64 stores into 16 elements
    assert list(x[:16]) == list(range(16))   # the stray stores were skipped, the others made
    # The launch registered the array for its checks only.
    address = x.data_ptr() if array == "torch" else x.ctypes.data
    assert _tcpu_rt.register_host(address, 64)
    _tcpu_rt.unregister_host(address)


def test_debug_checks_against_the_whole_allocation(device):
    """A view may reach the rest of its tensor's storage, as on a GPU: not reported."""
    if device != "cpu":
        pytest.skip("tcpu's bounds checks")
    whole = torch.zeros(64, dtype=torch.int32)
    kernel = _store_past_end[(1,)](whole[:16], 64, BLOCK=64, debug=True)
    assert kernel.check_bounds
    assert whole.tolist() == list(range(64))
    assert not _store_past_end[(1,)](whole, 64, BLOCK=64).check_bounds   # without debug: plain


# --------------------------------------------------------------------------------------
# static_assert / static_print
# --------------------------------------------------------------------------------------


@triton.jit
def _static_assert_kernel(X, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 64, "BLOCK must be at most 64")
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_assert(x.dtype == tl.float32, "expects fp32 data")
    tl.store(X + tl.arange(0, BLOCK), x * 2)


def test_static_assert_passes(device):
    x = torch.ones(32, dtype=torch.float32, device=device)
    _static_assert_kernel[(1,)](x, BLOCK=32)
    assert (x.cpu().numpy() == 2).all()


@pytest.mark.parametrize("block, dtype, message", [(128, torch.float32, "BLOCK must be at most 64"),
                                                   (32, torch.float16, "expects fp32 data")])
def test_static_assert_fails_at_compile_time(block, dtype, message, device):
    x = torch.ones(block, dtype=dtype, device=device)
    with pytest.raises(Exception) as info:
        _static_assert_kernel[(1,)](x, BLOCK=block)
    assert message in str(info.value) or message in repr(info.value.__cause__)
    assert (x.cpu().float().numpy() == 1).all()   # nothing ran


@triton.jit
def _static_print_kernel(X, TAG: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_print("static-print tag", TAG, "block", BLOCK)
    tl.static_print(f"fstring-tag={TAG}")
    tl.static_print("numel", x.numel)
    tl.store(X + tl.arange(0, BLOCK), x + 1)


def test_static_print_once_per_compilation(capfd, device):
    tag = time.time_ns() % 10 ** 12 + os.getpid()   # a fresh specialization: no cached binary
    x = torch.zeros(16, dtype=torch.float32, device=device)
    capfd.readouterr()
    _static_print_kernel[(1,)](x, TAG=tag, BLOCK=16)
    flush_device_output(device)
    out = capfd.readouterr().out
    assert "static-print tag %d block 16" % tag in out, out
    assert "fstring-tag=%d" % tag in out, out
    assert "numel 16" in out, out
    _static_print_kernel[(1,)](x, TAG=tag, BLOCK=16)   # cached: not compiled again, nothing printed
    flush_device_output(device)
    assert "static-print tag" not in capfd.readouterr().out
    assert (x.cpu().numpy() == 2).all()


# --------------------------------------------------------------------------------------
# debug_barrier and compiler hints
# --------------------------------------------------------------------------------------


@triton.jit
def _hints_kernel(X, Z, n, BLOCK: tl.constexpr):
    tl.assume(n > 0)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.multiple_of(offs, 16)
    offs = tl.max_contiguous(offs, BLOCK)
    c = tl.max_constancy(tl.zeros((BLOCK,), dtype=tl.int32) + pid, BLOCK)
    x = tl.load(X + offs, mask=offs < n)
    tl.debug_barrier()
    tl.store(Z + offs, x + c, mask=offs < n)


def test_debug_barrier_and_hints(device):
    n = 200
    x = np.arange(n, dtype=np.int32)
    z = torch.zeros(n, dtype=torch.int32, device=device)
    _hints_kernel[(triton.cdiv(n, 64),)](torch.from_numpy(x).to(device), z, n, BLOCK=64)
    np.testing.assert_array_equal(z.cpu().numpy(), x + x // 64)
