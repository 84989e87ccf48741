"""`triton.profiler` (proton) on tcpu: sessions, scopes and states as Triton's profiler has
them, recording each launch of a @triton.jit kernel on the CPU with its wall time, and writing
Triton's file formats (a hatchet JSON tree, a Chrome trace) that `triton.profiler.viewer`
prints as a tree. GPU backends, modes and in-kernel instrumentation are refused by name."""

from . import context, mode, specs
from .flags import flags
from .profile import DEFAULT_PROFILE_NAME, activate, deactivate, finalize, profile, start
from .scope import cpu_timed_scope, enter_scope, exit_scope, scope
from .state import enter_state, exit_state, state

__all__ = ["DEFAULT_PROFILE_NAME", "activate", "context", "cpu_timed_scope", "deactivate",
           "enter_scope", "enter_state", "exit_scope", "exit_state", "finalize", "flags",
           "mode", "profile", "scope", "specs", "start", "state"]
