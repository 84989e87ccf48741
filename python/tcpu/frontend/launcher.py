"""The launch path: arguments -> specialization key -> compiled kernel -> grid -> launch.

It runs on every launch, so each argument is looked at once: a classifier chosen by the
argument's Python type (a dict lookup) returns both its part of the key and what the launch
passes (an address, or the number itself)."""

from __future__ import annotations

from typing import Any, Callable

from .compiler import CompiledKernel, compile_specialization, load_cached
from .foreign import to_tcpu
from .specialize import ArgumentError, arg_key, int_kind, pointer_of

# A classifier: (value, name, specialize, specialize_alignment) -> (key part, launch value).
Classifier = Callable[[Any, str, bool, bool], tuple[Any, Any]]
_CLASSIFIERS: dict[type, Classifier] = {}
_TORCH_DTYPE_NAMES: dict[Any, str] = {}


def _int(value: int, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    if specialize and value == 1:
        return ("c", 1), None
    if -2**31 <= value < 2**31:
        return ("i", "int32", specialize and value % 16 == 0), value
    return ("i", int_kind(value, name), specialize and value % 16 == 0), value


def _float(value: float, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    return ("f",), value


def _bool(value: bool, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    return ("b",), value


def _none(value: None, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    return ("c", None), None


def _torch_tensor(t: Any, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    dtype = _TORCH_DTYPE_NAMES.get(t.dtype)
    if dtype is None or not t.is_cpu:
        p = pointer_of(t, name)  # raises with the reason
        assert p is not None
        dtype = p.dtype
        _TORCH_DTYPE_NAMES[t.dtype] = dtype
    address = t.data_ptr()
    return ("P", dtype, align and address % 16 == 0), address


def _tensor_descriptor(d: Any, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    """A host TensorDescriptor: its base's dtype and its block shape are the key; its base
    address, sizes and strides are passed."""
    p = pointer_of(d.base, name)
    if p is None:
        raise ArgumentError(f"argument '{name}': the descriptor's base is not a tensor")
    kind = ("D", p.dtype, tuple(int(b) for b in d.block_shape), d.padding)
    return kind, (p.address, *(int(x) for x in d.shape), *(int(x) for x in d.strides))


def _generic(value: Any, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    """Anything else: arrays (the array interface, __dlpack__), numpy scalars, ..."""
    kind = arg_key(value, name, specialize, align)
    if kind[0] == "P":
        p = pointer_of(value, name)
        assert p is not None
        return kind, p.address
    if kind[0] == "c":
        return kind, None
    if kind[0] == "i":
        return kind, int(value.__index__() if hasattr(value, "__index__") else value.item())
    return kind, value.item() if hasattr(value, "item") else value


def _classifier(t: type) -> Classifier:
    c = _CLASSIFIERS.get(t)
    if c is None:
        if t is bool:
            c = _bool
        elif t is int:
            c = _int
        elif t is float:
            c = _float
        elif t is type(None):
            c = _none
        elif t.__module__ == "torch" and t.__name__ in ("Tensor", "Parameter"):
            c = _torch_tensor
        elif t.__name__ == "TensorDescriptor" and t.__module__.endswith("tensor_descriptor"):
            c = _tensor_descriptor
        else:
            c = _generic
        _CLASSIFIERS[t] = c
    return c


def _grid(grid: Any, arg_names: list[str], values: list[Any], options: dict[str, Any]
          ) -> tuple[int, int, int]:
    """The grid's three dimensions, checked; a callable grid gets the bound arguments."""
    if callable(grid):
        meta = dict(zip(arg_names, values))
        meta.update(options)
        grid = grid(meta)
    if isinstance(grid, int):
        grid = (grid,)
    if not isinstance(grid, (tuple, list)) or not 1 <= len(grid) <= 3:
        raise ValueError(f"grid must be a tuple of 1 to 3 ints (or a callable returning one), "
                         f"got {grid!r}")
    dims = []
    for i, g in enumerate(grid):
        if type(g) is not int:
            try:
                g = int(g.__index__())
            except AttributeError:
                raise ValueError(f"grid[{i}] must be an int, got {g!r}") from None
        if g < 0 or g >= 2**31:
            raise ValueError(f"grid[{i}] = {g} is out of range [0, 2**31)")
        dims.append(g)
    while len(dims) < 3:
        dims.append(1)
    return dims[0], dims[1], dims[2]


def _extent(value: Any) -> int:
    """Bytes from an array's address to its end; 0 when unknown (not contiguous)."""
    if hasattr(value, "element_size"):  # torch
        return value.numel() * value.element_size() if value.is_contiguous() else 0
    flags = getattr(value, "flags", None)  # numpy
    return value.nbytes if flags is not None and flags.c_contiguous else 0


def _overlaps(kernel: CompiledKernel, values: list[Any], launch_values: list[Any]) -> bool:
    """Whether a pointer the kernel only reads overlaps one it writes (then the lazy reads of
    const pointers could see the kernel's own stores: the launch uses a variant with every
    pointer mutable, which reads at the load, as Triton does). Runs on every launch of such a
    kernel: the addresses are the launch's own, the extents cost a few attribute reads."""
    spans = []
    for index, component, written in kernel.pointer_args:
        value, address = values[index], launch_values[index]
        if component is not None:  # a host tensor descriptor's base
            value, address = value.base, address[0]
        spans.append((address, _extent(value), written))
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


def launch(jit: Any, values: list[Any], grid: Any, options: dict[str, Any], warmup: bool) -> Any:
    names = jit.arg_names
    constexpr_names = jit.constexpr_names
    no_spec, no_align = jit._no_spec, jit._no_align
    foreign = jit._foreign  # decorated by a real Triton: its constexprs may be real dtypes
    kinds = []
    launch_values = []
    for i, v in enumerate(values):
        name = names[i]
        if name in constexpr_names:
            if type(v).__name__ == "constexpr":
                v = v.value
            if foreign:
                v = to_tcpu(v)
            kinds.append(("c", v))
            launch_values.append(None)
            continue
        classify = _CLASSIFIERS.get(type(v)) or _classifier(type(v))
        try:
            kind, lv = classify(v, name, i not in no_spec, i not in no_align)
        except ArgumentError as e:
            raise TypeError(f"{jit.__name__}: {e}") from None
        kinds.append(kind)
        launch_values.append(lv)
    # debug (TRITON_DEBUG) compiles every kernel bounds-checked, not only those that assert.
    debug = jit.debug_enabled(options)
    key = (tuple(kinds), debug)
    try:
        kernel = jit._kernels.get(key)
    except TypeError:
        bad = next(n for n, k in zip(names, kinds) if k[0] == "c" and not _hashable(k[1]))
        raise TypeError(f"{jit.__name__}: constexpr argument '{bad}' must be hashable") from None
    if kernel is None:
        kernel = _compile(jit, key, kinds, debug, all_mutable=False)
    if kernel.check_aliasing and _overlaps(kernel, values, launch_values):
        alias_key = key + ("aliased",)
        kernel = jit._kernels.get(alias_key) or _compile(jit, alias_key, kinds, debug, True)
    if warmup:
        return kernel
    if type(grid) is tuple and len(grid) == 1 and type(grid[0]) is int and 0 <= grid[0] < 2**31:
        gx, gy, gz = grid[0], 1, 1
    else:
        gx, gy, gz = _grid(grid, jit.arg_names, values, options)
    if gx * gy * gz == 0:
        return kernel
    threads = (options.get("num_threads") or options.get("num_cpu_threads") or 0) if options else 0
    if kernel.check_bounds:
        _launch_checked(kernel, (gx, gy, gz, threads), values, launch_values)
    else:
        kernel.handle.launch(gx, gy, gz, threads, kernel.codes, _arguments(kernel, launch_values))
    return kernel


def _buffer(value: Any) -> tuple[int, int] | None:
    """(address, bytes) of the whole allocation an array argument lives in, which a kernel may
    reach through it without fault on a GPU too: a torch tensor's storage, a numpy array's
    base array; None when unknown (other array types)."""
    if hasattr(value, "element_size"):  # torch; untyped_storage is 2.0's, storage() older ones'
        s = value.untyped_storage() if hasattr(value, "untyped_storage") else value.storage()
        return s.data_ptr(), s.nbytes()
    if getattr(value, "flags", None) is not None and hasattr(value, "ctypes"):  # numpy
        while getattr(value.base, "ctypes", None) is not None:
            value = value.base
        return value.ctypes.data, value.nbytes
    return None


def _launch_checked(kernel: CompiledKernel, launch: tuple[int, int, int, int], values: list[Any],
                    launch_values: list[Any]) -> None:
    """Launches a bounds-checked kernel with its arguments' buffers registered for the launch:
    checks know only buffers the runtime knows, and tensors and arrays are not its allocations.
    An access outside them raises tcpu's Error naming the kernel, the program and the access."""
    from .. import _tcpu_rt
    registered = []
    try:
        for index, component, _ in kernel.pointer_args:
            value = values[index] if component is None else values[index].base
            span = _buffer(value)
            if span is not None and span[1] > 0 and _tcpu_rt.register_host(*span):
                registered.append(span[0])
        kernel.handle.launch(*launch, kernel.codes, _arguments(kernel, launch_values))
    finally:
        for address in registered:
            _tcpu_rt.unregister_host(address)


def _arguments(kernel: CompiledKernel, launch_values: list[Any]) -> tuple[Any, ...]:
    """The compiled kernel's arguments, from each Python argument's launch value."""
    if not kernel.has_components:
        return tuple([launch_values[i] for i in kernel.param_indices])
    return tuple([launch_values[i] if c is None else launch_values[i][c]
                  for i, c in zip(kernel.param_indices, kernel.param_components)])


def _hashable(v: Any) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False


def _compile(jit: Any, key: Any, kinds: list[Any], debug: bool, all_mutable: bool
             ) -> CompiledKernel:
    kernel, cache_name = load_cached(jit, kinds, debug, all_mutable)
    if kernel is None:
        constexprs = {n: k[1] for n, k in zip(jit.arg_names, kinds) if k[0] == "c"}
        kernel = compile_specialization(jit, kinds, constexprs, debug, all_mutable=all_mutable,
                                        cache_name=cache_name)
    jit._kernels[key] = kernel
    return kernel


def launch_compiled(kernel: CompiledKernel, grid: Any, values: list[Any]) -> None:
    """Launches a compiled specialization with all of the function's arguments."""
    if kernel.params and max(kernel.param_indices) >= len(values):
        raise TypeError(f"{kernel.name}: expected every argument of the function in order, got "
                        f"{len(values)}")
    launch_values: list[Any] = [None] * len(values)
    for p in kernel.params:
        v = values[p.index]
        launch_values[p.index] = _classifier(type(v))(v, p.name, False, False)[1]
    gx, gy, gz = _grid(grid, [], values, {})
    if gx * gy * gz == 0:
        return
    if kernel.check_bounds:
        _launch_checked(kernel, (gx, gy, gz, 0), values, launch_values)
    else:
        kernel.handle.launch(gx, gy, gz, 0, kernel.codes, _arguments(kernel, launch_values))
