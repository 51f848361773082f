"""Every test a RULES.md, README or docs/*.md page cites exists: the rule → code → test tables stay true.

A citation is a backticked token: `test_name` (a test function somewhere under tests/),
`test_file.py` (a test module under tests/), `file.py::test_name` (that function in that module),
`test_prefix_*` or `test_prefix...` (some test starts with the prefix) or `..._suffix` (some test
ends with it).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(p for pattern in ("*/RULES.md", "*/README.md", "README.md", "docs/*.md") for p in ROOT.glob(pattern)
              if ".git" not in p.parts)
TEST_FILES = {p.name: p for p in (ROOT / "tests").rglob("test_*.py")}
DEF = re.compile(r"^\s*(?:async\s+)?def\s+(test_\w+)", re.M)
TESTS = {f: set(DEF.findall(p.read_text(encoding="utf-8"))) for f, p in TEST_FILES.items()}
ALL_TESTS = set().union(*TESTS.values())
TICKED = re.compile(r"`([^`\n]+)`")


def citations(text: str):
    """(kind, token) for every backticked test citation in a document."""
    for tok in TICKED.findall(text):
        for part in re.split(r"[\s,]+", tok.strip()):
            abbreviated = part.rstrip(")];:,").endswith(("...", "…"))
            part = part.strip("()[];:.,…") if not part.endswith(".py") else part.strip("()[];:,")
            if abbreviated and re.fullmatch(r"test_\w+", part):
                yield "prefix", part
            elif "::" in part and re.fullmatch(r"(?:.*/)?test_\w+\.py::test_\w+", part):
                yield "pair", part
            elif re.fullmatch(r"(?:.*/)?test_\w+\.py", part):
                yield "file", part.rsplit("/", 1)[-1]
            elif re.fullmatch(r"test_\w+\*", part) or re.fullmatch(r"test_\w+_", part):
                yield "prefix", part[:-1]
            elif re.fullmatch(r"\.\.\._?\w+", part):
                yield "suffix", part[3:]
            elif re.fullmatch(r"test_\w+", part):
                yield "name", part


def missing(doc: Path) -> list[str]:
    out = []
    for kind, tok in citations(doc.read_text(encoding="utf-8")):
        if kind == "file" and tok not in TEST_FILES:
            out.append(f"file {tok}")
        elif kind == "name" and tok not in ALL_TESTS and tok not in TEST_FILES and f"{tok}.py" not in TEST_FILES:
            out.append(f"test {tok}")
        elif kind == "prefix" and not any(t.startswith(tok) for t in ALL_TESTS):
            out.append(f"tests {tok}*")
        elif kind == "suffix" and not any(t.endswith(tok) for t in ALL_TESTS):
            out.append(f"tests ...{tok}")
        elif kind == "pair":
            f, name = tok.split("::", 1)
            f = f.rsplit("/", 1)[-1]
            if f not in TEST_FILES or name not in TESTS[f]:
                out.append(f"test {tok}")
    return out


def test_the_documents_cite_tests_at_all():
    cited = {doc.relative_to(ROOT).as_posix(): sum(1 for _ in citations(doc.read_text(encoding="utf-8")))
             for doc in DOCS}
    for name in ("nightsim/RULES.md", "dreamsim/RULES.md", "nerathsim/RULES.md"):
        assert cited[name] >= 20, (name, cited[name])


def test_the_checker_finds_a_missing_test_and_a_missing_file(tmp_path):
    doc = tmp_path / "RULES.md"
    doc.write_text("| x | `test_no_such_test_anywhere`, `test_no_such_file.py`, `test_no_such_prefix_*` |\n"
                   "| y | `test_nightsim_rules.py::test_no_such_function`, `test_nothing_starts_like_this...` |\n"
                   "| z | `test_nightsim_rules.py`, `test_two_actions_per_turn_then_the_turn_passes_clockwise` |",
                   encoding="utf-8")
    assert missing(doc) == ["test test_no_such_test_anywhere", "file test_no_such_file.py",
                            "tests test_no_such_prefix_*", "test test_nightsim_rules.py::test_no_such_function",
                            "tests test_nothing_starts_like_this*"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_test_name_and_test_file_a_rules_document_cites_exists(doc):
    assert missing(doc) == [], f"{doc.relative_to(ROOT)} cites tests that do not exist"


@pytest.mark.parametrize("doc", [p for p in DOCS if p.name == "RULES.md"], ids=lambda p: p.parent.name)
def test_rules_md_carries_no_development_history(doc):
    """The report shows RULES.md's decisions to designers: no issue or session numbers in them (history
    belongs to git and CHANGELOG.md)."""
    found = re.findall(r"\b(?:issue|session) \d+", doc.read_text(encoding="utf-8"), re.I)
    assert found == [], found
