"""The Midnighters kernel's files, registered with the shared numba cache locator
(`simcore.kernel_cache`: any edit of any of them recompiles the whole kernel). The kernel modules
import this module before their first ``@njit``; `INLINE` is its inlining build."""
from __future__ import annotations

import os

from simcore.kernel_cache import STREAM_KERNEL, inline_setting, register
from simcore.kernel_cache import njit as _njit
from simcore.kernel_cache import source_stamp as _source_stamp

HERE = os.path.dirname(os.path.abspath(__file__))
#: the kernel's own files (the locator claims their functions); engine/cards.py's constants are compiled in
OWN_FILES = tuple(os.path.join(HERE, name) for name in (
    "core.py", "turn.py", "frames.py", "play.py", "layout.py", "heur_board.py", "heur.py", "heur_score.py",
    "heur_play.py")) + (os.path.join(os.path.dirname(HERE), "engine", "cards.py"),)
#: what the source stamp hashes: the kernel's own files, this one (its inlining choices shape the compiled
#: code) and the random streams compiled into them
KERNEL_FILES = OWN_FILES + (os.path.abspath(__file__), STREAM_KERNEL)
#: numba's inlining (`simcore.kernel_cache.inline_setting`): Midnighters ships "never": each function is
#: compiled on its own, except the decision functions the game loops call from one place (`GAME_LOOPS`:
#: inlined into the loops only) and the heuristic's functions called from one place only
#: (`inline="always"`). Neither copies code, and numba links and optimises each compiled function's
#: callees again into it, so each function fewer between a game loop and its callees saves that work;
#: inlining large functions does not (the heuristic's `score` or `scores` inlined into its loop took
#: ~40% more CPU s). First batch in a fresh process (benchmarks/speed/bench_kernels.py), 2-core machine
#: at load ~7, paired runs: heuristic 36-38 CPU s against 40-43 with the decision functions compiled
#: on their own, random 20-21 against 24. The "always" build (every `inline=INLINE` function inlined
#: wherever it is called) took over 135 s for the heuristic on a quiet machine.
DEFAULT_INLINE = "never"
INLINE = inline_setting(DEFAULT_INLINE)
#: the game loops, as (module, function): the random policy's (`play.run`) and the one where each seat plays
#: its own policy (`heur_play.play_games_policies`, into which its loop `run_policies` is inlined)
GAME_LOOP_FUNCS = (("dreamsim.kernel.play", "run"), ("dreamsim.kernel.heur_play", "play_games_policies"))


def into_game_loops(expr, caller, callee) -> bool:
    """numba's inlining cost model (``inline=`` a function of the call, the caller's IR and the
    callee's): True in a game loop only. The loop is dispatch over small decision functions called
    from one place each; inlined there they copy no code, the random loop plays about 1.2x the
    decisions a second, and both loops compile faster (fewer functions compiled on their own and
    linked and optimised again into each caller). Elsewhere (the tests' single steps) they are
    called as functions of their own."""
    func_id = caller.func_id
    return (func_id.modname, func_id.func_qualname) in GAME_LOOP_FUNCS


#: `inline=` of the decision functions the game loops call from one place: the cost model above in
#: the shipped build, "always" in the "always" build
GAME_LOOPS = "always" if INLINE == "always" else into_game_loops
__all__ = ("DEFAULT_INLINE", "GAME_LOOPS", "INLINE", "KERNEL_FILES", "LOCATOR", "OWN_FILES", "into_game_loops",
           "njit", "source_stamp")


def njit(*args, **options):
    """`simcore.kernel_cache.njit` for the kernel's functions, built for calls from compiled code only
    (``python_calls=False``: no CPython wrapper) unless they pass ``python_calls=True``: the entry points
    Python calls (`play.play_games`, `heur_play.play_games_policies`; `play.deal`, `play.run`,
    `play.legal_top`, `play.apply_top` and `heur_play.heur_scores_top` for the tests and `bridge`)."""
    options.setdefault("python_calls", False)
    return _njit(*args, **options)


def source_stamp(files: tuple[str, ...] = KERNEL_FILES) -> str:
    """sha256 of the kernel's files (`simcore.kernel_cache.source_stamp`)."""
    return _source_stamp(files)


LOCATOR = register(HERE, KERNEL_FILES, OWN_FILES, "" if INLINE == DEFAULT_INLINE else f"inline-{INLINE}")
