"""``triton.language.random``: Philox-based random numbers (also exported as ``tl.<name>``),
bit-exact with Triton's (kernels/include/tcpu/tl/random.h)."""

from .core import builtins_named, constexpr

N_ROUNDS_DEFAULT = constexpr(10)  # Philox rounds when a call names none, as Triton's

__all__ = """philox philox_impl randint randint4x rand rand4x randn randn4x
pair_uniform_to_normal uint_to_uniform_float""".split()
builtins_named(" ".join(__all__), "triton.language.random", globals())
