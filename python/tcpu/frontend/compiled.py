"""A compiled specialization: its run-time parameters, the extension's kernel handle, and how
the kernel is launched from Python arguments' launch values (arguments.py).

build/ makes these (compiling, or loading from the disk cache); launcher.py finds them and
launches them; `compiled[grid](*args)` (Triton's CompiledKernel API) launches one directly."""

from __future__ import annotations

import ctypes
import hashlib
import operator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

from .. import _environment as environment
from ..triton.language import core as tl
from .arguments import allocation, classifier, component_value, extent, grid_dims
from .errors import GPU_STAGES, GPUStageUnavailable


def _selector(indices: list[int]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A function picking `indices` of a tuple into a tuple, in one C call where it can."""
    if len(indices) >= 2:
        return operator.itemgetter(*indices)
    if len(indices) == 1:
        only = indices[0]
        return lambda values: (values[only],)
    return lambda values: ()


@dataclass
class Param:
    """A run-time parameter of the compiled kernel."""

    name: str
    index: int  # position among the Python function's parameters
    dtype: tl.dtype  # pointer_type for pointers
    readonly: bool = False
    # Which of the argument's values: a host tensor descriptor's (base, sizes...), a tuple's
    # leaves (arguments.py).
    component: int | None = None

    def record(self) -> dict[str, Any]:
        """As the disk cache keeps it (JSON)."""
        dtype = f"*{self.dtype.element_ty.name}" if self.dtype.is_ptr() else self.dtype.name
        return {"name": self.name, "index": self.index, "dtype": dtype,
                "readonly": self.readonly, "component": self.component}

    @staticmethod
    def from_record(r: dict[str, Any]) -> Param:
        name = r["dtype"]
        dtype = (tl.pointer_type(tl.DTYPES_BY_NAME[name[1:]]) if name.startswith("*")
                 else tl.DTYPES_BY_NAME[name])
        return Param(r["name"], r["index"], dtype, r["readonly"], r["component"])


class KernelAsm(dict):
    """`kernel.asm`: tcpu's C++ under "source"; Triton's GPU stages raise GPUStageUnavailable
    (a KeyError) saying why they are absent, any other name a plain KeyError."""

    def __missing__(self, key: str) -> str:
        if key in GPU_STAGES:
            raise GPUStageUnavailable(key)
        raise KeyError(key)


@dataclass
class CompiledKernel:
    """What a specialization compiled to (also what `kernel.warmup(...)` returns)."""

    name: str
    source: str
    params: list[Param]
    codes: str
    handle: Any = None  # the extension's Kernel
    check_bounds: bool = False  # compiled with bounds checks (debug, or TCPU_CHECK=bounds)
    # Triton's CompiledKernel fields that tools and tutorials read. A CPU program has no
    # register file or shared memory to budget; 1 (not 0) keeps users' occupancy arithmetic
    # (`NUM_REGS // (n_regs * WARP_SIZE * num_warps)`, `SIZE_SMEM // shared`) defined.
    n_regs: int = 1
    n_spills: int = 0
    metadata: Any = field(default_factory=lambda: SimpleNamespace(shared=1, num_warps=1,
                                                                  num_stages=1, num_ctas=1))
    launch_args: Any = None  # (jit, options) the kernel was compiled for
    fp_contract: bool = True  # compiled with FMA contraction (enable_fp_fusion)

    def __post_init__(self) -> None:
        # What every launch reads, computed once.
        self.param_indices = [p.index for p in self.params]
        # TCPU_MEM_GUARD=1: arrays are copied into guarded buffers for each launch (read once
        # per specialization, as the runtime reads it once per process).
        self.guard_arrays = environment.flag("TCPU_MEM_GUARD", False)
        self.param_components = [p.component for p in self.params]
        self.has_components = any(c is not None for c in self.param_components)
        # The pointer parameters as (argument index, descriptor component, written?).
        self.pointer_args = [(p.index, p.component, not p.readonly) for p in self.params
                             if p.dtype.is_ptr()]
        written = [w for _, _, w in self.pointer_args]
        self.check_aliasing = any(written) and not all(written)
        # Launched by fast_launch.py's path (after the aliasing check, where there is one): no
        # check or copy around the launch, every parameter an argument's launch value as it is.
        self.plain = not (self.check_bounds or self.guard_arrays or self.has_components
                          or self.handle is None)
        # The compiled kernel's arguments from the tuple of every argument's launch value.
        self.select = _selector(self.param_indices)

    @property
    def hash(self) -> str:
        """Triton's CompiledKernel.hash: one text per compiled code, here a digest of what
        decides it (the generated C++, its name, the bounds checks and FMA contraction)."""
        text = f"{self.name}\n{self.check_bounds}\n{self.fp_contract}\n{self.source}"
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def asm(self) -> dict[str, str]:
        return KernelAsm(source=self.source)

    def _init_handles(self) -> None:
        """Triton loads the module here; tcpu compiled it already."""

    def __getitem__(self, grid: Any) -> Any:
        """`compiled[grid](*all_args)`: launches this specialization directly (Triton's
        CompiledKernel takes every argument, constexprs included, in order)."""
        return lambda *args: self.launch_with_all_arguments(grid, list(args))

    def arguments(self, launch_values: list[Any]) -> tuple[Any, ...]:
        """The compiled kernel's arguments, from each Python argument's launch value."""
        if not self.has_components:
            return tuple([launch_values[i] for i in self.param_indices])
        return tuple([launch_values[i] if c is None else launch_values[i][c]
                      for i, c in zip(self.param_indices, self.param_components)])

    def reads_overlap_writes(self, values: list[Any], launch_values: list[Any]) -> bool:
        """Whether a pointer the kernel only reads overlaps one it writes (then the lazy reads
        of const pointers could see the kernel's own stores: the launch uses a variant with
        every pointer mutable, which reads at the load, as Triton does). Runs on every launch
        of such a kernel: the addresses are the launch's own, the extents cost a few attribute
        reads."""
        spans = []
        for index, component, written in self.pointer_args:
            value, address = values[index], launch_values[index]
            if component is not None:  # a host tensor descriptor's base, a tuple's leaf
                value, address = component_value(value, component), address[component]
            spans.append((address, extent(value), written))
        for a, an, aw in spans:
            if not aw:
                continue
            for b, bn, bw in spans:
                if bw:
                    continue
                if an == 0 or bn == 0:  # an extent unknown: the same start only
                    if a == b:
                        return True
                elif a < b + bn and b < a + an:
                    return True
        return False

    def launch_checked(self, launch: tuple[int, int, int, int], values: list[Any],
                       launch_values: list[Any]) -> None:
        """Launches a bounds-checked kernel with its arguments' buffers registered for the
        launch: checks know only buffers the runtime knows, and tensors and arrays are not its
        allocations. An access outside them raises tcpu's Error naming the kernel, the program
        and the access."""
        from .. import _tcpu_rt  # loaded by the first launch, not by `import triton`
        registered = []
        try:
            for index, component, _ in self.pointer_args:
                value = (values[index] if component is None
                         else component_value(values[index], component))
                span = allocation(value)
                if span is not None and span[1] > 0 and _tcpu_rt.register_host(*span):
                    registered.append(span[0])
            self.handle.launch(*launch, self.codes, self.arguments(launch_values))
        finally:
            for address in registered:
                _tcpu_rt.unregister_host(address)

    def launch_guarded(self, launch: tuple[int, int, int, int], values: list[Any],
                       launch_values: list[Any]) -> None:
        """TCPU_MEM_GUARD=1: launches on copies of its arrays' whole allocations (a torch
        tensor's storage, a numpy array's base array) in buffers that end at a guard page, and
        copies the written ones back: a store past the end then faults inside the kernel, where
        the crash report names kernel and program, instead of corrupting the heap (which the
        runtime's guard alone cannot do: tensors and arrays are not its allocations).
        Arguments in one allocation share its copy, so views keep their offsets and aliases."""
        from .. import _tcpu_rt  # loaded by the first launch, not by `import triton`
        copies: dict[int, list[Any]] = {}  # allocation's address -> [copy, bytes, written]
        moved = list(launch_values)
        try:
            for index, component, written in self.pointer_args:
                value = (values[index] if component is None
                         else component_value(values[index], component))
                span = allocation(value)
                if span is None or span[1] == 0:
                    continue
                start, size = span
                if start not in copies:
                    copies[start] = [_tcpu_rt.alloc_guarded(size), size, False]
                    ctypes.memmove(copies[start][0], start, size)
                copies[start][2] |= written
                if component is None:
                    moved[index] = copies[start][0] + (launch_values[index] - start)
                else:
                    parts = list(moved[index])
                    parts[component] = copies[start][0] + (parts[component] - start)
                    moved[index] = tuple(parts)
            self.handle.launch(*launch, self.codes, self.arguments(moved))
        finally:
            for start, (copy, size, written) in copies.items():
                if written:  # also after a failed launch: what its programs wrote, as on a GPU
                    ctypes.memmove(start, copy, size)
                _tcpu_rt.free(copy)

    def launch_with_all_arguments(self, grid: Any, values: list[Any]) -> None:
        """Launches this specialization with all of the function's arguments."""
        if self.params and max(self.param_indices) >= len(values):
            raise TypeError(f"{self.name}: expected every argument of the function in order, "
                            f"got {len(values)}")
        launch_values: list[Any] = [None] * len(values)
        for p in self.params:
            v = values[p.index]
            launch_values[p.index] = classifier(type(v))(v, p.name, False, False)[1]
        gx, gy, gz = grid_dims(grid, [], values, {})
        if gx * gy * gz == 0:
            return
        if self.check_bounds:
            self.launch_checked((gx, gy, gz, 0), values, launch_values)
        elif self.guard_arrays:
            self.launch_guarded((gx, gy, gz, 0), values, launch_values)
        else:
            self.handle.launch(gx, gy, gz, 0, self.codes, self.arguments(launch_values))
