"""The README's first Python example runs as printed (it asserts its own result)."""

from __future__ import annotations

import linecache
import re

from conftest import ROOT


def test_readme_python_example_runs() -> None:
    text = (ROOT / "README.md").read_text()
    match = re.search(r"```python\n(.*?)```", text, re.S)
    assert match, "README.md has no ```python block"
    code = match.group(1)
    assert "@triton.jit" in code and len(code.strip().splitlines()) <= 14
    # Kernels' sources are read back as Python does for code typed into a notebook: from
    # linecache, under the name the code was compiled with.
    name = "<README.md example>"
    linecache.cache[name] = (len(code), None, code.splitlines(keepends=True), name)
    exec(compile(code, name, "exec"), {"__name__": "readme_example"})
