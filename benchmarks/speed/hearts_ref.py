"""The reference rate of the speed targets: OpenSpiel's C++ hearts driven by a Python loop, steps/s.

Runs ../shared/bench/openspiel_hearts.py (relative to the repository root) in a subprocess,
so a benchmark can print its own rates as ratios to hearts measured in the same run.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: ../shared/bench/openspiel_hearts.py from the repository root (from a worktree nested deeper, the
#: nearest ancestor's shared/)
SCRIPT = next((p / "shared" / "bench" / "openspiel_hearts.py" for p in ROOT.parents
               if (p / "shared" / "bench" / "openspiel_hearts.py").exists()),
              ROOT.parent / "shared" / "bench" / "openspiel_hearts.py")


def hearts_steps_per_second(seconds: float = 2.0) -> float | None:
    """Steps/s of the hearts reference (best of its 3 rounds), or None without pyspiel or the script."""
    if importlib.util.find_spec("pyspiel") is None or not SCRIPT.exists():
        return None
    out = subprocess.run([sys.executable, str(SCRIPT), str(seconds)], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    print(hearts_steps_per_second(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0))
