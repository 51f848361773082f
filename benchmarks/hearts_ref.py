"""The speed reference of issue 16: OpenSpiel's C++ hearts driven by a Python loop, in a subprocess.

    from hearts_ref import hearts_steps_per_second
    hearts_steps_per_second(2.0)   # steps/s (best of 3 rounds), or None without pyspiel

The script is ../shared/bench/openspiel_hearts.py relative to the repository (looked up in the
parents too, so a git worktree under /work/wt/ finds it; $HEARTS_REF overrides the path).
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path("shared") / "bench" / "openspiel_hearts.py"


def hearts_script() -> Path | None:
    if os.environ.get("HEARTS_REF"):
        return Path(os.environ["HEARTS_REF"])
    repo = Path(__file__).resolve().parent.parent
    for d in repo.parents:
        if (d / SCRIPT).is_file():
            return d / SCRIPT
    return None


def hearts_steps_per_second(seconds: float = 2.0) -> float | None:
    """Hearts steps/s measured now, or None if pyspiel or the reference script is missing."""
    script = hearts_script()
    if script is None or importlib.util.find_spec("pyspiel") is None:
        return None
    out = subprocess.run([sys.executable, str(script), str(seconds)], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


if __name__ == "__main__":
    print(hearts_steps_per_second(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0))
