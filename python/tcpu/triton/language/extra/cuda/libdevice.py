"""``triton.language.extra.cuda.libdevice``: the same functions as ``extra.libdevice``."""

from ..libdevice import *  # noqa: F401,F403  (one set of builtin objects for both paths)
from ..libdevice import __all__  # noqa: F401
