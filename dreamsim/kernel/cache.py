"""The Midnighters kernel's files, registered with the shared numba cache locator
(`simcore.kernel_cache`: any edit of any of them recompiles the whole kernel). The kernel modules
import this module before their first ``@njit``; `INLINE` is its inlining build."""
from __future__ import annotations

import os

from simcore.kernel_cache import STREAM_KERNEL, inline_setting, register
from simcore.kernel_cache import source_stamp as _source_stamp

HERE = os.path.dirname(os.path.abspath(__file__))
#: the kernel's own files (the locator claims their functions); engine/cards.py's constants are compiled in
OWN_FILES = tuple(os.path.join(HERE, name) for name in (
    "core.py", "turn.py", "frames.py", "play.py", "layout.py", "heur_board.py", "heur.py", "heur_score.py",
    "heur_play.py")) + (os.path.join(os.path.dirname(HERE), "engine", "cards.py"),)
#: what the source stamp hashes: the kernel's own files and the random streams compiled into them
KERNEL_FILES = OWN_FILES + (STREAM_KERNEL,)
#: numba's inlining (`simcore.kernel_cache.inline_setting`): Midnighters ships "never". With every
#: function compiled once per argument types (`simcore.kernel_cache.njit`) a first heuristic batch
#: compiles in 60-65 CPU s and a random one in 36-41 s on a quiet 2-core machine; the "always" build
#: took over 135 s for the heuristic (benchmarks/speed/bench_kernels.py). "never" plays heuristic
#: line-ups as fast as "always" and random ones at about 0.74x. In both builds the heuristic's
#: functions called from one place only are `inline="always"`: that copies no code, and numba links
#: and optimises each compiled function's callees again into it, so each function fewer between the
#: game loop and the plan saves that work.
DEFAULT_INLINE = "never"
INLINE = inline_setting(DEFAULT_INLINE)
__all__ = ("DEFAULT_INLINE", "INLINE", "KERNEL_FILES", "LOCATOR", "OWN_FILES", "source_stamp")


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the kernel's files (`simcore.kernel_cache.source_stamp`)."""
    return _source_stamp(files)


LOCATOR = register(HERE, KERNEL_FILES, OWN_FILES, "" if INLINE == DEFAULT_INLINE else f"inline-{INLINE}")
