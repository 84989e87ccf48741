"""CPU-vs-GPU cross-checks of one Triton kernel: `tcpu.testing.xcheck`.

    from tcpu.testing import xcheck
    xcheck(add_kernel, (4,), [x, y, out, n], {"BLOCK_SIZE": 1024},
           outputs={"out_ptr": "exact"}, golden="goldens/add")

runs the kernel on the same arguments through real Triton on a GPU and through tcpu on the
CPU, and judges each output by its rule, as `tcpu xcheck` does: "exact", "ulp:N",
"relnorm:X" or "abs:X". Three modes:

- "record" (real Triton and a GPU; tcpu's compiled parts are not needed): runs on the GPU and
  writes `golden` as a `tcpu xcheck` run: xcheck.txt, one .npy per array argument, and
  xcheck-key.json (hashes of the kernel's source and of its inputs).
- "compare" (no GPU needed: CI): runs tcpu on the CPU and judges it against `golden`. A golden
  recorded from another kernel source, other arguments or other inputs is refused, never
  compared.
- "live" (real Triton, a GPU and tcpu in one process): both runs, no files kept.

Without `mode`, `golden` given: "record" where real Triton has a GPU, else "compare"; no
`golden`: "live". TCPU_XCHECK_MODE overrides. The kernel may be decorated by real Triton or by
tcpu (`import triton` under tcpu's alias): tcpu runs either. Arguments are torch tensors or
numpy arrays (copied: the caller's are not written) and scalars; `args` holds the kernel's
arguments in order (a prefix of them), `meta` the rest by name (constexprs, launch options).
A failed check raises `XcheckError` (an AssertionError: pytest reports it), naming the first
differing element and the worst one, with `tcpu xcheck`'s table."""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any, Mapping, Sequence

import numpy as np

from .frontend.real_triton import is_real_triton

MODES = ("record", "compare", "live")


class XcheckError(AssertionError):
    """An output broke its rule, or the check could not be made as asked."""


@dataclasses.dataclass
class XcheckReport:
    mode: str
    case: str
    passed: bool
    table: str  # tcpu xcheck's comparison table ("" in record mode)
    golden: pathlib.Path | None = None

    def __str__(self) -> str:
        where = f" ({self.golden})" if self.golden else ""
        return f"xcheck {self.case} [{self.mode}]{where}: " + (
            "recorded" if self.mode == "record" else "passed" if self.passed else "FAILED") + (
            "\n" + self.table if self.table else "")


# ---- the kernel and its arguments ----------------------------------------------------------

def _jit_function(kernel: Any) -> Any:
    """The JITFunction under autotune/heuristics wrappers (real Triton's or tcpu's)."""
    while not hasattr(kernel, "arg_names") and hasattr(kernel, "fn"):
        kernel = kernel.fn
    if not hasattr(kernel, "arg_names") or not hasattr(kernel, "fn"):
        raise TypeError(f"xcheck: kernel must be a @triton.jit function, got {kernel!r}")
    return kernel


def _sources(kernel: Any) -> str:
    """The kernel's source and those of the @jit functions it calls, by name, recursively
    (what a different golden would have been recorded from)."""
    seen: dict[str, str] = {}

    def visit(fn: Any) -> None:
        key = f"{fn.__module__}.{fn.__qualname__}"
        if key in seen:
            return
        seen[key] = inspect.getsource(fn)
        for name in fn.__code__.co_names:
            value = fn.__globals__.get(name)
            inner = getattr(value, "fn", None)
            if inner is not None and hasattr(value, "arg_names") and inspect.isfunction(inner):
                visit(inner)

    visit(kernel.fn)
    return "\n".join(f"# {k}\n{v}" for k, v in sorted(seen.items()))


def _is_array(value: Any) -> bool:
    return hasattr(value, "data_ptr") or isinstance(value, np.ndarray)


def _host_array(value: Any) -> tuple[np.ndarray, bool]:
    """A C-contiguous host copy of an array argument, and whether it is bf16 (held as its
    uint16 bits: .npy has no bf16)."""
    if isinstance(value, np.ndarray):
        return np.ascontiguousarray(value).copy(), False
    import torch

    tensor = value.detach().to("cpu").contiguous()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(np.uint16).copy(), True
    return tensor.numpy().copy(), False


