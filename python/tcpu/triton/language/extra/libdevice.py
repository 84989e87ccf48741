"""``triton.language.extra.libdevice``: the names of NVIDIA's libdevice functions that
Triton exposes. tcpu computes them with SLEEF or exact C++ (tcpu.frontend.ops.math_ops
says which; a name without a CPU implementation raises at compile time, naming it)."""

from ..core import builtins_named

__all__ = """abs acos acosh asin asinh atan atan2 atanh brev byte_perm cbrt ceil clz copysign cos
cosh cospi cyl_bessel_i0 cyl_bessel_i1 div_rd div_rn div_ru div_rz erf erfc erfcinv erfcx erfinv
exp exp10 exp2 expm1 fabs fast_dividef fast_expf fast_logf fdim ffs finitef float_as_int floor fma
fma_rd fma_rn fma_ru fma_rz fmax fmin fmod frexp hadd hypot ilogb int_as_float isfinited isinf
isnan isnand isinfd j0 j1 jn ldexp lgamma llrint llround log log10 log1p log2 logb max min modf
mul24 mulhi nearbyint nextafter norm3d norm4d normcdf normcdfinv pow powi rcbrt rcp rcp_rd rcp_rn
rcp_ru rcp_rz remainder rhadd rint rnorm3d rnorm4d round rsqrt rsqrt_rn sad saturatef scalbn
signbit sin sincos sinh sinpi sqrt sqrt_rd sqrt_rn sqrt_ru sqrt_rz tan tanh tgamma trunc uhadd
ulonglong_as_double double_as_longlong umul24 umulhi urhadd usad y0 y1 yn add_rn add_rd add_ru
add_rz mul_rn mul_rd mul_ru mul_rz sub_rn sub_rd sub_ru sub_rz popc""".split()
builtins_named(" ".join(__all__), "triton.language.extra.libdevice", globals(), prefix="libdevice.")
