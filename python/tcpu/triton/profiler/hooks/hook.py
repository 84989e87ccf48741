"""Hook and HookManager: which profiler hooks run around launches, as Triton's. The manager's
`enter` / `exit` are in `knobs.runtime.launch_enter_hook` / `launch_exit_hook` while a
session is active, and nowhere otherwise (a launch then pays nothing for the profiler)."""

from __future__ import annotations

from typing import Any, Optional

from ... import knobs
from ...compiler import LazyDict
from .._record import recorder


class Hook:
    priority: int = 0

    def init_handle(self, module: Any, function: Any, name: str,
                    metadata_group: dict[str, str], hash: str) -> None:
        """Triton calls it when a GPU module is loaded; tcpu loads none."""

    def enter(self, metadata: LazyDict) -> None:
        raise NotImplementedError

    def exit(self, metadata: LazyDict) -> None:
        raise NotImplementedError

    def activate(self) -> None:
        """Nothing to do by default."""

    def deactivate(self) -> None:
        """Nothing to do by default."""


class HookManager:
    # hooks of every open session, highest priority first
    active_hooks: list[Hook] = []
    session_hooks: dict[int, list[Hook]] = {}

    @staticmethod
    def enter(metadata: LazyDict) -> None:
        for hook in HookManager.active_hooks:
            hook.enter(metadata)

    @staticmethod
    def exit(metadata: LazyDict) -> None:
        for hook in reversed(HookManager.active_hooks):
            hook.exit(metadata)

    @staticmethod
    def register(hook: Hook, session: int) -> None:
        HookManager.session_hooks.setdefault(session, [])
        if hook not in HookManager.session_hooks[session]:
            HookManager.session_hooks[session].append(hook)
        HookManager._sync()

    @staticmethod
    def activate(session: Optional[int] = None) -> None:
        HookManager._sync()

    @staticmethod
    def deactivate(session: Optional[int] = None) -> None:
        HookManager._sync()

    @staticmethod
    def unregister(session: Optional[int] = None) -> None:
        if session is None:
            HookManager.session_hooks.clear()
        else:
            HookManager.session_hooks.pop(session, None)
        HookManager._sync(closing=session)

    @staticmethod
    def _sync(closing: Optional[int] = -1) -> None:
        """Keeps the hooks of the active sessions (the one `closing` excluded; None: all) in
        the launch hook chains."""
        active_ids = {id_ for id_, s in recorder.sessions.items() if s.active
                      and closing is not None and id_ != closing}
        wanted: list[Hook] = []
        for id_, hooks in HookManager.session_hooks.items():
            if id_ in active_ids:
                wanted += [h for h in hooks if h not in wanted]
        wanted.sort(key=lambda h: h.priority, reverse=True)
        for hook in HookManager.active_hooks:
            if hook not in wanted:
                hook.deactivate()
        for hook in wanted:
            if hook not in HookManager.active_hooks:
                hook.activate()
        HookManager.active_hooks[:] = wanted
        if wanted:
            knobs.runtime.launch_enter_hook.add(HookManager.enter)
            knobs.runtime.launch_exit_hook.add(HookManager.exit)
        else:
            knobs.runtime.launch_enter_hook.remove(HookManager.enter)
            knobs.runtime.launch_exit_hook.remove(HookManager.exit)
