"""triton.profiler (proton) on tcpu: sessions, scopes and states frame the launches of
@triton.jit kernels, each recorded with its wall time, in the file shapes of Triton's profiler
(a hatchet JSON tree, a Chrome trace); the viewer prints them; the launch hooks it rests on
(knobs.runtime.launch_enter_hook / launch_exit_hook) are called as Triton calls them; what
needs a GPU is refused by name. The last test checks every public name of real Triton's
triton.profiler against tcpu's."""

from __future__ import annotations

import json
import math
import pathlib
import subprocess
import sys

import pytest
import torch

import triton
import triton.language as tl
import triton.profiler as proton
import triton.profiler.viewer as proton_viewer
from triton import knobs
from triton.profiler.hooks import COMPUTE_METADATA_SCOPE_NAME

from real_triton import run_json


def _metadata(grid, kernel, args):
    n = args["n"]
    return {"name": f"{kernel.name} [n={n}]", "flops32": float(n), "bytes": 8 * n}


@triton.jit(launch_metadata=_metadata)
def copy_twice(x, y, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y + offsets, tl.load(x + offsets, mask=mask) * 2, mask=mask)


@triton.jit
def plain(x, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(x + offsets, tl.load(x + offsets, mask=offsets < n) + 1, mask=offsets < n)


def _launch_copy(n: int = 256) -> torch.Tensor:
    x = torch.arange(n, dtype=torch.float32)
    y = torch.empty_like(x)
    copy_twice[(triton.cdiv(n, 64),)](x, y, n, BLOCK=64)
    assert torch.equal(y, x * 2)
    return y


def _launch_plain() -> None:
    plain[(1,)](torch.zeros(16), 16, BLOCK=16)


def _read(path: pathlib.Path) -> list:
    with path.open() as f:
        return json.load(f)


@pytest.fixture(autouse=True)
def no_session_left():
    yield
    proton.finalize()  # a failed test must not leave a session recording into the next
    assert not knobs.runtime.launch_enter_hook.calls and not knobs.runtime.launch_exit_hook.calls


def test_scopes_frame_the_launches_with_their_metadata(tmp_path: pathlib.Path) -> None:
    session = proton.start(str(tmp_path / "run"), hook="triton")
    assert session is not None
    with proton.scope("outer", {"foo": 1.0}):
        for _ in range(3):
            _launch_copy()
        with proton.scope("inner"):
            _launch_plain()
    proton.finalize()
    root, devices = _read(tmp_path / "run.hatchet")
    assert root["frame"]["name"] == "ROOT" and "device_id" not in root["metrics"]
    assert devices["CPU"]["0"]["num_cores"] >= 1
    [outer] = root["children"]
    assert outer["frame"]["name"] == "outer" and outer["metrics"] == {"foo": 1.0}
    kernel, inner = outer["children"]
    assert kernel["frame"]["name"] == "copy_twice [n=256]"
    metrics = kernel["metrics"]
    assert metrics["count"] == 3 and metrics["time (ns)"] > 0
    assert metrics["flops32"] == 3 * 256.0 and metrics["bytes"] == 3 * 8 * 256
    assert metrics["device_type"] == "CPU" and metrics["device_id"] == "0"
    assert inner["frame"]["name"] == "inner"
    assert inner["children"][0]["frame"]["name"] == "plain"


def test_without_the_triton_hook_kernels_are_named_by_their_function(tmp_path) -> None:
    proton.start(str(tmp_path / "plain"))
    with proton.scope("test0"):
        _launch_copy()
    proton.finalize()
    root, _ = _read(tmp_path / "plain.hatchet")
    kernel = root["children"][0]["children"][0]
    assert kernel["frame"]["name"] == "copy_twice"
    assert "flops32" not in kernel["metrics"] and kernel["metrics"]["count"] == 1


def test_deactivated_sessions_record_nothing_and_sessions_are_independent(tmp_path) -> None:
    first = proton.start(str(tmp_path / "first"))
    second = proton.start(str(tmp_path / "second"))
    assert first != second
    with proton.scope("scope0"):
        _launch_plain()
        _launch_plain()
    proton.deactivate(first)
    proton.finalize(first)
    with proton.scope("scope1"):
        _launch_plain()
    proton.deactivate(second)
    _launch_plain()  # recorded nowhere
    proton.activate(second)
    with proton.scope("scope1"):
        _launch_plain()
    proton.finalize(second)
    root, _ = _read(tmp_path / "first.hatchet")
    assert [c["frame"]["name"] for c in root["children"]] == ["scope0"]
    assert root["children"][0]["children"][0]["metrics"]["count"] == 2
    root, _ = _read(tmp_path / "second.hatchet")
    counts = {c["frame"]["name"]: c["children"][0]["metrics"]["count"] for c in root["children"]}
    assert counts == {"scope0": 2, "scope1": 2}


def test_a_trace_has_one_event_per_launch_with_its_call_stack(tmp_path) -> None:
    proton.start(str(tmp_path / "trace"), data="trace")
    with proton.scope("init"):
        torch.ones(8)  # not a tcpu launch: not an event
    with proton.scope("test"):
        _launch_plain()
    proton.finalize()
    events = _read(tmp_path / "trace.chrome_trace")["traceEvents"]
    assert len(events) == 1
    assert events[0]["name"] == "plain" and events[0]["ph"] == "X" and events[0]["dur"] > 0
    assert events[0]["args"]["call_stack"] == ["ROOT", "test", "plain"]


def test_cpu_timed_scopes_and_enter_exit_scope(tmp_path) -> None:
    proton.start(str(tmp_path / "timed"))
    with proton.cpu_timed_scope("test0"):
        with proton.cpu_timed_scope("test1"):
            _launch_plain()
    proton.enter_scope("manual", metrics={"a": 1})
    assert proton.context.depth() == 1
    _launch_plain()
    with pytest.raises(ValueError, match="mismatch"):
        proton.exit_scope("other")
    proton.exit_scope("manual", metrics={"a": 2})
    proton.finalize()
    root, _ = _read(tmp_path / "timed.hatchet")
    test0, manual = root["children"]
    assert test0["metrics"]["cpu_time (ns)"] > 0
    assert test0["children"][0]["metrics"]["cpu_time (ns)"] > 0
    assert test0["children"][0]["children"][0]["metrics"]["time (ns)"] > 0
    assert manual["metrics"] == {"a": 3}
    with pytest.raises(ValueError, match="reserved"):
        proton.cpu_timed_scope("x", {"cpu_time": 1})


def test_launches_made_by_launch_metadata_are_in_the_metadata_state(tmp_path) -> None:
    def metadata(grid, kernel, args):
        _launch_plain()  # a kernel launched while the metadata is computed
        return {"name": "outer_kernel"}

    @triton.jit(launch_metadata=metadata)
    def outer_kernel(x, n, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        tl.store(x + offsets, tl.load(x + offsets, mask=offsets < n) * 3, mask=offsets < n)

    proton.start(str(tmp_path / "state"), hook="triton")
    with proton.scope("test0"):
        outer_kernel[(1,)](torch.ones(16), 16, BLOCK=16)
    with proton.state("a_state"):
        _launch_plain()
    proton.finalize()
    root, _ = _read(tmp_path / "state.hatchet")
    test0, state = root["children"]
    names = [c["frame"]["name"] for c in test0["children"]]
    assert names == [COMPUTE_METADATA_SCOPE_NAME, "outer_kernel"]
    assert test0["children"][0]["children"][0]["frame"]["name"] == "plain"
    assert state["frame"]["name"] == "a_state"
    # The viewer drops the metadata frames, as Triton's does.
    tree, _ = proton_viewer.parse(["count"], str(tmp_path / "state.hatchet"))
    assert [c.name for c in tree.children[0].children] == ["outer_kernel"]


def test_the_viewer_derives_rates_and_prints_a_tree(tmp_path, capsys) -> None:
    proton.start(str(tmp_path / "view"), hook="triton")
    with proton.scope("work"):
        for _ in range(2):
            _launch_copy(1024)
    proton.finalize()
    path = str(tmp_path / "view.hatchet")
    root, _ = _read(tmp_path / "view.hatchet")
    kernel = root["children"][0]["children"][0]["metrics"]
    tree, metrics = proton_viewer.parse(["gflop32/s", "time/ms", "avg_time/us", "time/%",
                                         "gbyte/s"], path)
    assert metrics == ["gflop32/s", "time/ms", "avg_time/us", "time/%", "gbyte/s"]
    seconds = kernel["time (ns)"] * 1e-9
    node = tree.children[0].children[0]
    assert math.isclose(node.values["time/ms"], seconds * 1e3)
    assert math.isclose(node.values["avg_time/us"], seconds * 1e6 / 2)
    assert math.isclose(node.values["gflop32/s"], 2 * 1024 / seconds / 1e9)
    assert math.isclose(node.values["gbyte/s"], 2 * 8 * 1024 / seconds / 1e9)
    assert math.isclose(tree.values["time/%"], 100.0)  # the root holds all the time
    proton_viewer.print_tree(tree, metrics)
    out = capsys.readouterr().out
    assert "ROOT" in out and "└─" in out and "copy_twice [n=1024]" in out
    assert proton_viewer.main(["-m", "count", "--print-sorted", path]) == 0
    assert "copy_twice" in capsys.readouterr().out
    with pytest.raises(ValueError, match="peak"):
        proton_viewer.parse(["util"], path)
    with pytest.raises(RuntimeError, match="not found"):
        proton_viewer.parse(["flops16"], path)


def test_the_viewer_runs_as_a_module_under_python_m_tcpu(tmp_path) -> None:
    proton.start(str(tmp_path / "cli"))
    _launch_plain()
    proton.finalize()
    run = subprocess.run([sys.executable, "-m", "tcpu", "-m", "triton.profiler.viewer", "-m",
                          "count", str(tmp_path / "cli.hatchet")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[:2] == ["1.000 ROOT", "└─ 1.000 plain"]


def test_launch_hooks_get_the_metadata_lazily() -> None:
    seen = []
    calls = []

    def metadata(grid, kernel, args):
        calls.append((grid, kernel.name, sorted(args)))
        return {"flops": 1.0}

    @triton.jit(launch_metadata=metadata)
    def hooked(x, n, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        tl.store(x + offsets, tl.load(x + offsets, mask=offsets < n) + 1, mask=offsets < n)

    def enter(md):
        seen.append(("enter", md.data["name"]))

    def leave(md):
        seen.append(("exit", md.get()["flops"]))

    knobs.runtime.launch_enter_hook.add(enter)
    knobs.runtime.launch_exit_hook.add(leave)
    try:
        x = torch.zeros(16)
        hooked[lambda meta: (1,)](x, 16, BLOCK=16)
        hooked.warmup(x, 16, BLOCK=16, grid=(1,))  # warmup launches nothing: no hook
    finally:
        knobs.runtime.launch_enter_hook.remove(enter)
        knobs.runtime.launch_exit_hook.remove(leave)
    assert seen == [("enter", "hooked"), ("exit", 1.0)]
    assert calls == [((1, 1, 1), "hooked", ["BLOCK", "n", "x"])]
    assert torch.equal(x, torch.ones(16))


def test_a_plain_function_assigned_as_the_launch_hook_is_called() -> None:
    seen = []
    saved = knobs.runtime.launch_enter_hook
    knobs.runtime.launch_enter_hook = lambda md: seen.append(md.data["name"])
    try:
        _launch_plain()
    finally:
        knobs.runtime.launch_enter_hook = saved
    assert seen == ["plain"]
    _launch_plain()
    assert seen == ["plain"]


def test_disabled_and_gpu_only_requests_are_refused_by_name(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRITON_PROTON_DISABLE", "1")
    assert proton.start(str(tmp_path / "off")) is None
    monkeypatch.delenv("TRITON_PROTON_DISABLE")
    with pytest.raises(ValueError, match="CUPTI"):
        proton.start(backend="cupti")
    with pytest.raises(ValueError, match="python"):
        proton.start(context="python")
    with pytest.raises(ValueError, match="no modes"):
        proton.start(mode=proton.mode.PCSampling(interval=10))
    with pytest.raises(NotImplementedError, match="GPU code"):
        proton.mode.Default()
    from triton.profiler import language as proton_language
    with pytest.raises(NotImplementedError, match="instrumentation"):
        proton_language.enter_scope("x")
    with pytest.raises(ValueError, match="Unsupported device type"):
        proton.specs.max_flops("CPU", "x86_64", 32, 2, 1.0)
    assert not (tmp_path / "off.hatchet").exists()


def test_the_proton_command_profiles_a_script(tmp_path, capsys) -> None:
    script = tmp_path / "script.py"
    script.write_text("import torch, test_profiler\ntest_profiler._launch_plain()\n")
    from triton.profiler import proton as command
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    try:
        assert command.main(["-n", str(tmp_path / "cli"), str(script)]) == 0
    finally:
        sys.path.remove(str(pathlib.Path(__file__).parent))
    root, _ = _read(tmp_path / "cli.hatchet")
    assert root["children"][0]["frame"]["name"] == "plain"


_ENUMERATE = r"""
import ast, importlib, importlib.util, inspect, json, triton, triton.profiler as proton

def own(module):  # public names the module defines (not what it imports)
    names = []
    for n in dir(module):
        value = getattr(module, n)
        if n.startswith("_") or inspect.ismodule(value):
            continue
        if getattr(value, "__module__", module.__name__) == module.__name__ or not callable(value):
            names.append(n)
    return sorted(names)

found = {"file": triton.__file__, "version": triton.__version__,
         "profiler": sorted(n for n in dir(proton) if not n.startswith("_"))}
for sub in ["context", "flags", "mode", "specs", "hooks", "viewer", "language", "proton"]:
    try:
        found[sub] = own(importlib.import_module("triton.profiler." + sub))
    except ImportError:  # the viewer needs hatchet and pandas: its top-level definitions
        source = importlib.util.find_spec("triton.profiler." + sub).origin
        tree = ast.parse(open(source).read())
        found[sub] = sorted(
            {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            | {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
               if isinstance(t, ast.Name)} - {"__name__"})
found["hooks"] = ["COMPUTE_METADATA_SCOPE_NAME", "Hook", "HookManager", "InstrumentationHook",
                  "LaunchHook"]
print(json.dumps(found))
"""

# Names of Triton's profiler modules that tcpu leaves out, each with its reason.
_LEFT_OUT = {
    # Triton's libproton bindings and its typing helpers, imported into these modules.
    "libproton": "Triton's C++ profiler binding; tcpu's recorder is Python",
    "triton_proton": "Triton's C++ profiler binding; tcpu's recorder is Python",
    "getenv": "Triton's C++ getenv binding",
    "metric_types": "instrumentation's GPU metric kinds",
    "buffer_strategies": "instrumentation's GPU buffer kinds",
    "buffer_types": "instrumentation's GPU buffer kinds",
    "sampling_strategies": "instrumentation's GPU warp sampling",
    "granularities": "instrumentation's GPU warp granularities",
    "optimizations": "instrumentation's GPU code optimizations",
    "flops_by_device": "GPU peak FLOP/s tables (specs refuses CPUs)",
    "amd_bps_by_arch": "GPU peak bandwidth tables (specs refuses CPUs)",
    "amd_fp8_flops_by_arch": "GPU peak FLOP/s tables (specs refuses CPUs)",
    "FactorDict": "the viewer's pandas-based derivation",
    "time_factor_dict": "the viewer's pandas-based derivation",
    "avg_time_factor_dict": "the viewer's pandas-based derivation",
    "cpu_time_factor_dict": "the viewer's pandas-based derivation",
    "avg_cpu_time_factor_dict": "the viewer's pandas-based derivation",
    "bytes_factor_dict": "the viewer's pandas-based derivation",
    "derivable_metrics": "the viewer's pandas-based derivation",
    "default_flop_factor_dict": "the viewer's pandas-based derivation",
    "width": "a loop variable left in Triton's viewer module",
    "factor_name": "a loop variable left in Triton's viewer module",
    "factor_dict": "a loop variable left in Triton's viewer module",
    "remove_frames": "the viewer's hatchet-based steps (tcpu's parse does them)",
    "get_raw_metrics": "the viewer's hatchet-based steps (tcpu's parse does them)",
    "get_min_time_flops": "the util metric, which needs GPU peaks",
    "get_min_time_bytes": "the util metric, which needs GPU peaks",
    "derive_metrics": "the viewer's hatchet-based steps (tcpu's parse does them)",
    "format_frames": "the viewer's hatchet-based steps (tcpu's print_tree does it)",
    "filter_frames": "the viewer's hatchet-based steps (tcpu's parse does them)",
    "emit_warnings": "the viewer's hatchet-based steps",
    "apply_diff_profile": "comparing two profiles (--diff-profile): not implemented yet",
    "match_available_metrics": "the viewer's hatchet-based steps (tcpu's parse does them)",
    "execute_as_main": "the proton command's script runner (tcpu's uses runpy)",
    "do_setup_and_execute": "the proton command's script runner (tcpu's uses runpy)",
    "semantic": "in-kernel instrumentation (refused)",
}


def test_every_public_name_of_tritons_profiler_is_here_or_left_out_by_name() -> None:
    import importlib
    real = run_json(_ENUMERATE)
    missing, stale = [], []
    for section, names in real.items():
        if section in ("file", "version"):
            continue
        module = proton if section == "profiler" else importlib.import_module(
            "triton.profiler." + section)
        for name in names:
            if not hasattr(module, name) and name not in _LEFT_OUT:
                missing.append(f"{section}.{name}")
            if hasattr(module, name) and name in _LEFT_OUT:
                stale.append(f"{section}.{name}")
    assert not missing, f"in Triton's triton.profiler, neither in tcpu's nor left out: {missing}"
    assert not stale, f"left out, yet tcpu has them (drop them from _LEFT_OUT): {stale}"
