"""torch.cpu's stream API for PyTorch older than 2.1 (Debian 12 ships 1.13).

Triton's scripts write `getattr(torch, DEVICE.type).Stream()` and `.set_stream(s)` to time
kernels on a side stream (tutorial 02's benchmark). PyTorch 2.1 added those names for the CPU
as no-ops (the CPU runs work in order on the calling thread). On an older torch the driver
adds the same no-op names, and only names that are missing: a newer torch is left as it is."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator


class Stream:
    """A CPU stream: work runs in order, in the calling thread, so there is nothing to wait on."""

    def __init__(self, priority: int = -1) -> None:
        self.priority = priority

    def wait_stream(self, stream: "Stream") -> None:
        """Everything before this call has already run."""

    def wait_event(self, event: Any = None) -> None:
        """Events on the CPU are complete when recorded."""

    def record_event(self, event: Any = None) -> Any:
        return event

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        """Nothing is pending."""


_CURRENT = Stream()


def _current_stream(device: Any = None) -> Stream:
    return _CURRENT


def _set_stream(stream: Stream) -> None:
    global _CURRENT
    _CURRENT = stream


@contextlib.contextmanager
def _stream(stream: Stream | None) -> Iterator[None]:
    previous = _CURRENT
    if stream is not None:
        _set_stream(stream)
    try:
        yield
    finally:
        _set_stream(previous)


def ensure(torch: Any) -> None:
    """Adds torch.cpu.Stream, current_stream, set_stream and stream where they are missing."""
    cpu = getattr(torch, "cpu", None)
    if cpu is None:
        return
    for name, value in (("Stream", Stream), ("current_stream", _current_stream),
                        ("set_stream", _set_stream), ("stream", _stream)):
        if not hasattr(cpu, name):
            setattr(cpu, name, value)
