"""Records goldens of real Triton on an NVIDIA GPU from the tutorial examples (examples/python).

Needs only PyTorch (with CUDA), Triton and NumPy; not tcpu. For every case the examples'
`golden_cases(device)` return, it launches the kernel once on fixed seeded inputs and writes
<out-dir>/<case>/ in `tcpu xcheck`'s format: xcheck.txt (case, kernel, backend, device, seed,
inputs, outputs and their rules) and one .npy per input and output array. Beside the cases it
writes PROVENANCE.json (versions, GPU, driver, date, per-case shapes, rules with their reasons,
and whether a second launch reproduced the first bit for bit), and with --timings a JSON of
timings: each case's launch under triton.testing.do_bench, and for vector add, softmax and
matmul at the examples' default shapes the Triton interpreter's time per launch
(TRITON_INTERPRET=1, in a subprocess) beside a NumPy ufunc call on a 1-element array.

    python3 scripts/gpu/record_triton_goldens.py --out-dir tests/goldens/triton \
        --timings tests/goldens/triton/TIMINGS.json [--case NAME ...]
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
import timeit

import numpy as np
import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples", "python")
SCRIPTS = ["01_vector_add", "02_fused_softmax", "03_matrix_multiplication", "04_low_memory_dropout",
           "05_layer_norm", "06_fused_attention", "07_extern_functions", "08_grouped_gemm"]


def load_example(stem: str):
    if EXAMPLES not in sys.path:
        sys.path.insert(0, EXAMPLES)
    spec = importlib.util.spec_from_file_location("example_" + stem, os.path.join(EXAMPLES, stem + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nvidia_smi(field: str) -> str:
    try:
        text = subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"], capture_output=True,
                              text=True, timeout=30).stdout
        return text.strip().splitlines()[0].strip()
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def provenance(source_commit: str, recorder: str = "scripts/gpu/record_triton_goldens.py") -> dict:
    assert "tcpu" not in os.path.abspath(triton.__file__), "this must run under real Triton, not tcpu's"
    major, minor = torch.cuda.get_device_capability(0)
    return {
        "recorded_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "triton": triton.__version__,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "gpu": torch.cuda.get_device_name(0),
        "compute_capability": f"sm_{major}{minor}",
        "driver": nvidia_smi("driver_version"),
        "source_commit": source_commit,
        "recorder": recorder,
    }


def device_line(prov: dict) -> str:
    return (f"{prov['gpu']} ({prov['compute_capability']}, driver {prov['driver']}), Triton {prov['triton']}, "
            f"PyTorch {prov['torch']}")


def to_numpy(t: torch.Tensor) -> np.ndarray:
    return np.ascontiguousarray(t.detach().cpu().contiguous().numpy())


def write_case(case, out_dir: str, prov: dict) -> dict:
    directory = os.path.join(out_dir, case.name)
    os.makedirs(directory, exist_ok=True)
    lines = ["tcpu-xcheck 1", f"case {case.name}", f"kernel {case.kernel}", "backend triton",
             f"device {device_line(prov)}", f"seed {case.seed}"]
    for name, tensor in case.inputs.items():
        np.save(os.path.join(directory, name + ".npy"), to_numpy(tensor))
        lines.append(f"input {name}")
    for name, tensor in case.outputs.items():
        np.save(os.path.join(directory, name + ".npy"), to_numpy(tensor))
        lines.append(f"output {name} {case.rules[name][0]}")
    with open(os.path.join(directory, "xcheck.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return {"kernel": case.kernel, "seed": case.seed, "shapes": case.shapes,
            "inputs": {n: [str(t.dtype).replace("torch.", ""), list(t.shape)] for n, t in case.inputs.items()},
            "outputs": {n: [str(t.dtype).replace("torch.", ""), list(t.shape)] for n, t in case.outputs.items()},
            "rules": {n: {"rule": r, "why": why} for n, (r, why) in case.rules.items()}}


def record_case(case, out_dir: str, prov: dict, timings: bool = False):
    """Launches `case` once and writes it (write_case), launches it again to see whether the GPU
    reproduces itself bit for bit, and with `timings` times it under do_bench. Returns the case's
    PROVENANCE entry and what the first launch returned (Triton's compiled kernel, where the
    launch closure returns it)."""
    launched = case.launch()
    torch.cuda.synchronize()
    first = {n: to_numpy(t).copy() for n, t in case.outputs.items()}
    entry = write_case(case, out_dir, prov)
    # A second launch: does the GPU reproduce itself bit for bit?
    case.launch()
    torch.cuda.synchronize()
    entry["repeatable"] = {n: bool(np.array_equal(first[n].view(np.uint8), to_numpy(t).view(np.uint8)))
                           for n, t in case.outputs.items()}
    if timings:
        entry["do_bench_ms"] = triton.testing.do_bench(case.launch)
    return entry, launched


def record(args, prov: dict) -> dict:
    dev = torch.device("cuda")
    summary = {"provenance": prov, "cases": {}, "failures": {}}
    timings = {}
    for stem in SCRIPTS:
        try:
            module = load_example(stem)
            cases = module.golden_cases(dev)
        except Exception as error:  # one broken example must not lose the others
            summary["failures"][stem] = repr(error)
            print(f"{stem}: FAILED to build cases: {error!r}", flush=True)
            continue
        for case in cases:
            if args.case and case.name not in args.case:
                continue
            try:
                entry, _ = record_case(case, args.out_dir, prov, bool(args.timings))
                if args.timings:
                    timings[case.name] = entry["do_bench_ms"]
                summary["cases"][case.name] = entry
                print(f"{case.name}: recorded ({case.shapes}); repeatable={entry['repeatable']}", flush=True)
            except Exception as error:
                summary["failures"][case.name] = repr(error)
                print(f"{case.name}: FAILED: {error!r}", flush=True)
    summary["do_bench_ms"] = timings
    return summary


# ---- timings of the examples' default shapes: real Triton on the GPU, and the interpreter ----

def default_launches(dev):
    """Launch closures at the examples' default shapes (those their main() uses)."""
    add = load_example("01_vector_add")
    soft = load_example("02_fused_softmax")
    mm = load_example("03_matrix_multiplication")
    x, y, out = add.make(98432, 0, dev)
    sx, sout = soft.make(300, 781, 0, dev)
    programs = soft.program_count(300, dev)
    a, b, c = mm.make(256, 256, 256, "float16", torch.float16, 0, dev)
    return {
        "vector_add n=98432 fp32": lambda: add.add(x, y, out),
        "softmax 300x781 fp32": lambda: soft.softmax(sx, sout, programs),
        "matmul 256x256x256 fp16 (64x64x32 blocks)": lambda: mm.matmul(a, b, c),
    }


