"""What a profiling session records, and the files it writes.

A session holds a tree of frames (ROOT, then the scopes and states entered, then the kernels
launched inside them) whose metrics add up over repeated visits, or, for `data="trace"`, one
event per launch. Kernel frames carry `count`, `time (ns)` (the wall time of the launch: a
tcpu launch from Python runs the whole grid before it returns, so this is the kernel's run
time, the CPU's analogue of the GPU time Triton's profiler reads from CUPTI), `device_id` and
`device_type` ("CPU"), and the metrics the kernel's `launch_metadata` gives (flops, bytes).
Scopes carry the metrics given to them. The files have the shape of Triton's profiler's: a
hatchet JSON list `[tree, devices]` for trees, a Chrome trace for traces."""

from __future__ import annotations

import json
import os
import platform
import threading
import time
from dataclasses import dataclass, field
from typing import Any

DEVICE_TYPE = "CPU"
DEVICE_ID = "0"
_ROOT = "ROOT"
_SUFFIX = {"tree": "hatchet", "trace": "chrome_trace"}


@dataclass
class Frame:
    name: str
    metrics: dict[str, Any] = field(default_factory=dict)
    children: dict[str, Frame] = field(default_factory=dict)

    def child(self, name: str) -> Frame:
        found = self.children.get(name)
        if found is None:
            found = self.children[name] = Frame(name)
        return found

    def add(self, metrics: dict[str, Any]) -> None:
        for key, value in metrics.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.metrics[key] = self.metrics.get(key, 0) + value
            else:
                self.metrics[key] = value

    def to_json(self) -> dict[str, Any]:
        return {"frame": {"name": self.name, "type": "function"}, "metrics": dict(self.metrics),
                "children": [c.to_json() for c in self.children.values()]}


@dataclass
class Session:
    name: str
    data: str
    hook: str | None
    active: bool = True
    root: Frame = field(default_factory=lambda: Frame(_ROOT))
    events: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def frame(self, path: list[str]) -> Frame:
        node = self.root
        for name in path:
            node = node.child(name)
        return node

    def record_scope(self, path: list[str], metrics: dict[str, Any] | None) -> None:
        if self.data != "tree":
            return
        with self.lock:
            node = self.frame(path)
            if metrics:
                node.add(metrics)

    def record_launch(self, path: list[str], name: str, start_ns: int, elapsed_ns: int,
                      metrics: dict[str, Any]) -> None:
        with self.lock:
            if self.data == "trace":
                self.events.append({
                    "name": name, "cat": "kernel", "ph": "X", "pid": 0,
                    "tid": threading.get_ident() % 2**31, "ts": start_ns / 1000.0,
                    "dur": elapsed_ns / 1000.0,
                    "args": {"call_stack": [_ROOT, *path, name], **metrics}})
                return
            self.frame(path + [name]).add({"count": 1, "time (ns)": elapsed_ns,
                                            "device_id": DEVICE_ID,
                                            "device_type": DEVICE_TYPE, **metrics})

    def write(self, output_format: str) -> str:
        """Writes the session's file; returns its path."""
        wanted = output_format or _SUFFIX[self.data]
        if wanted != _SUFFIX[self.data]:
            raise ValueError(f"a session of data={self.data!r} is written as "
                             f"{_SUFFIX[self.data]!r}, not {wanted!r}")
        path = self.name if self.name.endswith("." + wanted) else f"{self.name}.{wanted}"
        if self.data == "trace":
            content: Any = {"displayTimeUnit": "ns", "traceEvents": self.events}
        else:
            content = [self.root.to_json(), devices()]
        directory = os.path.dirname(os.path.abspath(os.path.expanduser(path)))
        os.makedirs(directory, exist_ok=True)
        with open(os.path.expanduser(path), "w") as f:
            json.dump(content, f, indent=1)
        return path


def devices() -> dict[str, Any]:
    """The devices part of a hatchet file: the one CPU tcpu runs kernels on."""
    return {DEVICE_TYPE: {DEVICE_ID: {"arch": platform.machine(), "num_cores": os.cpu_count(),
                                      "processor": platform.processor()}}}


class Recorder:
    """The open sessions and the scopes entered (per thread), shared by every session."""

    def __init__(self) -> None:
        self.sessions: dict[int, Session] = {}
        self.next_id = 0
        self.local = threading.local()
        self.lock = threading.Lock()

    def path(self) -> list[str]:
        return getattr(self.local, "path", None) or []

    def push(self, name: str) -> None:
        if not hasattr(self.local, "path"):
            self.local.path = []
        self.local.path.append(name)

    def pop(self, name: str | None = None) -> str:
        path = self.path()
        if not path:
            raise ValueError("no scope is open")
        if name is not None and path[-1] != name:
            raise ValueError(f"Scope name mismatch: {name} != {path[-1]}")
        return path.pop()

    def open(self, name: str, data: str, hook: str | None) -> int:
        with self.lock:
            session_id = self.next_id
            self.next_id += 1
            self.sessions[session_id] = Session(name, data, hook)
        return session_id

    def selected(self, session: int | None) -> list[Session]:
        if session is None:
            return list(self.sessions.values())
        found = self.sessions.get(session)
        return [found] if found is not None else []

    def active(self) -> list[Session]:
        return [s for s in list(self.sessions.values()) if s.active]

    def close(self, session: int | None, output_format: str) -> list[str]:
        ids = list(self.sessions) if session is None else [session]
        written = []
        for session_id in ids:
            found = self.sessions.pop(session_id, None)
            if found is not None:
                written.append(found.write(output_format))
        return written

    def scope_entered(self, metrics: dict[str, Any] | None) -> None:
        path = self.path()
        for session in self.active():
            session.record_scope(path, metrics)

    def launch_timed(self, plain: str, named: str, start_ns: int, elapsed_ns: int,
                     metrics: dict[str, Any]) -> None:
        """Records a launch in the active sessions: as `plain` (the kernel's name), or in
        sessions started with hook="triton" as `named` with `metrics` (its launch metadata)."""
        path = self.path()
        for session in self.active():
            if session.hook == "triton":
                session.record_launch(path, named, start_ns, elapsed_ns, metrics)
            else:
                session.record_launch(path, plain, start_ns, elapsed_ns, {})


recorder = Recorder()


def now_ns() -> int:
    return time.perf_counter_ns()
