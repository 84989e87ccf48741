"""tcpu's environment variables, read as the C++ libraries read them (tcpu/environment.hpp):
a boolean is 1/0, true/false, on/off or yes/no in any case, unset or empty meaning the default;
anything else raises ValueError naming the variable and its value. (Triton's own TRITON_*
variables keep Triton's reading, where they mean what they mean in Triton.)"""

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
