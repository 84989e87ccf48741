"""Prints a profile written by triton.profiler (a `.hatchet` JSON tree) as a tree of frames with
the metrics asked for, as Triton's `proton-viewer` does, without its pandas and hatchet
dependencies: `parse(metrics, file)` then `print_tree(tree, metrics)`, or
`python -m triton.profiler.viewer -m time/ms file.hatchet` (under `python -m tcpu`).

Metrics: a recorded one by name (`time`, `count`, `bytes`, `flops16`, `cpu_time`, or a
scope's own), `time/s|ms|us|ns` and `avg_time/...` (per launch), `cpu_time/...`,
`flop[8|16|32|64]/s`, `gflop.../s`, `tflop.../s`, `byte/s`, `gbyte/s`, `tbyte/s`, and
`<metric>/%` (share of the root). Every value but `cpu_time` is inclusive (a frame's own plus
its children's). `util` needs a device's peak FLOP/s and bandwidth, which tcpu does not know:
it is refused."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .hooks.launch import COMPUTE_METADATA_SCOPE_NAME, LaunchHook

_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
_RATE_SCALE = {"": 1.0, "g": 1e9, "t": 1e12}
_DESCRIPTIVE = ("device_id", "device_type")


@dataclass
class Node:
    """A frame of the tree: its own metrics, its inclusive ones, the derived values."""
    name: str
    own: dict[str, float]
    children: list[Node] = field(default_factory=list)
    inclusive: dict[str, float] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=dict)

    def walk(self) -> list[Node]:
        found = [self]
        for child in self.children:
            found += child.walk()
        return found


def _metric_name(raw: str) -> str:
    """`time (ns)` -> `time`: a recorded metric's name without its unit."""
    return raw.split("(")[0].strip().lower()


def _build(entry: dict[str, Any]) -> Optional[Node]:
    """The tree from a hatchet entry, without the launch-metadata frames and frames that hold
    nothing (Triton's viewer drops the same)."""
    name = entry["frame"]["name"]
    if name == COMPUTE_METADATA_SCOPE_NAME:
        return None
    own = {k: float(v) for k, v in entry.get("metrics", {}).items()
           if k not in _DESCRIPTIVE and isinstance(v, (int, float))}
    children = [n for n in (_build(c) for c in entry.get("children", [])) if n is not None]
    if not own and not children:
        return None
    node = Node(name, own, children)
    for key, value in own.items():
        node.inclusive[key] = value
    for child in children:
        for key, value in child.inclusive.items():
            node.inclusive[key] = node.inclusive.get(key, 0.0) + value
    return node


def read(filename: str) -> tuple[Node, list[str], dict[str, Any]]:
    """The tree of `filename`, the metrics it records, and its devices."""
    with open(filename) as f:
        database = json.load(f)
    if not isinstance(database, list) or len(database) != 2:
        raise ValueError(f"{filename}: not a profile tree ([tree, devices]) written by "
                         "triton.profiler")
    root = _build(database[0]) or Node(database[0]["frame"]["name"], {})
    recorded = sorted({k for node in root.walk() for k in node.own})
    if not recorded:
        raise ValueError(f"{filename}: No metrics found in the input file")
    return root, recorded, database[1]


def _find(recorded: list[str], name: str) -> str:
    for raw in recorded:
        if name.lower() in (raw.lower(), _metric_name(raw)):
            return raw
    raise RuntimeError(f"Metric {name} is not found. Use the --list flag to list available "
                       f"metrics (this profile has: {', '.join(map(_metric_name, recorded))})")


def _deriver(metric: str, recorded: list[str]) -> Callable[[Node, Node], float]:
    """How to compute `metric` for a node (given the root)."""
    lower = metric.lower()
    if lower == "util":
        raise ValueError("util: the share of a device's peak FLOP/s or bandwidth; tcpu's "
                         "profiler knows no CPU's peaks (see triton.profiler.specs)")

    def ratio(top: float, bottom: float) -> float:
        return top / bottom if bottom else math.nan

    time_match = re.fullmatch(r"(avg_)?(cpu_)?time/(s|ms|us|ns)", lower)
    if time_match:
        average, cpu, unit = time_match.groups()
        source = _find(recorded, "cpu_time" if cpu else "time")
        scale = 1e-9 / _TIME_UNITS[unit]  # recorded in ns
        count = _find(recorded, "count") if average else None

        def timed(node: Node, root: Node) -> float:
            value = (node.own if cpu else node.inclusive).get(source, math.nan) * scale
            return ratio(value, node.inclusive.get(count, 0.0)) if count else value

        return timed
    rate_match = re.fullmatch(r"([gt]?)(flop(\d*)|byte)/s", lower)
    if rate_match:
        scale_key, kind, width = rate_match.groups()
        scale = _RATE_SCALE[scale_key]
        if kind == "byte":
            sources = [_find(recorded, "bytes")]
        elif width:
            if int(width) not in LaunchHook.flops_width:
                raise ValueError(f"{metric}: flop widths are {LaunchHook.flops_width}")
            sources = [_find(recorded, f"flops{width}")]
        else:
            sources = [r for r in recorded if _metric_name(r).startswith("flops")]
            if not sources:
                _find(recorded, "flops")
        time = _find(recorded, "time")

        def rate(node: Node, root: Node) -> float:
            work = sum(node.inclusive.get(s, 0.0) for s in sources)
            return ratio(work, node.inclusive.get(time, 0.0) * 1e-9) / scale

        return rate
    if lower.endswith("/%"):
        source = _find(recorded, lower[:-2])
        return lambda node, root: ratio(node.inclusive.get(source, 0.0) * 100.0,
                                        root.inclusive.get(source, 0.0))
    if "/" in lower:
        raise ValueError(f"Unsupported unit {lower.split('/', 1)[1]} (in {metric})")
    source = _find(recorded, lower)
    return lambda node, root: node.inclusive.get(source, math.nan)


