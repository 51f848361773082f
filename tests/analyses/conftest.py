"""Shared fixtures: the toy game (tests/analyses/toygame.py, importable via tests/conftest.py)."""
from __future__ import annotations

import pytest

import toygame


@pytest.fixture(scope="session")
def toy():
    return toygame
