"""pytest setup for tcpu's Python tests.

`import triton` in these tests is tcpu's (tcpu.aliases) and the `device` fixture is "cpu".
With TCPU_TEST_REAL_TRITON=1 (on a GPU machine with Triton installed) the same tests run
against real Triton on "cuda": that is how the tests themselves are checked against Triton's
semantics."""

from __future__ import annotations

import os
import pathlib
import sys

import pytest

REAL_TRITON = os.environ.get("TCPU_TEST_REAL_TRITON", "0") not in ("", "0")
ROOT = pathlib.Path(__file__).resolve().parents[2]

if not REAL_TRITON:
    from tcpu import aliases

    aliases.install()

# The examples (examples/python) are imported by the tutorial tests.
sys.path.insert(0, str(ROOT / "examples" / "python"))


@pytest.fixture(scope="session")
def device() -> str:
    return "cuda" if REAL_TRITON else "cpu"


def tcpu_cli() -> pathlib.Path:
    """The `tcpu` command of the tcpu whose package is imported: <package>/bin/tcpu when
    installed (pip), <build>/tools/tcpu in a build tree."""
    explicit = os.environ.get("TCPU_CLI")
    if explicit:
        return pathlib.Path(explicit)
    from tcpu._cli import tool_path
    return tool_path("tcpu")


def unsupported_on_tcpu(feature: str) -> pytest.MarkDecorator:
    """A test of valid Triton that tcpu does not support yet: under tcpu it must fail with
    UnsupportedError (a clear error naming the feature, never a wrong answer or a crash);
    under real Triton it must pass."""
    if REAL_TRITON:
        return pytest.mark.skipif(False, reason="supported by Triton")  # a mark that does nothing
    from tcpu.frontend.errors import UnsupportedError
    return pytest.mark.xfail(raises=UnsupportedError, strict=True,
                             reason=f"not supported by tcpu yet: {feature}")
