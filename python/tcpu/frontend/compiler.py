"""A kernel and its specialization -> tl C++ source -> a compiled kernel.

The C++ is a `tl::program` whose parameters are the kernel's run-time arguments, in order
(constexprs, ints equal to 1 and None are compiled in). A pointer parameter is `const`
when nothing is stored through it (tl then reads it lazily, fused into its uses), unless
the launch passes it overlapping a written one (then every pointer is mutable)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..triton.language import core as tl
from . import cpp
from .errors import CompilationError, InternalError
from .specialize import CODES
from .values import Value

if TYPE_CHECKING:
    from .ops.descriptors import TensorDescriptor


@dataclass
class Param:
    """A run-time parameter of the compiled kernel."""

    name: str
    index: int  # position among the Python function's parameters
    dtype: tl.dtype  # pointer_type for pointers
    readonly: bool = False
    component: int | None = None  # which of a host tensor descriptor's values (base, sizes...)


@dataclass
class CompiledKernel:
    """What a specialization compiled to (also what `kernel.warmup(...)` returns)."""

    name: str
    source: str
    params: list[Param]
    codes: str
    handle: Any = None  # the extension's Kernel
    check_bounds: bool = False  # compiled with bounds checks (debug, or TCPU_CHECK=bounds)
    # Triton's CompiledKernel fields that tools and tutorials read. A CPU program has no
    # register file or shared memory to budget; 1 (not 0) keeps users' occupancy arithmetic
    # (`NUM_REGS // (n_regs * WARP_SIZE * num_warps)`, `SIZE_SMEM // shared`) defined.
    n_regs: int = 1
    n_spills: int = 0
    metadata: Any = field(default_factory=lambda: SimpleNamespace(shared=1, num_warps=1,
                                                                  num_stages=1, num_ctas=1))
    launch_args: Any = None  # (jit, options) the kernel was compiled for

    def __getitem__(self, grid: Any) -> Any:
        """`compiled[grid](*all_args)`: launches this specialization directly (Triton's
        CompiledKernel takes every argument, constexprs included, in order)."""
        from .launcher import launch_compiled
        return lambda *args: launch_compiled(self, grid, list(args))

    def __post_init__(self) -> None:
        # What every launch reads, computed once.
        self.param_indices = [p.index for p in self.params]
        self.param_components = [p.component for p in self.params]
        self.has_components = any(c is not None for c in self.param_components)
        # The pointer parameters as (argument index, descriptor component, written?).
        self.pointer_args = [(p.index, p.component, not p.readonly) for p in self.params
                             if p.dtype.is_ptr()]
        written = [w for _, _, w in self.pointer_args]
        self.check_aliasing = any(written) and not all(written)

    @property
    def asm(self) -> dict[str, str]:
        return {"source": self.source}

    def _init_handles(self) -> None:
        """Triton loads the module here; tcpu compiled it already."""



def _descriptor_params(name: str, index: int, kind: tuple[Any, ...]
                       ) -> tuple[TensorDescriptor, list[Param]]:
    """A host TensorDescriptor argument: its base, sizes and strides as run-time values."""
    from .ops.descriptors import TensorDescriptor
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


def _param_value(name: str, kind: tuple[Any, ...]) -> tuple[Any, tl.dtype | None]:
    """The lowering's binding for a parameter of this key kind, and its run-time dtype."""
    tag = kind[0]
    if tag == "c":
        return kind[1], None
    if tag == "P":
        d = tl.pointer_type(tl.DTYPES_BY_NAME[kind[1]])
        return Value(name, d, (), frozenset({name})), d
    if tag == "i":
        d = tl.DTYPES_BY_NAME[kind[1]]
        return Value(name, d), d
    if tag == "f":
        return Value(name, tl.float32), tl.float32
    if tag == "b":
        return Value(name, tl.int1), tl.int1
    raise AssertionError(kind)


def generate(jit: Any, key_kinds: list[tuple[Any, ...]], constexprs: dict[str, Any],
             debug: bool, all_mutable: bool, reads: Any = None
             ) -> tuple[str, str, list[Param], Any]:
    """The C++ source of one specialization, its kernel name and run-time parameters;
    `reads` (a cache_key.Reads), if given, learns the globals the lowering reads."""
    # Imported here: a process whose kernels all come from the disk cache never lowers.
    from .emitter import Emitter
    from .lowering import Lowerer
    source = jit.source()
    names = jit.arg_names
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
        value, dtype = _param_value(name, kind)
        bindings[name] = value
        if dtype is not None:
            params.append(Param(name, i, dtype))
    emitter = Emitter()
    emitter.depth = 2
    lowerer = Lowerer(emitter, debug, type(jit))
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
    lowerer.lower_function(source, jit.fn.__globals__, bindings, is_kernel=True)
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
    kernel = cpp.identifier(jit.fn.__name__)
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
        f"TL_KERNEL({kernel}, tcpu_kernel);",
        "",
    ])
    return text, kernel, params, lowerer


