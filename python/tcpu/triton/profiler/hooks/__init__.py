"""The profiler's hooks into launches (`knobs.runtime.launch_enter_hook` / `launch_exit_hook`)."""

from .hook import Hook, HookManager
from .instrumentation import InstrumentationHook
from .launch import COMPUTE_METADATA_SCOPE_NAME, LaunchHook

__all__ = ["COMPUTE_METADATA_SCOPE_NAME", "Hook", "HookManager", "InstrumentationHook",
           "LaunchHook"]
