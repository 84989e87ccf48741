"""tl.map_elementwise: a scalar @jit function applied to each element of its operands
(broadcast to one shape). It becomes a loop over the elements whose body is the function lowered
on scalars, so that its run-time control flow (an `if` that returns) decides per element, as on
the GPU, where Triton lowers the function's region once per element."""

from __future__ import annotations

from typing import Any

from .. import cpp
from ..values import Value
from . import op
from .arith import broadcast_shapes
from .context import OpContext
from .shape import broadcast_value


@op("map_elementwise")
def map_elementwise(cx: OpContext, scalar_fn: Any, *args: Any, pack: Any = 1) -> Any:
    pack = cx.const(pack, "pack")
    if not isinstance(pack, int) or isinstance(pack, bool) or pack < 1:
        raise cx.error(f"map_elementwise: pack must be a positive integer, got {pack!r}")
    if not args:
        raise cx.error("map_elementwise must have at least 1 input tensor")
    vals = [cx.value(a) for a in args]
    shape: tuple[int, ...] = ()
    for v in vals:
        shape = broadcast_shapes(cx, shape, v.shape)
    if not shape:
        # Triton's tt.map_elementwise takes ranked tensors only (its verifier refuses scalars).
        raise cx.error("map_elementwise: at least one operand must be a block (Triton's op "
                       "maps over tensors, not scalars)")
    numel = 1
    for d in shape:
        numel *= d
    if numel % pack:
        raise cx.error(f"map_elementwise: pack={pack} does not divide the {numel} elements of "
                       f"a block of shape {list(shape)}")
    # The function's parameters: each operand's `pack` consecutive elements, operand by operand
    # (Triton's order: parameter i * pack + j is element j of operand i's group).
    dtypes = [v.dtype for v in vals for _ in range(pack)]
    lam, result_dtypes = cx.lowerer.scalar_lambda(cx.node, scalar_fn, dtypes, "map_elementwise's "
                                                  "scalar_fn", convert_results=False)
    if len(result_dtypes) % pack:
        raise cx.error(f"map_elementwise: the function returns {len(result_dtypes)} values, not "
                       f"a multiple of pack={pack}")
    outputs = result_dtypes[::pack]
    for j in range(1, pack):
        if result_dtypes[j::pack] != outputs:
            raise cx.error("map_elementwise: type mismatch in unpacked results "
                           f"({[str(d) for d in result_dtypes]} with pack={pack})")
    fn = cx.emit.bind("scalar_fn", lam)
    # Block operands as blocks of the result's shape, indexed by element; scalars as they are.
    elements = []
    for v in vals:
        if v.shape:
            block = f"tl::Block<{cpp.ctype(v.dtype)}, {cpp.block_dims(shape)}>"
            name = cx.emit.bind("mapped_in", f"{block}({broadcast_value(cx, v, shape).expr})")
            elements.append([f"{name}[k + {j}]" for j in range(pack)])
        else:
            elements.append([v.expr] * pack)
    blocks = [f"tl::Block<{cpp.ctype(d)}, {cpp.block_dims(shape)}>" for d in outputs]
    outs = [f"out{m}" for m in range(len(outputs))]
    call = f"{fn}({', '.join(e for group in elements for e in group)})"
    results = len(result_dtypes)
    body = [f"  {b} {o};" for b, o in zip(blocks, outs)]
    body.append(f"  for (int k = 0; k < {numel}; k += {pack}) {{")
    if results == 1:
        body.append(f"    {outs[0]}[k] = {call};")
    else:
        body.append(f"    const auto r = {call};")
        for r in range(results):
            body.append(f"    {outs[r // pack]}[k + {r % pack}] = std::get<{r}>(r);")
    body.append("  }")
    ret = outs[0] if len(outs) == 1 else f"std::make_tuple({', '.join(outs)})"
    body.append(f"  return {ret};")
    indent = "  " * cx.emit.depth
    mapped = cx.emit.bind("mapped", "[&] {\n" + "\n".join(indent + line for line in body)
                          + f"\n{indent}}}()")
    return _results(cx, mapped, outputs, shape)


def _results(cx: OpContext, name: str, dtypes: list[Any], shape: tuple[int, ...]) -> Any:
    """The outputs held in `name`: one block, or a tuple taken from its std::tuple."""
    if len(dtypes) == 1:
        return Value(name, dtypes[0], shape)
    return tuple(cx.bind("mapped", f"std::get<{m}>({name})", d, shape)
                 for m, d in enumerate(dtypes))
