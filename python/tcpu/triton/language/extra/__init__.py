"""``triton.language.extra``: libdevice, as ``extra.libdevice`` and ``extra.cuda.libdevice``."""

from . import cuda, libdevice

__all__ = ["cuda", "libdevice"]
