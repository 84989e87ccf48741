"""Finding Triton's test tree (python/test of a Triton checkout) without copying it into ours.

In order: an explicit directory (--triton-tests or TCPU_TRITON_TESTS), else `git archive` of
python/test from a Triton git repository (--triton-git, bare or not) at a commit, extracted
into a cache directory outside the tcpu tree and reused on later runs."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import tarfile
import tempfile

DEFAULT_COMMIT = "004d7f5f5"  # "Advance version 3.5.0->3.6.0": the commit that opened 3.6
LANGUAGE_TESTS = pathlib.PurePosixPath("python/test/unit/language")
ENV_TESTS = "TCPU_TRITON_TESTS"

HOW_TO_GET = f"""\
Triton's test files were not found. Give one of:
  --triton-tests DIR   (or {ENV_TESTS}=DIR): a Triton source tree, DIR/{LANGUAGE_TESTS} in it
  --triton-git REPO    a Triton git repository (a clone or a bare mirror) holding commit
                       --commit (default {DEFAULT_COMMIT}); python/test is extracted with
                       `git archive` into a cache directory
for example:
  git clone --filter=blob:none https://github.com/triton-lang/triton /tmp/triton
  scripts/triton/run-triton-tests.py --triton-git /tmp/triton"""


class NotFound(Exception):
    """Triton's tests could not be located; the message says how to get them."""


def is_test_tree(root: pathlib.Path) -> bool:
    return (root / LANGUAGE_TESTS).is_dir() and (root / "python/test/conftest.py").is_file()


def cache_root() -> pathlib.Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "tcpu" / "triton-tests"


def resolve_commit(git_dir: pathlib.Path, commit: str) -> str:
    """The full hash of `commit` in `git_dir` (cache directories are named by it)."""
    result = subprocess.run(["git", "-C", str(git_dir), "rev-parse", "--verify", f"{commit}^{{commit}}"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise NotFound(f"commit {commit} is not in the git repository {git_dir}: "
                       f"{result.stderr.strip()}\n\n{HOW_TO_GET}")
    return result.stdout.strip()


def extract(git_dir: pathlib.Path, commit: str, cache: pathlib.Path | None = None) -> pathlib.Path:
    """python/test of `commit` extracted from `git_dir` into <cache>/<full hash> (once)."""
    full = resolve_commit(git_dir, commit)
    target = (cache or cache_root()) / full
    if is_test_tree(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # Extracted beside the target and renamed into place, so a run cut short leaves no half tree.
    staging = pathlib.Path(tempfile.mkdtemp(prefix=f".{full[:12]}-", dir=target.parent))
    try:
        archive = staging / "test.tar"
        with archive.open("wb") as out:
            subprocess.run(["git", "-C", str(git_dir), "archive", "--format=tar", full, "python/test"],
                           stdout=out, check=True)
        tree = staging / "tree"
        with tarfile.open(archive) as tar:
            # Python >= 3.11.4 (and back-ported releases) can refuse unsafe members.
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(tree, **safe)
        tree.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def locate(tests_dir: str | None, git_dir: str | None, commit: str,
           environ: dict[str, str] | None = None, cache: pathlib.Path | None = None) -> pathlib.Path:
    """The root of Triton's test tree (holding python/test), or NotFound saying how to get it."""
    environ = os.environ if environ is None else environ
    explicit = tests_dir or environ.get(ENV_TESTS)
    if explicit:
        root = pathlib.Path(explicit).resolve()
        if not is_test_tree(root):
            raise NotFound(f"{root} holds no {LANGUAGE_TESTS} (and python/test/conftest.py)."
                           f"\n\n{HOW_TO_GET}")
        return root
    if git_dir:
        return extract(pathlib.Path(git_dir).resolve(), commit, cache)
    raise NotFound(HOW_TO_GET)
