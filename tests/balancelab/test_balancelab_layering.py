"""The command line sits on top: no library package imports `balancelab`, so the library works without it."""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = ("simcore", "nightsim", "dreamsim", "nerathsim", "analyses", "reports")


def imported_top_names(path: pathlib.Path) -> list[str]:
    """The top-level package of every absolute import in a Python file."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", LIBRARY)
def test_no_library_package_imports_the_command_line(package):
    found = [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / package).rglob("*.py"))
             if "balancelab" in imported_top_names(path)]
    assert found == []


def test_the_check_sees_an_import_of_the_command_line(tmp_path):
    """Not blind: both import forms of the package are found, a relative import of a sibling is not."""
    sample = tmp_path / "sample.py"
    sample.write_text("import balancelab.cli\nfrom balancelab import parser\nfrom .cli import main\n")
    assert imported_top_names(sample) == ["balancelab", "balancelab"]


def test_the_command_line_package_imports_the_library():
    """The direction the other way round is the expected one (and the parser reads analyses.options)."""
    assert "analyses" in imported_top_names(ROOT / "balancelab" / "parser.py")
