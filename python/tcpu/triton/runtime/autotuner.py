"""``triton.autotune``, ``triton.Config`` and ``triton.heuristics``: wrappers around a
launchable kernel (anything with ``run(*args, grid, warmup, **kwargs)`` and
``arg_names``) that choose its meta-parameters before each launch.

The autotuner times every candidate config on this CPU with ``do_bench`` the first time
it sees a new tuning key (the values of the ``key`` arguments and the dtypes of the
tensor arguments) and launches the fastest from then on. Both wrappers call the wrapped
kernel as ``fn.run(*args, grid=..., warmup=..., **kwargs, **meta)``, so they stack in
either order over a ``@jit`` function."""

from __future__ import annotations

import hashlib
import inspect
import json
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

from ... import _environment as environment
from ...frontend.build.parallel import compile_in_parallel, free_cores
from .. import knobs
from .autotune_timer import time_config
from .driver import driver, num_worker_threads
from .errors import AutotunerError, CompileTimeAssertionFailure, OutOfResources
from .interface import KernelInterface

__all__ = ["Config", "Autotuner", "autotune", "Heuristics", "heuristics"]

# Errors that mean "this config cannot run here" rather than "the kernel is broken".
_CONFIG_ERRORS = (OutOfResources, CompileTimeAssertionFailure)
_QUANTILES = (0.5, 0.2, 0.8)  # median first: the median decides, the others are reported


class Config:
    """One candidate: meta-parameter values (``kwargs``) plus launch options.

    ``num_warps``, ``num_stages``, ``num_ctas`` and ``maxnreg`` are GPU notions kept so
    that scripts written for GPUs run unchanged; they travel to the kernel's launcher with
    the meta-parameters (``all_kwargs``), which accepts and ignores them on the CPU.
    ``num_threads`` is the CPU's own option: worker threads for the launch (None: the
    runtime's default)."""

    def __init__(self, kwargs: dict[str, Any], num_warps: int = 4, num_stages: int = 3,
                 num_ctas: int = 1, maxnreg: int | None = None,
                 pre_hook: Callable[[dict[str, Any]], Any] | None = None,
                 num_threads: int | None = None, ir_override: str | None = None) -> None:
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.num_threads = num_threads
        self.ir_override = ir_override

    def _options(self) -> list[tuple[str, Any]]:
        return [("num_warps", self.num_warps), ("num_ctas", self.num_ctas),
                ("num_stages", self.num_stages), ("maxnreg", self.maxnreg),
                ("num_threads", self.num_threads), ("ir_override", self.ir_override)]

    def all_kwargs(self) -> dict[str, Any]:
        """The meta-parameters and the launch options that are set, as keyword arguments
        for the kernel's ``run``."""
        return {**self.kwargs, **{k: v for k, v in self._options() if v is not None}}

    def __str__(self) -> str:
        # The GPU options always (as Triton prints them), the others when set.
        shown = list(self.kwargs.items()) + [
            (k, v) for k, v in self._options()
            if v is not None or k in ("num_warps", "num_ctas", "num_stages", "maxnreg")]
        return ", ".join(f"{k}: {v}" for k, v in shown)

    def __repr__(self) -> str:
        return f"Config({self})"

    def _identity(self) -> tuple:
        return (*self.all_kwargs().items(), self.pre_hook)

    def __hash__(self) -> int:
        return hash(self._identity())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self._identity() == other._identity()


# --- helpers on tensor-like arguments (torch tensors and numpy arrays alike) ---------------


def _is_tensor(value: Any) -> bool:
    return hasattr(value, "dtype") and (hasattr(value, "data_ptr")
                                        or hasattr(value, "__array_interface__"))


def _zero(value: Any) -> None:
    if hasattr(value, "zero_"):
        value.zero_()
    else:
        value[...] = 0


def _snapshot(value: Any) -> Any:
    return value.clone() if hasattr(value, "clone") else value.copy()


