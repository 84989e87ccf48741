"""The kernels that measure integer ops C leaves undefined (division by zero, shifts by the width
or more): run on the GPU by scripts/gpu/probe_undefined_ops.py, whose recording
test_lang_integer_gpu_values.py holds tcpu to with the same kernels."""

import triton
import triton.language as tl


@triton.jit
def divmod_kernel(x_ptr, y_ptr, q_ptr, r_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m)
    y = tl.load(y_ptr + o, mask=m)
    tl.store(q_ptr + o, x // y, mask=m)
    tl.store(r_ptr + o, x % y, mask=m)


@triton.jit
def shift_kernel(x_ptr, s_ptr, l_ptr, r_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m)
    s = tl.load(s_ptr + o, mask=m)
    tl.store(l_ptr + o, x << s, mask=m)
    tl.store(r_ptr + o, x >> s, mask=m)
