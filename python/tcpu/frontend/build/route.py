"""How a specialization becomes a CompiledKernel: the one place that chooses the build route.

A specialization is built through a store, chosen once per specialization by `store_for`:
- `SharedObjectStore`, the front end's disk cache (disk_cache.py): `load` finds a shared object
  compiled by an earlier process (no lowering, no clang, no LLVM); `compile` lowers, writes the
  shared object into the cache and loads it, holding the entry's compile lock (`compiling`), so
  that another process or thread missing the same entry waits and loads it instead.
- `InProcessStore`, when the disk cache is off (TCPU_PYTHON_CACHE=0, TCPU_CACHE_DISABLE=1) or
  the specialization has no stable name (a constexpr with no stable fingerprint): `load` finds
  nothing; `compile` lowers and compiles in process (through codegen's own object cache).
A shared object that cannot be written here (no ELF linker, an unwritable cache) is compiled in
process instead, as is one whose lowering read a value with no stable fingerprint."""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass
from typing import Any

from ..compiled import CompiledKernel, Param
from ..errors import InternalError
from ..kernel_def import KernelDef
from ..specialize import CODES
from . import cache_key, disk_cache

# What an unset TCPU_CHECK means: no checks, except under tcpu's pytest plugin, which turns
# bounds checks on for its session (a test's stray access then fails that test, naming it,
# instead of corrupting the heap that the rest of the session runs on).
_bounds_when_unset = False


def check_bounds_when_unset(on: bool) -> None:
    """Sets what an unset TCPU_CHECK means for the specializations built from now on."""
    global _bounds_when_unset
    _bounds_when_unset = on


def bounds_when_unset() -> bool:
    return _bounds_when_unset


@dataclass(frozen=True)
class BuildOptions:
    """What a specialization is compiled with besides its key."""

    debug: bool
    all_mutable: bool  # every pointer mutable: a launch passed a read pointer overlapping a written one
    check_bounds: bool
    fp_contract: bool = True

    @staticmethod
    def of(debug: bool, all_mutable: bool, fp_contract: bool = True) -> BuildOptions:
        """Bounds checks are on always with debug (Triton's debug=True / TRITON_DEBUG=1; on a
        GPU a stray access is an illegal-address error at the kernel, here it would corrupt
        memory), else as TCPU_CHECK says, read as codegen reads it (here, because it is part of
        the key); unset, as check_bounds_when_unset chose."""
        value = os.environ.get("TCPU_CHECK")
        if value not in (None, "", "none", "bounds"):
            raise ValueError(f"TCPU_CHECK={value} is not a check: use 'bounds' or 'none'")
        bounds = value == "bounds" or (value is None and _bounds_when_unset)
        return BuildOptions(debug, all_mutable, debug or bounds, fp_contract)


@dataclass
class Generated:
    """A specialization's generated C++ and what its launches need."""

    name: str
    source: str
    params: list[Param]
    reads: cache_key.Reads | None

    @property
    def codes(self) -> str:
        return "".join("P" if p.dtype.is_ptr() else CODES[p.dtype.name] for p in self.params)


def _compile_in_process(generated: Generated, options: BuildOptions) -> Any:
    from ... import _tcpu  # loads LLVM and clang: only when something is compiled
    return _tcpu.compile_kernel(generated.source, generated.name,
                                fp_contract=options.fp_contract,
                                check_bounds=options.check_bounds)