def _restore(target: Any, saved: Any) -> None:
    if hasattr(target, "copy_"):
        target.copy_(saved)
    else:
        target[...] = saved


def testing_do_bench() -> Callable[..., Any]:
    from ..testing import do_bench

    return do_bench


def _timing_order(timing: Any) -> tuple:
    """Sort key for one config's result: do_bench gives a list of quantiles (median
    first), a custom do_bench may give a float; a failed config is all inf."""
    return tuple(timing) if isinstance(timing, (list, tuple)) else (timing,)


class Autotuner(KernelInterface):
    """Chooses a ``Config`` per tuning key by timing them all, then launches ``fn`` with it.

    Attributes scripts read: ``configs``, ``cache`` (tuning key -> Config),
    ``best_config`` (the config of the last launch), ``configs_timings`` (Config -> the
    timings of the last tuning: median, 20th and 80th percentile in ms) and ``bench_time``
    (seconds the last tuning took)."""

    def __init__(self, fn: Any, arg_names: list[str], configs: Sequence[Config] | None,
                 key: Sequence[str], reset_to_zero: Sequence[str] | None = None,
                 restore_value: Sequence[str] | None = None,
                 pre_hook: Callable[..., Any] | None = None,
                 post_hook: Callable[..., Any] | None = None,
                 prune_configs_by: dict[str, Any] | None = None, warmup: float | None = None,
                 rep: float | None = None, use_cuda_graph: bool = False,
                 do_bench: Callable[..., Any] | None = None, cache_results: bool = False) -> None:
        self.fn = fn
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self.cache: dict[tuple, Config] = {}
        self.configs_timings: dict[Config, Any] = {}
        self.bench_time = 0.0
        self.best_config: Config | None = None
        self.nargs: dict[str, Any] | None = None
        self.cache_results = cache_results or environment.triton_flag("TRITON_CACHE_AUTOTUNING")
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self._restore_copies: dict[str, Any] = {}
        # User hooks replace the default ones (which do reset_to_zero and restore_value).
        self.pre_hook = pre_hook or self._default_pre_hook
        self.post_hook = post_hook or self._default_post_hook
        self.user_defined_pre_hook = pre_hook is not None
        self.user_defined_post_hook = post_hook is not None

        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")

        # The innermost Python function, for names in messages and the disk cache's key.
        self.base_fn = fn
        while not inspect.isfunction(self.base_fn) and hasattr(self.base_fn, "fn"):
            self.base_fn = self.base_fn.fn

        self._do_bench = do_bench
        self.num_warmups = warmup
        self.num_reps = rep
        self.use_cuda_graph = use_cuda_graph
        if warmup is not None or rep is not None or use_cuda_graph:
            warnings.warn("autotune's warmup, rep and use_cuda_graph are deprecated (as in "
                          "Triton); pass do_bench instead", DeprecationWarning, stacklevel=3)
            if do_bench is None:
                from ..testing import do_bench as bench

                self._do_bench = lambda call, quantiles: bench(
                    call, warmup=25 if warmup is None else warmup,
                    rep=100 if rep is None else rep, quantiles=quantiles)

    # --- hooks that make benchmarking repeatable -------------------------------------

    def _default_pre_hook(self, nargs: dict[str, Any], reset_only: bool = False) -> None:
        for name in self.reset_to_zero:
            if nargs.get(name) is not None:
                _zero(nargs[name])
        if not reset_only:
            self._restore_copies = {name: _snapshot(nargs[name]) for name in self.restore_value
                                    if nargs.get(name) is not None}

    def _default_post_hook(self, nargs: dict[str, Any], exception: BaseException | None) -> None:
        for name, saved in self._restore_copies.items():
            _restore(nargs[name], saved)
        self._restore_copies = {}

    # --- tuning ----------------------------------------------------------------------

    @property
    def do_bench(self) -> Callable[..., Any]:
        return self._do_bench if self._do_bench is not None else driver.active.get_benchmarker()

    @property
    def _name(self) -> str:
        return getattr(self.base_fn, "__name__", type(self.fn).__name__)

    def _tuning_key(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        named = {k: v for k, v in {**dict(zip(self.arg_names, args)), **kwargs}.items()
                 if k in self.arg_names}
        values = [named[k] for k in self.keys if k in named]
        return tuple(values + [str(v.dtype) for v in named.values() if _is_tensor(v)])

    def _bench(self, *args: Any, config: Config, best_ms: float | None = None,
               **meta: Any) -> Any:
        verbose = environment.triton_flag("TRITON_PRINT_AUTOTUNING")
        if verbose:
            print(f"Autotuning kernel {self._name} with config {config}")
        conflicts = meta.keys() & config.kwargs.keys()
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}: "
                             "arguments the autotuner sets must not be passed at launch")
        current = {**meta, **config.all_kwargs()}
        full_nargs = {**(self.nargs or {}), **current}

        def kernel_call() -> None:
            if config.pre_hook:
                config.pre_hook(full_nargs)
            self.pre_hook(full_nargs)
            try:
                self.fn.run(*args, **current)
            except Exception as error:
                self.post_hook(full_nargs, exception=error)
                raise
            self.post_hook(full_nargs, exception=None)

        try:
            bench = self.do_bench
            if bench is testing_do_bench():  # the default: autotune_timer's, which stops early
                return time_config(kernel_call, _QUANTILES, best_ms)
            return bench(kernel_call, quantiles=_QUANTILES)
        except _CONFIG_ERRORS as error:
            if verbose:
                print(f"Autotuning skipped config {config}: {error}")
            return [float("inf")] * len(_QUANTILES)

    def prune_configs(self, kwargs: dict[str, Any]) -> list[Config]:
        """``early_config_prune(configs, nargs, **kwargs)`` first, then the ``top_k``
        configs (a count, or a fraction if a float <= 1) by the ``perf_model``'s estimate."""
        nargs = self.nargs or {}
        pruned = list(self.configs)
        if self.early_config_prune:
            pruned = list(self.early_config_prune(pruned, nargs, **kwargs))
            if not pruned:
                raise AutotunerError(f"early_config_prune left no config for {self._name}; "
                                     "it must return at least one")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = max(1, int(len(pruned) * top_k))
            elif not isinstance(top_k, int):
                raise TypeError("prune_configs_by['top_k'] must be an int or a float <= 1.0")
            if len(pruned) > top_k:
                estimate = {c: self.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in pruned}
                pruned = sorted(pruned, key=estimate.__getitem__)[:top_k]
        return pruned

    def _benchmark(self, key: tuple, configs: list[Config], args: tuple,
                   kwargs: dict[str, Any]) -> None:
        start = time.perf_counter()
        self._compile_configs(configs, args, kwargs)
        timings: dict[Config, Any] = {}
        best_ms: float | None = None  # the best median so far, for the default timer
        for config in configs:
            timings[config] = self._bench(*args, config=config, best_ms=best_ms, **kwargs)
            median = _timing_order(timings[config])[0]
            if median != float("inf") and (best_ms is None or median < best_ms):
                best_ms = median
        self.bench_time = time.perf_counter() - start
        self.configs_timings = timings
        self.cache[key] = min(timings, key=lambda c: _timing_order(timings[c]))
        # Leave reset_to_zero arguments zeroed for the real launch that follows.
        self.pre_hook({**(self.nargs or {}), **kwargs, **self.cache[key].all_kwargs()},
                      reset_only=True)

    def _compile_configs(self, configs: list[Config], args: tuple,
                         kwargs: dict[str, Any]) -> None:
        """Compiles every config's specialization at once on the free cores (parallel.py)
        before they are timed one by one: cold, compiling is most of a tuning's time. A
        config that fails to compile is left to its timing, which reports it as it would have."""
        warmup = getattr(self.fn, "warmup", None)
        if warmup is None or len(configs) < 2 or free_cores() < 2:
            return
        meta = {k: v for k, v in kwargs.items() if k != "warmup"}

        def compile_one(config: Config) -> Callable[[], None]:
            def call() -> None:
                try:
                    warmup(*args, **meta, **config.all_kwargs())
                except Exception:  # raised again, and judged, by the timing
                    pass
            return call

        compile_in_parallel([compile_one(c) for c in configs])

    # --- results on disk (cache_results=True or TRITON_CACHE_AUTOTUNING=1) -----------

    def _disk_cache_name(self, key: tuple, configs: list[Config]) -> str:
        """The name of the results for ``key`` and ``configs``: codegen keeps them as
        <cache>/autotune/<name>.json, in the compile cache's directory (TCPU_CACHE_DIR, else
        $XDG_CACHE_HOME/tcpu, else ~/.cache/tcpu; tcpu/frontend_cache.hpp)."""
        try:
            source = inspect.getsource(self.base_fn)
        except (OSError, TypeError):
            source = getattr(self.base_fn, "__qualname__", self._name)
        inner = self.fn
        while not hasattr(inner, "cache_key") and hasattr(inner, "fn"):
            inner = inner.fn
        # Timings hold for this kernel's code, on this CPU, with this many threads.
        parts = ["tcpu-autotune-1", source, str(getattr(inner, "cache_key", "")),
                 str(driver.active.get_current_target()), str(num_worker_threads()),
                 str(key)] + [str(c) for c in configs]
        digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()
        return f"{self._name[:100]}-{digest[:32]}"

    def _check_disk_cache(self, key: tuple, configs: list[Config],
                          args: tuple, kwargs: dict[str, Any]) -> bool:
        """Loads the tuning for ``key`` from disk (True), or benchmarks and saves (False).
        Configs with a pre_hook cannot be written down, so they are always benchmarked."""
        if any(c.pre_hook for c in configs):
            self._benchmark(key, configs, args, kwargs)
            return False
        from ... import _tcpu_rt
        name = self._disk_cache_name(key, configs)
        path = None
        try:
            path = _tcpu_rt.autotune_results_path(name)  # ValueError for a name it cannot keep
            if path is None:
                raise OSError("no cache directory is named (TCPU_CACHE_DIR, XDG_CACHE_HOME, HOME)")
            saved = json.loads(Path(path).read_text())
            timings = {Config(**entry): timing for entry, timing in saved["configs_timings"]}
        except (OSError, ValueError, KeyError, TypeError):
            pass  # absent or unreadable: tune again
        else:
            self.configs_timings = timings
            self.cache[key] = min(timings, key=lambda c: _timing_order(timings[c]))
            return True
        self._benchmark(key, configs, args, kwargs)
        try:
            text = json.dumps({"key": [str(k) for k in key],
                               "configs_timings": [(vars(c), t)
                                                   for c, t in self.configs_timings.items()]})
            # Written whole, then renamed: a concurrent reader sees the old file or this one.
            _tcpu_rt.autotune_results_store(name, text)
        except (OSError, TypeError, ValueError) as error:
            # A read-only home, or meta-parameters JSON cannot hold: tuned, just not saved.
            warnings.warn(f"autotuning results not saved to {path}: {error}")
        return False

    # --- launching -------------------------------------------------------------------

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """``kwargs`` holds ``grid`` and ``warmup`` (from ``kernel[grid](...)``) and any
        arguments passed by name; they are handed on as they came."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            tuned_now = False
            key: tuple | None = None
            if len(self.configs) > 1:
                key = self._tuning_key(args, kwargs)
                if key not in self.cache:
                    pruned = self.prune_configs(kwargs)
                    # Nothing to compare, or no timing wanted (knobs.autotuning.first_config).
                    if len(pruned) == 1 or knobs.autotuning.first_config:
                        self.cache[key] = pruned[0]
                    elif self.cache_results:
                        tuned_now = not self._check_disk_cache(key, pruned, args, kwargs)
                    else:
                        self._benchmark(key, pruned, args, kwargs)
                        tuned_now = True
                config = self.cache[key]
            else:
                config = self.configs[0]
            self.best_config = config
            if tuned_now and environment.triton_flag("TRITON_PRINT_AUTOTUNING"):
                print(f"Triton autotuning for function {self._name},\nwith key as {key},\n"
                      f"finished after {self.bench_time:.2f}s,\nbest config selected: {config};")
            if config.pre_hook is not None:
                config.pre_hook({**self.nargs, **kwargs, **config.all_kwargs()})
            return self.fn.run(*args, **kwargs, **config.all_kwargs())
        finally:
            self.nargs = None

    def warmup(self, *args: Any, **kwargs: Any) -> list[Any]:
        """Compile ``fn`` for every config that survives pruning, without launching."""
        self.nargs = dict(zip(self.arg_names, args))
        try:
            return [self.fn.warmup(*args, **kwargs, **config.all_kwargs())
                    for config in self.prune_configs(kwargs)]
        finally:
            self.nargs = None


def autotune(configs: Sequence[Config], key: Sequence[str],
             prune_configs_by: dict[str, Any] | None = None,
             reset_to_zero: Sequence[str] | None = None,
             restore_value: Sequence[str] | None = None,
             pre_hook: Callable[..., Any] | None = None,
             post_hook: Callable[..., Any] | None = None, warmup: float | None = None,
             rep: float | None = None, use_cuda_graph: bool = False,
             do_bench: Callable[..., Any] | None = None,
             cache_results: bool = False) -> Callable[[Any], Autotuner]:
    """Decorator over a ``@jit`` kernel (or another wrapper): on each new tuning key, time
    every config (after ``prune_configs_by``) and launch with the fastest.

    - ``key``: argument names whose values select a tuning; tensor dtypes are always part.
    - ``prune_configs_by``: ``early_config_prune(configs, nargs, **kwargs) -> configs``,
      ``perf_model(**nargs, **kwargs, **config.all_kwargs()) -> estimated time`` and
      ``top_k`` (configs kept by the model: a count, or a fraction as a float <= 1).
    - ``reset_to_zero``: arguments zeroed before each timed run and before the launch.
    - ``restore_value``: arguments copied before each timed run and put back after it.
    - ``pre_hook(nargs, reset_only=False)`` / ``post_hook(nargs, exception)``: replace the
      two defaults above.
    - ``do_bench(kernel_call, quantiles)``: the timer (default ``triton.testing.do_bench``).
    - ``cache_results``: keep timings on disk across processes (also
      ``TRITON_CACHE_AUTOTUNING=1``). ``TRITON_PRINT_AUTOTUNING=1`` prints each choice."""

    def decorator(fn: Any) -> Autotuner:
        return Autotuner(fn, fn.arg_names, configs, key, reset_to_zero, restore_value,
                         pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)

    return decorator


class Heuristics(KernelInterface):
    """Sets meta-parameters from the launch's arguments: ``values[name](args) -> value``,
    in order, each function seeing the arguments by name and the values set before it."""

    def __init__(self, fn: Any, arg_names: list[str],
                 values: dict[str, Callable[[dict[str, Any]], Any]]) -> None:
        self.fn = fn
        self.arg_names = arg_names
        self.values = values

    def _with_values(self, args: tuple, kwargs: dict[str, Any]) -> dict[str, Any]:
        kwargs = dict(kwargs)
        for name, rule in self.values.items():
            kwargs[name] = rule({**dict(zip(self.arg_names, args)), **kwargs})
        return kwargs

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn.run(*args, **self._with_values(args, kwargs))

    def warmup(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn.warmup(*args, **self._with_values(args, kwargs))


def heuristics(values: dict[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    """Decorator: ``@heuristics({'BLOCK': lambda args: next_power_of_2(args['n'])})``."""

    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, fn.arg_names, values)

    return decorator
