"""Helpers shared by the tutorial examples in this folder.

Each example script defines its kernels, a `golden_cases(device)` function that builds the
seeded cases scripts/gpu/record_triton_goldens.py records on a GPU, and a `main()` that checks
the kernels against PyTorch. This module holds what they have in common: the device, seeded
inputs (NumPy's PCG64, so the same numbers on every machine), the `Case` record, the command
line, and a timer.

The device is always `triton.runtime.driver.active.get_active_torch_device()`: CPU tensors under
`python3 -m tcpu`, CUDA tensors under real Triton on a GPU.
"""
import argparse
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional, Tuple

import numpy as np
import torch
import triton


def device() -> torch.device:
    return triton.runtime.driver.active.get_active_torch_device()


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def normal(gen: np.random.Generator, shape, dtype, dev, scale: float = 1.0, shift: float = 0.0) -> torch.Tensor:
    """Normally distributed values drawn in fp32, then rounded to `dtype` (a NumPy dtype)."""
    values = gen.standard_normal(shape, dtype=np.float32) * np.float32(scale) + np.float32(shift)
    return torch.from_numpy(np.ascontiguousarray(values.astype(dtype))).to(dev)


def uniform(gen: np.random.Generator, shape, dtype, dev) -> torch.Tensor:
    values = gen.random(shape, dtype=np.float32)
    return torch.from_numpy(np.ascontiguousarray(values.astype(dtype))).to(dev)


@dataclass
class Case:
    """One golden case: arrays in, kernel launch(es), arrays out, and how each output is judged.

    `inputs` and `outputs` map array names (the .npy file names) to tensors, in the order of the
    kernel's parameters. `rules` maps each output to (xcheck rule, why that rule). `launch`
    runs the kernel(s) once on exactly these tensors and may be called repeatedly (for timing):
    it resets any state it accumulates into.
    """
    name: str
    kernel: str
    seed: int
    inputs: Dict[str, torch.Tensor]
    outputs: Dict[str, torch.Tensor]
    rules: Dict[str, Tuple[str, str]]
    launch: Callable[[], None]
    shapes: str = ""
    extra: dict = field(default_factory=dict)


def parse_args(description: str, argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--full", action="store_true", help="use the Triton tutorial's own sizes")
    parser.add_argument("--bench", action="store_true", help="also time the kernel against PyTorch")
    return parser.parse_args(argv)


def synchronize(dev: torch.device) -> None:
    if dev.type == "cuda":
        torch.cuda.synchronize()


def time_ms(fn: Callable[[], None], dev: torch.device, repeat: int = 5) -> float:
    """Median wall time of `fn` in milliseconds, after one warm-up call (which also compiles)."""
    fn()
    synchronize(dev)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        synchronize(dev)
        samples.append((time.perf_counter() - start) * 1e3)
    samples.sort()
    return samples[len(samples) // 2]


def bench_line(name: str, triton_ms: float, torch_ms: Optional[float], unit_work: str = "") -> str:
    text = f"{name}: triton {triton_ms:.3f} ms"
    if torch_ms is not None:
        text += f", torch {torch_ms:.3f} ms"
    if unit_work:
        text += f" ({unit_work})"
    return text


def max_abs_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    return (a.detach().double().cpu() - b.detach().double().cpu()).abs().max().item()


def report(script: str, ok: bool, detail: str) -> int:
    print(f"{script}: {'OK' if ok else 'FAILED'} {detail}")
    return 0 if ok else 1
