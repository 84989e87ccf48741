"""triton.autotune / Config / heuristics (python/tcpu/triton/runtime/autotuner.py).

The kernel here is a KernelInterface written in the test: its run() does real work on
numpy arrays and costs a time set by a meta-parameter, standing in for a compiled kernel
so that the autotuner's own logic (timing, caching, pruning, hooks) is what is tested."""

import json
import statistics
import threading
import time

import numpy as np
import pytest

import tcpu.triton as triton
import tcpu.triton.language as tl
from tcpu.frontend.build.parallel import free_cores
from tcpu.triton.runtime import autotuner, errors, interface

Config, autotune, heuristics = autotuner.Config, autotuner.autotune, autotuner.heuristics


def busy(ms):
    """Burns ``ms`` of this thread's CPU time: the same cost however loaded the machine is
    (a wall-clock wait would be shortened by the time other jobs take the core)."""
    deadline = time.thread_time() + ms / 1e3
    while time.thread_time() < deadline:
        pass


def accumulate(x_ptr, out_ptr, n, BLOCK, COST):
    """What the stand-in kernel computes, as a @jit kernel's Python function would be."""


class AccumulateKernel(interface.KernelInterface):
    """out[:n] += x[:n] (so extra runs show in the output), x[:n] += bump (so it modifies
    an input), taking COST ms. BLOCK > limit raises OutOfResources like a config that
    needs too much scratch; BLOCK == broken raises a real error."""

    arg_names = ["x_ptr", "out_ptr", "n", "BLOCK", "COST"]
    fn = staticmethod(accumulate)  # where Triton's wrappers find the Python function

    def __init__(self, bump=0.0, limit=None, broken=None):
        self.calls = []
        self.warmups = []  # (BLOCK, the thread that compiled it)
        self.warmups_before_first_run = None
        self.bump = bump
        self.limit = limit
        self.broken = broken

    def run(self, *args, grid, warmup, **kwargs):
        bound = {**dict(zip(self.arg_names, args)), **kwargs}
        self.calls.append({"grid": grid, "warmup": warmup, **bound})
        if self.warmups_before_first_run is None:
            self.warmups_before_first_run = len(self.warmups)
        if self.limit is not None and bound["BLOCK"] > self.limit:
            raise errors.OutOfResources(bound["BLOCK"] * 4, self.limit * 4, "scratch")
        if bound["BLOCK"] == self.broken:
            raise RuntimeError("kernel bug")
        n, x, out = bound["n"], bound["x_ptr"], bound["out_ptr"]
        out[:n] += x[:n]
        x[:n] += self.bump
        busy(bound["COST"])

    def warmup(self, *args, grid, **kwargs):
        self.warmups.append((kwargs["BLOCK"], threading.current_thread().name))
        return ("compiled", kwargs["BLOCK"], kwargs["COST"])


class CountingBench:
    """A do_bench for the autotuner (``do_bench=`` is public API) that counts its calls
    (one per config timed), runs each config RUNS times and times them in thread CPU
    time, so that a test's choice of config and its run counts hold however loaded the
    machine is. The default timer, testing.do_bench in wall time, has its own tests."""

    RUNS = 3

    def __init__(self):
        self.calls = 0

    def __call__(self, kernel_call, quantiles):
        self.calls += 1
        times = []
        for _ in range(self.RUNS):
            start = time.thread_time()
            kernel_call()
            times.append((time.thread_time() - start) * 1e3)
        return [statistics.median(times), min(times), max(times)]


CONFIGS = [Config({"BLOCK": 64, "COST": 3.0}), Config({"BLOCK": 128, "COST": 0.5}),
           Config({"BLOCK": 256, "COST": 1.5})]


def arrays(n=16, dtype=np.float32):
    return np.arange(n, dtype=dtype), np.zeros(n, dtype=dtype)


@pytest.fixture(autouse=True)
def quiet(monkeypatch):
    monkeypatch.delenv("TRITON_PRINT_AUTOTUNING", raising=False)
    monkeypatch.delenv("TRITON_CACHE_AUTOTUNING", raising=False)


# --- Config ---------------------------------------------------------------------------


