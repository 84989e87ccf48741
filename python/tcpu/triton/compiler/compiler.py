"""`triton.compile(ASTSource(fn, signature, constexprs))`: compiles a @jit function for a
signature without launching it, as Triton's tests do to check what compiles and what is
refused. The result is the CompiledKernel a launch of that specialization would use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The front end is imported by compile(), not here: tcpu.frontend imports triton.language,
# whose package imports this module.


@dataclass
class ASTSource:
    """A @jit function and its specialization, as Triton's: `signature` maps argument names to
    Triton types ("*fp32", "i32", ...) or "constexpr"; `constexprs` maps names (or Triton's
    one-element index paths) to values. `attrs` (divisibility hints) is accepted and unused:
    tcpu specializes a launch's own arguments."""

    fn: Any
    signature: dict[str, str] = field(default_factory=dict)
    constexprs: dict[Any, Any] | None = None
    attrs: dict[Any, Any] | None = None


def _constexpr_values(jit: Any, constexprs: dict[Any, Any] | None) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in (constexprs or {}).items():
        if isinstance(key, tuple):  # Triton's path: (argument index,)
            key = jit.arg_names[key[0]]
        elif isinstance(key, int):
            key = jit.arg_names[key]
        values[key] = value.value if type(value).__name__ == "constexpr" else value
    return values


def compile(src: ASTSource, target: Any = None, options: dict[str, Any] | None = None) -> Any:
    """Compiles `src` (CompilationError for what Triton refuses); `target` is the CPU's."""
    from ...frontend.build.route import BuildOptions, build
    from ...frontend.kernel_def import KernelDef
    from ...frontend.specialize import signature_kind
    jit = src.fn
    if not isinstance(jit, KernelDef):
        raise TypeError(f"triton.compile: ASTSource.fn must be a @triton.jit function, got {jit!r}")
    constexprs = _constexpr_values(jit, src.constexprs)
    kinds: list[tuple[Any, ...]] = []
    for name in jit.arg_names:
        entry = src.signature.get(name)
        if name in constexprs:
            kinds.append(("c", constexprs[name]))
        elif name in jit.defaults and entry in (None, "constexpr"):
            kinds.append(("c", jit.defaults[name]))
        elif entry is None or entry == "constexpr":
            raise TypeError(f"triton.compile: argument '{name}' of {jit.__name__} has neither "
                            "a type in the signature nor a constexpr value")
        else:
            kinds.append(signature_kind(name, entry))
    debug = jit.debug_enabled(options or {})
    return build(jit, kinds, BuildOptions.of(debug, all_mutable=False))
