"""``triton.language.extra.cuda``: NVIDIA's libdevice names (the same builtin objects as
``extra.libdevice``), and the names of Triton's CUDA-only builtins (`num_threads`, `num_warps`,
`globaltimer`, `smid`, ...): a kernel that calls one is refused with the reason (the front end's
ops/program.py), where a missing name would only say it does not exist."""

from ...core import builtins_named
from . import libdevice

CUDA_ONLY = ("globaltimer num_threads num_warps smid convert_custom_float8_sm70 "
             "convert_custom_float8_sm80 gdc_launch_dependents gdc_wait")
builtins_named(CUDA_ONLY, "triton.language.extra.cuda", globals(), prefix="cuda.")

__all__ = ["libdevice", *CUDA_ONLY.split()]
