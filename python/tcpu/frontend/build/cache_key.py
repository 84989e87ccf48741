"""The disk cache's key: what decides a compiled specialization's code, as text.

An entry's name hashes what is known before lowering (the kernel's text and position, its
specialization, the compile options, tcpu's build and front end, the host CPU); a variant of an
entry is named by what lowering read besides the arguments (globals, module attributes, @jit
helpers, recursively), each with a fingerprint, so that a load can re-read each where the kernel
reads it now and miss on any difference (`reads_current`). Values with no stable fingerprint make
a specialization uncacheable."""

from __future__ import annotations

import hashlib
import linecache
import os
import sys
import types
from typing import Any

from ...triton.language import core as tlc
from ..foreign import to_tcpu
from ..kernel_def import KernelDef, capture_scope

FORMAT = "1"

# --- fingerprints: what a value read at compile time contributes to the generated code ------

def fingerprint(value: Any) -> str | None:
    """A stable text for a compile-time value; None for one that has no stable text (then the
    kernel is not kept on disk)."""
    value = to_tcpu(value)
    if isinstance(value, tlc.constexpr):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, (tuple, list)):
        parts = [fingerprint(v) for v in value]
        return None if None in parts else f"{type(value).__name__}({','.join(parts)})"
    if isinstance(value, tlc.dtype):
        return f"dtype:{value!r}"
    if isinstance(value, types.ModuleType):
        return f"module:{value.__name__}"
    if isinstance(value, KernelDef):
        return jit_fingerprint(value)
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


def jit_fingerprint(jit: KernelDef) -> str | None:
    """A @jit function: where it is (positions go into the code as #line) and its text, read
    from the lines its code spans (no tokenizing, unlike inspect.getsource), or the text that
    replaced it (KernelDef._unsafe_update_src), with its parameters' annotations (constexpr)
    and defaults."""
    fn = jit.fn
    code = fn.__code__
    first, last = _code_span(code)
    if jit.updated_src is not None:  # _unsafe_update_src: the text compiled is that one
        text = "updated:" + jit.updated_src
    else:
        lines = linecache.getlines(code.co_filename)
        if not lines or last > len(lines):
            return None
        text = "".join(lines[first - 1:last])
    defaults = [fingerprint(v) for v in (fn.__defaults__ or ())]
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

    def __init__(self) -> None:
        self.by_function: dict[str, dict[str, str]] = {}
        self.cacheable = True

    def record(self, fn: Any, path: str, value: Any) -> None:
        if not self.cacheable:
            return
        text = fingerprint(value)
        if text is None:
            self.cacheable = False
            return
        self.by_function.setdefault(function_id(fn), {})[path] = text


def _resolve(fn: Any, path: str) -> Any:
    """What `path` names where `fn` reads it now (KeyError/AttributeError when it is gone)."""
    if path.startswith("module:"):
        module_name, attr = path[len("module:"):].rsplit(".", 1)
        return getattr(sys.modules[module_name], attr)
    return capture_scope(fn)[path]


def reads_current(recorded: dict[str, dict[str, str]], roots: list[Any]) -> bool:
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
            if fingerprint(value) != text:
                return False
            value = to_tcpu(value)
            if isinstance(value, KernelDef):
                pending.append(value)
    return seen >= set(recorded)


# --- the key ---------------------------------------------------------------------------------

_process_parts: list[str] | None = None


def _frontend_stamp() -> str:
    """Sizes and times of the front end's files (its rules decide the code): an edited
    front end never reuses entries of the old one."""
    frontend = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    digest = hashlib.sha256()
    for root in (frontend, os.path.join(os.path.dirname(frontend), "triton", "language")):
        for directory_path, directories, files in os.walk(root):
            directories.sort()
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(directory_path, name))
                    digest.update(f"{directory_path}/{name}:{st.st_size}:{st.st_mtime_ns}\n"
                                  .encode())
    return digest.hexdigest()


def _host_identity() -> str:
    from ... import _tcpu_rt
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


def process_key_parts() -> list[str]:
    global _process_parts
    if _process_parts is None:
        from ... import _tcpu_rt
        _process_parts = [FORMAT, _tcpu_rt.version(), _tcpu_rt.build_id(), _frontend_stamp(),
                          _host_identity(), os.environ.get("TCPU_TARGET_CPU", "")]
    return _process_parts


def _kind_text(kind: tuple[Any, ...]) -> str | None:
    """An argument's key kind as stable text; None when a compiled-in value has none."""
    if kind[0] == "c":
        text = fingerprint(kind[1])
        return None if text is None else f"c:{text}"
    if kind[0] == "T":  # a tuple: its class (a NamedTuple's fields name its leaves) and leaves
        cls = kind[1]
        parts = [_kind_text(k) for k in kind[2]]
        if None in parts:
            return None
        head = "tuple" if cls is tuple else f"{cls.__module__}.{cls.__qualname__}{cls._fields}"
        return f"T:{head}({';'.join(p for p in parts if p is not None)})"
    return repr(kind)


def key(jit: KernelDef, kinds: list[tuple[Any, ...]], debug: bool, all_mutable: bool,
        fp_contract: bool, check_bounds: bool) -> str | None:
    """The entry's name for this specialization; None when it has no stable name."""
    own = jit_fingerprint(jit)
    if own is None:
        return None
    parts = list(process_key_parts())
    parts += [own, str(debug), str(all_mutable), str(fp_contract), str(check_bounds)]
    for kind in kinds:
        text = _kind_text(kind)
        if text is None:
            return None
        parts.append(text)
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()
