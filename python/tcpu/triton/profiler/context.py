"""`proton.context.depth()`: how many scopes and states are open."""

from __future__ import annotations

from typing import Optional

from ._record import recorder
from .flags import flags


def depth(session: Optional[int] = 0) -> Optional[int]:
    """The depth of the current frame (scopes and states entered) in `session`, or None while
    no session is open."""
    if not flags.profiling_on:
        return None
    return len(recorder.path())