def numpy_ufunc_us() -> float:
    one = np.ones(1)
    res = np.empty(1)
    number = 100000
    best = min(timeit.repeat(lambda: np.add(one, one, out=res), number=number, repeat=5))
    return best / number * 1e6


def numpy2_index_workaround() -> str:
    """Triton 3.6's interpreter turns a scalar tensor into a Python int with int(ndarray); NumPy 2.x
    refuses that for 1-element arrays of ndim 1, which breaks `tl.range(tl.program_id(0), ...)`
    (02's persistent loop). Wrap the interpreter function that installs `__index__` so that it
    converts through `.reshape(-1)[0]` instead. Returns what was patched ("" if nothing)."""
    import inspect
    from triton.runtime import interpreter
    for name, fn in list(vars(interpreter).items()):
        if not inspect.isfunction(fn):
            continue
        try:
            source = inspect.getsource(fn)
        except (OSError, TypeError):
            continue
        if '"__index__"' not in source or "set_attr" not in source:
            continue

        def wrapped(*args, _original=fn, **kwargs):
            result = _original(*args, **kwargs)
            scope = next((a for a in args if hasattr(a, "set_attr")), None)
            cls = next((a for a in args if isinstance(a, type)), None)
            if scope is not None and cls is not None:
                scope.set_attr(cls, "__index__", lambda self: int(np.asarray(self.handle.data).reshape(-1)[0]))
            return result

        setattr(interpreter, name, wrapped)
        return name
    return ""


