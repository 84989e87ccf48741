"""``triton.language.extra.cuda``: NVIDIA's libdevice names (the same builtin objects as
``extra.libdevice``)."""

from . import libdevice

__all__ = ["libdevice"]
