"""Runs generated cases on one side and writes what each produced (README.md).

    python worker.py tcpu <results.pkl> <workdir> <seed>...       tcpu's front end
    TRITON_INTERPRET=1 python worker.py interpret <results.pkl> <workdir> <seed>...
                                                                   real Triton's interpreter

Each case's module is written to <workdir>/case_<seed>.py and imported from there (both
Triton and tcpu read a kernel's source with `inspect`). The runner gives a workdir that stays
the same from run to run: the file's path is part of what tcpu compiles (its #line
directives), so a stable path lets the compile cache serve a case again. The result per seed is a dict:
{"outputs": [numpy arrays]} or {"error": "<ExceptionClass>: <first line>"}. One process runs
many cases, so that each side's import and start-up are paid once per batch."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import pickle
import sys
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

from generator import Case, generate  # noqa: E402


def _import_triton(side: str):
    if side == "tcpu":
        from tcpu import aliases
        aliases.install()
    elif os.environ.get("TRITON_INTERPRET") != "1":
        raise SystemExit("the interpret side needs TRITON_INTERPRET=1")
    import torch
    import triton
    if side == "interpret" and "tcpu" in triton.__file__:
        raise SystemExit(f"expected real Triton, imported {triton.__file__}")
    return torch, triton


def _tensor(torch, data: np.ndarray, dtype: str):
    if dtype == "bfloat16":
        return torch.from_numpy(data.copy()).view(torch.bfloat16)
    if dtype == "int1":
        return torch.from_numpy(data.copy())
    return torch.from_numpy(np.ascontiguousarray(data).copy())


def run_case(torch, case: Case, workdir: pathlib.Path) -> dict:
    path = workdir / f"case_{case.seed}.py"
    if not path.exists() or path.read_text() != case.source:
        # Atomically: another run may be importing the same case.
        scratch = path.with_name(f".{path.name}.{os.getpid()}")
        scratch.write_text(case.source)
        os.replace(scratch, path)
    spec = importlib.util.spec_from_file_location(f"case_{case.seed}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = []
    tensors = []
    for argument in case.arguments:
        if isinstance(argument.data, np.ndarray):
            tensor = _tensor(torch, argument.data, argument.dtype)
            args.append(tensor)
            tensors.append((argument, tensor))
        else:
            args.append(argument.data)
    try:
        module.kernel[(1,)](*args, **case.constexprs, enable_fp_fusion=False)
    except Exception as e:  # noqa: BLE001 - any refusal is a result to compare
        message = str(e).strip().splitlines()
        return {"error": f"{type(e).__name__}: {message[0] if message else ''}",
                "detail": str(e)[:6000]}
    return {"outputs": [t.numpy().copy() for a, t in tensors if a.output]}


def main() -> None:
    side, results_path, workdir = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    seeds = [int(s) for s in sys.argv[4:]]
    torch, _ = _import_triton(side)
    workdir.mkdir(parents=True, exist_ok=True)
    warnings.simplefilter("ignore")  # numpy's overflow warnings: wrapping is the semantics
    results = {}
    for seed in seeds:
        try:
            results[seed] = run_case(torch, generate(seed), workdir)
        except Exception as e:  # noqa: BLE001 - the generator or the harness itself
            results[seed] = {"error": f"harness {type(e).__name__}: {e}"}
    results_path.write_bytes(pickle.dumps(results))


if __name__ == "__main__":
    main()
