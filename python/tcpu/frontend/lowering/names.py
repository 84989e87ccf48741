"""Names and attributes: a name is the function's own binding, else a global of its module (only
tl.constexpr values, dtypes, modules and @jit functions, recorded for the disk cache's check),
else a Python builtin; an attribute of a tensor (dtype, shape, T, its methods), of a tensor
descriptor, or of a compile-time object (a module's attributes recorded as its globals are)."""

from __future__ import annotations

import ast
import builtins
import types
from typing import Any

from ...triton.language import core as tlc
from ..foreign import to_tcpu
from ..kernel_def import KernelDef
from ..ops import OPS
from ..ops.arith import convert
from ..ops.descriptors import TensorDescriptor
from ..ops.memory import BlockPointer
from ..values import Value, unwrap
from .calls import BoundMethod
from .core import LowererCore

# Methods of blocks that forward to builtins (Triton's _tensor_member_fn and tl.tensor's own):
# `x.sum(axis)` is `tl.sum(x, axis)`; `x.to(d)` is `tl.cast(x, d)`.
TENSOR_METHODS = frozenset("""sum max min argmax argmin xor_sum reduce_or reduce associative_scan
cumsum cumprod sort flip reshape view ravel trans permute broadcast_to expand_dims split gather exp
exp2 log log2 cos sin sqrt sqrt_rn rsqrt abs erf floor ceil sigmoid softmax histogram cdiv to cast
item store atomic_add atomic_and atomic_cas atomic_max atomic_min atomic_or atomic_xchg
atomic_xor""".split())
# A tensor's attributes that are values, not methods.
TENSOR_PROPERTIES = frozenset(("dtype", "shape", "T", "type", "numel"))


def _is_constexpr_value(x: Any) -> bool:
    """Whether Triton holds x as a tl.constexpr in a kernel: numbers, strings, None and tuples
    of them (a tuple of run-time values is a tl.tuple there)."""
    if isinstance(x, tuple):
        return all(_is_constexpr_value(unwrap(v)) for v in x)
    return x is None or isinstance(x, (bool, int, float, str))


def method_builtin(name: str) -> str:
    """The builtin a tensor method forwards to."""
    return "cast" if name == "to" else name


class Names(LowererCore):
    """`_expr_Name` and `_expr_Attribute`, and how a global is read."""

    def tensor_has_attribute(self, attr: str) -> bool:
        """`hasattr(x, attr)` for a run-time value x: what `x.attr` below resolves."""
        return attr in TENSOR_PROPERTIES or attr in TENSOR_METHODS

    def _expr_Name(self, node: ast.Name) -> Any:
        return self._name(node.id, node)

    def _name(self, name: str, node: ast.AST) -> Any:
        frame = self.frame
        if name in frame.scope:
            return frame.scope[name]
        if name in frame.globals:
            value = frame.globals[name]
            self.reads.record(frame.source.fn, name, value)
            return self._global(name, value, node)
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(node, f"name '{name}' is not defined")

    def _global(self, name: str, value: Any, node: ast.AST) -> Any:
        value = to_tcpu(value)  # a kernel of a real Triton's module: its objects as tcpu's
        if isinstance(value, tlc.constexpr):
            return value.value
        if isinstance(value, (types.ModuleType, tlc.dtype, KernelDef)) or value is None:
            return value
        if callable(value) and (getattr(value, tlc.BUILTIN_ATTR, None) or isinstance(value, type)):
            return value
        if callable(value) and getattr(value, "__module__", "").startswith(("tcpu.", "triton")):
            return value
        if isinstance(value, (bool, int, float, str, tuple)) and name.isupper():
            # Triton 3.6 refuses non-constexpr globals; it tolerates none. We name the fix.
            raise self.error(node, f"Cannot access global variable {name} from within a @jit "
                             "function: Triton kernels can only read globals that are "
                             f"tl.constexpr (write `{name} = tl.constexpr({value!r})`)")
        if callable(value):
            return value
        raise self.error(node, f"Cannot access global variable {name} ({type(value).__name__}) "
                         "from within a @jit function: only tl.constexpr values, dtypes, "
                         "modules and @jit functions are allowed")

    def _expr_Attribute(self, node: ast.Attribute) -> Any:
        base = unwrap(self._expr(node.value))
        attr = node.attr
        if isinstance(base, Value):
            if attr == "dtype":
                return base.dtype
            if attr == "shape":
                return tuple(base.shape)
            if attr == "T":
                return OPS["trans"](self.cx(node), base)
            if attr == "type":
                return tlc.block_type(base.dtype, list(base.shape)) if base.shape else base.dtype
            if attr == "numel":
                return base.numel
            if attr in TENSOR_METHODS:
                return BoundMethod(method_builtin(attr), base)
            raise self.error(node, f"a tensor has no attribute '{attr}'")
        if isinstance(base, BlockPointer):
            raise self.error(node, f"a block pointer has no attribute '{attr}'")
        if isinstance(base, TensorDescriptor):
            if "descriptor." + attr in OPS:  # load, store, gather, scatter, atomic_*
                return BoundMethod("descriptor." + attr, base)
            if attr in ("block_shape", "dtype"):
                return getattr(base, attr)
            if attr == "shape":  # Triton's descriptor shape is int32, its strides int64
                return tuple(convert(unwrap(d), tlc.int32) for d in base.shape)
            if attr == "strides":
                return tuple(base.strides)
            raise self.error(node, f"a tensor descriptor has no attribute '{attr}' on the CPU")
        if attr in ("type", "value") and _is_constexpr_value(base) and not hasattr(base, attr):
            # Compile-time values are held unwrapped; in Triton they are tl.constexpr objects,
            # whose `type` is a constexpr_type of the value and whose `value` is the value.
            return tlc.constexpr_type(base) if attr == "type" else base
        try:
            value = getattr(base, attr)
            if (isinstance(base, types.ModuleType)
                    and not base.__name__.startswith(("tcpu.", "triton"))):
                self.reads.record(self.frame.source.fn, f"module:{base.__name__}.{attr}", value)
            return to_tcpu(value)
        except AttributeError:
            raise self.error(node, f"{self.describe(base)} has no attribute '{attr}'") from None
