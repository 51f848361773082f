"""Shared set-up for every test folder.

The toy game of the analyses tests (`tests/analyses/toygame.py`, the minimal protocol game) is a
plain module, not a package: its folder goes on sys.path here so `import toygame` works from any
test (test_protocol.py, the analyses tests), and so `load_game("toygame")` works in joblib
workers, which inherit sys.path.

engine='auto' plays a supported kernel whether or not it is compiled yet (BALANCELAB_AUTO_COMPILE=always:
which engine plays a run does not depend on what an earlier test compiled; the rule that weighs
compiling is tested with it unset), and `balancelab report` starts no background compilation
(BALANCELAB_BACKGROUND_COMPILE=0).

The numba kernels are each game's shipped build (BALANCELAB_KERNEL_INLINE unset: its kernel cache
module's DEFAULT_INLINE); tests/nightsim/test_nightsim_kernel_cache.py compares Nightmarium's two.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["BALANCELAB_AUTO_COMPILE"] = "always"
os.environ["BALANCELAB_BACKGROUND_COMPILE"] = "0"

TOYGAME_DIR = Path(__file__).resolve().parent / "analyses"
if str(TOYGAME_DIR) not in sys.path:
    sys.path.insert(0, str(TOYGAME_DIR))
