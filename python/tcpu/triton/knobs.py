"""`triton.knobs` on tcpu: Triton 3.6's settings objects, each knob read from and written to the
environment variable that decides it.

A knob set (`knobs.cache`, `knobs.runtime`, ...) holds knobs as descriptors: reading one gives
the value assigned to it, else its environment variable's, else its default; assigning one also
sets the variable (while `propagate_env` is on), which is how tcpu sees it, since tcpu reads its
settings from the environment at each launch. `copy()`, `reset()`, `scope()` and
`knob_descriptors` are what Triton's `fresh_knobs` fixture (triton._internal_testing) uses.

Knobs with a meaning on tcpu:
- `cache.dir` is tcpu's compile cache, `TCPU_CACHE_DIR` (its default: where tcpu resolves the
  cache, or "" while TCPU_CACHE_DISABLE is on);
- `runtime.debug` is `TRITON_DEBUG` (device_assert and bounds checks), `runtime.interpret` is
  `TRITON_INTERPRET` (which, set before `import triton`, routes it to a real Triton's
  interpreter: setting it later changes nothing in this process);
- `autotuning.cache` / `autotuning.print` are `TRITON_CACHE_AUTOTUNING` /
  `TRITON_PRINT_AUTOTUNING`, which tcpu's autotuner reads; `autotuning.first_config`
  (`TCPU_AUTOTUNE_FIRST_CONFIG`, tcpu's own) has it take the first config without timing.
- `runtime.launch_enter_hook` / `runtime.launch_exit_hook` are called around each launch of a
  @triton.jit kernel, as Triton calls them (triton.profiler registers itself there), and
  `proton.disable` turns triton.profiler's start() into nothing, as in Triton;
- `runtime.jit_cache_hook` / `runtime.jit_post_compile_hook` are called before and after a
  specialization of a @triton.jit kernel is built, as Triton calls them (a truthy return of
  the first declines the build).
Every other knob belongs to Triton's GPU compilers and tools (ptxas, AMD buffer ops, IR dumps
and overrides, the redis cache, the other hooks): it is kept and read back as a value, and
changes nothing on tcpu. Each knob set's docstring says which of its
knobs are such values."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Generator, Generic, Optional, TypeVar

from .. import _environment as environment


class Env:
    """Assigning `knobs.env` to a knob forgets the assigned value: the knob reads its
    environment variable again."""


env = Env()

# Whether assigning a knob sets its environment variable (tcpu reads only the environment).
propagate_env: bool = True

_UNSET = object()


def setenv(key: str, value: Optional[str]) -> None:
    if not propagate_env:
        return
    if value is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = value


def _as_env_text(value: Any) -> tuple[Optional[str]] | None:
    """The environment's text for an assigned value; None when it has none (a class, a
    callable): then only the knob holds it."""
    if value is None:
        return (None,)
    if isinstance(value, bool):
        return ("1" if value else "0",)
    if isinstance(value, (str, int)):
        return (str(value),)
    return None


def _read_flag(key: str, default: Optional[bool]) -> Optional[bool]:
    """Unset or empty: the default; else as Triton reads its booleans (environment.triton_flag)."""
    if not os.environ.get(key):
        return default
    return environment.triton_flag(key)


class env_base:
    """A knob: its environment variable `key`, what an assignment holds, and how the
    variable's text reads (`get`)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.name = key

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__.get(self.name, _UNSET)
        return self.get() if value is _UNSET else value

    def __set__(self, obj: Any, value: Any) -> None:
        if isinstance(value, Env):
            obj.__dict__.pop(self.name, None)
            return
        obj.__dict__[self.name] = value
        text = _as_env_text(value)
        if text is not None:
            setenv(self.key, text[0])

    def __delete__(self, obj: Any) -> None:
        obj.__dict__.pop(self.name, None)

    def get(self) -> Any:
        raise NotImplementedError


