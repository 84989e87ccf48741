"""``triton.tools.tensor_descriptor.TensorDescriptor``: a host-side description of a strided
tensor (rank 1 to 5) and the block a kernel loads from it. Passed to a @triton.jit kernel, it
arrives as a tensor descriptor (`desc.load([i, j])`, `desc.store([i, j], v)`): on the CPU its
base address, shape and strides are passed as plain arguments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class TensorDescriptor:
    base: Any
    shape: list[int]
    strides: list[int]
    block_shape: list[int]
    padding: str = "zero"

    def __post_init__(self) -> None:
        rank = len(self.shape)
        if not (len(self.strides) == len(self.block_shape) == rank):
            raise ValueError(f"TensorDescriptor: shape {self.shape}, strides {self.strides} and "
                             f"block_shape {self.block_shape} must have one length")
        if not 1 <= rank <= 5:  # Triton's limit (a TMA descriptor's)
            raise ValueError(f"TensorDescriptor: rank {rank}, expected 1 to 5")
        for i, d in enumerate(self.block_shape):
            # Triton's descriptor checks the block as a kernel's block shape: powers of two.
            if not isinstance(d, int) or d <= 0 or d & (d - 1):
                raise ValueError(f"TensorDescriptor block_shape {list(self.block_shape)}: Shape "
                                 f"element {i} must be a power of 2, got {d!r}")
        if self.strides[-1] != 1:
            raise ValueError(f"TensorDescriptor: the last stride must be 1, got {self.strides}")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"TensorDescriptor: padding must be 'zero' or 'nan', got "
                             f"{self.padding!r}")

    @staticmethod
    def from_tensor(tensor: Any, block_shape: list[int], padding: str = "zero"
                    ) -> "TensorDescriptor":
        return TensorDescriptor(tensor, list(tensor.shape), list(tensor.stride()),
                                list(block_shape), padding)
