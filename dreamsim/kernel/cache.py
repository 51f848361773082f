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
#: what the source stamp hashes: the kernel's own files, this one (its inlining choices shape the compiled
#: code) and the random streams compiled into them
KERNEL_FILES = OWN_FILES + (os.path.abspath(__file__), STREAM_KERNEL)
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
#: the random policy's game loop (`play.run`): the decision functions marked RANDOM_LOOP are inlined there
RANDOM_LOOP_FUNC = ("dreamsim.kernel.play", "run")


def into_random_loop(expr, caller, callee) -> bool:
    """numba's inlining cost model (``inline=`` a function of the call, the caller's IR and the
    callee's): True in the random loop only. That loop is dispatch over small decision functions;
    with its one-call-site ones inlined (which copies no code) it plays about 1.2x the decisions a
    second and compiles faster (fewer functions of their own to compile and link). The heuristic's
    loop (`heur_play.run_policies`) calls them as functions of their own: inlined there too, the
    heuristic kernel took about 20 CPU s more to compile, for a loop whose time is in the heuristic."""
    func_id = caller.func_id
    return (func_id.modname, func_id.func_qualname) == RANDOM_LOOP_FUNC


#: `inline=` of the decision functions the random loop calls from one place: the cost model above in
#: the shipped build, "always" in the "always" build
RANDOM_LOOP = "always" if INLINE == "always" else into_random_loop
__all__ = ("DEFAULT_INLINE", "INLINE", "KERNEL_FILES", "LOCATOR", "OWN_FILES", "RANDOM_LOOP", "into_random_loop",
           "source_stamp")


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the kernel's files (`simcore.kernel_cache.source_stamp`)."""
    return _source_stamp(files)


LOCATOR = register(HERE, KERNEL_FILES, OWN_FILES, "" if INLINE == DEFAULT_INLINE else f"inline-{INLINE}")
