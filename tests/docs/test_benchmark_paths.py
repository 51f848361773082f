"""Every `benchmarks/...` path the code and docs cite exists, and benchmarks/README.md lists every script.

The scripts live in benchmarks/speed/, benchmarks/tools/ and benchmarks/studies/; a citation of a script
by an old or misspelt path would send a reader nowhere. `ALLOWED` lists folders being rewritten at the
same time (as in test_no_history_in_code.py); it shrinks to empty.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"
SOURCES = ("simcore", "nightsim", "dreamsim", "nerathsim", "analyses", "balancelab", "reports", "tests", "benchmarks",
           "examples", "docs")
ALLOWED = ()
CITED = re.compile(r"benchmarks/[\w/]+\.(?:py|txt)")
FOLDERS = ("speed", "tools", "studies")


def citing_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / ".ci" / "run", ROOT / "pyproject.toml"]
    for top in SOURCES:
        files += sorted(p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".md", ".j2", ".txt", ".json")
                        and not any(part.startswith(".") for part in p.relative_to(ROOT).parts))
    return [p for p in files if p.is_file() and not p.relative_to(ROOT).as_posix().startswith(ALLOWED)]


def test_the_scripts_are_in_the_three_folders_only():
    assert sorted(p.name for p in BENCH.glob("*.py")) == []
    for folder in FOLDERS:
        assert list((BENCH / folder).glob("*.py")), folder


def test_benchmarks_readme_lists_every_script_in_its_folder():
    text = (BENCH / "README.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)
    for folder in FOLDERS:
        section = next(s for s in sections if s.startswith(f"{folder}/"))
        for script in sorted((BENCH / folder).glob("*.py")):
            assert f"`{script.name}`" in section, f"benchmarks/README.md does not list {folder}/{script.name}"


@pytest.mark.parametrize("path", citing_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cited_benchmark_path_exists(path):
    cited = set(CITED.findall(path.read_text(encoding="utf-8", errors="replace")))
    assert sorted(c for c in cited if not (ROOT / c).exists()) == []
