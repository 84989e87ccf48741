"""What real Triton gives on an NVIDIA GPU for integer ops that C and LLVM leave undefined:
division and remainder by zero (by a loaded zero and by a literal 0, which LLVM folds to
anything), INT_MIN // -1, shifts by the width or more, and float -> int conversions of NaN, inf
and out-of-range values. Prints JSON; tests/goldens/gpu_probes/undefined_ops.json is its output
on an H100 (Triton 3.6.0), which tests/python/conformance/test_lang_integer_gpu_values.py holds tcpu to
(the literal-zero and float -> int values are recorded, not matched: see that file).

    python3 scripts/gpu/probe_undefined_ops.py > undefined_ops.json        # on the GPU
    python3 -m tcpu scripts/gpu/probe_undefined_ops.py > cpu.json          # tcpu, to compare
"""
import json, os, sys
import numpy as np
import torch
import triton
import triton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
from integer_op_kernels import divmod_kernel as divmod_k, shift_kernel as shift_k  # noqa: E402

@triton.jit
def divlit_k(x_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m)
    tl.store(q_ptr + o, x // 0, mask=m)
    tl.store(r_ptr + o, x % 0, mask=m)

@triton.jit
def f2i_k(f_ptr, i8, u8, i16, u16, i32, u32, i64, u64, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    f = tl.load(f_ptr + o, mask=m)
    tl.store(i8 + o, f.to(tl.int8), mask=m)
    tl.store(u8 + o, f.to(tl.uint8), mask=m)
    tl.store(i16 + o, f.to(tl.int16), mask=m)
    tl.store(u16 + o, f.to(tl.uint16), mask=m)
    tl.store(i32 + o, f.to(tl.int32), mask=m)
    tl.store(u32 + o, f.to(tl.uint32), mask=m)
    tl.store(i64 + o, f.to(tl.int64), mask=m)
    tl.store(u64 + o, f.to(tl.uint64), mask=m)

out = {"triton": triton.__version__, "torch": torch.__version__, "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else "none (cpu)"}
dev = "cuda" if torch.cuda.is_available() else "cpu"
ints = {"int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
        "uint8": torch.uint8, "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64}
for name, dt in ints.items():
    info = np.iinfo(name)
    xs = [0, 1, -1, 7, -7, int(info.max), int(info.min), 100] if info.min < 0 else [0, 1, 7, int(info.max), 100, int(info.max) - 1]
    xs = [v for v in xs if info.min <= v <= info.max]
    nx = np.array(xs, dtype=name)
    res = {}
    try:
        x = torch.from_numpy(nx).to(dev)
        y = torch.zeros_like(x)
        q = torch.empty_like(x); r = torch.empty_like(x)
        divmod_k[(1,)](x, y, q, r, len(xs), BLOCK=16)
        res["x"] = xs
        res["x//0"] = q.cpu().numpy().tolist(); res["x%0"] = r.cpu().numpy().tolist()
        q2 = torch.empty_like(x); r2 = torch.empty_like(x)
        divlit_k[(1,)](x, q2, r2, len(xs), BLOCK=16)
        res["x//lit0"] = q2.cpu().numpy().tolist(); res["x%lit0"] = r2.cpu().numpy().tolist()
        if info.min < 0:
            mn = torch.tensor([int(info.min)] * 2, dtype=dt, device=dev)
            m1 = torch.tensor([-1, -1], dtype=dt, device=dev)
            q3 = torch.empty_like(mn); r3 = torch.empty_like(mn)
            divmod_k[(1,)](mn, m1, q3, r3, 2, BLOCK=2)
            res["min//-1"] = q3.cpu().numpy().tolist()[0]; res["min%-1"] = r3.cpu().numpy().tolist()[0]
        bits = info.bits
        sh = [0, 1, bits - 1, bits, bits + 1, 2 * bits, 255 if bits > 8 else 200] + ([-1] if info.min < 0 else [])
        xv = [-5 if info.min < 0 else 5] * len(sh)
        xs2 = torch.tensor(xv, dtype=dt, device=dev)
        ss = torch.tensor(sh, dtype=dt, device=dev)
        l = torch.empty_like(xs2); rr = torch.empty_like(xs2)
        shift_k[(1,)](xs2, ss, l, rr, len(sh), BLOCK=16)
        res["shift_x"] = xv; res["shift_s"] = sh
        res["x<<s"] = l.cpu().numpy().tolist(); res["x>>s"] = rr.cpu().numpy().tolist()
    except Exception as e:
        res["error"] = repr(e)[:400]
    out[name] = res

fl = np.array([np.nan, np.inf, -np.inf, 1e10, -1e10, 300.0, -300.0, 70000.0, -70000.0, 3e9, -3e9, 1e19, 2e19, -1.0, -0.5, 255.5, 4294967296.0, 9.3e18], dtype=np.float32)
res = {"f": [repr(float(v)) for v in fl]}
for fname, fdt in (("f32", torch.float32), ("f64", torch.float64)):
    try:
        f = torch.from_numpy(fl).to(fdt).to(dev)
        order = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]  # f2i_k's
        outs = [torch.empty(len(fl), dtype=ints[k], device=dev) for k in order]
        f2i_k[(1,)](f, *outs, len(fl), BLOCK=32)
        res[fname] = {k: o.cpu().numpy().tolist() for k, o in zip(order, outs)}
    except Exception as e:
        res[fname] = repr(e)[:400]
out["float_to_int"] = res
json.dump(out, sys.stdout, indent=1)