class env_str(env_base):
    def __init__(self, key: str, default: str) -> None:
        super().__init__(key)
        self.default = default

    def get(self) -> str:
        return os.environ.get(self.key, self.default)


class env_str_callable_default(env_base):
    def __init__(self, key: str, default_factory: Callable[[], str]) -> None:
        super().__init__(key)
        self.default_factory = default_factory

    def get(self) -> str:
        text = os.environ.get(self.key)
        return self.default_factory() if text is None else text


class env_bool(env_base):
    def __init__(self, key: str, default: bool = False) -> None:
        super().__init__(key)
        self.default = default

    def get(self) -> bool:
        return bool(_read_flag(self.key, self.default))


class env_opt_bool(env_base):
    def get(self) -> Optional[bool]:
        return _read_flag(self.key, None)


class env_int(env_base):
    def __init__(self, key: str, default: int = 0) -> None:
        super().__init__(key)
        self.default = default

    def get(self) -> int:
        text = os.environ.get(self.key)
        if text is None:
            return self.default
        try:
            return int(text)
        except ValueError as e:
            raise RuntimeError(f"{self.key}={text!r} is not an int") from e


class env_opt_str(env_base):
    def get(self) -> Optional[str]:
        return os.environ.get(self.key)


knobs_type = TypeVar("knobs_type", bound="base_knobs")


class base_knobs:
    """A set of knobs."""

    @property
    def knob_descriptors(self) -> dict[str, env_base]:
        found: dict[str, env_base] = {}
        for cls in reversed(type(self).__mro__):
            found.update({k: v for k, v in vars(cls).items() if isinstance(v, env_base)})
        return found

    @property
    def knobs(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.knob_descriptors}

    def copy(self: knobs_type) -> knobs_type:
        twin = type(self)()
        twin.__dict__.update(self.__dict__)
        return twin

    def reset(self: knobs_type) -> knobs_type:
        """Forgets every assigned value: each knob reads its environment variable again."""
        for name in self.knob_descriptors:
            delattr(self, name)
        return self

    @contextmanager
    def scope(self) -> Generator[None, None, None]:
        """Restores this set's assigned values and environment variables on leaving."""
        saved_env = {knob.key: os.environ.get(knob.key)
                     for knob in self.knob_descriptors.values()}
        saved = dict(self.__dict__)
        try:
            yield
        finally:
            self.__dict__.clear()
            self.__dict__.update(saved)
            for key, text in saved_env.items():
                if text is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = text


def _tcpu_cache_dir() -> str:
    from .. import _tcpu_rt
    found = _tcpu_rt.cache_directory()  # <cache>/python, or None while disabled
    return "" if found is None else str(Path(found).parent)


class cache_knobs(base_knobs):
    """`dir` is tcpu's compile cache (TCPU_CACHE_DIR). `home_dir`, `dump_dir`,
    `override_dir`, `manager_class` and `remote_manager_class` (Triton's GPU cache and its IR
    dumps and overrides) are values that change nothing on tcpu."""

    dir = env_str_callable_default("TCPU_CACHE_DIR", _tcpu_cache_dir)
    home_dir = env_str("TRITON_HOME", os.path.expanduser("~/"))
    dump_dir = env_str_callable_default("TRITON_DUMP_DIR",
                                        lambda: os.path.join(cache.home_dir, ".triton", "dump"))
    override_dir = env_str_callable_default(
        "TRITON_OVERRIDE_DIR", lambda: os.path.join(cache.home_dir, ".triton", "override"))
    manager_class = env_opt_str("TRITON_CACHE_MANAGER")
    remote_manager_class = env_opt_str("TRITON_REMOTE_CACHE_BACKEND")


F = TypeVar("F", bound=Callable[..., Any])


