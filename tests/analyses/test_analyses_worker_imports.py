"""A joblib worker imports only what it needs to play games.

Workers unpickle `analyses.worker.play_chunk` (the function `runner.Executor` sends them), which
imports `analyses/__init__`, `analyses.worker` and what they import. Before this was light, each
worker spent about 2 s importing scipy and pyarrow before its first game, and a 4,000-game run on
2 workers reached only half the speedup the machine allows (benchmarks/speed/bench_scale.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from analyses import runner, worker

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy", "pyarrow", "pandas", "matplotlib", "joblib")


def imported_in_a_fresh_process(statement: str) -> list[str]:
    """The HEAVY modules in sys.modules after `statement` runs in a new interpreter."""
    code = f"import json, sys\n{statement}\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_runner_sends_workers_the_light_chunk_function():
    assert runner.play_chunk is worker.play_chunk
    assert worker.play_chunk.__module__ == "analyses.worker"


def test_importing_the_worker_module_imports_no_statistics_or_table_stack():
    assert imported_in_a_fresh_process("import analyses.worker") == []


def test_a_worker_playing_a_chunk_imports_no_statistics_or_table_stack():
    played = ("import pickle\nfrom analyses.plan import RunSpec\nfrom nightsim import Rules\n"
              "spec = RunSpec('nightsim', Rules(), ('random',) * 4, 0)\n"
              "columns = pickle.loads(pickle.dumps(__import__('analyses.worker').worker.play_chunk))(spec, 0, 3)\n"
              "assert list(columns['game']) == [0, 1, 2] and len(columns['winner']) == 3")
    assert imported_in_a_fresh_process(played) == []


def test_the_package_still_exports_its_names_on_first_use():
    assert imported_in_a_fresh_process("import analyses") == []
    assert set(imported_in_a_fresh_process("from analyses import simulate")) >= {"pandas", "joblib"}
