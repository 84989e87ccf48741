"""``triton.testing`` on the CPU: timing (``do_bench``), comparing results
(``assert_close``) and sweeping a benchmark over a grid of arguments (``perf_report``).

Times are wall-clock milliseconds from ``time.perf_counter``: tcpu's Python launches
return once the grid has run, so the host clock brackets exactly the kernel's work."""

from __future__ import annotations

import gc
import math
import os
import statistics
import sys
import time
from typing import Any, Callable, Sequence

from .runtime.driver import driver

__all__ = ["do_bench", "do_bench_cudagraph", "assert_close", "Benchmark", "Mark", "perf_report"]

_RETURN_MODES = ("min", "max", "mean", "median", "all")


# --- timing ---------------------------------------------------------------------------


def _quantiles(times: Sequence[float], qs: Sequence[float]) -> list[float]:
    """Linear interpolation between order statistics (torch.quantile's default)."""
    ordered = sorted(times)
    last = len(ordered) - 1
    out = []
    for q in qs:
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"quantile {q} is outside [0, 1]")
        position = q * last
        below = math.floor(position)
        above = min(below + 1, last)
        weight = position - below
        out.append(ordered[below] * (1.0 - weight) + ordered[above] * weight)
    return out


def _summarize(times: list[float], quantiles: Sequence[float] | None, return_mode: str):
    if quantiles is not None:
        values = _quantiles(times, quantiles)
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return times
    if return_mode == "mean":
        return statistics.fmean(times)
    if return_mode == "median":
        return statistics.median(times)
    return min(times) if return_mode == "min" else max(times)


def do_bench(fn: Callable[[], Any], warmup: float = 25, rep: float = 100,
             grad_to_none: Sequence[Any] | None = None, quantiles: Sequence[float] | None = None,
             return_mode: str = "mean"):
    """Time ``fn()`` in milliseconds.

    ``warmup`` and ``rep`` are time budgets in ms, as in Triton: five runs estimate the
    cost of one (cache sweep included, so the budgets bound wall time), which gives the
    number of warm-up runs and of timed runs (at least one each). Before each timed run
    the gradients in ``grad_to_none`` are dropped and the CPU caches are swept, so every
    run starts cold. Returns the ``quantiles`` of the timed runs if given (a float for a
    single one), else their min/max/mean/median, or the list of them for "all"."""
    if return_mode not in _RETURN_MODES:
        raise ValueError(f"return_mode must be one of {_RETURN_MODES}, not {return_mode!r}")
    active = driver.active
    device = active.get_device_interface()
    fn()  # compiles on first use: keep that out of the estimate
    device.synchronize()
    cache = active.get_empty_cache_for_benchmark()

    start = time.perf_counter()
    for _ in range(5):
        active.clear_cache(cache)
        fn()
    device.synchronize()
    estimate_ms = max((time.perf_counter() - start) * 1e3 / 5, 1e-6)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))

    for _ in range(n_warmup):
        fn()
    times = []
    # A collection started by the interpreter inside a timed run would be charged to it.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(n_repeat):
            if grad_to_none is not None:
                for tensor in grad_to_none:
                    tensor.grad = None
            active.clear_cache(cache)
            begin = time.perf_counter()
            fn()
            device.synchronize()
            times.append((time.perf_counter() - begin) * 1e3)
    finally:
        if gc_was_enabled:
            gc.enable()
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(fn: Callable[[], Any], rep: float = 20,
                       grad_to_none: Sequence[Any] | None = None,
                       quantiles: Sequence[float] | None = None, return_mode: str = "mean"):
    """There are no graphs to capture on the CPU (a launch costs microseconds of host
    time, which is what graphs save on GPUs): the same as ``do_bench``."""
    return do_bench(fn, rep=rep, grad_to_none=grad_to_none, quantiles=quantiles,
                    return_mode=return_mode)


# --- comparing ------------------------------------------------------------------------


def _is_torch_tensor(value: Any) -> bool:
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


def _to_numpy(value: Any):
    import numpy as np

    if _is_torch_tensor(value):
        import torch

        value = value.detach().cpu()
        if value.dtype.is_floating_point and value.dtype not in (torch.float16, torch.float32,
                                                                  torch.float64):
            value = value.float()  # numpy has no bfloat16 nor float8 types
        return value.numpy()
    return np.asarray(value)


