"""``triton.language.math``: the elementwise math builtins (also exported as ``tl.<name>``)."""

from .core import builtins_named

__all__ = """abs exp exp2 log log2 cos sin sqrt sqrt_rn rsqrt erf floor ceil fma fdiv div_rn
umulhi""".split()
builtins_named(" ".join(__all__), "triton.language.math", globals())