class InProcessStore:
    """No disk cache: every process compiles its specializations (codegen's object cache
    still spares it clang and LLVM for sources it has compiled before)."""

    def load(self, kernel: KernelDef, kinds: list[tuple[Any, ...]], options: BuildOptions
             ) -> CompiledKernel | None:
        return None

    def compiling(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def reads(self) -> cache_key.Reads | None:
        return None

    def compile(self, generated: Generated, options: BuildOptions) -> Any:
        return _compile_in_process(generated, options)


class SharedObjectStore:
    """The disk cache's entry `entry` (cache_key.key's name for the specialization)."""

    def __init__(self, entry: str) -> None:
        self.entry = entry

    def load(self, kernel: KernelDef, kinds: list[tuple[Any, ...]], options: BuildOptions
             ) -> CompiledKernel | None:
        found = disk_cache.load(self.entry, kernel, kinds)
        if found is None:
            return None
        handle, meta = found
        return CompiledKernel(name=meta["name"], source=meta["source"],
                              params=[Param.from_record(r) for r in meta["params"]],
                              codes=meta["codes"], handle=handle,
                              check_bounds=options.check_bounds, fp_contract=options.fp_contract)

    def compiling(self) -> contextlib.AbstractContextManager[None]:
        return disk_cache.compile_lock(self.entry)

    def reads(self) -> cache_key.Reads | None:
        return cache_key.Reads()

    def compile(self, generated: Generated, options: BuildOptions) -> Any:
        handle = None
        if generated.reads is not None and generated.reads.cacheable:
            meta = {"name": generated.name, "source": generated.source,
                    "codes": generated.codes, "params": [p.record() for p in generated.params],
                    "reads": generated.reads.by_function}
            handle = disk_cache.store(self.entry, generated.source, meta, options.fp_contract,
                                      options.check_bounds)
        if handle is None:  # shared objects cannot be written here, or not kept for this one
            handle = _compile_in_process(generated, options)
        return handle


IN_PROCESS = InProcessStore()

# Lowering runs one specialization at a time (it walks and caches the kernels' Python objects);
# the compile after it, which releases the GIL, may overlap others' (parallel.py).
# Reentrant: a lowering that builds another kernel must not deadlock.
_LOWERING = threading.RLock()


def store_for(kernel: KernelDef, kinds: list[tuple[Any, ...]], options: BuildOptions
              ) -> InProcessStore | SharedObjectStore:
    """The store this specialization is built through."""
    if disk_cache.directory() is None:
        return IN_PROCESS
    entry = cache_key.key(kernel, kinds, options.debug, options.all_mutable, options.fp_contract,
                          options.check_bounds)
    return IN_PROCESS if entry is None else SharedObjectStore(entry)


def _dump(generated: Generated) -> None:
    """TCPU_DUMP_PYTHON_SOURCE=dir: each generated source is written there."""
    dump = os.environ.get("TCPU_DUMP_PYTHON_SOURCE")
    if dump:
        try:
            os.makedirs(dump, exist_ok=True)
            with open(os.path.join(dump, f"{generated.name}.cpp"), "w") as f:
                f.write(generated.source)
        except OSError as e:
            raise ValueError(f"TCPU_DUMP_PYTHON_SOURCE={dump!r}: cannot write the kernel's "
                             f"source there ({e.strerror or e})") from None


def build(kernel: KernelDef, kinds: list[tuple[Any, ...]], options: BuildOptions
          ) -> CompiledKernel:
    """The specialization `kinds` of `kernel`: from the disk cache, else lowered and compiled."""
    store = store_for(kernel, kinds, options)
    found = store.load(kernel, kinds, options)
    if found is not None:
        return found
    # Imported here: a process whose kernels all come from the disk cache never lowers.
    from ..generate import generate
    constexprs = {n: k[1] for n, k in zip(kernel.arg_names, kinds) if k[0] == "c"}
    reads = store.reads()
    with _LOWERING:
        source, name, params, _ = generate(kernel, kinds, constexprs, options.debug,
                                           options.all_mutable, reads)
    generated = Generated(name, source, params, reads)
    _dump(generated)
    from ... import _tcpu
    try:
        # Another process or thread may be compiling this specialization: wait for it, then
        # load its variant rather than compile the same one again.
        with store.compiling():
            found = store.load(kernel, kinds, options)
            if found is not None:
                return found
            handle = store.compile(generated, options)
    except _tcpu.Error as e:
        if "target CPU '" in e.detail:  # TCPU_TARGET_CPU names a CPU that cannot be used here
            raise ValueError(e.detail) from None
        raise InternalError(
            f"tcpu generated C++ that clang rejected for kernel '{name}' (a bug in tcpu, please "
            f"report it with this message):\n{e.detail}\n--- generated source ---\n{source}",
            name) from None
    return CompiledKernel(name=name, source=source, params=params, codes=generated.codes,
                          handle=handle, check_bounds=options.check_bounds,
                          fp_contract=options.fp_contract)