def interpreter_child() -> None:
    """Runs with TRITON_INTERPRET=1: times one launch of each default-shape kernel on CPU tensors."""
    dev = torch.device("cpu")
    result = {"numpy_add_1_element_us": numpy_ufunc_us(), "interpreter_ms_per_launch": {},
              "numpy2_index_workaround": numpy2_index_workaround()}
    for name, fn in default_launches(dev).items():
        try:
            fn()  # first call: the interpreter's own setup
            samples = []
            for _ in range(3):
                start = time.perf_counter()
                fn()
                samples.append((time.perf_counter() - start) * 1e3)
            result["interpreter_ms_per_launch"][name] = sorted(samples)[1]
        except Exception as error:  # keep the other kernels' figures
            result["interpreter_ms_per_launch"][name] = "error: " + repr(error)[-300:]
    print("INTERPRETER_JSON " + json.dumps(result), flush=True)


def gpu_default_timings() -> dict:
    dev = torch.device("cuda")
    result = {"do_bench_ms": {}, "host_launch_us": {}}
    for name, fn in default_launches(dev).items():
        fn()
        torch.cuda.synchronize()
        result["do_bench_ms"][name] = triton.testing.do_bench(fn)
        # Host-side cost of one launch (asynchronous, no synchronization inside the loop).
        n = 200
        start = time.perf_counter()
        for _ in range(n):
            fn()
        result["host_launch_us"][name] = (time.perf_counter() - start) / n * 1e6
        torch.cuda.synchronize()
    result["numpy_add_1_element_us"] = numpy_ufunc_us()
    return result


def interpreter_timings() -> dict:
    env = dict(os.environ, TRITON_INTERPRET="1")
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--interpreter-child"], env=env,
                          capture_output=True, text=True, timeout=600)
    for line in proc.stdout.splitlines():
        if line.startswith("INTERPRETER_JSON "):
            return json.loads(line[len("INTERPRETER_JSON "):])
    return {"error": (proc.stdout + proc.stderr)[-2000:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "tests", "goldens", "triton"))
    parser.add_argument("--timings", help="also write timings (JSON) to this file")
    parser.add_argument("--case", action="append", help="record only this case (repeatable)")
    parser.add_argument("--source-commit", default="unknown", help="the tcpu commit the examples came from")
    parser.add_argument("--interpreter-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.interpreter_child:
        interpreter_child()
        return 0
    if not torch.cuda.is_available():
        print("no CUDA device: this recorder needs real Triton on an NVIDIA GPU", file=sys.stderr)
        return 2
    prov = provenance(args.source_commit)
    os.makedirs(args.out_dir, exist_ok=True)
    summary = record(args, prov)
    with open(os.path.join(args.out_dir, "PROVENANCE.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    if args.timings:
        timings = {"provenance": prov, "note": "do_bench: median ms (CUDA events, L2 flushed between runs); "
                   "host_launch_us: wall time per asynchronous launch from Python; interpreter: TRITON_INTERPRET=1 "
                   "on CPU tensors of the same shapes, median of 3 after one warm-up, in a subprocess of this "
                   "machine; numpy_add_1_element_us: best of 5 x 100000 np.add calls on 1-element arrays",
                   "cases_do_bench_ms": summary["do_bench_ms"]}
        try:
            timings["default_shapes_gpu"] = gpu_default_timings()
        except Exception as error:
            timings["default_shapes_gpu"] = {"error": repr(error)}
        timings["default_shapes_interpreter"] = interpreter_timings()
        with open(args.timings, "w") as f:
            json.dump(timings, f, indent=1, sort_keys=True)
            f.write("\n")
    print(f"recorded {len(summary['cases'])} cases, {len(summary['failures'])} failures: "
          f"{sorted(summary['failures'])}", flush=True)
    return 0 if not summary["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
