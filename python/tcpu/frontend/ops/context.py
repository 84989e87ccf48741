"""What ops see of the lowering: the emitter, errors at the current call's line, and
conversions between compile-time and run-time values."""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING, Any

from ...triton.language import core as tl
from .. import cpp
from ..errors import CompilationError, UnsupportedError
from ..promotion import literal_dtype
from ..values import Value, is_number, unwrap

if TYPE_CHECKING:
    from ..emitter import Emitter


_TL_NAMES = {"fp8e5": "float8e5", "fp8e4nv": "float8e4nv", "fp8e4b15": "float8e4b15",
             "fp8e4b8": "float8e4b8", "fp8e5b16": "float8e5b16"}


class BuiltinError(ValueError):
    """What a builtin found wrong: the cause of the CompilationError at its call (Triton's
    builtins raise ValueError for most wrong arguments)."""


class OpContext:
    def __init__(self, emitter: "Emitter", node: ast.AST, error_at: Any, lowerer: Any) -> None:
        self.emit = emitter
        self.node = node
        self._error_at = error_at
        self.lowerer = lowerer

    def error(self, message: str, cls: type[CompilationError] = CompilationError
              ) -> CompilationError:
        err = self._error_at(self.node, message, cls)
        # Triton raises a builtin's own error `from` the CompilationError at the call, and its
        # tests read what is wrong there (`str(e.value.__cause__)`).
        err.__cause__ = BuiltinError(message)
        return err

    def unsupported(self, message: str) -> CompilationError:
        return self.error(message, UnsupportedError)

    def warn(self, message: str) -> None:
        """A UserWarning at the call's line of the kernel (what Triton warns about while
        compiling)."""
        loc = self.lowerer.frame.source.location(self.node)
        warnings.warn_explicit(message, UserWarning, loc.filename, loc.line)

    def const(self, x: Any, what: str) -> Any:
        """x's compile-time value; an error naming `what` if x is known only at run time."""
        if isinstance(x, Value):
            raise self.error(f"{what} must be a compile-time constant (tl.constexpr), "
                             f"got a run-time {x.type_text()}")
        return unwrap(x)

    def value(self, x: Any, dtype: tl.dtype | None = None) -> Value:
        """x as a run-time value: numbers become constants of their Triton dtype (or `dtype`)."""
        x = unwrap(x)
        if isinstance(x, Value):
            return x
        if is_number(x):
            d = dtype or literal_dtype(x)
            return Value(cpp.literal(x, d), d)
        raise self.error(f"expected a tensor or a number, got {type(x).__name__} {x!r}")

    def bind(self, hint: str, expr: str, dtype: tl.dtype, shape: tuple[int, ...] = (),
             roots: frozenset[str] = frozenset()) -> Value:
        return Value(self.emit.bind(hint, expr), dtype, tuple(shape), roots)

    def computable(self, v: Value, what: str) -> Value:
        """v, if Triton computes with its dtype (check_computes)."""
        self.check_computes(v.dtype, what)
        return v

    def check_computes(self, dtype: tl.dtype, what: str) -> None:
        """fp8 values are only loaded, stored, converted and passed to dot: Triton 3.6 types
        fp8 arithmetic, comparisons and reductions but cannot compile them for NVIDIA GPUs
        (measured on an H200), so tcpu refuses them when it types them."""
        if dtype.is_fp8():
            raise self.error(f"{what} on {dtype}: Triton cannot compute in fp8 (only loads, "
                             "stores, conversions and tl.dot take it); convert with "
                             ".to(tl.float32) or .to(tl.float16) first")

    def check_constant(self, value: Any, dtype: tl.dtype) -> None:
        """Triton makes a constant of a dtype with builder.get_<dtype>, which Triton 3.6 lacks
        for fp8: only 0 (its null value) is an fp8 constant (measured on an H200)."""
        if dtype.is_fp8() and value != 0:
            raise self.error(f"the constant {value!r} of dtype {dtype}: Triton has no fp8 "
                             f"constants other than 0; make it in tl.float32 and convert it "
                             f"with .to(tl.{_TL_NAMES.get(dtype.name, dtype.name)})")

    def dtype_arg(self, x: Any, what: str) -> tl.dtype:
        d = self.const(x, what)
        if not isinstance(d, tl.dtype):
            raise self.error(f"{what} must be a dtype, got {d!r}")
        return d


__all__ = ["BuiltinError", "OpContext", "UnsupportedError"]