def _param_record(p: Param) -> dict[str, Any]:
    dtype = f"*{p.dtype.element_ty.name}" if p.dtype.is_ptr() else p.dtype.name
    return {"name": p.name, "index": p.index, "dtype": dtype, "readonly": p.readonly,
            "component": p.component}


def _param_from_record(r: dict[str, Any]) -> Param:
    name = r["dtype"]
    dtype = (tl.pointer_type(tl.DTYPES_BY_NAME[name[1:]]) if name.startswith("*")
             else tl.DTYPES_BY_NAME[name])
    return Param(r["name"], r["index"], dtype, r["readonly"], r["component"])


def load_cached(jit: Any, key_kinds: list[tuple[Any, ...]], debug: bool, all_mutable: bool,
                fp_contract: bool = True) -> tuple[CompiledKernel | None, str | None]:
    """The specialization from the disk cache (no lowering, no LLVM), and the entry's name
    (None when this specialization cannot be kept on disk)."""
    from . import cache_key, disk_cache
    if disk_cache.directory() is None:
        return None, None
    check_bounds = _check_bounds(debug)
    name = cache_key.key(jit, key_kinds, debug, all_mutable, fp_contract, check_bounds)
    if name is None:
        return None, None
    found = disk_cache.load(name, jit, key_kinds)
    if found is None:
        return None, name
    handle, meta = found
    params = [_param_from_record(r) for r in meta["params"]]
    return CompiledKernel(name=meta["name"], source=meta["source"], params=params,
                          codes=meta["codes"], handle=handle,
                          check_bounds=check_bounds), name


def _check_bounds(debug: bool) -> bool:
    """Whether to compile with bounds checks: always with debug (Triton's debug=True /
    TRITON_DEBUG=1; on a GPU a stray access is an illegal-address error at the kernel, here
    it would corrupt memory), else TCPU_CHECK, read as codegen reads it (here, because it is
    part of the key)."""
    value = os.environ.get("TCPU_CHECK", "")
    if value not in ("", "none", "bounds"):
        raise ValueError(f"TCPU_CHECK={value} is not a check: use 'bounds' or 'none'")
    return debug or value == "bounds"


def compile_specialization(jit: Any, key_kinds: list[tuple[Any, ...]], constexprs: dict[str, Any],
                           debug: bool, all_mutable: bool, fp_contract: bool = True,
                           cache_name: str | None = None) -> CompiledKernel:
    """Lowers and compiles one specialization; with `cache_name` (load_cached's), keeps it in
    the disk cache too."""
    from . import cache_key, disk_cache
    reads = cache_key.Reads(type(jit)) if cache_name else None
    text, name, params, lowerer = generate(jit, key_kinds, constexprs, debug, all_mutable, reads)
    codes = "".join("P" if p.dtype.is_ptr() else CODES[p.dtype.name] for p in params)
    check_bounds = _check_bounds(debug)
    from .. import _tcpu
    dump = os.environ.get("TCPU_DUMP_PYTHON_SOURCE")
    if dump:
        os.makedirs(dump, exist_ok=True)
        with open(os.path.join(dump, f"{name}.cpp"), "w") as f:
            f.write(text)
    handle = None
    try:
        if cache_name and reads is not None and reads.cacheable:
            meta = {"name": name, "source": text, "codes": codes,
                    "params": [_param_record(p) for p in params], "reads": reads.by_function}
            handle = disk_cache.store(cache_name, text, meta, fp_contract, check_bounds)
        if handle is None:
            handle = _tcpu.compile_kernel(text, name, fp_contract=fp_contract,
                                          check_bounds=check_bounds)
    except _tcpu.Error as e:
        if "target CPU '" in e.detail:  # TCPU_TARGET_CPU names a CPU that cannot be used here
            raise ValueError(e.detail) from None
        raise InternalError(
            f"tcpu generated C++ that clang rejected for kernel '{name}' (a bug in tcpu, please "
            f"report it with this message):\n{e.detail}\n--- generated source ---\n{text}",
            None, name) from None
    return CompiledKernel(name=name, source=text, params=params, codes=codes, handle=handle,
                          check_bounds=check_bounds)


__all__ = ["CompiledKernel", "CompilationError", "compile_specialization", "generate",
           "load_cached"]