@dataclasses.dataclass
class _Case:
    name: str
    kernel: Any  # the JITFunction as given
    grid: Any
    names: list[str]  # the kernel's argument names
    values: list[Any]  # the arguments as given, in order (launches copy the arrays)
    meta: dict[str, Any]
    arrays: dict[str, np.ndarray]  # host copies of every array argument, before the launch
    bf16: set[str]
    outputs: dict[str, str]  # name -> rule

    @property
    def inputs(self) -> list[str]:
        return [n for n in self.arrays if n not in self.outputs]

    def key(self) -> dict[str, Any]:
        scalars = {n: repr(v) for n, v in zip(self.names, self.values) if n not in self.arrays}
        return {
            "kernel": self.kernel.__name__,
            "source_sha256": hashlib.sha256(_sources(self.kernel).encode()).hexdigest(),
            "grid": repr(self.grid) if not callable(self.grid) else "<callable>",
            "scalars": scalars,
            "meta": {k: repr(v) for k, v in sorted(self.meta.items())},
            "inputs_sha256": {n: hashlib.sha256(self.arrays[n].tobytes()).hexdigest()
                              for n in self.inputs},
            "arrays": {n: [str(a.dtype) + (" (bf16 bits)" if n in self.bf16 else ""),
                           list(a.shape)] for n, a in self.arrays.items()},
        }


def _case(kernel: Any, grid: Any, args: Sequence[Any], meta: Mapping[str, Any] | None,
          outputs: Mapping[str, str], name: str | None) -> _Case:
    jit = _jit_function(kernel)
    names = list(jit.arg_names)
    if len(args) > len(names):
        raise XcheckError(f"xcheck: {jit.__name__} takes {len(names)} arguments, "
                          f"{len(args)} were given")
    arrays, bf16 = {}, set()
    for arg_name, value in zip(names, args):
        if _is_array(value):
            arrays[arg_name], is_bf16 = _host_array(value)
            if is_bf16:
                bf16.add(arg_name)
    if not outputs:
        raise XcheckError("xcheck: outputs must name at least one array argument and its rule")
    for out in outputs:
        if out not in arrays:
            raise XcheckError(f"xcheck: output '{out}' is not an array argument of "
                              f"{jit.__name__} (array arguments: {', '.join(arrays) or 'none'})")
    return _Case(name or jit.__name__, jit, grid, names, list(args), dict(meta or {}), arrays,
                 bf16, dict(outputs))


# ---- runs ---------------------------------------------------------------------------------

def _launch(kernel: Any, case: _Case, to_device: Any) -> dict[str, np.ndarray]:
    """Launches `kernel` on fresh device copies of the case's arrays; the outputs, on the host."""
    values = []
    device_arrays = {}
    for arg_name, value in zip(case.names, case.values):
        if arg_name in case.arrays:
            device_arrays[arg_name] = to_device(case.arrays[arg_name], arg_name in case.bf16)
            values.append(device_arrays[arg_name])
        else:
            values.append(value)
    kernel[case.grid](*values, **case.meta)
    return {n: _host_array(device_arrays[n])[0] for n in case.outputs}


def _torch_copy(device: str) -> Any:
    def copy(array: np.ndarray, bf16: bool) -> Any:
        import torch

        if bf16:  # its uint16 bits (torch.from_numpy takes no uint16 before torch 2.3)
            tensor = torch.from_numpy(array.view(np.int16).copy()).view(torch.bfloat16)
        else:
            tensor = torch.from_numpy(array.copy())
        return tensor.to(device)
    return copy


def _real_triton_with_gpu() -> bool:
    try:
        import torch
        import triton
    except ImportError:
        return False
    return is_real_triton(triton) and torch.cuda.is_available()


def _run_on_gpu(case: _Case) -> dict[str, np.ndarray]:
    if not is_real_triton(case.kernel):
        raise XcheckError(f"xcheck: {case.kernel.__name__} is tcpu's (import triton resolved to "
                          "tcpu): the GPU run needs the kernel decorated by real Triton")
    import torch
    outputs = _launch(case.kernel, case, _torch_copy("cuda"))
    torch.cuda.synchronize()
    return outputs


def _run_on_cpu(case: _Case) -> dict[str, np.ndarray]:
    kernel = case.kernel
    if is_real_triton(kernel):
        from .triton.runtime.jit import JITFunction
        kernel = JITFunction.of_triton(kernel)
    needs_torch = bool(case.bf16) or any(hasattr(v, "data_ptr") for v in case.values)
    copy = _torch_copy("cpu") if needs_torch else (lambda array, bf16: array.copy())
    return _launch(kernel, case, copy)


