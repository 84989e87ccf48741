"""Per-function counts of a run of Triton's tests, from the plugin's records and the test files.

The test functions (and whether Triton marks them `interpreter`) are read from the files' syntax,
so a file that fails to collect still counts each of its functions, as passing none."""

from __future__ import annotations

import ast
import json
import pathlib
import re
from collections import Counter
from dataclasses import dataclass, field

OUTCOMES = ("passed", "failed", "error", "skipped")


@dataclass
class FunctionCounts:
    name: str  # 'python/test/unit/language/test_core.py::test_x'
    interpreter: bool = False
    counts: Counter = field(default_factory=Counter)
    messages: Counter = field(default_factory=Counter)  # first lines of failures and errors
    collection_error: str = ""
    first_failure: str = ""  # the first failure's message as it was (messages are normalized)
    first_skip: str = ""  # the first skipped case's reason

    @property
    def short(self) -> str:
        return self.name.rsplit("/", 1)[-1]

    @property
    def passes_all(self) -> bool:
        return self.counts["passed"] > 0 and not (self.counts["failed"] or self.counts["error"]
                                                  or self.collection_error)

    @property
    def passes_none(self) -> bool:
        return self.counts["passed"] == 0 and not self.only_skipped

    @property
    def only_skipped(self) -> bool:
        return (self.counts["skipped"] > 0 and sum(self.counts.values()) == self.counts["skipped"]
                and not self.collection_error)


def _marks_interpreter(decorators: list[ast.expr]) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr == "interpreter"
               for decorator in decorators for node in ast.walk(decorator))


def test_functions(path: pathlib.Path, nodeid_prefix: str) -> dict[str, bool]:
    """{'<prefix>::test_x': marked interpreter} for the test functions of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_mark = any(isinstance(node, ast.Assign)
                      and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
                      and _marks_interpreter([node.value]) for node in tree.body)
    found: dict[str, bool] = {}

    def visit(body: list[ast.stmt], prefix: str, inherited: bool) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                visit(node.body, f"{prefix}::{node.name}",
                      inherited or _marks_interpreter(node.decorator_list))
            elif (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.name.startswith("test")):
                found[f"{prefix}::{node.name}"] = inherited or _marks_interpreter(node.decorator_list)

    visit(tree.body, nodeid_prefix, module_mark)
    return found


def case_outcome(events: list[dict]) -> tuple[str, str]:
    """One case's outcome from its setup/call/teardown records, and the deciding message."""
    for wanted in ("failed", "error", "passed", "skipped"):
        for event in events:
            if event["outcome"] == wanted:
                return wanted, event.get("message", "")
    return "error", "no outcome recorded"


def _function_of(nodeid: str) -> str:
    return nodeid.split("[", 1)[0]


def aggregate(records: list[dict], functions: dict[str, bool]) -> dict[str, FunctionCounts]:
    """Per-function counts: `functions` from the files (name -> interpreter-marked) plus any
    function only the records name."""
    table = {name: FunctionCounts(name, marked) for name, marked in functions.items()}
    by_case: dict[str, list[dict]] = {}
    for record in records:
        if record["when"] == "collect":
            for entry in table.values():
                if entry.name.startswith(record["nodeid"] + "::") or entry.name == record["nodeid"]:
                    entry.collection_error = record["message"] or "collection failed"
                    entry.messages[entry.collection_error] += 1
            continue
        by_case.setdefault(record["nodeid"], []).append(record)
    for nodeid, events in by_case.items():
        name = _function_of(nodeid)
        entry = table.setdefault(name, FunctionCounts(name, any(e["interpreter"] for e in events)))
        outcome, message = case_outcome(events)
        entry.counts[outcome] += 1
        if outcome in ("failed", "error"):
            entry.messages[normalize(message)] += 1
            entry.first_failure = entry.first_failure or message
        elif outcome == "skipped":
            entry.first_skip = entry.first_skip or message
    return table


def normalize(message: str) -> str:
    """A failure's first line with what varies between cases (numbers, addresses) blanked, so
    that one cause groups its functions together."""
    message = re.sub(r"0x[0-9a-fA-F]+", "0x…", message)
    return re.sub(r"\d+(\.\d+)?", "N", message)[:200]


@dataclass
class Summary:
    functions: int
    passing_all: int
    passing_none: int
    only_skipped: int
    interpreter: int
    interpreter_passing_all: int
    cases: Counter


def summarize(table: dict[str, FunctionCounts]) -> Summary:
    entries = list(table.values())
    cases = Counter()
    for entry in entries:
        cases.update(entry.counts)
    marked = [e for e in entries if e.interpreter]
    return Summary(len(entries), sum(e.passes_all for e in entries),
                   sum(e.passes_none for e in entries), sum(e.only_skipped for e in entries),
                   len(marked), sum(e.passes_all for e in marked), cases)


def causes(table: dict[str, FunctionCounts]) -> list[tuple[str, list[str]]]:
    """Failure messages ranked by how many functions each blocks (functions not passing all)."""
    blocked: dict[str, list[str]] = {}
    for entry in table.values():
        if entry.passes_all:
            continue
        for message in entry.messages:
            blocked.setdefault(message, []).append(entry.short)
    return sorted(blocked.items(), key=lambda item: (-len(item[1]), item[0]))


def read_records(path: pathlib.Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def summary_lines(summary: Summary) -> list[str]:
    return [
        f"functions: {summary.functions}; passing all their cases: {summary.passing_all}; "
        f"passing none: {summary.passing_none}; only skipped: {summary.only_skipped}",
        f"interpreter-marked functions: {summary.interpreter}; passing all their cases: "
        f"{summary.interpreter_passing_all}",
        "cases: " + ", ".join(f"{summary.cases[o]} {o}" for o in OUTCOMES),
    ]


def text_table(table: dict[str, FunctionCounts]) -> list[str]:
    width = max((len(e.short) for e in table.values()), default=10)
    lines = [f"{'function':<{width}}  pass  fail   err  skip  interp"]
    for entry in table.values():
        c = entry.counts
        lines.append(f"{entry.short:<{width}}  {c['passed']:4}  {c['failed']:4}  {c['error']:4}  "
                     f"{c['skipped']:4}  {'yes' if entry.interpreter else '':>6}"
                     + (f"  collection error: {entry.collection_error}"
                        if entry.collection_error else ""))
    return lines


def markdown(table: dict[str, FunctionCounts], summary: Summary, heading: str) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    lines = [f"# {heading}", ""] + [f"- {line}" for line in summary_lines(summary)] + [""]
    lines += ["| function | passed | failed | error | skipped | interpreter | first failure (or skip) |",
              "|---|---:|---:|---:|---:|:-:|---|"]
    for entry in table.values():
        c = entry.counts
        first = entry.collection_error or entry.first_failure or (
            f"(skipped) {entry.first_skip}" if entry.first_skip else "")
        lines.append(f"| `{entry.short.split('::', 1)[-1]}` | {c['passed']} | {c['failed']} | "
                     f"{c['error']} | {c['skipped']} | {'yes' if entry.interpreter else ''} | "
                     f"{cell(first)} |")
    return "\n".join(lines) + "\n"
