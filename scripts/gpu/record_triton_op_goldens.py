"""Records goldens of real Triton on an NVIDIA GPU for the single-op cases (op_cases.py).

Needs only PyTorch (with CUDA), Triton and NumPy; not tcpu. Every case that op_cases.BUILDERS
builds is launched on fixed seeded inputs and written to <out-dir>/<case>/ in `tcpu xcheck`'s
format by record_triton_goldens.py's record_case/write_case (xcheck.txt with the outputs' rules,
one .npy per input and output). Beside the cases, PROVENANCE.json as that script writes it
(versions, GPU, driver, date, per case its shapes, rules with their reasons, whether a second
launch reproduced the first bit for bit), plus per case the PTX instructions that decide its
numerics (ex2/lg2/sin/sqrt/div/fma/cvt/atom/..., counted from the compiled kernel's PTX) and the
warnings Triton gave. With --ptx-dir, each case's whole PTX too.

    python3 scripts/gpu/record_triton_op_goldens.py --out-dir tests/goldens/triton_ops \
        --source-commit "$(git rev-parse HEAD)" [--case NAME ...] [--ptx-dir DIR]
"""
import argparse
import collections
import json
import os
import re
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for path in (HERE, os.path.join(ROOT, "tests", "python"), os.path.join(ROOT, "examples", "python")):
    if path not in sys.path:
        sys.path.insert(0, path)

from record_triton_goldens import provenance, record_case  # noqa: E402

# PTX instructions whose choice decides a result's bits: approximate or IEEE math, conversions,
# fused multiply-adds, min/max, atomics.
NUMERIC_OPS = re.compile(r"^\s*(?:@!?%p\d+\s+)?((?:ex2|lg2|sin|cos|sqrt|rsqrt|rcp|div|tanh|fma|mad|"
                         r"max|min|cvt|atom|red|wgmma|mma)\.[\w.]+)", re.M)


def ptx_of(launched) -> str:
    asm = getattr(launched, "asm", None)
    try:
        return asm["ptx"] if asm is not None else ""
    except (KeyError, TypeError):
        return ""


def numeric_ops(ptx: str) -> dict:
    return dict(sorted(collections.Counter(NUMERIC_OPS.findall(ptx)).items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default=os.path.join(ROOT, "tests", "goldens", "triton_ops"))
    parser.add_argument("--case", action="append", help="record only this case (repeatable)")
    parser.add_argument("--source-commit", default="unknown",
                        help="the tcpu commit op_cases.py came from")
    parser.add_argument("--ptx-dir", help="also write each case's PTX there")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: this recorder needs real Triton on an NVIDIA GPU", file=sys.stderr)
        return 2
    import op_cases  # after the path setup; imports triton

    prov = provenance(args.source_commit, recorder="scripts/gpu/record_triton_op_goldens.py")
    os.makedirs(args.out_dir, exist_ok=True)
    if args.ptx_dir:
        os.makedirs(args.ptx_dir, exist_ok=True)
    dev = torch.device("cuda")
    summary = {"provenance": prov, "cases": {}, "failures": {}}
    for build in op_cases.BUILDERS:
        name = build.__name__
        if args.case and name not in args.case:
            continue
        try:  # one broken case must not lose the others
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                case = build(dev)
                entry, launched = record_case(case, args.out_dir, prov)
            ptx = ptx_of(launched)
            entry["ptx_numeric_ops"] = numeric_ops(ptx)
            entry["warnings"] = sorted({str(w.message) for w in caught})
            if args.ptx_dir and ptx:
                with open(os.path.join(args.ptx_dir, case.name + ".ptx"), "w") as f:
                    f.write(ptx)
            summary["cases"][case.name] = entry
            print(f"{case.name}: recorded ({case.shapes}); repeatable={entry['repeatable']}; "
                  f"ptx {entry['ptx_numeric_ops']}", flush=True)
        except Exception as error:
            summary["failures"][name] = repr(error)[:3000]
            print(f"{name}: FAILED: {error!r}", flush=True)
    with open(os.path.join(args.out_dir, "PROVENANCE.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"recorded {len(summary['cases'])} cases, {len(summary['failures'])} failures: "
          f"{sorted(summary['failures'])}", flush=True)
    return 0 if not summary["failures"] else 1


if __name__ == "__main__":
    sys.exit(main())
