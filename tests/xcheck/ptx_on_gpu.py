#!/usr/bin/env python3
"""Runs tutorial kernels compiled by `tcpu ptx` on an NVIDIA GPU through the CUDA driver API
(ctypes over libcuda.so.1: no CUDA headers, no PyTorch), on the inputs a CPU run of the same
kernel (`tcpu run ... --out-dir CASE`) wrote, and compares the GPU's outputs with the CPU's.

    python3 tests/xcheck/ptx_on_gpu.py DIR [OUT]

DIR holds <tutorial>.ptx and one directory per case with the CPU run's .npy files (inputs
and outputs). The GPU's outputs go to OUT/<case>/ (default: none written). Prints, per output,
the largest absolute difference, the largest difference in units in the last place (ULP), and
the number of elements that differ; exits 1 if a case breaks its rule. A stopgap for the
`tcpu xcheck` of issue 6: the launch mirrors tcpu's (one block per program, one thread per
block)."""
import ctypes
import os
import sys

import numpy as np

CU = ctypes.CDLL("libcuda.so.1")


def check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        CU.cuGetErrorName(result, ctypes.byref(name))
        raise RuntimeError(f"{what}: {name.value.decode()} ({result})")


# case: (ptx, kernel, grid, [(name, kind, value)], outputs, rule)
#   kind: "in" (a .npy of the CPU run, copied to the GPU), "out" (zeros of the CPU output's
#   shape, compared after), "i32" / "f32" (scalars). rule: max ULP allowed (0: bit-exact).
CASES = {
    "vector_add": ("vector_add.ptx", "add_kernel", (97, 1, 1),
                   [("x_ptr", "in", None), ("y_ptr", "in", None), ("output_ptr", "out", None),
                    ("n_elements", "i32", 98432)], 0),
    "softmax": ("softmax.ptx", "softmax_1024", (128, 1, 1),
                [("output_ptr", "out", None), ("input_ptr", "in", None),
                 ("input_row_stride", "i32", 781), ("output_row_stride", "i32", 781),
                 ("n_rows", "i32", 1823), ("n_cols", "i32", 781)], 4),
    "matmul": ("matmul.ptx", "matmul_f32", (16, 1, 1),
               [("a_ptr", "in", None), ("b_ptr", "in", None), ("c_ptr", "out", None)] +
               [(n, "i32", v) for n, v in [("M", 256), ("N", 256), ("K", 256),
                                           ("stride_am", 256), ("stride_ak", 1),
                                           ("stride_bk", 256), ("stride_bn", 1),
                                           ("stride_cm", 256), ("stride_cn", 1)]], 64),
    "dropout": ("dropout.ptx", "seeded_dropout", (97, 1, 1),
                [("x_ptr", "in", None), ("output_ptr", "out", None),
                 ("n_elements", "i32", 98432), ("p", "f32", 0.5), ("seed", "i32", 123)], 0),
    "extern_math": ("extern_math.ptx", "asin_kernel", (97, 1, 1),
                    [("x_ptr", "in", None), ("y_ptr", "out", None),
                     ("n_elements", "i32", 98432)], 2),
}


def ulp_distance(a, b):
    ia = a.astype(np.float32).view(np.int32).astype(np.int64)
    ib = b.astype(np.float32).view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def run_case(name, spec, directory, out, device_name):
    ptx_file, kernel, grid, params, rule = spec
    module = ctypes.c_void_p()
    with open(os.path.join(directory, ptx_file), "rb") as f:
        image = f.read() + b"\0"
    check(CU.cuModuleLoadData(ctypes.byref(module), image), f"{name}: cuModuleLoadData")
    function = ctypes.c_void_p()
    check(CU.cuModuleGetFunction(ctypes.byref(function), module, kernel.encode()),
          f"{name}: cuModuleGetFunction")
    values, buffers, outputs = [], [], []
    for pname, kind, value in params:
        if kind in ("in", "out"):
            cpu = np.load(os.path.join(directory, name, pname + ".npy"))
            host = cpu if kind == "in" else np.zeros_like(cpu)
            device = ctypes.c_uint64()
            check(CU.cuMemAlloc_v2(ctypes.byref(device), ctypes.c_size_t(host.nbytes)), "alloc")
            check(CU.cuMemcpyHtoD_v2(device, host.ctypes.data_as(ctypes.c_void_p),
                                     ctypes.c_size_t(host.nbytes)), "copy in")
            buffers.append(device)
            values.append(device)
            if kind == "out":
                outputs.append((pname, cpu, device))
        elif kind == "i32":
            values.append(ctypes.c_int32(value))
        else:
            values.append(ctypes.c_float(value))
    pointers = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
    check(CU.cuLaunchKernel(function, grid[0], grid[1], grid[2], 1, 1, 1, 0, None, pointers,
                            None), f"{name}: cuLaunchKernel")
    check(CU.cuCtxSynchronize(), f"{name}: the kernel")
    ok = True
    for pname, cpu, device in outputs:
        gpu = np.zeros_like(cpu)
        check(CU.cuMemcpyDtoH_v2(gpu.ctypes.data_as(ctypes.c_void_p), device,
                                 ctypes.c_size_t(gpu.nbytes)), "copy out")
        if out:
            os.makedirs(os.path.join(out, name), exist_ok=True)
            np.save(os.path.join(out, name, pname + ".npy"), gpu)
        ulps = ulp_distance(cpu, gpu)
        differ = int(np.count_nonzero(cpu.view(np.uint32) != gpu.view(np.uint32)))
        passed = int(ulps.max()) <= rule
        ok = ok and passed
        print(f"{name:12s} {kernel:16s} {pname:12s} {cpu.size:8d} elements  max |diff| "
              f"{float(np.max(np.abs(cpu.astype(np.float64) - gpu))):.3g}  max ULP "
              f"{int(ulps.max())}  differing {differ}  rule <= {rule} ULP: "
              f"{'pass' if passed else 'FAIL'}  ({device_name})")
    for device in buffers:
        CU.cuMemFree_v2(device)
    CU.cuModuleUnload(module)
    return ok


def main():
    directory = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else None
    check(CU.cuInit(0), "cuInit")
    device = ctypes.c_int()
    check(CU.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
    name = ctypes.create_string_buffer(256)
    CU.cuDeviceGetName(name, 256, device)
    context = ctypes.c_void_p()
    check(CU.cuCtxCreate_v2(ctypes.byref(context), 0, device), "cuCtxCreate")
    ok = True
    for case, spec in CASES.items():
        if os.path.isdir(os.path.join(directory, case)):
            ok = run_case(case, spec, directory, out, name.value.decode()) and ok
    CU.cuCtxDestroy_v2(context)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
