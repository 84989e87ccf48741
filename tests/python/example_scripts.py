"""The tutorial scripts of examples/python, loaded as modules: shared by the tests that run
them (packaging/test_tutorials.py) and the ones that judge their kernels against goldens
(conformance/test_triton_goldens.py)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from conftest import ROOT

EXAMPLES = ROOT / "examples" / "python"
SCRIPTS = sorted(p.stem for p in EXAMPLES.glob("0*.py"))


def load(stem: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{stem}", EXAMPLES / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
