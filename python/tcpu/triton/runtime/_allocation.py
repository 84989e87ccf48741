"""`triton.runtime._allocation`: the allocator a launch asks for scratch global memory.

Triton's GPU kernels that build TMA descriptors on the device ask it for a workspace; tcpu's
kernels never need one, so the allocator is kept (and read back by `triton.set_allocator`'s
users and test fixtures) but never called by a launch."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Optional, Protocol


class Buffer(Protocol):

    def data_ptr(self) -> int:
        ...


class Allocator(Protocol):

    def __call__(self, size: int, alignment: int, stream: Optional[int]) -> Buffer:
        ...


class NullAllocator:
    """The allocator until one is set: asking it for memory is an error, as in Triton."""

    def __call__(self, size: int, alignment: int, stream: Optional[int]) -> Buffer:
        raise RuntimeError("Kernel requires a runtime memory allocation, but no allocator was "
                           "set. Use triton.set_allocator to specify an allocator.")


_allocator: ContextVar[Allocator] = ContextVar("_allocator", default=NullAllocator())


def set_allocator(allocator: Allocator) -> None:
    """The allocator of this context (a ContextVar, as Triton's)."""
    _allocator.set(allocator)


def get_allocator() -> Allocator:
    return _allocator.get()
