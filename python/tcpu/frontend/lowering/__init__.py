"""The lowering walk: one pass over a kernel's AST that resolves names and constexprs,
types every value by Triton's rules and writes typed tl C++.

Compile-time values are plain Python objects (folded as Triton folds constexprs);
run-time values are `Value`s. Each Python assignment names its value in C++ (SSA: a
rebinding is a new name), so tl's lazy expressions never see a name change under them.
Control flow follows Triton: an `if` on a compile-time condition lowers only the taken
branch; a run-time `if` merges the names both branches bind (same dtype and shape, or an
error at the `if`); loops carry the names their body rebinds, with types that may not
change. @jit helpers are inlined, specialized on their arguments.

`Lowerer` is one class composed of the parts below, each a file by job (README.md has the
map); each op's typing and its tl spelling are in ../ops/, which the parts call."""

from __future__ import annotations

from .calls import Calls
from .expressions import Expressions
from .loops import Loops
from .names import Names
from .statements import Statements


class Lowerer(Statements, Loops, Expressions, Names, Calls):
    """Lowers a kernel (and the @jit helpers it calls, inlined): `lower_function` (core.py)."""


__all__ = ["Lowerer"]
