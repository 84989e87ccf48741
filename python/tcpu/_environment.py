"""tcpu's environment variables, read as the C++ libraries read them (tcpu/environment.hpp):
a boolean is 1/0, true/false, on/off or yes/no in any case, unset or empty meaning the default;
anything else raises ValueError naming the variable and its value. Triton's own TRITON_*
booleans keep Triton's reading (`triton_flag`), since they mean what they mean in Triton."""

from __future__ import annotations

import os

_ON = ("1", "true", "on", "yes")
_OFF = ("0", "false", "off", "no")

# Variables read on every launch (TRITON_DEBUG, TRITON_DEFAULT_FP_FUSION) are looked up in
# os.environ's own dict of encoded names and values: `os.environ.get` encodes the name and goes
# through Mapping.get, ~0.4 us a read, a fifth of a launch. The dict is the one os.environ
# updates (and monkeypatch.setenv too), so a variable set at any time is still seen at the
# next launch. Other platforms, or a Python without the dict, read through os.environ.
_ENCODED_NAMES: dict[str, bytes] = {}


def get(name: str) -> str | None:
    """The variable's value, or None: `os.environ.get(name)`, cheaper."""
    environ = os.environ
    try:
        raw = environ._data.get(_ENCODED_NAMES[name])  # type: ignore[attr-defined]
    except KeyError:
        if os.name == "posix" and isinstance(getattr(environ, "_data", None), dict):
            _ENCODED_NAMES[name] = environ.encodekey(name)  # type: ignore[attr-defined]
        return environ.get(name)
    except AttributeError:  # os.environ replaced by a plain mapping
        return environ.get(name)
    return None if raw is None else environ.decodevalue(raw)  # type: ignore[attr-defined]


def flag(name: str, default: bool) -> bool:
    value = get(name)
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
    value = get(name)
    return value is not None and value.lower() in _TRITON_ON