def test_config_kwargs_carry_the_launch_options():
    config = Config({"BLOCK": 128}, num_warps=8, num_stages=2)
    assert config.all_kwargs() == {"BLOCK": 128, "num_warps": 8, "num_ctas": 1, "num_stages": 2}
    full = Config({"BLOCK": 1}, maxnreg=128, num_threads=4).all_kwargs()
    assert full["maxnreg"] == 128 and full["num_threads"] == 4
    assert str(config) == "BLOCK: 128, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: None"
    assert "num_threads: 4" in str(Config({}, num_threads=4))
    assert Config({"BLOCK": 128}, num_warps=8, num_stages=2) == config
    assert hash(Config({"BLOCK": 128}, num_warps=8, num_stages=2)) == hash(config)
    assert Config({"BLOCK": 128}, num_warps=4, num_stages=2) != config
    hook = lambda nargs: None  # noqa: E731
    assert Config({"BLOCK": 128}, pre_hook=hook) != Config({"BLOCK": 128})


# --- choosing -------------------------------------------------------------------------


def test_picks_the_fastest_config_and_launches_with_it():
    kernel = AccumulateKernel()
    bench = CountingBench()
    tuned = autotune(CONFIGS, key=["n"], do_bench=bench)(kernel)
    assert tuned.arg_names == kernel.arg_names
    x, out = arrays()
    tuned[(4,)](x, out, 16)
    assert tuned.best_config is CONFIGS[1]
    assert bench.calls == 3
    assert set(tuned.configs_timings) == set(CONFIGS)
    medians = {c.kwargs["COST"]: t[0] for c, t in tuned.configs_timings.items()}
    assert medians[0.5] < medians[1.5] < medians[3.0]
    assert 0.5 <= medians[0.5] <= 0.7
    assert len(kernel.calls) == 3 * CountingBench.RUNS + 1
    assert tuned.bench_time > 0
    last = kernel.calls[-1]  # the real launch: best config, launch options, grid, warmup
    assert (last["BLOCK"], last["COST"], last["num_warps"], last["num_stages"]) == (128, 0.5, 4, 3)
    assert last["grid"] == (4,) and last["warmup"] is False
    assert all(c["grid"] == (4,) for c in kernel.calls)  # timed runs get the grid too


def test_key_values_and_tensor_dtypes_decide_retuning():
    kernel = AccumulateKernel()
    bench = CountingBench()
    tuned = autotune(CONFIGS, key=["n"], do_bench=bench)(kernel)
    x, out = arrays(32)
    tuned[(1,)](x, out, 16)
    assert bench.calls == 3
    assert list(tuned.cache) == [(16, "float32", "float32")]
    launches = len(kernel.calls)
    tuned[(1,)](x, out, 16)  # a hit: no timing, one launch
    assert bench.calls == 3 and len(kernel.calls) == launches + 1
    tuned[(1,)](x, out, n=16)  # by keyword: the same key
    assert bench.calls == 3
    tuned[(1,)](x, out, 8)  # a new n
    assert bench.calls == 6
    x64, out64 = arrays(32, np.float64)
    tuned[(1,)](x64, out64, 8)  # new dtypes
    assert bench.calls == 9
    assert (8, "float64", "float64") in tuned.cache and len(tuned.cache) == 3


def test_torch_tensors_are_keyed_by_dtype():
    torch = pytest.importorskip("torch")
    kernel = AccumulateKernel()
    tuned = autotune(CONFIGS[:2], key=["n"], do_bench=CountingBench())(kernel)
    tuned[(1,)](torch.ones(4), torch.zeros(4), 4)
    assert list(tuned.cache) == [(4, "torch.float32", "torch.float32")]


