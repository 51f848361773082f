"""`FrozenDict`: a dict no one changes after it is built (what a policy may reach of the shared game
data: unit and region name indices). Reads run at dict speed; every changing method raises; pickling
keeps the type."""
from __future__ import annotations


def _read_only(self, *args, **kwargs):
    raise TypeError(f"{type(self).__name__} is read-only (shared game data)")


class FrozenDict(dict):
    """A read-only dict (a `dict` subclass, so lookups cost what a dict's cost)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self):
        return FrozenDict, (dict(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        return f"FrozenDict({dict.__repr__(self)})"
