"""`triton.runtime` on tcpu: jit, autotuning, the CPU driver, errors."""

from . import driver, errors
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .driver import driver as _driver_config
from .errors import OutOfResources
from .interface import KernelInterface
from .jit import JITFunction, MockTensor, jit

driver = _driver_config

__all__ = ["Autotuner", "Config", "driver", "errors", "Heuristics", "JITFunction",
           "KernelInterface", "MockTensor", "OutOfResources", "autotune", "heuristics", "jit"]
