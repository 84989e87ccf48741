#!/usr/bin/env python3
"""Fails when an import inside the tcpu Python package (python/tcpu) crosses its floors the wrong
way, or when imports form a circle.

The floors, lowest first (a module may import its own floor and those below it, never above):
  the extensions and the environment (tcpu._tcpu, tcpu._tcpu_rt, tcpu._environment)
  tcpu.triton.language       the type model: dtypes, constexpr, the builtins' names
  tcpu.frontend              the engine: a KernelDef -> tl C++ -> a compiled kernel -> a launch
  tcpu.triton                the `triton` users import: JITFunction (a façade over KernelDef),
                             autotune, the driver, testing
  the tools on top           tcpu.aliases, tcpu.compile, tcpu.testing, tcpu.pytest_plugin, ...
Inside tcpu.frontend the same, by job (FRONTEND below): the definitions and values every pass
shares; the ops; the lowering; the generator; the build route; the launch.

Every import that runs counts, function-local ones included (an import moved into a function to
dodge a circle is still a circle); imports under `if TYPE_CHECKING:` (annotations only) do not.
  scripts/checks/check-python-layering.py [source-dir]   (default: this checkout)"""

from __future__ import annotations

import ast
import os
import sys

PACKAGE = "tcpu"
EXTENSIONS = ("tcpu._tcpu", "tcpu._tcpu_rt")  # built by CMake (python/src), not in the tree

# Floors of the package, lowest first: module-name prefixes.
FLOORS: list[tuple[str, ...]] = [
    ("tcpu._tcpu", "tcpu._tcpu_rt", "tcpu._environment"),
    ("tcpu.triton.language",),
    ("tcpu.frontend",),
    ("tcpu.triton",),
    ("tcpu",),
]

# Floors inside tcpu.frontend, lowest first (names under tcpu.frontend).
FRONTEND: list[tuple[str, ...]] = [
    ("errors", "source", "specialize", "values", "cpp", "promotion", "emitter", "real_triton",
     "kernel_def", "foreign", "arguments", "compiled"),
    ("ops",),
    ("lowering",),
    ("generate",),
    ("build",),
    ("launcher",),
    ("fast_launch",),
]

# Circles Triton's own API makes, kept on purpose (each with its reason).
ALLOWED_CIRCLES = {
    # driver.active.get_benchmarker() is triton.testing.do_bench, which times through
    # driver.active: Triton's API, pinned by tests/python/frontend/test_driver.py and test_testing.py.
    frozenset({"tcpu.triton.runtime.driver", "tcpu.triton.testing"}),
}


def floor_of(module: str, floors: list[tuple[str, ...]], prefix: str = "") -> int | None:
    """The floor of `module` (the longest prefix wins), or None outside the table."""
    best, best_len = None, -1
    for index, names in enumerate(floors):
        for name in names:
            full = prefix + name
            if (module == full or module.startswith(full + ".")) and len(full) > best_len:
                best, best_len = index, len(full)
    return best


def modules(package_dir: str) -> dict[str, str]:
    """Every module of the package: dotted name -> file."""
    found = {}
    root = os.path.dirname(package_dir)
    for here, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(here, name)
            dotted = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
            if dotted.endswith(".__init__"):
                dotted = dotted[:-len(".__init__")]
            found[dotted] = path
    return found


def _runtime_nodes(tree: ast.AST):
    """Every node that runs: all but the bodies of `if TYPE_CHECKING:` (annotations only)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) \
                == "TYPE_CHECKING":
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))


def imports(module: str, path: str, known: dict[str, str]) -> list[tuple[int, str]]:
    """(line, imported module of the package) for every import statement in the file."""
    is_package = path.endswith("__init__.py")
    package = module if is_package else module.rpartition(".")[0]
    out = []
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                    out.append((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level > 1:
                    base = base[:len(base) - (node.level - 1)]
                base_name = ".".join(base)
                target = f"{base_name}.{node.module}" if node.module else base_name
            else:
                target = node.module or ""
            if not (target == PACKAGE or target.startswith(PACKAGE + ".")):
                continue
            for alias in node.names:  # `from x import y`: y may be a module of its own
                sub = f"{target}.{alias.name}"
                out.append((node.lineno, sub if sub in known else target))
    return out


def check(source_dir: str) -> list[str]:
    package_dir = os.path.join(source_dir, "python", PACKAGE)
    known = modules(package_dir)
    known.update({name: f"<extension {name}>" for name in EXTENSIONS})
    errors = []
    graph: dict[str, set[str]] = {m: set() for m in known}
    for module, path in known.items():
        if module in EXTENSIONS:
            continue
        if floor_of(module, FLOORS) is None:
            errors.append(f"{path}: {module} is in no floor of "
                          "scripts/checks/check-python-layering.py")
            continue
        for line, target in imports(module, path, known):
            if target not in known:
                errors.append(f"{path}:{line}: imports {target}, which is not a module of tcpu")
                continue
            if target == module or module.startswith(target + "."):
                continue  # a package containing the module: imported before it anyway
            graph[module].add(target)
            mine, theirs = floor_of(module, FLOORS), floor_of(target, FLOORS)
            if theirs is not None and mine is not None and theirs > mine:
                errors.append(f"{path}:{line}: {module} imports {target}, a floor above it "
                              f"({FLOORS[theirs][0]} over {FLOORS[mine][0]})")
                continue
            if module.startswith("tcpu.frontend.") and target.startswith("tcpu.frontend."):
                mine = floor_of(module, FRONTEND, "tcpu.frontend.")
                theirs = floor_of(target, FRONTEND, "tcpu.frontend.")
                if mine is None:
                    errors.append(f"{path}: {module} is in no floor of the front end "
                                  "(FRONTEND in scripts/checks/check-python-layering.py)")
                elif theirs is not None and theirs > mine:
                    errors.append(f"{path}:{line}: {module} imports {target}, a floor of the "
                                  f"front end above it ({FRONTEND[theirs][0]} over "
                                  f"{FRONTEND[mine][0]})")
    errors += [f"import circle: {' -> '.join(c)}" for c in circles(graph)
               if frozenset(c) not in ALLOWED_CIRCLES]
    return errors


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle of each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group) + [sorted(group)[0]])

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    source_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    errors = check(source_dir)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        print(f"check-python-layering: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-python-layering: {len(modules(os.path.join(source_dir, 'python', PACKAGE)))} "
          "modules import within their floors, without circles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
