"""Shared set-up for every test folder.

The toy game of the analyses tests (`tests/analyses/toygame.py`, the minimal protocol game) is a
plain module, not a package: its folder goes on sys.path here so `import toygame` works from any
test (test_protocol.py, the analyses tests), and so `load_game("toygame")` works in joblib
workers, which inherit sys.path.

The numba kernels are compiled without numba's inlining of a decision's functions into the game
loops (BALANCELAB_KERNEL_INLINE=never, unless set otherwise; `kernel_cache.INLINE`): the same
games (tests/nightsim/test_nightsim_kernel_cache.py compares both builds of Nightmarium's kernel),
compiled about four times sooner, which is most of the suite's time on a fresh machine. The
environment is set here, before any test module imports a kernel, so joblib workers and test
subprocesses inherit it.
"""
from __future__ import annotations

import os
import sys

os.environ.setdefault("BALANCELAB_KERNEL_INLINE", "never")
from pathlib import Path

TOYGAME_DIR = Path(__file__).resolve().parent / "analyses"
if str(TOYGAME_DIR) not in sys.path:
    sys.path.insert(0, str(TOYGAME_DIR))
