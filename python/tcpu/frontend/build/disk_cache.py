"""Compiled specializations kept on disk as shared objects, so that a process whose kernels were
compiled before loads them with the LLVM-free `_tcpu_rt`: no lowering, no clang, no LLVM.

An entry is a directory `<key>/` of variants, each `<variant>.so` (written by
`_tcpu.write_library`) and `<variant>.json` (what the launch needs: the kernel's name, parameters
and codes; and what the key cannot know before lowering: the globals the kernel and its @jit
helpers read, each with a fingerprint; the variant is named by them). The key covers the
kernel's source and position, its specialization, the compile options, tcpu's build (codegen
and tcpu's headers: `_tcpu_rt.build_id()`), the front end's own files, and the host CPU. A load
re-reads each recorded global where the kernel reads it and compares fingerprints: a changed
helper or constant is a miss, never a stale kernel.

Both files are written atomically (a temporary, then a rename); the .json goes last, so a
reader that finds it finds the whole entry. The cache is kept under TCPU_CACHE_MAX_SIZE with
codegen's pruning (`_tcpu.trim_cache` after each store; a load marks the .json used): a kernel
pruned between reading its .json and loading its .so is a miss. Off with TCPU_CACHE_DISABLE=1 or
TCPU_PYTHON_CACHE=0, and where shared objects cannot be written (no ELF linker): then kernels
compile in process as before."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from ... import _environment as environment
from .cache_key import FORMAT, process_key_parts, reads_current
from ..foreign import to_tcpu
from ..kernel_def import KernelDef


def directory() -> Path | None:
    """<cache>/python, the cache codegen uses (TCPU_CACHE_DIR, else $XDG_CACHE_HOME/tcpu, else
    ~/.cache/tcpu); None when disabled."""
    if environment.flag("TCPU_CACHE_DISABLE", False) or not environment.flag("TCPU_PYTHON_CACHE",
                                                                            True):
        return None
    root = os.environ.get("TCPU_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg, "tcpu") if xdg else os.path.join(os.path.expanduser("~"),
                                                                  ".cache", "tcpu")
    return Path(root) / "python"


# --- entries ---------------------------------------------------------------------------------

def load(name: str, jit: KernelDef, kinds: list[tuple[Any, ...]]) -> tuple[Any, dict[str, Any]] | None:
    """(the kernel's handle, its metadata) of the variant of entry `name` whose recorded reads
    hold now, or None (a miss; stale and damaged variants are skipped)."""
    base = directory()
    if base is None:
        return None
    try:
        variants = [v for v in os.listdir(base / name) if v.endswith(".json")]
    except OSError:
        return None
    roots = [jit] + [to_tcpu(k[1]) for k in kinds
                     if k[0] == "c" and isinstance(to_tcpu(k[1]), KernelDef)]
    for variant in variants:
        try:
            with open(base / name / variant, encoding="utf-8") as f:
                meta = json.load(f)
            if meta.get("format") != FORMAT or not reads_current(meta["reads"], roots):
                continue
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        from ... import _tcpu_rt
        try:
            library = base / name / (variant[:-len(".json")] + ".so")
            handle = _tcpu_rt.load_library(str(library), meta["name"])
        except (ValueError, _tcpu_rt.Error):
            continue
        _mark_used(base / name / variant)
        return handle, meta
    return None


def _mark_used(path: Path) -> None:
    """Sets the access time (keeping the modification time), which codegen's pruning reads as
    the last use: explicit, because noatime and relatime mounts would not record the read."""
    try:
        os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))
    except OSError:
        pass  # pruned meanwhile, or a read-only cache: only the order of pruning suffers


def _write_atomically(path: Path, data: bytes) -> None:
    # (Not tempfile: importing it costs a warm process milliseconds.)
    # "<name>.tmp.<pid>.<n>.<random>", the cache's temporaries (`tcpu cache clear` knows them).
    temporary = f"{path}.tmp.{os.getpid()}.0.{int.from_bytes(os.urandom(4), 'little')}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def store(name: str, source: str, meta: dict[str, Any], fp_contract: bool,
          check_bounds: bool) -> Any | None:
    """Compiles `source` into a variant of entry `name` (one per set of recorded reads: a
    kernel whose helper's constant changes back and forth keeps both) and loads it; None when
    shared objects cannot be written here (the caller compiles in process instead)."""
    base = directory()
    if base is None:
        return None
    reads = json.dumps(meta["reads"], sort_keys=True)
    variant = hashlib.sha256(reads.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    from ... import _tcpu, _tcpu_rt
    try:
        (base / name).mkdir(parents=True, exist_ok=True)
        library = base / name / f"{variant}.so"
        _tcpu.write_library(source, str(library), fp_contract=fp_contract,
                            check_bounds=check_bounds)
        handle = _tcpu_rt.load_library(str(library), meta["name"])
        _write_atomically(base / name / f"{variant}.json",
                          json.dumps(dict(meta, format=FORMAT), sort_keys=True).encode())
    except _tcpu.Error as e:
        if e.code == "TCPU_ERROR_NOT_SUPPORTED":
            return None
        raise
    except OSError:
        return None  # an unwritable cache costs this process a compile, nothing more
    _tcpu.trim_cache()
    return handle


def host_llvm_cpu() -> str:
    """LLVM's name for this CPU ("znver4"), which only codegen (LLVM) can tell: asked once per
    host and build, then read from the cache, so that a warm process need not load LLVM for it."""
    ident = hashlib.sha256("\n".join(process_key_parts()).encode()).hexdigest()[:32]
    base = directory()
    path = base / f"host-{ident}.txt" if base is not None else None
    if path is not None:
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError:
            pass
    from ... import _tcpu
    name = _tcpu.host_target()[0]
    if path is not None:
        try:
            base.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
            _write_atomically(path, name.encode())
        except OSError:
            pass
    return name
