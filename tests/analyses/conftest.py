"""Shared fixtures: the toy game (tests/analyses/toygame.py) is importable as `toygame`."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # workers inherit sys.path, so they can import toygame too
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def toy():
    import toygame

    return toygame