def assert_close(x: Any, y: Any, atol: float | Callable[[Any], float] | None = None,
                 rtol: float | Callable[[Any], float] | None = None, err_msg: str = "") -> None:
    """Assert |x - y| <= atol + rtol * |y| elementwise (NaNs equal), for numpy arrays,
    torch tensors (any dtype, any device) and scalars. Defaults as Triton's: atol 1e-2,
    rtol 0; either may be a function of x's dtype."""
    import numpy as np

    dtype = getattr(x, "dtype", None)
    if dtype is None:
        dtype = np.asarray(x).dtype
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol = atol(dtype) if callable(atol) else atol
    rtol = rtol(dtype) if callable(rtol) else rtol
    a, b = _to_numpy(x), _to_numpy(y)
    if a.size > 1 or b.size > 1:
        np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)
        return
    if not np.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True):
        message = f"{err_msg} {a} is not close to {b} (atol={atol}, rtol={rtol})"
        raise AssertionError(message.strip())


# --- benchmark sweeps -----------------------------------------------------------------


class Benchmark:
    """One sweep for ``perf_report``: ``fn`` is called for every x value (given to every
    name in ``x_names``, or one tuple per x with one value per name) and every line value
    (given to ``line_arg``), with ``args`` fixed. ``fn`` returns a number or
    (value, min, max)."""

    def __init__(self, x_names: list[str], x_vals: list[Any], line_arg: str, line_vals: list[Any],
                 line_names: list[str], plot_name: str, args: dict[str, Any], xlabel: str = "",
                 ylabel: str = "", x_log: bool = False, y_log: bool = False, color: Any = None,
                 styles: list[tuple[str, str]] | None = None) -> None:
        self.x_names = x_names
        self.x_vals = x_vals
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.plot_name = plot_name
        self.args = args
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


