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
import linecache
import os
import sys
import time
import types
from pathlib import Path
from typing import Any

from .. import _environment as environment
from ..triton.language import core as tlc
from .foreign import to_tcpu

FORMAT = "1"


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


# --- fingerprints: what a value read at compile time contributes to the generated code ------

def fingerprint(value: Any, jit_type: type) -> str | None:
    """A stable text for a compile-time value; None for one that has no stable text (then the
    kernel is not kept on disk)."""
    value = to_tcpu(value)
    if isinstance(value, tlc.constexpr):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, (tuple, list)):
        parts = [fingerprint(v, jit_type) for v in value]
        return None if None in parts else f"{type(value).__name__}({','.join(parts)})"
    if isinstance(value, tlc.dtype):
        return f"dtype:{value!r}"
    if isinstance(value, types.ModuleType):
        return f"module:{value.__name__}"
    if isinstance(value, jit_type):
        return jit_fingerprint(value, jit_type)
    module = getattr(value, "__module__", None) or ""
    if (callable(value) or isinstance(value, type)) and module.startswith(("tcpu.", "triton")):
        return f"builtin:{module}.{getattr(value, '__qualname__', '?')}"
    return None


def _code_span(code: types.CodeType) -> tuple[int, int]:
    """The first and last source lines of a function's code, nested code included."""
    first, last = code.co_firstlineno, code.co_firstlineno
    pending = [code]
    while pending:
        c = pending.pop()
        for _, end_line, _, _ in c.co_positions():
            if end_line is not None and end_line > last:
                last = end_line
        pending.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return first, last


def jit_fingerprint(jit: Any, jit_type: type) -> str | None:
    """A @jit function: where it is (positions go into the code as #line) and its text, read
    from the lines its code spans (no tokenizing, unlike inspect.getsource), with its
    parameters' annotations (constexpr) and defaults."""
    fn = jit.fn
    code = fn.__code__
    first, last = _code_span(code)
    lines = linecache.getlines(code.co_filename)
    if not lines or last > len(lines):
        return None
    text = "".join(lines[first - 1:last])
    defaults = [fingerprint(v, jit_type) for v in (fn.__defaults__ or ())]
    if None in defaults:
        return None
    annotations = ",".join(f"{k}={a if isinstance(a, str) else getattr(a, '__qualname__', repr(a))}"
                           for k, a in fn.__annotations__.items())
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return (f"jit:{fn.__module__}:{fn.__qualname__}:{code.co_filename}:{first}:{digest}:"
            f"{','.join(defaults)}:{annotations}")


def function_id(fn: Any) -> str:
    return f"{fn.__module__}:{fn.__qualname__}"


class Reads:
    """The globals lowering read, per function (its module-level name, or a module attribute
    as "module.attr"), with their fingerprints."""

    def __init__(self, jit_type: type) -> None:
        self.jit_type = jit_type
        self.by_function: dict[str, dict[str, str]] = {}
        self.cacheable = True

    def record(self, fn: Any, path: str, value: Any) -> None:
        if not self.cacheable:
            return
        text = fingerprint(value, self.jit_type)
        if text is None:
            self.cacheable = False
            return
        self.by_function.setdefault(function_id(fn), {})[path] = text


def _resolve(fn: Any, path: str) -> Any:
    """What `path` names where `fn` reads it now (KeyError/AttributeError when it is gone)."""
    if path.startswith("module:"):
        module_name, attr = path[len("module:"):].rsplit(".", 1)
        return getattr(sys.modules[module_name], attr)
    return fn.__globals__[path]


