"""Sessions: start, activate, deactivate, finalize, and the `profile` decorator, as Triton's
`triton.profiler` has them. tcpu's backend records the launches of @triton.jit kernels on the
CPU (their wall time) under the scopes entered; GPU backends and their modes are refused by
name."""

from __future__ import annotations

import functools
from typing import Any, Callable

from .. import knobs
from ._record import recorder
from .flags import flags
from .hooks import HookManager, LaunchHook
from .mode import BaseMode

DEFAULT_PROFILE_NAME = "proton"

_GPU_BACKENDS = {
    "cupti": "CUPTI reads an NVIDIA GPU's kernel timings",
    "roctracer": "roctracer reads an AMD GPU's kernel timings",
    "instrumentation": "instrumentation rewrites a kernel's GPU code to read clocks inside it",
}


def _check(context: str | None, data: str | None, backend: str | None,
           mode: str | BaseMode | None, hook: str | None) -> None:
    if backend is not None and backend != "cpu":
        reason = _GPU_BACKENDS.get(backend, "it is not a profiler backend Triton knows")
        raise ValueError(f"triton.profiler: backend={backend!r} is not available on tcpu "
                         f"({reason}); tcpu's backend ('cpu', the default) times each "
                         "launch's run on the CPU")
    if mode is not None:
        raise ValueError(f"triton.profiler: mode={str(mode)!r} belongs to a GPU backend "
                         "(PC sampling, instrumentation); tcpu's backend has no modes")
    if context != "shadow":
        raise ValueError(f"triton.profiler: context={context!r}: tcpu records the 'shadow' "
                         "context (the scopes entered) only; the 'python' context (Python "
                         "call stacks as frames) is not implemented on tcpu yet")
    if data not in ("tree", "trace"):
        raise ValueError(f"triton.profiler: data={data!r}: 'tree' or 'trace'")
    if hook not in (None, "triton"):
        raise ValueError(f"triton.profiler: hook={hook!r}: None or 'triton'")


def start(name: str | None = None, *, context: str | None = "shadow",
          data: str | None = "tree", backend: str | None = None,
          mode: str | BaseMode | None = None, hook: str | None = None) -> int | None:
    """Opens a session (active at once) and returns its id. Its file, `<name>.hatchet` (data
    "tree") or `<name>.chrome_trace` (data "trace"), is written by finalize(). Every launch
    of a @triton.jit kernel while it is active is recorded; with hook="triton" a kernel's
    `launch_metadata` function names its frame and adds its metrics (flops, bytes).
    Nothing happens under the `proton` command (it opened the session) or while
    knobs.proton.disable is on."""
    if flags.command_line or knobs.proton.disable:
        return None
    _check(context, data, backend, mode, hook)
    session = recorder.open(DEFAULT_PROFILE_NAME if name is None else name, str(data), hook)
    flags.profiling_on = True
    HookManager.register(LaunchHook(), session)
    return session


def activate(session: int | None = None) -> None:
    """Records again into `session` (None: every session)."""
    if flags.command_line and session != 0:
        raise ValueError("Only one session can be activated when running from the command line.")
    for found in recorder.selected(session):
        found.active = True
    HookManager.activate(session)


def deactivate(session: int | None = None) -> None:
    """Stops recording into `session` (None: every session); what it holds is kept."""
    if flags.command_line and session != 0:
        raise ValueError("Only one session can be deactivated when running from the command "
                         "line.")
    for found in recorder.selected(session):
        found.active = False
    HookManager.deactivate(session)


def finalize(session: int | None = None, output_format: str | None = "") -> None:
    """Writes `session`'s file (None: every session's) and closes it."""
    if session is not None and flags.command_line and session != 0:
        raise ValueError("Only one session can be finalized when running from the command line.")
    HookManager.unregister(session)
    recorder.close(session, output_format or "")
    if not recorder.sessions:
        flags.profiling_on = False


def _profiling(func: Callable[..., Any], **options: Any) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        session = start(**options)
        result = func(*args, **kwargs)
        deactivate(session)
        return result

    return wrapper


def profile(func: Callable[..., Any] | None = None, *, name: str | None = None,
            context: str | None = "shadow", data: str | None = "tree",
            backend: str | None = None, mode: str | None = None,
            hook: str | None = None) -> Any:
    """`@proton.profile` / `@proton.profile(name=...)`: each call of the function runs in a
    session started for it (start()'s arguments), deactivated when it returns."""
    options = dict(name=name, context=context, data=data, backend=backend, mode=mode, hook=hook)
    if func is None:
        return lambda f: _profiling(f, **options)
    return _profiling(func, **options)
