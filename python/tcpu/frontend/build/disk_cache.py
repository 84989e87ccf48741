"""Compiled specializations kept on disk as shared objects, so that a process whose kernels were
compiled before loads them with the LLVM-free `_tcpu_rt`: no lowering, no clang, no LLVM.

An entry (named by the key: cache_key.py) is a set of variants, each a shared object and what the
launch needs beside it (the .json: the kernel's name, parameters and codes; and what the key
cannot know before lowering: the globals the kernel and its @jit helpers read, each with a
fingerprint; the variant is named by them). The key covers the kernel's source and position, its
specialization, the compile options, tcpu's build (codegen and tcpu's headers:
`_tcpu_rt.build_id()`), the front end's own files, and the host CPU. A load re-reads each recorded
global where the kernel reads it and compares fingerprints: a changed helper or constant is a
miss, never a stale kernel.

The files are codegen's (tcpu/frontend_cache.hpp, through `_tcpu_rt.cache_*` and
`_tcpu.cache_store`): where they are (`<cache>/python`, the directory codegen's own cache uses),
their names, atomic writes (the shared object first, the .json last, so that a reader that finds
the .json finds the whole variant), marking a loaded variant used, and keeping the cache under
TCPU_CACHE_MAX_SIZE after each store. A kernel pruned between reading its .json and loading its
shared object is a miss.

Nothing in it is trusted unchecked (docs/cache-guarantees.md): a cache directory of another user's
or writable by others is not used (one warning; kernels compile in memory), and a shared object is
loaded only after codegen has checked it against the seal its .json records (entry, variant,
size, checksum) and as an ELF file: a damaged or misplaced one is a miss, compiled again. A cache
that cannot be written (disk full, read-only, no permission) costs one warning and a compile in
memory, never the launch. Off with TCPU_CACHE_DISABLE=1 (codegen's switch) or TCPU_PYTHON_CACHE=0
(this one's), and where shared objects cannot be written (no ELF linker): then kernels compile in
process as before."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from ... import _environment as environment
from .cache_key import FORMAT, process_key_parts, reads_current
from ..foreign import to_tcpu
from ..kernel_def import KernelDef


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    """One line on stderr per distinct problem and process: the cache's trouble is the
    environment's, and costs compiles, never a launch."""
    if message not in _warned:
        _warned.add(message)
        print(f"tcpu: warning: {message}", file=sys.stderr)


def directory() -> Path | None:
    """<cache>/python, as codegen resolves the cache (TCPU_CACHE_DIR, else
    $XDG_CACHE_HOME/tcpu, else ~/.cache/tcpu); None when disabled or not trusted."""
    from ... import _tcpu_rt
    # Every build comes here first: a bad variable of tcpu's or OpenMP's is a ValueError naming
    # it before anything is compiled, loaded or launched.
    _tcpu_rt.check_environment()
    found = _tcpu_rt.cache_directory()
    if found is None or not environment.flag("TCPU_PYTHON_CACHE", True):
        return None
    distrust = _tcpu_rt.cache_distrust()
    if distrust is not None:
        _warn_once(f"the kernel cache is not used: {distrust} (kernels are compiled in memory)")
        return None
    return Path(found)


# --- entries ---------------------------------------------------------------------------------

def load(name: str, jit: KernelDef, kinds: list[tuple[Any, ...]]
         ) -> tuple[Any, dict[str, Any]] | None:
    """(the kernel's handle, its metadata) of the variant of entry `name` whose recorded reads
    hold now, or None (a miss; stale and damaged variants are skipped)."""
    if directory() is None:
        return None
    from ... import _tcpu_rt
    roots = [jit] + [to_tcpu(k[1]) for k in kinds
                     if k[0] == "c" and isinstance(to_tcpu(k[1]), KernelDef)]
    for variant, text in _tcpu_rt.cache_variants(name):
        try:
            meta = json.loads(text)
            if meta.get("format") != FORMAT or not reads_current(meta["reads"], roots):
                continue
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
        try:
            handle = _tcpu_rt.cache_load(name, variant, meta["name"])  # marks the variant used
        except (ValueError, _tcpu_rt.Error):
            continue
        return handle, meta
    return None


# How long a compile waits for another one of the same entry before it compiles the entry itself:
# a holder past it is stopped or stuck (one that dies releases the lock at once).
COMPILE_WAIT_S = 60.0


@contextlib.contextmanager
def compile_lock(name: str) -> Iterator[None]:
    """Held around a compile of entry `name`, so that processes (pytest-xdist's workers) and
    threads missing the same specialization at once compile it once: the others wait here, then
    load the first one's variant (codegen's EntryCompileLock, an flock released when its holder
    dies). Waited for in short tries, so that Ctrl-C interrupts the wait; past COMPILE_WAIT_S,
    or with no lock to be had, the compile goes on without it."""
    from ... import _tcpu_rt
    lock = _tcpu_rt.cache_compile_lock(name) if directory() is not None else None
    if lock is not None:
        deadline = time.monotonic() + COMPILE_WAIT_S
        while not lock.acquire(0.1):
            if time.monotonic() > deadline:
                _warn_once(f"another process has been compiling a kernel for over "
                           f"{COMPILE_WAIT_S:.0f} s (stopped?): compiling it here as well")
                lock = None
                break
    try:
        yield
    finally:
        if lock is not None:
            lock.release()


def store(name: str, source: str, meta: dict[str, Any], fp_contract: bool,
          check_bounds: bool) -> Any | None:
    """Compiles `source` into a variant of entry `name` (one per set of recorded reads: a
    kernel whose helper's constant changes back and forth keeps both) and loads it; None when
    shared objects cannot be written here (the caller compiles in process instead)."""
    if directory() is None:
        return None
    reads = json.dumps(meta["reads"], sort_keys=True)
    variant = hashlib.sha256(reads.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    from ... import _tcpu
    try:
        return _tcpu.cache_store(name, variant, source, meta["name"],
                                 json.dumps(dict(meta, format=FORMAT), sort_keys=True),
                                 fp_contract=fp_contract, check_bounds=check_bounds)
    except _tcpu.Error as e:
        if e.code == "TCPU_ERROR_NOT_SUPPORTED":
            return None
        if e.code == "TCPU_ERROR_INVALID_SOURCE":
            raise  # clang's verdict on the source: compiling in memory would give the same
        # Linking or writing the shared object failed (a full disk, a read-only cache): the
        # compile in memory that follows reports anything that is not the cache's.
        _warn_once(f"cannot write the kernel cache ({e.detail.splitlines()[0] if e.detail else e}); "
                   "kernels are compiled in memory")
        return None
    except OSError as e:
        _warn_once(f"cannot write the kernel cache ({e}); kernels are compiled in memory")
        return None


def host_llvm_cpu() -> str:
    """LLVM's name for this CPU ("znver4"), which only codegen (LLVM) can tell: asked once per
    host and build, then read from the cache, so that a warm process need not load LLVM for it."""
    ident = hashlib.sha256("\n".join(process_key_parts()).encode()).hexdigest()[:32]
    cached = directory() is not None
    from ... import _tcpu_rt
    if cached:
        kept = _tcpu_rt.cache_read_host(ident)
        if kept is not None:
            return kept.strip()
    from ... import _tcpu
    name = _tcpu.host_target()[0]
    if cached:
        try:
            _tcpu_rt.cache_store_host(ident, name)
        except OSError:
            pass
    return name