def _write_run(directory: pathlib.Path, case: _Case, backend: str, device: str,
               outputs: Mapping[str, np.ndarray]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    lines = ["tcpu-xcheck 1", f"case {case.name}", f"kernel {case.kernel.__name__}",
             f"backend {backend}", f"device {device}", "seed 0"]
    for n in case.inputs:
        np.save(directory / f"{n}.npy", case.arrays[n])
        lines.append(f"input {n}" + (" bf16" if n in case.bf16 else ""))
    for n, rule in case.outputs.items():
        np.save(directory / f"{n}.npy", outputs[n])
        lines.append(f"output {n} {rule}" + (" bf16" if n in case.bf16 else ""))
    (directory / "xcheck.txt").write_text("\n".join(lines) + "\n")
    (directory / "xcheck-key.json").write_text(json.dumps(case.key(), indent=1) + "\n")


def _gpu_description() -> str:
    import torch
    import triton
    return (f"{torch.cuda.get_device_name(0)}, Triton {triton.__version__}, "
            f"PyTorch {torch.__version__}")


def _tcpu_tool() -> str:
    from .compile import tcpu_tool
    return str(tcpu_tool())


def _compare(expected: pathlib.Path, actual: pathlib.Path) -> tuple[bool, str]:
    result = subprocess.run([_tcpu_tool(), "xcheck", "--compare", str(expected), str(actual)],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        raise XcheckError(f"xcheck: tcpu xcheck --compare could not compare the runs:\n"
                          f"{result.stderr}{result.stdout}")
    return result.returncode == 0, result.stdout + result.stderr


def _check_golden(golden: pathlib.Path, case: _Case) -> None:
    key_file = golden / "xcheck-key.json"
    if not (golden / "xcheck.txt").is_file() or not key_file.is_file():
        raise XcheckError(f"xcheck: {golden} is not a golden recorded by xcheck (no xcheck.txt "
                          "or xcheck-key.json): record it on a GPU machine with real Triton")
    recorded, current = json.loads(key_file.read_text()), case.key()
    for field, what in (("kernel", "kernel"), ("source_sha256", "kernel source"),
                        ("grid", "grid"), ("scalars", "scalar arguments"), ("meta", "meta"),
                        ("arrays", "array dtypes or shapes"), ("inputs_sha256", "inputs")):
        if recorded.get(field) != current[field]:
            raise XcheckError(
                f"xcheck: the golden {golden} was recorded with other {what} than this check "
                f"has (recorded {recorded.get(field)!r}, now {current[field]!r}): record it "
                "again on a GPU machine with real Triton")


# ---- the entry point ----------------------------------------------------------------------

def xcheck(kernel: Any, grid: Any, args: Sequence[Any], meta: Mapping[str, Any] | None = None,
           *, outputs: Mapping[str, str], golden: str | os.PathLike[str] | None = None,
           mode: str | None = None, name: str | None = None) -> XcheckReport:
    """Runs `kernel[grid](*args, **meta)` on the GPU (real Triton) and/or the CPU (tcpu) and
    judges each output in `outputs` ({argument name: rule}); see the module's text. `name`
    names the case (default: the golden's folder name, else the kernel's name)."""
    mode = mode or os.environ.get("TCPU_XCHECK_MODE") or None
    if mode is None:
        mode = "live" if golden is None else (
            "record" if _real_triton_with_gpu() else "compare")
    if mode not in MODES:
        raise XcheckError(f"xcheck: mode must be one of {MODES}, not {mode!r}")
    if mode != "live" and golden is None:
        raise XcheckError(f"xcheck: mode {mode!r} needs golden=<directory>")
    golden_dir = pathlib.Path(golden) if golden is not None else None
    case = _case(kernel, grid, args, meta, outputs,
                 name or (golden_dir.name if golden_dir is not None else None))

    if mode == "record":
        if not _real_triton_with_gpu():
            raise XcheckError("xcheck: recording needs real Triton and a CUDA GPU")
        _write_run(golden_dir, case, "triton", _gpu_description(), _run_on_gpu(case))
        return XcheckReport(mode, case.name, True, "", golden_dir)

    with tempfile.TemporaryDirectory(prefix="tcpu-xcheck-") as folder:
        if mode == "compare":
            _check_golden(golden_dir, case)
            expected = golden_dir
        else:
            if not _real_triton_with_gpu():
                raise XcheckError("xcheck: live mode needs real Triton and a CUDA GPU in this "
                                  "process (elsewhere: golden=..., recorded on a GPU machine)")
            expected = pathlib.Path(folder) / "gpu"
            _write_run(expected, case, "triton", _gpu_description(), _run_on_gpu(case))
        actual = pathlib.Path(folder) / "cpu"
        _write_run(actual, case, "tcpu", "CPU (tcpu)", _run_on_cpu(case))
        passed, table = _compare(expected, actual)
    report = XcheckReport(mode, case.name, passed, table, golden_dir)
    if not passed:
        raise XcheckError(str(report))
    return report


__all__ = ["MODES", "XcheckError", "XcheckReport", "xcheck"]
