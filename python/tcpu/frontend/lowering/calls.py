"""Calls: the arguments (`*` over compile-time tuples), then by what is called: a tensor's method
(x.sum, x.to), a @jit helper (inlined, specialized on its arguments), a triton.language builtin
(its op in ops/, arguments checked against its signature), print, min and max (elementwise on
run-time values), isinstance on a tensor, or any other Python callable on compile-time values.
`combine_lambda` makes a reduction's or scan's combine_fn a C++ lambda."""

from __future__ import annotations

import ast
import builtins
import inspect
from dataclasses import dataclass
from typing import Any

from ...triton.language import core as tlc
from .. import cpp
from ..errors import CompilationError, UnsupportedError
from ..kernel_def import KernelDef, capture_scope
from ..ops import OPS
from ..ops.arith import convert
from ..ops.descriptors import TensorDescriptor
from ..values import Value, unwrap
from .core import LowererCore


@dataclass(frozen=True)
class BoundMethod:
    """`x.sum` before the call: a builtin with its first argument bound."""

    name: str  # the builtin's name ("cast" for `x.to`)
    self_value: Any  # a Value, or a TensorDescriptor


class Calls(LowererCore):
    """`_expr_Call`, `call`, the inlining of @jit helpers and `combine_lambda`."""

    def _expr_Call(self, node: ast.Call) -> Any:
        fn = unwrap(self._expr(node.func))
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                seq = unwrap(self._expr(a.value))
                if not isinstance(seq, (tuple, list)):
                    raise self.error(a, "only compile-time tuples can be unpacked with *")
                args.extend(seq)
            else:
                args.append(self._expr(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise self.error(node, "**kwargs in a call is not supported in kernels")
            kwargs[k.arg] = self._expr(k.value)
        note = getattr(fn, "_must_use_result", False)
        if note and id(node) in self.unused_calls:  # Triton's must_use_result
            raise self.error(node, f"The result of {ast.unparse(node.func)} is not being used."
                             + (f" {note}" if isinstance(note, str) else ""))
        return self.call(fn, args, kwargs, node)

    def call(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        if isinstance(fn, BoundMethod):
            return self._builtin(fn.name, [fn.self_value, *args], kwargs, node)
        if isinstance(fn, KernelDef):
            return self.inline(fn, args, kwargs, node)
        builtin_name = getattr(fn, tlc.BUILTIN_ATTR, None)
        if builtin_name is not None:
            return self._builtin(builtin_name, args, kwargs, node)
        if fn is builtins.print:
            return self._builtin("device_print", [str(args[0]) if args and isinstance(
                unwrap(args[0]), str) else "", *(args[1:] if args and isinstance(
                    unwrap(args[0]), str) else args)], {}, node)
        if fn in (builtins.min, builtins.max):
            return self._min_max(fn, args, node)
        if fn is tlc.constexpr:
            return unwrap(args[0]) if args else None
        if fn is builtins.isinstance and len(args) == 2 and isinstance(
                unwrap(args[0]), (Value, TensorDescriptor)):
            # A run-time value is a tl.tensor, a descriptor a tl.tensor_descriptor (and
            # nothing else a kernel can name).
            classes = unwrap(args[1])
            classes = classes if isinstance(classes, tuple) else (classes,)
            kind = tlc.tensor if isinstance(unwrap(args[0]), Value) else tlc.tensor_descriptor
            return any(c is kind for c in classes)
        if fn is builtins.hasattr and len(args) == 2 and isinstance(unwrap(args[0]), Value):
            # Triton calls Python's hasattr on its tl.tensor: a block's attributes are known.
            return self.tensor_has_attribute(unwrap(args[1]))
        if isinstance(fn, type) and issubclass(fn, tuple) and hasattr(fn, "_fields"):
            # A NamedTuple holds run-time values as a tuple does (Triton's tl.tuple with names).
            return fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
        if any(isinstance(unwrap(a), Value) for a in [*args, *kwargs.values()]):
            raise self.error(node, f"cannot call {getattr(fn, '__name__', fn)!r} with run-time "
                             "values (only @jit functions and triton.language builtins can be)")
        try:
            return fn(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
        except CompilationError:
            raise
        except Exception as e:  # a compile-time Python call failed: point at the kernel line
            raise self.error(node, f"{getattr(fn, '__name__', fn)}(...) raised "
                             f"{type(e).__name__}: {e}") from None

    def _min_max(self, fn: Any, args: list[Any], node: ast.AST) -> Any:
        vals = [unwrap(a) for a in args]
        if len(vals) == 1 and isinstance(vals[0], (tuple, list)):
            vals = list(vals[0])
        if not any(isinstance(v, Value) for v in vals):
            return fn(*vals)
        name = "minimum" if fn is builtins.min else "maximum"
        result = vals[0]
        for v in vals[1:]:
            result = self._builtin(name, [result, v], {}, node)
        return result

    def _builtin(self, name: str, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        impl = OPS.get(name)
        if impl is None:
            what = name if "." in name else f"tl.{name}"
            raise self.error(node, f"{what} is not supported by tcpu yet", UnsupportedError)
        try:
            sig = inspect.signature(impl)
            sig.bind(None, *args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{name}(): {e}") from None
        return impl(self.cx(node), *args, **kwargs)

    # --- @jit helpers ---------------------------------------------------------------------
    def inline(self, fn: Any, args: list[Any], kwargs: dict[str, Any], node: ast.AST) -> Any:
        source = fn.source()
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{fn.__name__}(): {e}") from None
        bound.apply_defaults()
        if fn.noinline:  # as Triton's _check_fn_args: a noinline function takes no blocks
            for name, value in bound.arguments.items():
                value = unwrap(value)
                if isinstance(value, Value) and value.shape:
                    raise self.error(node, f"Function {fn.__name__} is marked noinline, but was "
                                     f"called with non-scalar argument {name}:"
                                     f"{value.type_text()}")
        # A helper's `tl.constexpr` annotations decide nothing: as in Triton's call_JitFunction,
        # what is compile-time is what the caller passes (a tensor given to an annotated
        # parameter is a tensor there; tutorial 06 passes offs_m so).
        bindings = {k: unwrap(v) for k, v in bound.arguments.items()}
        try:
            return self.lower_function(source, capture_scope(fn.fn), bindings, is_kernel=False)
        except CompilationError as e:
            # As Triton does: an error in the callee is the cause of one at the call, so the
            # message shows both places (the helper's line, then where the kernel calls it).
            raise self.error(node, e.error_message, type(e)) from e

    def combine_lambda(self, node: ast.AST, fn: Any, dtypes: list[tlc.dtype]
                       ) -> tuple[str, list[tlc.dtype]]:
        """A @jit combine_fn as a C++ lambda over scalars of `dtypes`, its results converted to
        the dtypes of its first parameters (a reduction's accumulators keep their type)."""
        return self.scalar_lambda(node, fn, dtypes, "combine_fn", convert_results=True)

    def scalar_lambda(self, node: ast.AST, fn: Any, dtypes: list[tlc.dtype], what: str,
                      convert_results: bool) -> tuple[str, list[tlc.dtype]]:
        """A @jit function as a C++ lambda over scalars of `dtypes`, returning its result (a
        pair or a std::tuple for several) and their dtypes: those of the first parameters when
        `convert_results`, else the function's own."""
        fn = unwrap(fn)
        if not isinstance(fn, KernelDef):
            raise self.error(node, f"{what} must be a @triton.jit function")
        params = [self.emit.fresh("arg") for _ in dtypes]
        values = [Value(p, d) for p, d in zip(params, dtypes)]
        with self.emit.capture() as lines:
            result = unwrap(self.inline(fn, values, {}, node))
            outs = result if isinstance(result, tuple) else (result,)
            outs = tuple(self.cx(node).value(o) for o in outs)
            for o in outs:
                if o.shape:
                    raise self.error(node, f"{what} must return scalars")
            targets = list(dtypes[:len(outs)]) if convert_results else [o.dtype for o in outs]
            exprs = [convert(o, d).expr for o, d in zip(outs, targets)]
            if len(outs) == 1:
                ret = exprs[0]
            else:
                ret = ("std::make_pair(" if len(outs) == 2 else "std::make_tuple(") + ", ".join(
                    exprs) + ")"
            self.emit.line(f"return {ret};")
        head = ", ".join(f"{cpp.ctype(d)} {p}" for p, d in zip(params, dtypes))
        body = "\n".join(l for l in lines)
        return f"[&]({head}) {{\n{body}\n{'  ' * self.emit.depth}}}", [o.dtype for o in outs]
