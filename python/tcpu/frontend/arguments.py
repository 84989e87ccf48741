"""What a launch's Python arguments are: each argument's part of the specialization key and what
the launch passes for it (an address, or the number itself), the grid, and an array's extent and
allocation.

A launch looks at each argument once: a classifier chosen by the argument's Python type (a dict
lookup) returns both its part of the key and its launch value."""

from __future__ import annotations

from typing import Any, Callable

from .kernel_def import KernelDef
from .specialize import ArgumentError, arg_key, int_kind, pointer_of

# A classifier: (value, name, specialize, specialize_alignment) -> (key part, launch value).
Classifier = Callable[[Any, str, bool, bool], tuple[Any, Any]]
CLASSIFIERS: dict[type, Classifier] = {}  # by the argument's type, filled as seen
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


def _tuple(value: tuple, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    """A tuple (a NamedTuple, torch.Size): each element specialized as an argument of its own,
    as Triton does; a tl.constexpr or a @jit function in it is compiled in. The key is ("T",
    the NamedTuple class or tuple, the elements' kinds); the launch value is every leaf's
    launch value in order, depth first (None for compiled-in leaves): leaf k is component k."""
    kinds = []
    leaves: list[Any] = []
    for k, v in enumerate(value):
        if type(v).__name__ == "constexpr":
            kinds.append(("c", v.value))
            leaves.append(None)
            continue
        if isinstance(v, KernelDef):  # a @jit function
            kinds.append(("c", v))
            leaves.append(None)
            continue
        kind, lv = classifier(type(v))(v, f"{name}[{k}]", specialize, align)
        if kind[0] == "D":
            raise ArgumentError(f"argument '{name}[{k}]': a tensor descriptor inside a tuple is "
                                "not supported by tcpu yet; pass it as an argument of its own")
        kinds.append(kind)
        if kind[0] == "T":
            leaves.extend(lv)
        else:
            leaves.append(lv)
    cls = type(value) if hasattr(type(value), "_fields") else tuple
    return ("T", cls, tuple(kinds)), tuple(leaves)


def tuple_leaves(value: Any) -> list[Any]:
    """A tuple argument's leaves in component order (see _tuple)."""
    out: list[Any] = []
    for v in value:
        if isinstance(v, tuple):
            out.extend(tuple_leaves(v))
        else:
            out.append(v)
    return out


def component_value(value: Any, component: int) -> Any:
    """The Python value behind one component of an argument: a host tensor descriptor's base
    (its component 0), a tuple's leaf."""
    if isinstance(value, tuple):
        return tuple_leaves(value)[component]
    return value.base


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


def as_annotated(kind: tuple[Any, ...], value: Any, dtype: str, name: str
                 ) -> tuple[tuple[Any, ...], Any]:
    """A scalar argument retyped by its parameter's annotation (KernelDef.annotated_dtypes), as
    Triton does: a float type takes any number (not specialized), an int type an int or bool
    (its divisibility kept); a 1 compiled in stays so. Anything else is refused."""
    tag = kind[0]
    if tag == "c" or tag not in ("i", "f", "b"):
        if tag == "c":
            return kind, value
        raise ArgumentError(f"argument '{name}' is annotated {dtype} but is not a scalar")
    if dtype in ("fp16", "bf16", "fp32", "fp64"):
        return ("s", dtype), float(value)
    if tag == "f":
        raise ArgumentError(f"argument '{name}' is annotated {dtype} but is a float ({value!r})")
    if dtype == "int1":
        return ("b",), bool(value)
    return ("i", dtype, tag == "i" and kind[2]), int(value)


def classifier(t: type) -> Classifier:
    """The classifier for arguments of type `t` (CLASSIFIERS[t] once known)."""
    c = CLASSIFIERS.get(t)
    if c is None:
        if t is bool:
            c = _bool
        elif t is int:
            c = _int
        elif t is float:
            c = _float
        elif t is type(None):
            c = _none
        elif issubclass(t, tuple):
            c = _tuple
        elif t.__module__ == "torch" and t.__name__ in ("Tensor", "Parameter"):
            c = _torch_tensor
        elif t.__name__ == "TensorDescriptor" and t.__module__.endswith("tensor_descriptor"):
            c = _tensor_descriptor
        else:
            c = _generic
        CLASSIFIERS[t] = c
    return c


def classify(value: Any, name: str, specialize: bool, align: bool) -> tuple[Any, Any]:
    """(key part, launch value) of any argument, by its type's classifier."""
    t = type(value)
    return (CLASSIFIERS.get(t) or classifier(t))(value, name, specialize, align)


def grid_dims(grid: Any, arg_names: list[str], values: list[Any], options: dict[str, Any]
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


def extent(value: Any) -> int:
    """Bytes from an array's address to its end; 0 when unknown (not contiguous)."""
    if hasattr(value, "element_size"):  # torch (Tensor.nbytes is 2.1's: not in 1.13)
        return value.numel() * value.element_size() if value.is_contiguous() else 0
    flags = getattr(value, "flags", None)  # numpy
    return value.nbytes if flags is not None and flags.c_contiguous else 0


def allocation(value: Any) -> tuple[int, int] | None:
    """(address, bytes) of the whole allocation an array argument lives in, which a kernel may
    reach through it without fault on a GPU too: a torch tensor's storage, a numpy array's
    base array; None when unknown (other array types)."""
    if hasattr(value, "element_size"):  # torch; untyped_storage is 2.0's, storage() older ones'
        if hasattr(getattr(value, "base", None), "element_size"):
            value = value.base  # a TensorWrapper (triton.reinterpret): its tensor's storage
        s = value.untyped_storage() if hasattr(value, "untyped_storage") else value.storage()
        return s.data_ptr(), s.nbytes()
    if getattr(value, "flags", None) is not None and hasattr(value, "ctypes"):  # numpy
        while getattr(value.base, "ctypes", None) is not None:
            value = value.base
        return value.ctypes.data, value.nbytes
    return None


def is_hashable(v: Any) -> bool:
    try:
        hash(v)
        return True
    except TypeError:
        return False