class HookChain(Generic[F]):
    """Hooks of one kind called in the order they were added (or the reverse: the exit hooks,
    so that the first to enter is the last to exit), as Triton's `knobs.HookChain`."""

    def __init__(self, reversed: bool = False) -> None:
        self.calls: list[F] = []
        self.reversed = reversed

    def add(self, func: F) -> None:
        if func not in self.calls:
            self.calls.append(func)

    def remove(self, func: F) -> None:
        if func in self.calls:
            self.calls.remove(func)

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        for call in (reversed(self.calls) if self.reversed else list(self.calls)):
            call(*args, **kwargs)


class runtime_knobs(base_knobs):
    """`debug` is TRITON_DEBUG and `interpret` TRITON_INTERPRET (see the module's docstring).
    `launch_enter_hook` and `launch_exit_hook` are called with the launch's metadata (a
    triton.compiler.LazyDict: the kernel's name, and what its `launch_metadata` function
    gives) right before and right after each launch of a @triton.jit kernel; a plain function
    assigned instead of the chain is called too. `jit_cache_hook` and `jit_post_compile_hook`
    are called before and after a specialization is built, with Triton's arguments
    (runtime/jit_hooks.py). `override_arch` and the other hooks (`kernel_load_start_hook`,
    `kernel_load_end_hook`, `add_stages_inspection_hook`) are values that change nothing."""

    interpret = env_bool("TRITON_INTERPRET")
    debug = env_bool("TRITON_DEBUG")  # as launches read it: environment.triton_flag
    override_arch = env_opt_str("TRITON_OVERRIDE_ARCH")
    launch_enter_hook: Any = HookChain()
    launch_exit_hook: Any = HookChain(reversed=True)
    kernel_load_start_hook: Any = HookChain()
    kernel_load_end_hook: Any = HookChain(reversed=True)
    jit_cache_hook: Any = None
    jit_post_compile_hook: Any = None
    add_stages_inspection_hook: Any = None


class autotuning_knobs(base_knobs):
    """Read by tcpu's autotuner: `cache` keeps tuning results on disk, `print` prints each
    choice, and `first_config` (tcpu's own, `TCPU_AUTOTUNE_FIRST_CONFIG`) skips the timing:
    each tuning key runs the first config that survives pruning, as if it had won. For test
    runs of a kernel library, which want each kernel's answer, not its fastest config: timing
    every config on a CPU at a GPU's shapes can take longer than the test (17 configs timed
    out a pooling test at 120 s). Off by default, also under tcpu's pytest plugin: Triton's
    own autotuner tests, and any test of which config wins, need the timing."""

    cache = env_bool("TRITON_CACHE_AUTOTUNING")
    print = env_bool("TRITON_PRINT_AUTOTUNING")
    first_config = env_bool("TCPU_AUTOTUNE_FIRST_CONFIG")


