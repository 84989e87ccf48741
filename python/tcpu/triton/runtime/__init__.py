"""`triton.runtime` on tcpu: jit, autotuning, the CPU driver, errors."""

from . import driver, errors
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .driver import driver as _driver_config
from .errors import InterpreterError, OutOfResources
from .interface import KernelInterface
from .jit import JITFunction, MockTensor, TensorWrapper, jit, reinterpret

driver = _driver_config

__all__ = ["Autotuner", "Config", "driver", "errors", "Heuristics", "InterpreterError",
           "JITFunction", "KernelInterface", "MockTensor", "OutOfResources", "TensorWrapper",
           "autotune", "heuristics", "jit", "reinterpret"]
