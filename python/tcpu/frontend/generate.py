"""A kernel and its specialization -> tl C++ source: the front end's pure generator (no
compiler, no cache; build/ compiles what it writes, tcpu.compile writes it to files).

The C++ is a `tl::program` whose parameters are the kernel's run-time arguments, in order
(constexprs, ints equal to 1 and None are compiled in). A pointer parameter is `const`
when nothing is stored through it (tl then reads it lazily, fused into its uses), unless
the launch passes it overlapping a written one (then every pointer is mutable).

Lowering is imported here, not by build/ or launch/: a process whose kernels all come from
the disk cache never imports this module."""

from __future__ import annotations

import itertools
from typing import Any

from ..triton.language import core as tl
from . import cpp
from .compiled import Param
from .emitter import Emitter
from .kernel_def import KernelDef, capture_scope
from .lowering import Lowerer
from .ops.descriptors import TensorDescriptor
from .values import Value


def _descriptor_params(name: str, index: int, kind: tuple[Any, ...]
                       ) -> tuple[TensorDescriptor, list[Param]]:
    """A host TensorDescriptor argument: its base, sizes and strides as run-time values."""
    _, dtype, block_shape, padding = kind
    rank = len(block_shape)
    pointer = tl.pointer_type(tl.DTYPES_BY_NAME[dtype])
    base = Param(f"{name}_base", index, pointer, component=0)
    sizes = [Param(f"{name}_shape{k}", index, tl.int64, component=1 + k) for k in range(rank)]
    strides = [Param(f"{name}_stride{k}", index, tl.int64, component=1 + rank + k)
               for k in range(rank)]
    desc = TensorDescriptor(Value(base.name, pointer, (), frozenset({base.name})),
                            tuple(Value(p.name, tl.int64) for p in sizes),
                            tuple(Value(p.name, tl.int64) for p in strides), tuple(block_shape),
                            f"tl::Padding::{padding}")
    return desc, [base, *sizes, *strides]


def _tuple_params(name: str, index: int, kind: tuple[Any, ...], params: list[Param]) -> Any:
    """A tuple argument's binding (a tuple, or its NamedTuple class's instance) whose run-time
    leaves are parameters, numbered depth first as arguments.py's launch value orders them."""
    def build(prefix: str, kind: tuple[Any, ...]) -> Any:
        items = []
        for k, sub in enumerate(kind[2]):
            if sub[0] == "T":
                items.append(build(f"{prefix}_{k}", sub))
                continue
            value, dtype = _param_value(f"{prefix}_{k}", sub)
            if dtype is not None:
                params.append(Param(f"{prefix}_{k}", index, dtype, component=next(counter)))
            else:
                next(counter)
            items.append(value)
        return kind[1]._make(items) if kind[1] is not tuple else tuple(items)
    counter = itertools.count()
    return build(name, kind)


def _param_value(name: str, kind: tuple[Any, ...], const: bool = False
                 ) -> tuple[Any, tl.dtype | None]:
    """The lowering's binding for a parameter of this key kind, and its run-time dtype (`const`:
    a pointer parameter annotated `tl.const`)."""
    tag = kind[0]
    if tag == "c":
        return kind[1], None
    if tag == "P":
        d = tl.pointer_type(tl.DTYPES_BY_NAME[kind[1]], const=const)
        return Value(name, d, (), frozenset({name})), d
    if tag == "i":
        d = tl.DTYPES_BY_NAME[kind[1]]
        return Value(name, d), d
    if tag == "f":
        return Value(name, tl.float32), tl.float32
    if tag == "b":
        return Value(name, tl.int1), tl.int1
    if tag == "s":  # a float annotated with its dtype (launcher.py)
        d = tl.DTYPES_BY_NAME[kind[1]]
        return Value(name, d), d
    raise AssertionError(kind)


def generate(kernel: KernelDef, key_kinds: list[tuple[Any, ...]], constexprs: dict[str, Any],
             debug: bool, all_mutable: bool, reads: Any = None
             ) -> tuple[str, str, list[Param], Any]:
    """The C++ source of one specialization, its kernel name and run-time parameters;
    `reads` (a build.cache_key.Reads), if given, learns the globals the lowering reads."""
    source = kernel.source()
    names = kernel.arg_names
    for i in sorted(kernel.no_specialize):
        if names[i] in kernel.constexpr_names:  # Triton refuses the contradiction
            raise source.error(source.tree, f"{names[i]} marked as constexpr and listed in "
                               "do_not_specialize")
    bindings: dict[str, Any] = {}
    params: list[Param] = []
    for i, (name, kind) in enumerate(zip(names, key_kinds)):
        if name in constexprs:
            bindings[name] = constexprs[name]
            continue
        if kind[0] == "D":
            bindings[name], parts = _descriptor_params(name, i, kind)
            params.extend(parts)
            continue
        if kind[0] == "T":
            bindings[name] = _tuple_params(name, i, kind, params)
            continue
        value, dtype = _param_value(name, kind, const=name in kernel.const_names)
        bindings[name] = value
        if dtype is not None:
            params.append(Param(name, i, dtype))
    emitter = Emitter()
    emitter.depth = 2
    lowerer = Lowerer(emitter, debug)
    if reads is not None:
        lowerer.reads = reads
    lowerer.pointer_params = {p.name: p.dtype for p in params if p.dtype.is_ptr()}
    # The specialization's hints, as Triton's: ints divisible by 16, pointers 16-byte aligned.
    for p in params:
        kind = key_kinds[p.index]
        if kind[0] == "i" and kind[2]:
            emitter.line(f"__builtin_assume({p.name} % 16 == 0);")
        elif kind[0] == "P" and kind[2]:
            emitter.line(f"{p.name} = static_cast<decltype({p.name})>("
                         f"__builtin_assume_aligned({p.name}, 16));")
    lowerer.lower_function(source, capture_scope(kernel.fn), bindings, is_kernel=True)
    every_written = "*" in lowerer.written_roots or all_mutable
    decls = []
    aliases = []
    for p in params:
        if p.dtype.is_ptr():
            p.readonly = not every_written and p.name not in lowerer.written_roots
            decls.append(f"{cpp.ctype(p.dtype, const=p.readonly)} {p.name}")
            aliases.append(f"    using {p.name}_t = decltype({p.name});")
        else:
            decls.append(f"{cpp.ctype(p.dtype)} {p.name}")
    name = cpp.identifier(kernel.fn.__name__)
    text = "\n".join([
        "// Generated by tcpu from a @triton.jit kernel; do not edit.",
        '#include "tcpu/tl.h"',
        "namespace tl = tcpu::tl;",
        "namespace {",
        "struct tcpu_kernel : tl::program {",
        f"  void operator()({', '.join(decls)}) const {{",
        *aliases,
        *emitter.lines,
        "  }",
        "};",
        "} // namespace",
        f"TL_KERNEL({name}, tcpu_kernel);",
        "",
    ])
    return text, name, params, lowerer
