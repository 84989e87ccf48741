"""``triton.language`` on tcpu: the dtypes, ``constexpr``, and every builtin's name. Kernels
that use them are compiled by tcpu.frontend; see python/README.md."""

from . import extra, math, random
from .core import (
    DTYPES_BY_NAME, bfloat16, block_type, builtins_named, const, constexpr, constexpr_type, dtype,
    float8e4b8, float8e4b15, float8e4nv, float8e5, float8e5b16, float16, float32, float64, int1,
    int8, int16, int32, int64, must_use_result, pi32_t, pointer_type, str_to_ty, tensor,
    tensor_descriptor, uint8, uint16, uint32, uint64, void)

# The names of triton.language's builtins (Triton 3.6's tl.__all__, less the dtypes above).
builtins_named(
    """program_id num_programs arange full zeros zeros_like cast broadcast broadcast_to expand_dims
    reshape view permute trans ravel cat join split interleave flip gather squeeze unsqueeze
    load store make_block_ptr advance make_tensor_descriptor load_tensor_descriptor
    store_tensor_descriptor atomic_add atomic_and atomic_or atomic_xor atomic_xchg atomic_cas
    atomic_min atomic_max where maximum minimum clamp sigmoid softmax cdiv swizzle2d
    reduce sum max min argmax argmin xor_sum reduce_or associative_scan cumsum cumprod histogram
    sort topk dot dot_scaled device_print device_assert static_print static_assert
    debug_barrier multiple_of max_contiguous max_constancy assume inline_asm_elementwise
    map_elementwise range static_range tuple condition add sub mul""",
    "triton.language", globals())

# tl.advance returns the moved pointer and changes nothing: a call that drops it is a mistake.
must_use_result(globals()["advance"],
                "tl.advance has no side effects: assign its result to move the block pointer")

# Math and random functions are the same objects in tl as in tl.math and tl.random, as in
# Triton.
for _module in (math, random):
    for _name in _module.__all__:
        globals()[_name] = getattr(_module, _name)

TRITON_MAX_TENSOR_NUMEL = 1048576


class PropagateNan:
    """``tl.PropagateNan.ALL`` / ``NONE`` for maximum, minimum and clamp."""

    NONE = 0
    ALL = 0xFFFF


# Modules a kernel may reach through tl (tl.math, tl.random, tl.extra.cuda.libdevice).
__all__ = [n for n in globals() if not n.startswith("_")]