class compilation_knobs(base_knobs):
    """Triton's GPU compiler's switches (IR dumps and overrides, ASAN, line info, binary-only
    caching, IR locations, instrumentation, listeners): values that change nothing on tcpu."""

    override = env_bool("TRITON_KERNEL_OVERRIDE")
    dump_ir = env_bool("TRITON_KERNEL_DUMP")
    dump_ir_extract_di_local_variables = env_bool("LLVM_EXTRACT_DI_LOCAL_VARIABLES")
    store_binary_only = env_bool("TRITON_STORE_BINARY_ONLY")
    always_compile = env_bool("TRITON_ALWAYS_COMPILE")
    use_ir_loc = env_opt_str("USE_IR_LOC")
    enable_asan = env_bool("TRITON_ENABLE_ASAN")
    disable_line_info = env_bool("TRITON_DISABLE_LINE_INFO")
    front_end_debugging = env_bool("TRITON_FRONT_END_DEBUGGING")
    allow_non_constexpr_globals = env_bool("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    instrumentation_mode = env_str("TRITON_INSTRUMENTATION_MODE", "")
    listener: Any = None


class language_knobs(base_knobs):
    """`fp32_default` (tl.dot's default input precision) and `default_fp_fusion`: values that
    change nothing on tcpu (its dot computes in fp32; its fusion is the launch's
    fp_contract)."""

    fp32_default = env_opt_str("TRITON_F32_DEFAULT")
    default_fp_fusion = env_bool("TRITON_DEFAULT_FP_FUSION", True)


class build_knobs(base_knobs):
    """The C compiler Triton builds its GPU launchers with: values that change nothing on
    tcpu."""

    cc = env_opt_str("CC")
    cudacrt_path = env_opt_str("TRITON_CUDACRT_PATH")
    cudart_path = env_opt_str("TRITON_CUDART_PATH")
    impl: Any = None


class redis_knobs(base_knobs):
    """Triton's remote cache: values that change nothing on tcpu."""

    key_format = env_str("TRITON_REDIS_KEY_FORMAT", "triton:{key}:{filename}")
    host = env_str("TRITON_REDIS_HOST", "localhost")
    port = env_int("TRITON_REDIS_PORT", 6379)


class nvidia_knobs(base_knobs):
    """CUDA's tools and libraries, named by their paths (Triton gives a tool's path and
    version): values that change nothing on tcpu, which uses no CUDA tool."""

    cuobjdump = env_opt_str("TRITON_CUOBJDUMP_PATH")
    nvdisasm = env_opt_str("TRITON_NVDISASM_PATH")
    ptxas = env_opt_str("TRITON_PTXAS_PATH")
    ptxas_blackwell = env_opt_str("TRITON_PTXAS_BLACKWELL_PATH")
    dump_nvptx = env_bool("NVPTX_ENABLE_DUMP")
    disable_ptxas_opt = env_bool("DISABLE_PTXAS_OPT")
    ptxas_options = env_opt_str("PTXAS_OPTIONS")
    mock_ptx_version = env_opt_str("TRITON_MOCK_PTX_VERSION")
    dump_ptxas_log = env_bool("TRITON_DUMP_PTXAS_LOG")
    libdevice_path = env_opt_str("TRITON_LIBDEVICE_PATH")
    libcuda_path = env_opt_str("TRITON_LIBCUDA_PATH")


class amd_knobs(base_knobs):
    """The AMD backend's switches: values that change nothing on tcpu."""

    use_buffer_ops = env_bool("AMDGCN_USE_BUFFER_OPS", True)
    use_buffer_atomics = env_bool("AMDGCN_USE_BUFFER_ATOMICS", True)
    buffer_ops_analyze_small_tensor_range = env_bool("AMDGCN_ANALYZE_SMALL_TENSOR_RANGE")
    dump_amdgcn = env_bool("AMDGCN_ENABLE_DUMP")
    libhip_path = env_opt_str("TRITON_LIBHIP_PATH")
    use_block_pingpong = env_opt_bool("TRITON_HIP_USE_BLOCK_PINGPONG")
    use_in_thread_transpose = env_opt_bool("TRITON_HIP_USE_IN_THREAD_TRANSPOSE")
    use_async_copy = env_bool("TRITON_HIP_USE_ASYNC_COPY")
    scalarize_packed_fops = env_bool("AMDGCN_SCALARIZE_PACKED_FOPS")


class proton_knobs(base_knobs):
    """Triton's profiler's switches: `disable` (TRITON_PROTON_DISABLE) makes
    triton.profiler.start() do nothing, as in Triton; the others (CUPTI's library, NVTX ranges)
    are values that change nothing on tcpu."""

    disable = env_bool("TRITON_PROTON_DISABLE")
    cupti_lib_dir = env_opt_str("TRITON_CUPTI_LIB_PATH")
    enable_nvtx = env_bool("TRITON_ENABLE_NVTX", True)


build = build_knobs()
redis = redis_knobs()
cache = cache_knobs()
compilation = compilation_knobs()
autotuning = autotuning_knobs()
runtime = runtime_knobs()
language = language_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()
proton = proton_knobs()


def refresh_knobs() -> None:
    """Triton re-reads knobs it caches; every tcpu knob reads its variable when read."""
