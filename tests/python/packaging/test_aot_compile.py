"""`python3 -m tcpu.compile` (python/tcpu/compile.py): Triton's compile.py interface for
@triton.jit kernels, producing what `tcpu compile` produces, under Triton's names. The objects
are linked into C programs and run by scripts/packaging/check-package.sh
(examples/aot_python_kernel)."""

import hashlib
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
KERNELS = ROOT / "examples" / "aot_python_kernel" / "kernels.py"


def compile_py(tmp_path, *args, path=KERNELS):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "tcpu.compile", str(path), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)


def triton_hash(signature, warps=1, stages=3):
    # Triton's tools/compile.py: sha256(" ".join(entries + [meta]))[:8]
    entries = [e.strip() for e in signature.split(",")]
    return hashlib.sha256(" ".join(entries + [f"warps{warps}xstages{stages}"]).encode()
                          ).hexdigest()[:8]


@pytest.mark.parametrize("signature, suffix, warps, stages", [
    ("*fp32:16, *fp32:16, *fp32:16, i32:16, 1024", "0d1d2d3d4", 1, 3),
    ("*fp32, *fp32, *fp32, i32, 512", "01234", 4, 2),
])
def test_outputs_have_tritons_names(tmp_path, signature, suffix, warps, stages):
    result = compile_py(tmp_path, "--kernel-name", "add_kernel", "--signature", signature,
                        "--grid", "(n_elements+1023)/1024,1,1", "--num-warps", str(warps),
                        "--num-stages", str(stages), "--out-path", str(tmp_path / "add"))
    assert result.returncode == 0, result.stderr
    h = triton_hash(signature, warps, stages)
    header, obj = tmp_path / f"add.{h}_{suffix}.h", tmp_path / f"add.{h}_{suffix}.o"
    assert result.stdout.split() == [str(header), str(obj)]
    assert obj.stat().st_size > 0
    text = header.read_text()
    block = signature.split(",")[-1].strip()
    assert (f"// tcpu-linker: add_kernel_{h}_{suffix}:float* x_ptr, float* y_ptr, float* out_ptr, "
            f"int32_t n_elements:{block}_warps{warps}xstages{stages}:") in text
    assert (f"tcpuResult add_kernel_{h}_{suffix}(tcpuStream stream, float* x_ptr, float* y_ptr, "
            "float* out_ptr, int32_t n_elements);") in text


def test_print_outputs_writes_nothing(tmp_path):
    signature = "*i32, *i32, i32, i32, i32, 256"
    result = compile_py(tmp_path, "-n", "row_max_kernel", "-s", signature, "-g", "n_rows,1,1",
                        "--print-outputs", "-o", str(tmp_path / "rm"))
    assert result.returncode == 0, result.stderr
    h = triton_hash(signature)
    assert result.stdout.split() == [str(tmp_path / f"rm.{h}_012345.h"),
                                     str(tmp_path / f"rm.{h}_012345.o")]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args, message", [
    (["-n", "add_kernel", "-s", "*fp32, *fp32, i32, 1024", "-g", "1,1,1"],
     "4 entries for 5 kernel arguments (x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE)"),
    (["-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i32, i32", "-g", "1,1,1"],
     "argument 'BLOCK_SIZE' is a tl.constexpr: its entry must be a value, got 'i32'"),
    (["-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, fp64, 64", "-g", "1,1,1"],
     "fp64 scalar arguments are not supported yet"),
    (["-n", "add_kernel", "-s", "*fp32, *fp32, *fp32, i32:8, 64", "-g", "1,1,1"],
     "'i32:8': the hint must be 16 or 1"),
    (["-n", "no_such_kernel", "-s", "i32", "-g", "1,1,1"],
     "--kernel-name 'no_such_kernel' is not a @triton.jit function of"),
])
def test_bad_command_lines_exit_2_naming_the_problem(tmp_path, args, message):
    result = compile_py(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_kernel_triton_rejects_names_its_line(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                      "def k(x_ptr, n):\n    y = tl.load(x_ptr) + undefined_name\n"
                      "    tl.store(x_ptr, y)\n")
    result = compile_py(tmp_path, "-n", "k", "-s", "*fp32, i32", "-g", "1,1,1", path=source)
    assert result.returncode == 1
    assert 'bad.py", line 7, column 26' in result.stderr, result.stderr
    assert "name 'undefined_name' is not defined" in result.stderr
