"""The games' batch kernels: which are compiled, and compiling them once.

A kernel (a game's `KERNEL`, docs/GAME_PROTOCOL.md) compiles on its first batch in a process unless
numba's on-disk cache holds its code. `engine='auto'` plays a short run of an uncompiled kernel with
the Python engine (the same games, record for record; `runner.engine_choice`), so a fresh machine's
first report does not wait for compilation; `compile_kernels` (`balancelab compile`) compiles them
ahead, and the report starts it in the background at the lowest priority when a kernel is cold.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from .games import KNOWN_GAMES, load_game


def kernel_games(games=None) -> list[str]:
    """The names of the registered games (or of `games`) whose module has a kernel that can say
    whether it is compiled (`compiled`, `warm_up`, `warm_lineups`)."""
    names = dict.fromkeys(KNOWN_GAMES.values()) if games is None else [load_game(g).__name__ for g in games]
    out = []
    for name in names:
        kernel = getattr(load_game(name), "KERNEL", None)
        if all(hasattr(kernel, attr) for attr in ("compiled", "warm_up", "warm_lineups")):
            out.append(name)
    return out


def _loops(games):
    """(game name, its kernel, line-up, compiled?) for each compiled game loop of each kernel."""
    for name in kernel_games(games):
        module = load_game(name)
        kernel = module.KERNEL
        for lineup in kernel.warm_lineups:
            lineup = tuple(lineup)
            yield name, kernel, lineup, kernel.compiled(module.Rules(players=len(lineup)), lineup)


def cold_kernels(games=None) -> list[tuple[str, tuple]]:
    """(game, line-up) for each compiled game loop of a kernel that numba's cache does not hold yet."""
    return [(name, lineup) for name, _, lineup, cached in _loops(games) if not cached]


def compile_kernels(games=None, say: Callable[[str], None] = print) -> list[dict]:
    """Compile every kernel loop numba's cache does not hold yet (the others load in a second or two);
    one row per loop: game, lineup, was_cached, seconds."""
    rows = []
    for name, kernel, lineup, cached in _loops(games):
        seats = ", ".join(dict.fromkeys(lineup))
        if not cached:
            say(f"compiling the {name} kernel's loop for {seats} seats ...")
        started = time.perf_counter()
        kernel.warm_up(lineup)
        seconds = time.perf_counter() - started
        rows.append({"game": name, "lineup": lineup, "was_cached": cached, "seconds": seconds})
        say(f"{name} kernel ({seats} seats): " + ("already compiled" if cached else f"compiled in {seconds:.0f} s"))
    return rows
