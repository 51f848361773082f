"""The Nightmarium kernel's files, registered with the shared numba cache locator
(`simcore.kernel_cache`: any edit of any of them recompiles the whole kernel). The kernel modules
import this module before their first ``@njit``; `INLINE` is its inlining build."""
from __future__ import annotations

import os

from simcore.kernel_cache import STREAM_KERNEL, inline_setting, register
from simcore.kernel_cache import source_stamp as _source_stamp

HERE = os.path.dirname(os.path.abspath(__file__))
#: the kernel's own files (the locator claims their functions): the layout constants, the rules
#: (draw, abilities, core), the policies and games
OWN_FILES = tuple(os.path.join(HERE, name) for name in (
    "layout.py", "draw.py", "abilities.py", "core.py", "play.py"))
#: what the source stamp hashes: the kernel's own files and the random streams compiled into them
KERNEL_FILES = OWN_FILES + (STREAM_KERNEL,)
#: numba's inlining (`simcore.kernel_cache.inline_setting`): Nightmarium ships "always", its game loop
#: one compiled function (core's docstring: 25-35% faster), which compiles within a minute
DEFAULT_INLINE = "always"
INLINE = inline_setting(DEFAULT_INLINE)
__all__ = ("DEFAULT_INLINE", "INLINE", "KERNEL_FILES", "LOCATOR", "OWN_FILES", "source_stamp")


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the kernel's files (`simcore.kernel_cache.source_stamp`)."""
    return _source_stamp(files)


LOCATOR = register(HERE, KERNEL_FILES, OWN_FILES, "" if INLINE == DEFAULT_INLINE else f"inline-{INLINE}")