def reads_current(recorded: dict[str, dict[str, str]], roots: list[Any], jit_type: type) -> bool:
    """Whether every recorded read still gives the recorded value, following the @jit helpers
    from `roots` (the kernel and @jit constexpr arguments); every recorded function must be
    reached."""
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        jit = to_tcpu(pending.pop())
        fid = function_id(jit.fn)
        if fid in seen:
            continue
        seen.add(fid)
        for path, text in recorded.get(fid, {}).items():
            try:
                value = _resolve(jit.fn, path)
            except (KeyError, AttributeError):
                return False
            if fingerprint(value, jit_type) != text:
                return False
            value = to_tcpu(value)
            if isinstance(value, jit_type):
                pending.append(value)
    return seen >= set(recorded)


# --- the key ---------------------------------------------------------------------------------

_process_parts: list[str] | None = None


def _frontend_stamp() -> str:
    """Sizes and times of the front end's files (its rules decide the code): an edited
    front end never reuses entries of the old one."""
    here = os.path.dirname(os.path.realpath(__file__))
    digest = hashlib.sha256()
    for root in (here, os.path.join(os.path.dirname(here), "triton", "language")):
        for directory_path, directories, files in os.walk(root):
            directories.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(directory_path, name))
                    digest.update(f"{directory_path}/{name}:{st.st_size}:{st.st_mtime_ns}\n"
                                  .encode())
    return digest.hexdigest()


def _host_identity() -> str:
    from .. import _tcpu_rt
    name, features = _tcpu_rt.host_cpu()
    flags = ""
    try:  # Linux: every ISA flag, so that a VM with the same model but fewer features misses
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    flags = line
                    break
                if not line.strip():
                    break
    except OSError:
        pass
    return f"{name}|{features}|{flags.strip()}"


def _process_key_parts() -> list[str]:
    global _process_parts
    if _process_parts is None:
        from .. import _tcpu_rt
        _process_parts = [FORMAT, _tcpu_rt.version(), _tcpu_rt.build_id(), _frontend_stamp(),
                          _host_identity(), os.environ.get("TCPU_TARGET_CPU", "")]
    return _process_parts


def key(jit: Any, kinds: list[tuple[Any, ...]], debug: bool, all_mutable: bool,
        fp_contract: bool, check_bounds: bool) -> str | None:
    """The entry's name for this specialization; None when it has no stable name."""
    jit_type = type(jit)
    own = jit_fingerprint(jit, jit_type)
    if own is None:
        return None
    parts = list(_process_key_parts())
    parts += [own, str(debug), str(all_mutable), str(fp_contract), str(check_bounds)]
    for kind in kinds:
        if kind[0] == "c":
            text = fingerprint(kind[1], jit_type)
            if text is None:
                return None
            parts.append(f"c:{text}")
        else:
            parts.append(repr(kind))
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


# --- entries ---------------------------------------------------------------------------------

def load(name: str, jit: Any, kinds: list[tuple[Any, ...]]) -> tuple[Any, dict[str, Any]] | None:
    """(the kernel's handle, its metadata) of the variant of entry `name` whose recorded reads
    hold now, or None (a miss; stale and damaged variants are skipped)."""
    base = directory()
    if base is None:
        return None
    try:
        variants = [v for v in os.listdir(base / name) if v.endswith(".json")]
    except OSError:
        return None
    jit_type = type(jit)
    roots = [jit] + [to_tcpu(k[1]) for k in kinds
                     if k[0] == "c" and isinstance(to_tcpu(k[1]), jit_type)]
    for variant in variants:
        try:
            with open(base / name / variant, encoding="utf-8") as f:
                meta = json.load(f)
            if meta.get("format") != FORMAT or not reads_current(meta["reads"], roots, jit_type):
                continue
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        from .. import _tcpu_rt
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
    from .. import _tcpu, _tcpu_rt
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
    ident = hashlib.sha256("\n".join(_process_key_parts()).encode()).hexdigest()[:32]
    base = directory()
    path = base / f"host-{ident}.txt" if base is not None else None
    if path is not None:
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError:
            pass
    from .. import _tcpu
    name = _tcpu.host_target()[0]
    if path is not None:
        try:
            base.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
            _write_atomically(path, name.encode())
        except OSError:
            pass
    return name
