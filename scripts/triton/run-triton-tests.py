#!/usr/bin/env python3
"""Runs Triton's own test files (python/test/unit/language, unmodified) against tcpu and prints
per-function counts: cases passed, failed, in error and skipped, whether Triton marks the
function `interpreter`, and a summary (functions passing all their cases, passing none, and the
interpreter-marked ones passing all). docs/conformance/triton-tests.md says how to read the figures.

  PYTHONPATH=$PWD/build-clang/python /work/main/.venv/bin/python scripts/triton/run-triton-tests.py \\
      --triton-tests /work/triton-tests --sample 3 -n 2 [--markdown out.md] [files...]

Triton's files are located (never copied into this tree) with --triton-tests DIR or
TCPU_TRITON_TESTS, else extracted with `git archive` from --triton-git REPO at --commit into a
cache directory; when neither is given the script says how to get them and exits with 2. The
files run under pytest with `-p tcpu.pytest_plugin --device cpu`, Triton's conftest.py, and this
folder's triton_suite.plugin (--sample, the per-case timeout, the records counted here).
Exit status: 0 when every case ran passed or skipped, 1 otherwise, 2 when the files are missing."""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from triton_suite import counts, locate  # noqa: E402


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", default=["test_core.py"],
                        help="files of python/test/unit/language (default: test_core.py)")
    parser.add_argument("--triton-tests", help=f"a Triton source tree (or ${locate.ENV_TESTS})")
    parser.add_argument("--triton-git", help="a Triton git repository to extract the tests from")
    parser.add_argument("--commit", default=locate.DEFAULT_COMMIT,
                        help="the commit of --triton-git (default %(default)s, which opened 3.6)")
    parser.add_argument("-n", "--workers", default="1",
                        help="pytest-xdist workers (default 1; 0 runs in this process, where a "
                             "case stuck in native code ends the whole run)")
    parser.add_argument("--sample", type=int, default=0,
                        help="only the first N parametrized cases of each test function")
    parser.add_argument("--sample-seed", default="",
                        help="with --sample: N cases of each function drawn at random with this "
                             "seed (the same seed draws the same cases) instead of the first N")
    parser.add_argument("--case-timeout", type=float, default=300.0,
                        help="seconds before a case fails as hung (default %(default)s; 0: none)")
    parser.add_argument("-k", dest="keyword", help="pytest's -k expression")
    parser.add_argument("--markdown", help="write the counts as a Markdown table here")
    parser.add_argument("--records", help="keep the per-case JSON lines here")
    parser.add_argument("--report-only", action="store_true",
                        help="run nothing: count the cases of an earlier run's --records")
    parser.add_argument("--causes", type=int, default=15,
                        help="print the N failure messages blocking the most functions")
    parser.add_argument("--pytest-arg", action="append", default=[],
                        help="one more argument for pytest (repeatable)")
    return parser.parse_args(argv)


def pytest_command(root: pathlib.Path, files: list[pathlib.Path], args: argparse.Namespace,
                   records: pathlib.Path) -> list[str]:
    command = [sys.executable, "-m", "pytest", *map(str, files),
               f"--rootdir={root}", f"--confcutdir={root}",
               "-p", "tcpu.pytest_plugin", "--device", "cpu",
               "-p", "triton_suite.plugin", f"--record={records}",
               f"--case-timeout={args.case_timeout}",
               "-p", "no:cacheprovider", "-q", "-rN", "--tb=no", "--no-header"]
    if args.sample:
        command.append(f"--sample={args.sample}")
        if args.sample_seed:
            command.append(f"--sample-seed={args.sample_seed}")
    if args.workers != "0":
        # A crashed (timed-out) worker is replaced, however many times it happens.
        command += ["-n", args.workers, "--max-worker-restart=100000"]
    if args.keyword:
        command += ["-k", args.keyword]
    return command + args.pytest_arg


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        root = locate.locate(args.triton_tests, args.triton_git, args.commit)
    except locate.NotFound as missing:
        print(missing, file=sys.stderr)
        return 2
    files = [root / locate.LANGUAGE_TESTS / name for name in args.files]
    absent = [str(f) for f in files if not f.is_file()]
    if absent:
        print("not found: " + ", ".join(absent), file=sys.stderr)
        return 2
    functions: dict[str, bool] = {}
    for path in files:
        functions.update(counts.test_functions(path, path.relative_to(root).as_posix()))
    with tempfile.TemporaryDirectory(prefix="tcpu-triton-tests-") as scratch:
        records = pathlib.Path(args.records or os.path.join(scratch, "records.jsonl")).resolve()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH")) if p)
        command = pytest_command(root, files, args, records)
        if args.report_only:
            if not args.records:
                print("--report-only needs --records", file=sys.stderr)
                return 2
        else:
            print("+ " + " ".join(command), flush=True)
            # From a scratch directory: tests that write files leave none in Triton's tree or here.
            subprocess.run(command, cwd=scratch, env=env)
        table = counts.aggregate(counts.read_records(records), functions)
    summary = counts.summarize(table)
    print("\n".join(counts.text_table(table)))
    if args.causes:
        print(f"\nfailures by functions blocked (top {args.causes}):")
        for message, blocked in counts.causes(table)[:args.causes]:
            names = ", ".join(name.split("::")[-1] for name in blocked[:6])
            print(f"{len(blocked):4}  {message}\n      {names}{' ...' if len(blocked) > 6 else ''}")
    print("\n" + "\n".join(counts.summary_lines(summary)))
    if args.markdown:
        heading = f"Triton's {', '.join(args.files)} on tcpu" + (
            f" ({args.sample} cases of each function, "
            + (f"drawn at random with seed {args.sample_seed})" if args.sample_seed else "the first)")
            if args.sample else "")
        pathlib.Path(args.markdown).write_text(counts.markdown(table, summary, heading),
                                               encoding="utf-8")
    return 0 if not (summary.cases["failed"] or summary.cases["error"]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
