"""Shared fixtures of the analyses tests.

- `toy`: the toy game (tests/analyses/toygame.py, importable via tests/conftest.py);
- `run`: a function `run(capsys, *argv)` that calls the CLI's `main` and returns (code, out, err);
- `played`: the game ranges actually played (n_jobs=1 runs chunks in this process).

As in tests/nerathsim/conftest.py, a shared helper function is a fixture of its own name that
returns it, so a test asks for it as a parameter and calls it as before.
"""
from __future__ import annotations

import pytest

from analyses import runner
from balancelab.cli import main

import toygame


@pytest.fixture(scope="session")
def toy():
    return toygame


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="session")
def run():
    return _run


@pytest.fixture
def played(monkeypatch):
    """Record the game ranges actually played (n_jobs=1 runs chunks in this process)."""
    ranges = []
    original = runner.play_chunk

    def recording(spec, start, stop):
        ranges.append((start, stop))
        return original(spec, start, stop)

    monkeypatch.setattr(runner, "play_chunk", recording)
    return ranges
