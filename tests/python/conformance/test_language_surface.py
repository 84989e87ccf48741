"""Every public name of real Triton 3.6's triton.language against tcpu's: module functions and
classes (tl.__all__), tl.tensor's methods and properties, each scalar dtype's attributes, tl.math,
tl.extra.libdevice and tl.extra.cuda.libdevice. Each name must exist in tcpu with Triton's
meaning, or be in REFUSED below with the reason tcpu refuses it. A name tcpu defines but whose
builtin has no op (the front end refuses it, "not supported by tcpu yet") counts as refused.
The test fails on a silent gap, and on a REFUSED entry that tcpu now implements.

Triton's names are read in a subprocess by an interpreter with the real package: the one
running the tests (the tests' .venv has Triton 3.6 beside tcpu), else <repo>/.venv, or the one
TCPU_REAL_TRITON_PYTHON names. Skipped, saying so, where none has Triton 3.6."""

from __future__ import annotations

import pytest

from real_triton import run_json

# Run by the interpreter with the real Triton; prints its names as JSON.
_ENUMERATE = r"""
import json, triton, triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice

def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))

def functions(module):  # the module's own functions, not what it imports (typing, functools)
    return sorted(n for n in public(module) if callable(getattr(module, n))
                  and not isinstance(getattr(module, n), type)
                  and str(getattr(getattr(module, n), "__module__", "")).startswith(
                      "triton.language"))

print(json.dumps({
    "file": triton.__file__, "version": triton.__version__,
    "language": sorted(tl.__all__), "tensor": public(tl.tensor),
    "dtype": {n: public(getattr(tl, n)) for n in tl.__all__
              if isinstance(getattr(tl, n), tl.dtype)
              and not isinstance(getattr(tl, n), tl.pointer_type)},
    "math": functions(tl_math), "libdevice": functions(libdevice),
    "cuda_libdevice": functions(cuda_libdevice),
}))
"""


def _refusals(*groups: tuple[str, str]) -> dict[str, str]:
    """{name: reason} from (whitespace-separated names, reason) pairs."""
    return {name: reason for names, reason in groups for name in names.split()}


_NOT_YET = "not implemented on the CPU yet"
_ROUNDING = ("an explicit rounding mode (rd/ru/rz) other than round-to-nearest: "
             "not implemented on the CPU yet")
_LIBDEVICE = _refusals(
    ("""add_rd add_ru add_rz sub_rd sub_ru sub_rz mul_rd mul_ru mul_rz div_rd div_ru div_rz
     fma_rd fma_ru fma_rz rcp_rd rcp_ru rcp_rz sqrt_rd sqrt_ru sqrt_rz""", _ROUNDING),
    ("""double2float_rd double2float_rn double2float_ru double2float_rz double2hiint double2loint
     double2int_rd double2int_rn double2int_ru double2int_rz double2ll_rd double2ll_rn
     double2ll_ru double2ll_rz double2uint_rd double2uint_rn double2uint_ru double2uint_rz
     double2ull_rd double2ull_rn double2ull_ru double2ull_rz float2int_rd float2int_rn
     float2int_ru float2int_rz float2ll_rd float2ll_rn float2ll_ru float2ll_rz float2uint_rd
     float2uint_rn float2uint_ru float2uint_rz float2ull_rd float2ull_rn float2ull_ru
     float2ull_rz int2double_rn int2float_rd int2float_rn int2float_ru int2float_rz
     ll2double_rd ll2double_rn ll2double_ru ll2double_rz ll2float_rd ll2float_rn ll2float_ru
     ll2float_rz uint2double_rn uint2float_rd uint2float_rn uint2float_ru uint2float_rz
     ull2double_rd ull2double_rn ull2double_ru ull2double_rz ull2float_rd ull2float_rn
     ull2float_ru ull2float_rz hiloint2double""",
     "libdevice's rounding conversions: " + _NOT_YET + " (tl.cast converts round-to-nearest)"),
    ("""double_as_longlong longlong_as_double float_as_int int_as_float float_as_uint
     uint_as_float""", "libdevice's bit casts: " + _NOT_YET + " (tl.cast(bitcast=True) works)"),
    ("fast_cosf fast_exp10f fast_log10f fast_log2f fast_powf fast_sinf fast_tanf fast_tanhf",
     "libdevice's fast approximations: " + _NOT_YET),
    ("""brev byte_perm clz ffs popc hadd rhadd mul24 sad""",
     "libdevice's integer bit operations: " + _NOT_YET),
    ("""cospi sinpi erfcinv erfcx erfinv ilogb jn yn ldexp logb scalbn nextafter norm3d norm4d rnorm3d rnorm4d normcdf normcdfinv rcbrt rcp64h rhypot
     saturatef""", "libdevice's special functions: " + _NOT_YET),
)