class Table:
    """The results of one sweep when pandas is not installed: ``columns``, ``rows``,
    ``table[column]`` (a list), ``to_csv(path)`` and an aligned ``str()``."""

    def __init__(self, columns: list[str], rows: list[list[Any]]) -> None:
        self.columns = columns
        self.rows = rows

    def __getitem__(self, column: str) -> list[Any]:
        index = self.columns.index(column)
        return [row[index] for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    @staticmethod
    def _cell(value: Any, precision: int | None = None) -> str:
        if value is None:
            return "NaN"
        if isinstance(value, float):
            return f"{value:.{precision}f}" if precision is not None else f"{value:.6g}"
        return str(value)

    def to_csv(self, path: str, precision: int = 6) -> None:
        with open(path, "w") as out:
            out.write(",".join(self.columns) + "\n")
            for row in self.rows:
                out.write(",".join(self._cell(v, precision) for v in row) + "\n")

    def __str__(self) -> str:
        # pandas' layout: an index column, then right-aligned columns.
        body = [[str(i)] + [self._cell(v) for v in row] for i, row in enumerate(self.rows)]
        header = [""] + list(self.columns)
        widths = [max(len(r[c]) for r in [header] + body) for c in range(len(header))]
        return "\n".join("  ".join(cell.rjust(w) for cell, w in zip(r, widths))
                         for r in [header] + body)


def _sweep_budget_s() -> float:
    """Seconds a benchmark sweep may start new sizes for. Triton's tutorials sweep GPU sizes
    (tutorial 03 up to 4096^3 fp16 matmuls, each autotuned): run in full on a laptop's CPU that
    is hours. The sweep stops starting sizes after this budget (the first size always runs);
    TCPU_BENCH=full runs every size."""
    if os.environ.get("TCPU_BENCH") == "full":
        return math.inf
    value = os.environ.get("TCPU_BENCH_BUDGET_S", "60")
    try:
        budget = float(value)
    except ValueError:
        raise ValueError(f"TCPU_BENCH_BUDGET_S must be a number of seconds, not {value!r}")
    if budget < 0:
        raise ValueError(f"TCPU_BENCH_BUDGET_S must be >= 0, not {value!r}")
    return budget


class Mark:
    """What ``perf_report`` returns: ``run()`` sweeps, prints, saves, plots."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Benchmark | list[Benchmark]) -> None:
        self.fn = fn
        self.benchmarks = benchmarks

    def _sweep(self, bench: Benchmark, **extra: Any) -> tuple[list[str], list[list[Any]]]:
        x_names = list(bench.x_names)
        means = list(bench.line_names)
        columns = x_names + means + [f"{n}-min" for n in means] + [f"{n}-max" for n in means]
        rows = []
        budget_s = _sweep_budget_s()
        start = time.perf_counter()
        for index, x in enumerate(bench.x_vals):
            if index > 0 and time.perf_counter() - start > budget_s:
                print(f"{bench.plot_name or 'benchmark'}: stopped after {index} of "
                      f"{len(bench.x_vals)} sizes ({budget_s:g} s budget; "
                      f"TCPU_BENCH_BUDGET_S=<seconds> or TCPU_BENCH=full for more)",
                      file=sys.stderr)
                break
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError(f"expected {len(x_names)} x values ({x_names}), got {x}")
            row_mean, row_min, row_max = [], [], []
            for line in bench.line_vals:
                result = self.fn(**dict(zip(x_names, xs)), **{bench.line_arg: line}, **bench.args,
                                 **extra)
                if isinstance(result, (list, tuple)) and len(result) == 3:
                    mean, low, high = result
                else:
                    mean, low, high = result, None, None
                row_mean.append(mean)
                row_min.append(low)
                row_max.append(high)
            rows.append(xs + row_mean + row_min + row_max)
        return columns, rows

    @staticmethod
    def _plot(bench: Benchmark, columns: list[str], rows: list[list[Any]], show: bool,
              save_path: str) -> None:
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            print(f"{bench.plot_name}: matplotlib is not installed, no plot")
            return
        column = {name: [row[i] for row in rows] for i, name in enumerate(columns)}
        x = column[bench.x_names[0]]
        plt.figure()
        axes = plt.subplot()
        for i, name in enumerate(bench.line_names):
            color, style = bench.styles[i] if bench.styles else (None, None)
            axes.plot(x, column[name], label=name, color=color, ls=style)
            low, high = column[f"{name}-min"], column[f"{name}-max"]
            if all(v is not None for v in low + high):
                axes.fill_between(x, low, high, alpha=0.15, color=color)
        axes.legend()
        axes.set_xlabel(bench.xlabel or bench.x_names[0])
        axes.set_ylabel(bench.ylabel)
        axes.set_xscale("log" if bench.x_log else "linear")
        axes.set_yscale("log" if bench.y_log else "linear")
        if show:
            plt.show()
        if save_path:
            plt.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
        plt.close()

    def _run(self, bench: Benchmark, save_path: str, show_plots: bool, print_data: bool,
             diff_col: bool = False, save_precision: int = 6, **extra: Any):
        columns, rows = self._sweep(bench, **extra)
        if bench.plot_name and (show_plots or save_path):
            self._plot(bench, columns, rows, show_plots, save_path)
        keep = len(bench.x_names) + len(bench.line_names)  # drop the -min/-max columns
        columns, rows = columns[:keep], [row[:keep] for row in rows]
        if diff_col and len(bench.line_names) == 2:  # second line minus first
            columns = columns + ["Diff"]
            rows = [row + [row[-1] - row[-2]] for row in rows]
        try:
            import pandas as pd
        except ImportError:
            table: Any = Table(columns, rows)
        else:
            table = pd.DataFrame(rows, columns=columns)
        if print_data:
            print(bench.plot_name + ":")
            print(table)
        if save_path:
            path = os.path.join(save_path, f"{bench.plot_name}.csv")
            if isinstance(table, Table):
                table.to_csv(path, precision=save_precision)
            else:
                table.to_csv(path, float_format=f"%.{save_precision}f", index=False)
        return table

    def run(self, show_plots: bool = False, print_data: bool = False, save_path: str | None = "",
            return_df: bool = False, **kwargs: Any):
        """Sweep every benchmark; print the tables (``print_data``), write
        ``<plot_name>.csv``, plots and results.html under ``save_path``. With
        ``return_df``, return the table (a pandas DataFrame, or a ``Table`` without
        pandas), or the list of them for a list of benchmarks. Other keyword arguments go
        to the benchmarked function."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else list(self.benchmarks)
        tables = [self._run(bench, save_path or "", show_plots, print_data, **kwargs)
                  for bench in benchmarks]
        if save_path:
            with open(os.path.join(save_path, "results.html"), "w") as html:
                html.write("<html><body>\n")
                for bench in benchmarks:
                    html.write(f'<image src="{bench.plot_name}.png"/>\n')
                html.write("</body></html>\n")
        if return_df:
            return tables[0] if single else tables
        return None


def perf_report(benchmarks: Benchmark | list[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """Decorator: ``@perf_report(Benchmark(...))`` turns a function into a ``Mark``."""
    return lambda fn: Mark(fn, benchmarks)
