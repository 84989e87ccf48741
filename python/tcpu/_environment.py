"""tcpu's environment variables, read as the C++ libraries read them (tcpu/environment.hpp):
a boolean is 1/0, true/false, on/off or yes/no in any case, unset or empty meaning the default;
anything else raises ValueError naming the variable and its value. Triton's own TRITON_*
booleans keep Triton's reading (`triton_flag`), since they mean what they mean in Triton."""

from __future__ import annotations

import os

_ON = ("1", "true", "on", "yes")
_OFF = ("0", "false", "off", "no")


def flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "")
    if not value:
        return default
    if value.lower() in _ON:
        return True
    if value.lower() in _OFF:
        return False
    raise ValueError(f"{name}={value!r} is not a boolean (use 1/0, true/false, on/off or yes/no)")


# What Triton 3.6's getenv_bool takes as true (its C++ helper, behind triton.knobs), in any case,
# with no whitespace trimmed; anything else, "false" or "2" included, is false. Measured with
# triton 3.6.0's triton._C.libtriton.getenv_bool.
_TRITON_ON = ("1", "true", "on", "yes", "y")


def triton_flag(name: str) -> bool:
    """A TRITON_* boolean (TRITON_DEBUG, TRITON_INTERPRET, ...), read as Triton reads it."""
    return os.environ.get(name, "").lower() in _TRITON_ON
