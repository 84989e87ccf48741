"""scripts/triton/run-triton-tests.py's own logic, without Triton's files: locating a test tree (a
directory, the environment, `git archive` of a repository), sampling the first cases of each
function, the per-case timeout, the records and the per-function counts drawn from them."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

SCRIPTS = pathlib.Path(__file__).resolve().parents[3] / "scripts" / "triton"
sys.path.insert(0, str(SCRIPTS))

from triton_suite import counts, locate, plugin  # noqa: E402

CONFTEST = "def pytest_configure(config):\n    pass\n"
TEST_FILE = textwrap.dedent("""\
    import time
    import pytest

    pytestmark = []

    @pytest.mark.interpreter
    @pytest.mark.parametrize("x", range(5))
    def test_all_pass(x):
        assert x < 5

    @pytest.mark.parametrize("x", range(4))
    def test_some_fail(x):
        assert x != 1, "one is refused"

    @pytest.mark.interpreter
    def test_hangs():
        time.sleep(60)

    @pytest.mark.parametrize("x", [0, 1])
    def test_skips(x):
        pytest.skip("not here")

    @pytest.fixture
    def broken():
        raise RuntimeError("fixture broke")

    def test_setup_error(broken):
        pass

    class TestGroup:
        @pytest.mark.interpreter
        def test_method(self):
            pass
    """)


def make_tree(root: pathlib.Path) -> pathlib.Path:
    language = root / locate.LANGUAGE_TESTS
    language.mkdir(parents=True)
    (root / "python/test/conftest.py").write_text(CONFTEST)
    (language / "test_fake.py").write_text(TEST_FILE)
    return root


def test_function_of_and_sample():
    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

    items = [Item(f"f.py::test_a[{i}]") for i in range(5)] + [Item("f.py::test_b")]
    items += [Item(f"f.py::test_c[x-{i}]") for i in range(2)]
    kept, dropped = plugin.sample(items, 3)
    assert [i.nodeid for i in kept] == ["f.py::test_a[0]", "f.py::test_a[1]", "f.py::test_a[2]",
                                       "f.py::test_b", "f.py::test_c[x-0]", "f.py::test_c[x-1]"]
    assert [i.nodeid for i in dropped] == ["f.py::test_a[3]", "f.py::test_a[4]"]
    assert plugin.function_of("f.py::test_a[1-[2]]") == "f.py::test_a"
    drawn, rest = plugin.sample(items, 3, seed="7")
    assert [i.nodeid for i in drawn] == [i.nodeid for i in plugin.sample(items, 3, seed="7")[0]]
    assert len(drawn) == 6 and len(rest) == 2
    assert {i.nodeid for i in drawn if "test_a" not in i.nodeid} == {
        "f.py::test_b", "f.py::test_c[x-0]", "f.py::test_c[x-1]"}
    # Some seed draws other than the first three of test_a (each seed draws 3 of 5 at random).
    firsts = {"f.py::test_a[0]", "f.py::test_a[1]", "f.py::test_a[2]"}
    assert any({i.nodeid for i in plugin.sample(items, 3, seed=str(s))[0] if "test_a" in i.nodeid}
               != firsts for s in range(5))


def test_functions_read_from_syntax(tmp_path):
    path = make_tree(tmp_path) / locate.LANGUAGE_TESTS / "test_fake.py"
    found = counts.test_functions(path, "t/test_fake.py")
    assert found == {"t/test_fake.py::test_all_pass": True, "t/test_fake.py::test_some_fail": False,
                     "t/test_fake.py::test_hangs": True, "t/test_fake.py::test_skips": False,
                     "t/test_fake.py::test_setup_error": False,
                     "t/test_fake.py::TestGroup::test_method": True}
    marked = tmp_path / "test_marked.py"
    marked.write_text("import pytest\npytestmark = pytest.mark.interpreter\ndef test_x(): pass\n")
    assert counts.test_functions(marked, "m") == {"m::test_x": True}


def test_case_outcome_and_counts():
    def rec(nodeid, when, outcome, message=""):
        return {"nodeid": nodeid, "when": when, "outcome": outcome, "interpreter": False,
                "message": message}

    records = [rec("f::test_a[0]", "call", "passed"), rec("f::test_a[1]", "call", "failed", "x 12"),
               rec("f::test_a[2]", "call", "passed"), rec("f::test_a[2]", "teardown", "error", "td"),
               rec("f::test_b[0]", "setup", "skipped"), rec("f::test_c", "call", "passed")]
    table = counts.aggregate(records, {"f::test_a": True, "f::test_b": False, "f::test_c": True,
                                       "f::test_d": False})
    a, b, c, d = (table[f"f::test_{x}"] for x in "abcd")
    assert (a.counts["passed"], a.counts["failed"], a.counts["error"]) == (1, 1, 1)
    assert dict(a.messages) == {"x N": 1, "td": 1}
    assert b.only_skipped and not b.passes_none and not b.passes_all
    assert c.passes_all and d.passes_none  # a function with no case run passes none
    summary = counts.summarize(table)
    assert (summary.functions, summary.passing_all, summary.passing_none, summary.only_skipped,
            summary.interpreter, summary.interpreter_passing_all) == (4, 1, 1, 1, 2, 1)  # a: some
    # A failed collection of the file: every function of it passes none, for that reason.
    table = counts.aggregate([rec("f", "collect", "error", "ImportError: x")], {"f::test_a": True})
    assert table["f::test_a"].passes_none and table["f::test_a"].collection_error
    assert counts.causes(table) == [("ImportError: x", ["f::test_a"])]


def test_locate_explicit_env_and_missing(tmp_path):
    root = make_tree(tmp_path / "triton")
    assert locate.locate(str(root), None, "HEAD", environ={}) == root.resolve()
    assert locate.locate(None, None, "HEAD", environ={locate.ENV_TESTS: str(root)}) == root.resolve()
    with pytest.raises(locate.NotFound, match="--triton-git"):
        locate.locate(None, None, "HEAD", environ={})
    with pytest.raises(locate.NotFound, match="holds no"):
        locate.locate(str(tmp_path), None, "HEAD", environ={})


def test_locate_extracts_a_commit_with_git_archive(tmp_path):
    repo = make_tree(tmp_path / "repo")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "tests"]):
        subprocess.run(["git", "-C", str(repo), *command], check=True, env=env)
    (repo / "python/test/conftest.py").write_text("# changed after the commit\n")
    cache = tmp_path / "cache"
    found = locate.locate(None, str(repo), "HEAD", environ={}, cache=cache)
    assert found.parent == cache and locate.is_test_tree(found)
    assert (found / "python/test/conftest.py").read_text() == CONFTEST  # the commit's, not the tree's
    assert locate.locate(None, str(repo), "HEAD", environ={}, cache=cache) == found  # reused
    with pytest.raises(locate.NotFound, match="not in the git repository"):
        locate.locate(None, str(repo), "0" * 40, environ={}, cache=cache)


def test_runner_exits_2_and_says_how_when_nothing_is_found(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != locate.ENV_TESTS}
    result = subprocess.run([sys.executable, str(SCRIPTS / "run-triton-tests.py")],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "--triton-tests" in result.stderr and "git clone" in result.stderr


def test_plugin_samples_times_out_and_records(tmp_path):
    root = make_tree(tmp_path / "triton")
    records = tmp_path / "records.jsonl"
    command = [sys.executable, "-m", "pytest", str(root / locate.LANGUAGE_TESTS / "test_fake.py"),
               f"--rootdir={root}", f"--confcutdir={root}", "-p", "triton_suite.plugin",
               "--sample=3", "--case-timeout=2", f"--record={records}", "-p", "no:cacheprovider",
               "-q"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SCRIPTS), os.environ.get("PYTHONPATH", "")]))
    subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, timeout=50)
    rows = counts.read_records(records)
    table = counts.aggregate(rows, counts.test_functions(
        root / locate.LANGUAGE_TESTS / "test_fake.py", "python/test/unit/language/test_fake.py"))
    by_name = {name.rsplit("::", 1)[-1]: entry for name, entry in table.items()}
    assert by_name["test_all_pass"].counts == {"passed": 3}  # sampled: 3 of 5
    assert by_name["test_some_fail"].counts == {"passed": 2, "failed": 1}
    assert list(by_name["test_some_fail"].messages) == ["AssertionError: one is refused"]
    assert by_name["test_hangs"].counts == {"failed": 1}
    assert "timed out" in next(iter(by_name["test_hangs"].messages))
    assert by_name["test_skips"].only_skipped
    assert by_name["test_setup_error"].counts == {"error": 1}
    assert by_name["test_method"].passes_all and by_name["test_method"].interpreter
    assert all(json.loads(line)["nodeid"] for line in records.read_text().splitlines())
