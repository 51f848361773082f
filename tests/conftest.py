"""Shared set-up for every test folder.

The toy game of the analyses tests (`tests/analyses/toygame.py`, the minimal protocol game) is a
plain module, not a package: its folder goes on sys.path here so `import toygame` works from any
test (test_protocol.py, the analyses tests), and so `load_game("toygame")` works in joblib
workers, which inherit sys.path.

The numba kernels are each game's shipped build (BALANCELAB_KERNEL_INLINE unset: its kernel cache
module's DEFAULT_INLINE); tests/nightsim/test_nightsim_kernel_cache.py compares Nightmarium's two.
"""
from __future__ import annotations

import sys
from pathlib import Path

TOYGAME_DIR = Path(__file__).resolve().parent / "analyses"
if str(TOYGAME_DIR) not in sys.path:
    sys.path.insert(0, str(TOYGAME_DIR))