# Triton's names that tcpu refuses, by section, each with its reason.
REFUSED: dict[str, dict[str, str]] = {
    "language": _refusals(
        ("bitonic_merge", "a helper of Triton's sort (standard.py): " + _NOT_YET),
        ("slice", "a type of Triton's compiler (its code generator makes it); "
         "tcpu's front end has its own"),
        ("target_info", "queries of the GPU target (is_cuda, cuda_capability_geq, ...): "
         "tcpu has no GPU target"),
        ("pair_uniform_to_normal philox_impl", "internal steps of tl.randn / tl.philox: "
         + _NOT_YET),
    ),
    "tensor": _refusals(
        ("advance", "a block pointer's method: " + _NOT_YET + " (tl.advance works)"),
        ("logical_and logical_or", _NOT_YET),
    ),
    "dtype": _refusals(
        ("to_ir", "builds a type of Triton's MLIR builder; tcpu compiles through C++"),
    ),
    "math": {},
    "libdevice": _LIBDEVICE,
    # fast_tanhf is in extra.libdevice only.
    "cuda_libdevice": {n: r for n, r in _LIBDEVICE.items() if n != "fast_tanhf"},
}


@pytest.fixture(scope="module")
def real_names() -> dict:
    return run_json(_ENUMERATE)


def _tcpu_status() -> dict[str, object]:
    """Per section, a function of a name: whether tcpu implements it."""
    from tcpu.frontend.lowering import loops, names
    from tcpu.frontend.ops import OPS, load_all
    from tcpu.triton import language as tl
    from tcpu.triton.language import core
    from tcpu.triton.language.extra import libdevice
    from tcpu.triton.language.extra.cuda import libdevice as cuda_libdevice
    load_all()

    def in_module(module):
        def implemented(name: str) -> bool:
            if not hasattr(module, name):
                return False
            builtin = getattr(getattr(module, name), core.BUILTIN_ATTR, None)
            # A builtin with no op is refused by the front end when a kernel calls it; the
            # loop builtins are lowered by loops.py itself.
            return builtin is None or builtin in OPS or builtin in loops._LOOP_NAMES
        return implemented

    def tensor(name: str) -> bool:
        return name in names.TENSOR_PROPERTIES or (
            name in names.TENSOR_METHODS and names.method_builtin(name) in OPS)

    return {"language": in_module(tl), "tensor": tensor, "math": in_module(tl.math),
            "libdevice": in_module(libdevice), "cuda_libdevice": in_module(cuda_libdevice),
            "dtype": lambda qualified: hasattr(getattr(tl, qualified.split(".")[0]),
                                               qualified.split(".")[1])}


def _sections(real: dict) -> dict[str, list[str]]:
    sections = {k: real[k] for k in ("language", "tensor", "math", "libdevice",
                                     "cuda_libdevice")}
    # A dtype attribute as "<tl name>.<attribute>", checked on tcpu's dtype of that name.
    sections["dtype"] = [f"{d}.{a}" for d, attrs in real["dtype"].items() for a in attrs]
    return sections


def _refused(section: str, name: str) -> bool:
    return (name.split(".")[-1] if section == "dtype" else name) in REFUSED[section]


@pytest.mark.parametrize("section", list(REFUSED))
def test_every_name_is_implemented_or_refused_by_name(real_names, section):
    implemented = _tcpu_status()[section]
    names = _sections(real_names)[section]
    gaps = [n for n in names if not implemented(n) and not _refused(section, n)]
    assert not gaps, (f"triton.language {section}: names of Triton {real_names['version']} that "
                      f"tcpu neither implements nor refuses by name: {gaps} (implement them, or "
                      "add them to REFUSED with the reason)")


@pytest.mark.parametrize("section", list(REFUSED))
def test_no_refused_name_is_implemented_or_gone(real_names, section):
    implemented = _tcpu_status()[section]
    names = _sections(real_names)[section]
    in_triton = {n.split(".")[-1] if section == "dtype" else n for n in names}
    stale = sorted(n for n in REFUSED[section] if n not in in_triton)
    assert not stale, f"REFUSED[{section!r}] names what Triton does not have: {stale}"
    done = sorted({n.split(".")[-1] if section == "dtype" else n
                   for n in names if implemented(n) and _refused(section, n)})
    assert not done, (f"REFUSED[{section!r}] lists names tcpu now implements: {done} "
                      "(remove them from REFUSED)")
