"""triton.testing on the CPU (python/tcpu/triton/testing.py): do_bench, assert_close,
perf_report/Benchmark."""

import time
import types

import numpy as np
import pytest

from tcpu.triton import testing
from tcpu.triton.runtime import driver


def busy(ms):
    deadline = time.perf_counter() + ms / 1e3
    while time.perf_counter() < deadline:
        pass


# --- do_bench with a fake clock: counts and statistics exactly ---------------------------


class FakeClock:
    """perf_counter for testing.py: advances only when the benchmarked function runs."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(testing, "time", types.SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


@pytest.fixture
def events(monkeypatch):
    """Records the order of cache sweeps ('clear') and runs ('fn') do_bench makes."""
    log = []
    active = driver.active

    def clear_cache(cache):
        log.append("clear")
        if isinstance(testing.time.perf_counter.__self__, FakeClock):
            testing.time.perf_counter.__self__.now += 5e-3  # a sweep takes 5 ms

    monkeypatch.setattr(active, "clear_cache", clear_cache)
    monkeypatch.setattr(active, "get_empty_cache_for_benchmark", lambda: np.zeros(8))
    return log


def test_budgets_give_the_run_counts(clock, events):
    def fn():
        events.append("fn")
        clock.now += 2e-3  # every run takes 2 ms

    # One first run; five for the estimate (2 ms each plus a 5 ms sweep: 7 ms), then
    # 36/7 warm-up runs and 71/7 timed runs (a little over whole multiples, so that float
    # sums cannot round a count down). The sweeps are not in the times.
    times = testing.do_bench(fn, warmup=36, rep=71, return_mode="all")
    assert times == pytest.approx([2.0] * 10)
    assert events.count("fn") == 1 + 5 + 5 + 10
    assert events.count("clear") == 5 + 10
    # The timed runs each start right after a sweep; the warm-up runs need none.
    assert events[:12] == ["fn"] + ["clear", "fn"] * 5 + ["fn"]
    assert events[-20:] == ["clear", "fn"] * 10


def test_a_slow_function_still_runs_once_each(clock, events):
    def fn():
        events.append("fn")
        clock.now += 1.0  # 1 s: longer than both budgets

    assert testing.do_bench(fn, warmup=25, rep=100) == pytest.approx(1000.0)
    assert events.count("fn") == 1 + 5 + 1 + 1


def test_statistics_and_quantiles(clock, events):
    durations = iter(())

    def fn():
        clock.now += next(durations) / 1e3

    def bench(**kw):
        nonlocal durations
        # ms: the first run, five for the estimate (6 ms each with the sweep), one
        # warm-up, five timed
        durations = iter([1.0] * 6 + [9.0] + [5.0, 1.0, 4.0, 2.0, 3.0])
        return testing.do_bench(fn, warmup=6.5, rep=30.5, **kw)

    assert bench(return_mode="all") == pytest.approx([5.0, 1.0, 4.0, 2.0, 3.0])
    assert bench(return_mode="min") == pytest.approx(1.0)
    assert bench(return_mode="max") == pytest.approx(5.0)
    assert bench(return_mode="mean") == pytest.approx(3.0)
    assert bench(return_mode="median") == pytest.approx(3.0)
    assert bench(quantiles=[0.5]) == pytest.approx(3.0)  # one quantile: a float
    assert bench(quantiles=[0.5, 0.25, 0.1]) == pytest.approx([3.0, 2.0, 1.4])  # interpolated
    with pytest.raises(ValueError):
        bench(quantiles=[1.5])
    with pytest.raises(ValueError):
        testing.do_bench(fn, return_mode="average")


def test_gradients_are_dropped_before_each_timed_run(clock, events):
    class Tensor:
        grad = "stale"

    tensors = [Tensor(), Tensor()]
    seen = []

    def fn():
        seen.append(tuple(t.grad for t in tensors))
        for t in tensors:
            t.grad = "accumulated"
        clock.now += 1e-3

    times = testing.do_bench(fn, warmup=6.5, rep=18.5, grad_to_none=tensors, return_mode="all")
    assert len(times) == 3
    assert seen[-3:] == [(None, None)] * 3


# --- do_bench for real -----------------------------------------------------------------


# These time real runs. A busy-wait never ends early, so lower bounds always hold; the
# upper bounds are loose (a busy machine can preempt every run), catching wrong units and
# overheads counted in, while the fake clock above checks the arithmetic exactly.


def test_do_bench_measures_wall_time():
    assert 2.0 <= testing.do_bench(lambda: busy(2.0), warmup=5, rep=40, return_mode="min") < 50
    assert 2.0 <= testing.do_bench(lambda: busy(2.0), warmup=5, rep=40, quantiles=[0.5]) < 50


def test_do_bench_keeps_to_its_budgets():
    start = time.perf_counter()
    testing.do_bench(lambda: busy(0.5), warmup=20, rep=60)
    elapsed_ms = (time.perf_counter() - start) * 1e3
    # About 20 + 60 ms, plus the first run and the estimate (~8 ms); not hundreds. (The
    # exact counts are checked with a fake clock above.)
    assert 20 <= elapsed_ms <= 400


def test_do_bench_cudagraph_is_do_bench():
    assert 1.0 <= testing.do_bench_cudagraph(lambda: busy(1.0), rep=20, return_mode="min") < 50


# --- assert_close ----------------------------------------------------------------------


def test_assert_close_numpy_defaults():
    x = np.linspace(0, 1, 100, dtype=np.float32)
    testing.assert_close(x, x + 0.009)  # default atol is 1e-2
    with pytest.raises(AssertionError):
        testing.assert_close(x, x + 0.02)
    testing.assert_close(x, x + 0.02, atol=0.03)
    testing.assert_close(x + 1, (x + 1) * 1.05, atol=0, rtol=0.1)
    with pytest.raises(AssertionError):
        testing.assert_close(x + 1, (x + 1) * 1.05, atol=0, rtol=0.01)
    nan = np.array([1.0, np.nan])
    testing.assert_close(nan, nan.copy())  # NaNs compare equal
    with pytest.raises(AssertionError):
        testing.assert_close(np.zeros(3), np.zeros(4))


def test_assert_close_scalars_and_message():
    testing.assert_close(1.0, 1.005)
    with pytest.raises(AssertionError, match="step 3"):
        testing.assert_close(1.0, 1.1, err_msg="step 3")
    with pytest.raises(AssertionError, match="mismatch in row"):
        testing.assert_close(np.zeros(4), np.ones(4), err_msg="mismatch in row")


def test_assert_close_tolerance_functions_get_the_dtype():
    seen = []

    def atol(dtype):
        seen.append(dtype)
        return 0.5

    testing.assert_close(np.float16([1, 2]), np.float16([1.4, 2.4]), atol=atol)
    assert seen == [np.dtype(np.float16)]


def test_assert_close_torch():
    torch = pytest.importorskip("torch")
    x = torch.randn(64)
    testing.assert_close(x.to(torch.bfloat16), x, atol=0.05)  # bf16 goes through float32
    testing.assert_close(x.requires_grad_(), x.detach().numpy())  # mixed, grad-carrying
    with pytest.raises(AssertionError):
        testing.assert_close(x, x + 1)
    got = []
    testing.assert_close(x, x, atol=lambda dtype: got.append(dtype) or 0.0)
    assert got == [torch.float32]


# --- perf_report / Benchmark -------------------------------------------------------------


def make_mark(calls, result=lambda size, provider: size * (2 if provider == "b" else 1),
              **bench_kw):
    settings = dict(x_names=["size"], x_vals=[1, 2, 4], line_arg="provider", line_vals=["a", "b"],
                    line_names=["A", "B"], plot_name="sweep", args={"scale": 10})
    settings.update(bench_kw)

    @testing.perf_report(testing.Benchmark(**settings))
    def bench(size, provider, scale, **extra):
        calls.append((size, provider, scale, extra))
        return result(size, provider)

    return bench


def column(table, name):
    return list(table[name])


def test_perf_report_sweeps_the_grid():
    calls = []
    mark = make_mark(calls)
    assert isinstance(mark, testing.Mark)
    table = mark.run(return_df=True, tag="x")
    assert [c[:3] for c in calls] == [(1, "a", 10), (1, "b", 10), (2, "a", 10), (2, "b", 10),
                                      (4, "a", 10), (4, "b", 10)]
    assert all(c[3] == {"tag": "x"} for c in calls)  # run()'s extra kwargs reach fn
    assert list(table.columns) == ["size", "A", "B"]
    assert column(table, "size") == [1, 2, 4]
    assert column(table, "A") == [1, 2, 4] and column(table, "B") == [2, 4, 8]
    assert mark.run() is None


def test_perf_report_sweep_stops_at_its_budget(monkeypatch, capsys):
    # GPU-sized sweeps (tutorial 03: 31 sizes up to 4096^3, each autotuned) stop starting new
    # sizes after TCPU_BENCH_BUDGET_S; the first size always runs; TCPU_BENCH=full runs all.
    monkeypatch.delenv("TCPU_BENCH", raising=False)
    monkeypatch.setenv("TCPU_BENCH_BUDGET_S", "0")
    calls = []
    table = make_mark(calls).run(return_df=True)
    assert column(table, "size") == [1]
    assert "sweep: stopped after 1 of 3 sizes" in capsys.readouterr().err
    monkeypatch.setenv("TCPU_BENCH", "full")
    assert column(make_mark([]).run(return_df=True), "size") == [1, 2, 4]
    monkeypatch.delenv("TCPU_BENCH")
    monkeypatch.setenv("TCPU_BENCH_BUDGET_S", "soon")
    with pytest.raises(ValueError, match="TCPU_BENCH_BUDGET_S must be a number of seconds, "
                                         "not 'soon'"):
        make_mark([]).run()


def test_perf_report_prints_a_table(capsys):
    make_mark([], result=lambda size, provider: size / 3).run(print_data=True)
    out = capsys.readouterr().out
    assert out.startswith("sweep:\n")
    lines = out.splitlines()
    assert lines[1].split() == ["size", "A", "B"]
    assert lines[2].split()[:2] == ["0", "1"] and lines[2].split()[2].startswith("0.333")
    assert len(lines) == 5


def test_perf_report_tuple_x_values_and_ranges():
    calls = []

    @testing.perf_report(testing.Benchmark(
        x_names=["M", "N"], x_vals=[(1, 2), (3, 4)], line_arg="p", line_vals=[0],
        line_names=["only"], plot_name="mn", args={}))
    def bench(M, N, p):
        calls.append((M, N))
        return M * N, M * N - 1, M * N + 1  # value, min, max

    table = bench.run(return_df=True)
    assert calls == [(1, 2), (3, 4)]
    assert column(table, "only") == [2, 12]
    assert list(table.columns) == ["M", "N", "only"]  # -min/-max columns are dropped

    bad = testing.Mark(bench.fn, testing.Benchmark(
        x_names=["M", "N"], x_vals=[(1, 2, 3)], line_arg="p", line_vals=[0],
        line_names=["only"], plot_name="mn", args={}))
    with pytest.raises(ValueError):
        bad.run()


def test_perf_report_diff_column_and_lists_of_benchmarks():
    calls = []
    one = make_mark(calls).benchmarks
    mark = testing.Mark(make_mark(calls).fn, [one, one])
    tables = mark.run(return_df=True, diff_col=True)
    assert isinstance(tables, list) and len(tables) == 2
    assert column(tables[0], "Diff") == [1, 2, 4]  # B - A


def test_perf_report_saves_csv_and_html(tmp_path, capsys):
    make_mark([], result=lambda size, provider: size / (4 if provider == "a" else 2)).run(
        save_path=str(tmp_path))
    csv = (tmp_path / "sweep.csv").read_text().splitlines()
    assert csv[0] == "size,A,B"
    assert csv[1] == "1,0.250000,0.500000"
    assert len(csv) == 4
    assert 'src="sweep.png"' in (tmp_path / "results.html").read_text()
    try:
        __import__("matplotlib")
    except ImportError:
        assert "matplotlib is not installed" in capsys.readouterr().out
        assert not (tmp_path / "sweep.png").exists()
    else:
        assert (tmp_path / "sweep.png").exists()


def test_no_plot_notice_when_no_plot_is_asked_for(capsys):
    make_mark([]).run()
    assert capsys.readouterr().out == ""
