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

Hypothesis draws the same examples on every run (profile "fixed": derandomize), so a test run, CI's
included, passes or fails by the code alone; HYPOTHESIS_PROFILE=explore draws new examples each run,
to search for failures (add any it finds as an @example).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import settings

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))

os.environ["BALANCELAB_AUTO_COMPILE"] = "always"
os.environ["BALANCELAB_BACKGROUND_COMPILE"] = "0"

TOYGAME_DIR = Path(__file__).resolve().parent / "analyses"
if str(TOYGAME_DIR) not in sys.path:
    sys.path.insert(0, str(TOYGAME_DIR))