def parse(metrics: list[str] | str, filename: str, include: Optional[str] = None,
          exclude: Optional[str] = None, threshold: Optional[float] = None
          ) -> tuple[Node, list[str]]:
    """The tree of `filename` with each of `metrics` computed for every frame, filtered by
    `include` / `exclude` (regular expressions on frame names: keep the paths through a
    match / drop the matching frames and below) and `threshold` (on the first metric)."""
    metrics = [metrics] if isinstance(metrics, str) else list(metrics or ["time/s"])
    root, recorded, _ = read(filename)
    derivers = [(m, _deriver(m, recorded)) for m in metrics]
    for node in root.walk():
        node.values = {m: derive(node, root) for m, derive in derivers}
    if include:
        root = _include(root, re.compile(include)) or Node(root.name, {})
    if exclude:
        root = _exclude(root, re.compile(exclude)) or Node(root.name, {})
    if threshold is not None:
        root = _above(root, metrics[0], threshold, True) or Node(root.name, {})
    return root, metrics


def _include(node: Node, pattern: re.Pattern[str]) -> Optional[Node]:
    if pattern.fullmatch(node.name):
        return node
    kept = [c for c in (_include(c, pattern) for c in node.children) if c is not None]
    return Node(node.name, node.own, kept, node.inclusive, node.values) if kept else None


def _exclude(node: Node, pattern: re.Pattern[str]) -> Optional[Node]:
    if pattern.fullmatch(node.name):
        return None
    kept = [c for c in (_exclude(c, pattern) for c in node.children) if c is not None]
    return Node(node.name, node.own, kept, node.inclusive, node.values)


def _above(node: Node, metric: str, threshold: float, root: bool) -> Optional[Node]:
    if not root and not node.values.get(metric, math.nan) >= threshold:
        return None
    kept = [c for c in (_above(c, metric, threshold, False) for c in node.children)
            if c is not None]
    return Node(node.name, node.own, kept, node.inclusive, node.values)


def _format_name(name: str, format: Optional[str]) -> str:
    if format == "file_function_line":
        return name.split("/")[-1]
    if format == "function_line":
        return name.split(":")[-1]
    if format == "file_function":
        return f"{name.split('/')[-1].split(':')[0]}@{name.split('@')[-1].split(':')[0]}"
    return name


def _value(value: float) -> str:
    return "nan" if value != value else f"{value:.3f}"


def render(tree: Node, metrics: list[str], depth: int = 100, format: Optional[str] = None
           ) -> str:
    """The tree as text: each frame's metric values, then its name, below its parent."""
    lines: list[str] = []

    def visit(node: Node, prefix: str, connector: str, level: int) -> None:
        values = " ".join(_value(node.values.get(m, math.nan)) for m in metrics)
        lines.append(f"{prefix}{connector}{values} {_format_name(node.name, format)}")
        if level >= depth:
            return
        inner = prefix + ("" if not connector else ("   " if connector == "└─ " else "│  "))
        for i, child in enumerate(node.children):
            visit(child, inner, "└─ " if i == len(node.children) - 1 else "├─ ", level + 1)

    visit(tree, "", "", 0)
    return "\n".join(lines)


def print_tree(gf: Node, metrics: list[str], depth: int = 100, format: Optional[str] = None,
               print_sorted: bool = False) -> None:
    """Prints `gf` (from parse) with the metrics parse computed."""
    print(render(gf, metrics, depth, format))
    print(f"(columns: {', '.join(metrics)})")
    if print_sorted:
        print("Sorted kernels by metric " + metrics[0])
        frames = sorted(gf.walk()[1:], key=lambda n: -_sortable(n.values.get(metrics[0])))
        for node in frames:
            name = node.name[:100] + "..." if len(node.name) > 100 else node.name
            print("{:105} {:.4}".format(name, node.values.get(metrics[0], math.nan)))


def _sortable(value: Optional[float]) -> float:
    return -math.inf if value is None or value != value else value


def show_metrics(file_name: str) -> None:
    _, recorded, _ = read(file_name)
    print("Available metrics:")
    for raw in recorded:
        print(f"- {_metric_name(raw)}")


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="Prints a profile written by triton.profiler.")
    parser.add_argument("-l", "--list", action="store_true", help="list the recorded metrics")
    parser.add_argument("-m", "--metrics", type=str, default=None,
                        help="comma-separated metrics (see the module's docstring)")
    parser.add_argument("-i", "--include", type=str, default=None)
    parser.add_argument("-e", "--exclude", type=str, default=None)
    parser.add_argument("-t", "--threshold", type=float, default=None)
    parser.add_argument("-d", "--depth", type=int, default=100)
    parser.add_argument("-f", "--format", type=str, default="full",
                        choices=["full", "file_function_line", "function_line", "file_function"])
    parser.add_argument("--print-sorted", action="store_true", default=False)
    parser.add_argument("file")
    args = parser.parse_args(argv)
    if args.include and args.exclude:
        raise ValueError("Cannot specify both include and exclude")
    if args.list:
        show_metrics(args.file)
        return 0
    tree, metrics = parse((args.metrics or "time/s").split(","), args.file, args.include,
                          args.exclude, args.threshold)
    print_tree(tree, metrics, args.depth, args.format, args.print_sorted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
