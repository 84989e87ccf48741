"""`python3 -m tcpu.compile kernel.py --kernel-name NAME --signature SIG --grid GRID ...`:
Triton's tools/compile.py for the CPU. A `@triton.jit` kernel becomes what `tcpu compile`
makes of a C++ kernel: a header and an object holding the kernel and a typed launcher that
links against libtcpu_runtime alone (no Python, no LLVM at run time); `tcpu link` makes the
dispatcher over several of them.

The signature is Triton's, one entry per kernel argument ("*fp32:16", "i32", "i32:1", or a
value for a constexpr). The front end writes the specialization's `tl` C++ (constexprs and
arguments equal to 1 compiled in, hints as assumptions), and `tcpu compile` compiles it with
the same signature. --num-warps and --num-stages (Triton's defaults 1 and 3) change nothing on
the CPU but enter the name hash as in Triton, so the launcher and file names are Triton's."""

from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any

_SCALAR_INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}


class SignatureError(ValueError):
    pass


def _value(text: str) -> Any:
    """A constexpr entry's value, as compile.py reads it (int, float, or True/False)."""
    if text in ("True", "False"):
        return text == "True"
    for parse in (int, float):
        try:
            return parse(text)
        except ValueError:
            pass
    raise SignatureError(f"'{text}' is neither a type nor a value")


def specialization(signature: str, arg_names: list[str], constexpr_names: set[str]
                   ) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
    """The front end's key kinds and constexpr values for a Triton signature."""
    from . import triton  # noqa: F401  (loads tcpu.frontend in the order its imports need)
    from .frontend.specialize import SIGNATURE_DTYPES
    entries = [e.strip() for e in signature.split(",")]
    if len(entries) != len(arg_names):
        raise SignatureError(f"{len(entries)} entries for {len(arg_names)} kernel arguments "
                             f"({', '.join(arg_names)})")
    kinds: list[tuple[Any, ...]] = []
    constexprs: dict[str, Any] = {}
    for name, entry in zip(arg_names, entries):
        text, _, hint = entry.partition(":")
        pointer = text.startswith("*")
        dtype = SIGNATURE_DTYPES.get(text.lstrip("*").removeprefix("k") if pointer else text)
        if dtype is None:
            constexprs[name] = _value(entry)
            kinds.append(("c", constexprs[name]))
            continue
        if name in constexpr_names:
            raise SignatureError(f"argument '{name}' is a tl.constexpr: its entry must be a "
                                 f"value, got '{entry}'")
        if hint not in ("", "1", "16"):
            raise SignatureError(f"'{entry}': the hint must be 16 or 1, got '{hint}'")
        if pointer:
            if hint == "1":
                raise SignatureError(f"'{entry}': a pointer cannot be equal to 1")
            kinds.append(("P", dtype, hint == "16"))
        elif hint == "1":
            constexprs[name] = 1
            kinds.append(("c", 1))
        elif dtype in _SCALAR_INTS:
            kinds.append(("i", dtype, hint == "16"))
        elif dtype == "fp32":
            kinds.append(("f",))
        elif dtype == "int1":
            kinds.append(("b",))
        else:
            raise SignatureError(f"'{entry}': {dtype} scalar arguments are not supported yet "
                                 "(Python floats are fp32 in Triton)")
    return kinds, constexprs


def tcpu_tool() -> pathlib.Path:
    """The `tcpu` executable beside this package: <build>/tools/tcpu in a build tree,
    <package>/bin/tcpu when pip installed it, <prefix>/bin/tcpu when `cmake --install` did;
    TCPU_CLI overrides."""
    if os.environ.get("TCPU_CLI"):
        return pathlib.Path(os.environ["TCPU_CLI"])
    here = pathlib.Path(os.path.abspath(__file__)).parent  # not resolved: build trees link
    for folder in (here, *here.parents):
        for candidate in (folder / "tools" / "tcpu", folder / "bin" / "tcpu"):
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    raise FileNotFoundError("the tcpu tool was not found beside the package (set TCPU_CLI)")


def _load_kernel(path: pathlib.Path, name: str) -> Any:
    from . import aliases

    aliases.install()  # `import triton` in the kernel's file is tcpu's
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    kernel = getattr(module, name, None)
    while kernel is not None and not hasattr(kernel, "arg_names") and hasattr(kernel, "fn"):
        kernel = kernel.fn  # autotune / heuristics wrappers
    if kernel is None or not hasattr(kernel, "arg_names"):
        raise LookupError(f"--kernel-name '{name}' is not a @triton.jit function of {path}")
    return kernel


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python3 -m tcpu.compile", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("path", type=pathlib.Path, help="the Python file defining the kernel")
    p.add_argument("--kernel-name", "-n", required=True, help="the @triton.jit function")
    p.add_argument("--signature", "-s", required=True,
                   help='Triton signature, e.g. "*fp32:16, *fp32:16, *fp32:16, i32, 1024"')
    p.add_argument("--grid", "-g", required=True,
                   help='three C expressions over the arguments, e.g. "(n+1023)/1024,1,1"')
    p.add_argument("--num-warps", "-w", type=int, default=1, help="Triton's (names only)")
    p.add_argument("--num-stages", "-ns", type=int, default=3, help="Triton's (names only)")
    p.add_argument("--out-name", "-on", help="launcher name prefix (default: the kernel name)")
    p.add_argument("--out-path", "-o", type=pathlib.Path,
                   help="output path prefix (default: the out name, in this folder)")
    p.add_argument("--target", help="LLVM CPU to compile for (default: this host's)")
    p.add_argument("--num-threads", type=int, help="worker threads per launch (default: the "
                   "runtime's setting)")
    p.add_argument("--print-outputs", action="store_true",
                   help="print the header and object paths and write nothing")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    out_name = args.out_name or args.kernel_name
    tool = tcpu_tool()

    def tcpu_compile(source: pathlib.Path, kernel_name: str, *extra: str) -> int:
        command = [str(tool), "compile", str(source), "--kernel-name", kernel_name,
                   "--signature", args.signature, "--grid", args.grid, "--out-name", out_name,
                   "--out-path", str(args.out_path or out_name), "--num-warps",
                   str(args.num_warps), "--num-stages", str(args.num_stages)]
        if args.target:
            command += ["--target", args.target]
        if args.num_threads is not None:
            command += ["--num-threads", str(args.num_threads)]
        return subprocess.run(command + list(extra)).returncode

    if args.print_outputs:  # names only: the kernel is not read
        return tcpu_compile(args.path, args.kernel_name, "--print-outputs")
    from .frontend.generate import generate
    from .frontend.errors import CompilationError

    try:
        kernel = _load_kernel(args.path, args.kernel_name)
        kinds, constexprs = specialization(args.signature, kernel.arg_names,
                                           kernel.constexpr_names)
        text, abi_name, _, _ = generate(kernel, kinds, constexprs, debug=False,
                                        all_mutable=False)
    except SignatureError as e:
        print(f"python3 -m tcpu.compile: --signature \"{args.signature}\": {e}", file=sys.stderr)
        return 2
    except (LookupError, ImportError) as e:
        print(f"python3 -m tcpu.compile: {e}", file=sys.stderr)
        return 2
    except CompilationError as e:
        print(f"python3 -m tcpu.compile: {e}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="tcpu-compile-") as folder:
        source = pathlib.Path(folder) / f"{args.path.stem}.{args.kernel_name}.cpp"
        source.write_text(text)
        return tcpu_compile(source, abi_name)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
