"""The shared core imports no game and no analysis code, so every game can depend on it."""
from __future__ import annotations

import ast
import pathlib

import simcore

FORBIDDEN = {"nightsim", "dreamsim", "nerathsim", "analyses", "reports", "balancelab"}


def test_simcore_imports_no_game_and_no_analysis():
    root = pathlib.Path(simcore.__file__).parent
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            found += [(path.name, n) for n in names if n.split(".")[0] in FORBIDDEN]
    assert found == []