def test_one_config_is_never_timed():
    kernel = AccumulateKernel()
    bench = CountingBench()
    tuned = autotune([CONFIGS[0]], key=["n"], do_bench=bench)(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert bench.calls == 0 and len(kernel.calls) == 1 and tuned.best_config is CONFIGS[0]
    np.testing.assert_array_equal(out, x)


def test_first_config_knob_skips_the_timing(monkeypatch):
    monkeypatch.setenv("TCPU_AUTOTUNE_FIRST_CONFIG", "1")
    kernel = AccumulateKernel()
    bench = CountingBench()
    # The first config that survives pruning: CONFIGS[0] is pruned away here.
    tuned = autotune(CONFIGS, key=["n"], do_bench=bench,
                     prune_configs_by={"early_config_prune":
                                       lambda configs, nargs, **kw: configs[1:]})(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert bench.calls == 0 and len(kernel.calls) == 1 and tuned.best_config is CONFIGS[1]
    np.testing.assert_array_equal(out, x)
    # Set in code rather than the environment: the same.
    monkeypatch.delenv("TCPU_AUTOTUNE_FIRST_CONFIG")
    with triton.knobs.autotuning.scope():
        triton.knobs.autotuning.first_config = True
        again = autotune(CONFIGS, key=["n"], do_bench=bench)(AccumulateKernel())
        again[(1,)](*arrays(), 16)
        assert bench.calls == 0 and again.best_config is CONFIGS[0]
    # Off: every config is timed.
    timed = autotune(CONFIGS, key=["n"], do_bench=bench)(AccumulateKernel())
    timed[(1,)](*arrays(), 16)
    assert bench.calls == len(CONFIGS) and timed.best_config is CONFIGS[1]


def test_default_timer_stops_early_on_a_clearly_slower_config():
    kernel = AccumulateKernel()
    tuned = autotune([Config({"BLOCK": 2, "COST": 0.5}), Config({"BLOCK": 1, "COST": 30.0}),
                      Config({"BLOCK": 4, "COST": 0.6})], key=["n"])(kernel)
    x, out = arrays()
    start = time.perf_counter()
    tuned[(1,)](x, out, 16)
    elapsed = time.perf_counter() - start
    assert tuned.best_config.kwargs["BLOCK"] in (2, 4)
    runs = {b: sum(1 for c in kernel.calls if c["BLOCK"] == b) for b in (1, 2, 4)}
    # The slow one: a warming run and one timed run (60x the best so far) and no more.
    assert runs[1] == 2
    # The others: a warming run, then at least 3 timed runs, at most the 40 ms budget's
    # (plus the real launch of the winner).
    assert all(4 <= runs[b] <= 1 + 100 + 1 for b in (2, 4))
    timings = tuned.configs_timings
    assert all(len(t) == 3 for t in timings.values())  # median, p20, p80
    assert {c.kwargs["COST"]: t[0] for c, t in timings.items()}[30.0] >= 30.0
    # Only the lower bound: a wall-clock ceiling fails on a loaded machine (the run counts
    # above already show the early stop).
    assert tuned.bench_time <= elapsed


def test_deprecated_warmup_and_rep_still_set_the_budgets():
    kernel = AccumulateKernel()
    with pytest.warns(DeprecationWarning):
        tuned = autotune(CONFIGS[:2], key=["n"], warmup=1, rep=4)(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    # rep=4 ms allows a run or two per config after the estimate's five; the default
    # 100 ms would take dozens of the 0.5 ms config.
    assert sum(1 for c in kernel.calls if c["COST"] == 0.5) <= 1 + 5 + 4 + 4 + 1


# --- keeping arguments intact while timing -------------------------------------------


def test_without_reset_timed_runs_accumulate():
    kernel = AccumulateKernel()
    x, out = arrays()
    autotune(CONFIGS, key=["n"], do_bench=CountingBench())(kernel)[(1,)](x, out, 16)
    runs = 3 * CountingBench.RUNS + 1
    np.testing.assert_array_equal(out, runs * x)  # every timed run added x once more


def test_reset_to_zero_zeroes_before_each_timed_run_and_the_launch():
    kernel = AccumulateKernel()
    seen = []
    original_run = kernel.run

    def run(*args, **kwargs):  # out must be zero whenever the kernel starts
        seen.append(float(np.abs(args[1]).sum()))
        return original_run(*args, **kwargs)

    kernel.run = run
    tuned = autotune(CONFIGS, key=["n"], reset_to_zero=["out_ptr"],
                     do_bench=CountingBench())(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert len(seen) == 3 * CountingBench.RUNS + 1 and all(s == 0.0 for s in seen)
    np.testing.assert_array_equal(out, x)  # the launch's own result only


def test_restore_value_puts_inputs_back_after_each_timed_run():
    kernel = AccumulateKernel(bump=1.0)
    tuned = autotune(CONFIGS, key=["n"], reset_to_zero=["out_ptr"], restore_value=["x_ptr"],
                     do_bench=CountingBench())(kernel)
    x, out = arrays()
    original = x.copy()
    tuned[(1,)](x, out, 16)
    np.testing.assert_array_equal(x, original + 1.0)  # bumped by the real launch only
    np.testing.assert_array_equal(out, original)

    unrestored = AccumulateKernel(bump=1.0)
    x, out = arrays()
    autotune(CONFIGS, key=["n"], do_bench=CountingBench())(unrestored)[(1,)](x, out, 16)
    np.testing.assert_array_equal(x, original + 3 * CountingBench.RUNS + 1)


def test_restore_value_with_torch_tensors():
    torch = pytest.importorskip("torch")

    class TorchKernel(AccumulateKernel):
        def run(self, *args, grid, warmup, **kwargs):
            args[0].add_(1.0)
            args[1].add_(args[0])
            busy(kwargs["COST"])

    x, out = torch.zeros(8), torch.zeros(8)
    autotune(CONFIGS, key=["n"], reset_to_zero=["out_ptr"], restore_value=["x_ptr"],
             do_bench=CountingBench())(TorchKernel())[(1,)](x, out, 8)
    assert x.tolist() == [1.0] * 8 and out.tolist() == [1.0] * 8


def test_user_hooks_replace_the_defaults():
    events = []
    kernel = AccumulateKernel(broken=64)
    tuned = autotune(CONFIGS[:2], key=["n"], reset_to_zero=["out_ptr"],
                     pre_hook=lambda nargs, reset_only=False: events.append(("pre", reset_only)),
                     post_hook=lambda nargs, exception: events.append(("post", type(exception))),
                     do_bench=CountingBench())(kernel)
    x, out = arrays()
    with pytest.raises(RuntimeError, match="kernel bug"):  # a real error is not swallowed
        tuned[(1,)](x, out, 16)
    assert events == [("pre", False), ("post", RuntimeError)]
    assert out.sum() == 0  # the user's pre_hook replaced reset_to_zero: nothing zeroed, nothing ran


def test_config_pre_hook_runs_before_every_run_of_its_config():
    seen = []
    configs = [Config({"BLOCK": 1, "COST": 0.3},
                      pre_hook=lambda nargs: seen.append(nargs["BLOCK"])),
               Config({"BLOCK": 2, "COST": 1.0})]
    kernel = AccumulateKernel()
    tuned = autotune(configs, key=["n"], do_bench=CountingBench())(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert tuned.best_config is configs[0]
    assert seen == [1] * (CountingBench.RUNS + 1)  # timed runs and the launch


# --- pruning ---------------------------------------------------------------------------


def test_early_config_prune_sees_the_arguments():
    bench = CountingBench()
    seen = {}

    def small_blocks(configs, nargs, **kwargs):
        seen.update(nargs=dict(nargs), kwargs=kwargs)
        return [c for c in configs if c.kwargs["BLOCK"] <= nargs["n"]]

    kernel = AccumulateKernel()
    tuned = autotune(CONFIGS, key=["n"], prune_configs_by={"early_config_prune": small_blocks},
                     do_bench=bench)(kernel)
    x, out = arrays(256)
    tuned[(2,)](x, out, 200)
    assert bench.calls == 2  # 256 > 200 was never timed
    assert all(c["BLOCK"] != 256 for c in kernel.calls)
    assert seen["nargs"]["n"] == 200 and seen["kwargs"]["grid"] == (2,)
    tuned[(2,)](x, out, 100)  # only BLOCK 64 fits: chosen without timing
    assert bench.calls == 2 and tuned.best_config is CONFIGS[0]

    empty = autotune(CONFIGS, key=["n"],
                     prune_configs_by={"early_config_prune": lambda c, n, **k: []},
                     do_bench=bench)(AccumulateKernel())
    with pytest.raises(errors.AutotunerError):
        empty[(1,)](x, out, 16)


def test_pruning_runs_once_per_key_and_other_arguments_reuse_its_choice():
    """Triton prunes and times only when the key is new: a launch that differs in an
    argument outside the key reuses the choice even if pruning would have dropped it.
    Tutorial 06 relies on this by accident (its key omits STAGE, its prune drops
    BLOCK_M < BLOCK_N only for causal runs): measured with Triton 3.6 on an H200, 16 of
    20 non-causal-then-causal sequences reused BLOCK_M=64, BLOCK_N=128 and failed the
    causal check, as they do on tcpu (bench/RESULTS.md, tutorial 06)."""
    pruned_for = []

    def drop_fast_when_causal(configs, nargs, **kwargs):
        pruned_for.append(kwargs["STAGE"])
        return [c for c in configs if kwargs["STAGE"] == 1 or c.kwargs["COST"] > 1.0]

    bench = CountingBench()
    tuned = autotune(CONFIGS, key=["n"], do_bench=bench,
                     prune_configs_by={"early_config_prune": drop_fast_when_causal})(
                         AccumulateKernel())
    x, out = arrays()
    tuned[(1,)](x, out, 16, STAGE=1)
    assert tuned.best_config is CONFIGS[1] and bench.calls == 3
    tuned[(1,)](x, out, 16, STAGE=3)  # same key: no pruning, no timing, same config
    assert tuned.best_config is CONFIGS[1] and bench.calls == 3 and pruned_for == [1]
    tuned[(1,)](x, out, 8, STAGE=3)  # a new key prunes with this launch's arguments
    assert pruned_for == [1, 3] and tuned.best_config is CONFIGS[2]


def test_perf_model_keeps_the_top_k():
    estimates = []

    def model(**kwargs):  # claims bigger blocks are faster
        estimates.append(kwargs)
        return -kwargs["BLOCK"]

    for top_k, timed in ((2, {128, 256}), (0.4, {256}), (1.0, {64, 128, 256})):
        bench = CountingBench()
        kernel = AccumulateKernel()
        tuned = autotune(CONFIGS, key=["n"], prune_configs_by={"perf_model": model, "top_k": top_k},
                         do_bench=bench)(kernel)
        x, out = arrays()
        tuned[(1,)](x, out, 16)
        assert {c["BLOCK"] for c in kernel.calls} == timed
        assert bench.calls == (len(timed) if len(timed) > 1 else 0)
    assert estimates[0]["n"] == 16 and estimates[0]["num_warps"] == 4 and "x_ptr" in estimates[0]
    with pytest.raises(TypeError):
        autotune(CONFIGS, key=["n"], prune_configs_by={"perf_model": model, "top_k": 2.5},
                 do_bench=bench)(AccumulateKernel())[(1,)](x, out, 16)


def test_warmup_compiles_every_pruned_config():
    kernel = AccumulateKernel()
    tuned = autotune(CONFIGS, key=["n"], prune_configs_by={
        "early_config_prune": lambda configs, nargs, **kw: configs[:2]})(kernel)
    x, out = arrays()
    assert tuned.warmup(x, out, 16, grid=(1,)) == [("compiled", 64, 3.0), ("compiled", 128, 0.5)]
    assert kernel.calls == []


def test_tuning_compiles_every_config_at_once_before_timing_them():
    """Cold, compiling is most of a tuning's time: the configs' specializations are compiled
    first, on compile_in_parallel's threads (the free cores), then timed one by one."""
    if free_cores() < 2:
        pytest.skip("one free core: the configs compile as they are timed")
    kernel = AccumulateKernel()
    tuned = autotune(CONFIGS, key=["n"], do_bench=CountingBench())(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert sorted(block for block, _ in kernel.warmups) == [64, 128, 256]
    assert all(thread.startswith("tcpu-compile") for _, thread in kernel.warmups)
    assert kernel.warmups_before_first_run == 3


# --- configs that cannot run -----------------------------------------------------------


def test_out_of_resources_config_is_skipped(capsys, monkeypatch):
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    configs = CONFIGS + [Config({"BLOCK": 4096, "COST": 0.0})]  # "fastest", but does not fit
    kernel = AccumulateKernel(limit=1024)
    tuned = autotune(configs, key=["n"], do_bench=CountingBench())(kernel)
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert tuned.best_config is CONFIGS[1]
    assert tuned.configs_timings[configs[-1]] == [float("inf")] * 3
    assert "out of resource: scratch" in capsys.readouterr().out


def test_conflicting_meta_parameters_are_refused():
    tuned = autotune(CONFIGS, key=["n"], do_bench=CountingBench())(AccumulateKernel())
    x, out = arrays()
    with pytest.raises(ValueError, match="BLOCK"):
        tuned[(1,)](x, out, 16, BLOCK=32)


# --- messages --------------------------------------------------------------------------


def test_print_autotuning(capsys, monkeypatch):
    tuned = autotune(CONFIGS, key=["n"], do_bench=CountingBench())(AccumulateKernel())
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert capsys.readouterr().out == ""
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    tuned[(1,)](x, out, 8)
    printed = capsys.readouterr().out
    assert "Triton autotuning for function accumulate" in printed
    assert "with key as (8, 'float32', 'float32')" in printed
    assert f"best config selected: {CONFIGS[1]};" in printed
    assert printed.count("Autotuning kernel accumulate with config") == 3
    tuned[(1,)](x, out, 8)  # a hit prints nothing
    assert capsys.readouterr().out == ""


# --- results on disk -------------------------------------------------------------------


def test_cache_results_reuses_timings_across_autotuners(tmp_path, monkeypatch):
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path))
    first_bench, second_bench = CountingBench(), CountingBench()
    first = autotune(CONFIGS, key=["n"], do_bench=first_bench,
                     cache_results=True)(AccumulateKernel())
    x, out = arrays()
    first[(1,)](x, out, 16)
    assert first_bench.calls == 3
    files = list((tmp_path / "autotune").glob("*.json"))
    assert len(files) == 1 and files[0].name.startswith("accumulate-")
    saved = json.loads(files[0].read_text())
    assert saved["key"] == ["16", "float32", "float32"] and len(saved["configs_timings"]) == 3

    kernel = AccumulateKernel()  # a new process would build a new autotuner like this one
    second = autotune(CONFIGS, key=["n"], do_bench=second_bench, cache_results=True)(kernel)
    second[(1,)](x, out, 16)
    assert second_bench.calls == 0 and len(kernel.calls) == 1
    assert second.best_config == first.best_config
    assert {str(c): t for c, t in second.configs_timings.items()} == \
        {str(c): t for c, t in first.configs_timings.items()}

    other_configs = autotune(CONFIGS[:2], key=["n"], do_bench=second_bench,
                             cache_results=True)(AccumulateKernel())
    other_configs[(1,)](x, out, 16)  # another config list is another entry
    assert second_bench.calls == 2


def test_cache_results_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TCPU_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("TRITON_CACHE_AUTOTUNING", "1")
    tuned = autotune(CONFIGS[:2], key=["n"], do_bench=CountingBench())(AccumulateKernel())
    x, out = arrays()
    tuned[(1,)](x, out, 16)
    assert len(list((tmp_path / "autotune").glob("*.json"))) == 1


# --- heuristics ------------------------------------------------------------------------


def test_heuristics_values_reach_run():
    kernel = AccumulateKernel()
    wrapped = heuristics({
        "BLOCK": lambda args: 1 << (args["n"] - 1).bit_length(),
        "COST": lambda args: args["BLOCK"] / 1000,  # sees the value set before it
    })(kernel)
    assert isinstance(wrapped, autotuner.Heuristics) and wrapped.arg_names == kernel.arg_names
    x, out = arrays(32)
    wrapped[(3,)](x, out, 20)
    call = kernel.calls[-1]
    assert (call["BLOCK"], call["COST"], call["grid"], call["warmup"]) == (32, 0.032, (3,), False)
    np.testing.assert_array_equal(out[:20], x[:20])
    assert wrapped.warmup(x, out, 5, grid=(1,)) == ("compiled", 8, 0.008)


def test_autotune_over_heuristics():
    kernel = AccumulateKernel()
    bench = CountingBench()
    tuned = autotune([Config({"BLOCK": 16}), Config({"BLOCK": 64})], key=["n"], do_bench=bench)(
        heuristics({"COST": lambda args: args["BLOCK"] / 32})(kernel))
    x, out = arrays(64)
    tuned[(1,)](x, out, 64)
    assert bench.calls == 2
    assert tuned.best_config.kwargs == {"BLOCK": 16}
    assert kernel.calls[-1]["COST"] == 0.5
    assert tuned.base_fn is accumulate


@triton.autotune(configs=[triton.Config({"BLOCK": 128}), triton.Config({"BLOCK": 32})], key=["n"])
@triton.jit
def _static_assert_tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 64, "BLOCK too large")  # the 128 config fails to compile
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def test_a_config_failing_static_assert_is_skipped():
    # As in Triton, tl.static_assert raises CompileTimeAssertionFailure: the autotuner times
    # that config as infinitely slow and keeps the others (tutorial 06's configs rely on it).
    x = np.arange(100, dtype=np.float32)
    out = np.zeros_like(x)
    _static_assert_tuned[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](x, out, 100)
    np.testing.assert_array_equal(out, x + 1)
    assert _static_assert_tuned.best_config.kwargs == {"BLOCK": 32}
