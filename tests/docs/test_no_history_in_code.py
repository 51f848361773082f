"""Code, tests and docs describe what is, not how it came to be: no issue numbers, no work sessions, no
numbered optimisation passes. History belongs to git and CHANGELOG.md; a comment says why, not when.

Scanned: every .py file of the packages, tests, benchmarks and examples, the CI script, and the
Markdown documents (README.md files, docs/, RULES.md, CONTENT.md); CHANGELOG.md is history and is
not scanned. `ALLOWED` lists the folders being rewritten elsewhere; it shrinks to empty.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("simcore", "nightsim", "dreamsim", "nerathsim", "analyses", "balancelab", "reports", "tests", "benchmarks",
           "examples")
#: files under these prefixes are not checked yet (being rewritten at the same time)
ALLOWED = ()
#: folders whose text writes a Nightmarium card as '#N' (its log notation, nightsim/RULES.md): there '#N' is a card
CARD_NOTATION = ("nightsim/", "tests/nightsim/")

_ORDINAL = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))"
#: (what, pattern) of the history the text may not carry
TEXT_PATTERNS = [
    ("issue number", re.compile(r"\bissues? #?\d+", re.I)),
    ("issue reference '#N'", re.compile(r"(?:^|[\s(\[,;])#\d+\b")),
    ("work session", re.compile(r"\bsessions? \d+", re.I)),
    ("work stop", re.compile(r"(?<![.\w])stop[- ]\d+\b", re.I)),
    ("numbered pass", re.compile(r"\b(?:(?:optimi[sz]ation|speed) )?pass(?:es)? \d+\b", re.I)),
    ("ordinal pass", re.compile(rf"\b{_ORDINAL} (?:(?:optimi[sz]ation|speed|performance) )?pass\b", re.I)),
    ("optimisation pass", re.compile(r"\b(?:optimi[sz]ation|speed) pass(?:es)?\b", re.I)),
]
#: names (files, functions, classes) may not be named after a pass
NAME_PATTERN = re.compile(r"pass_?\d+|(?:speed|optimi[sz]ation|perf)_pass", re.I)
DEFINED = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+(\w+)", re.M)


def _skipped(rel: str) -> bool:
    return rel.startswith(ALLOWED)


def scanned_files() -> list[Path]:
    files = [ROOT / ".ci" / "run", ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for top in SOURCES:
        base = ROOT / top
        files += sorted(p for p in base.rglob("*.py") if not any(part.startswith(".") for part in p.parts))
        files += sorted(base.rglob("*.md"))
    here = Path(__file__).resolve()   # this file spells the patterns out to test them
    return [p for p in files if p.exists() and p.resolve() != here and not _skipped(p.relative_to(ROOT).as_posix())]


def history_in(text: str, cards: bool = False) -> list[str]:
    """'line N: what: the words' for every piece of development history in a text (`cards`: '#N' names a card)."""
    found = []
    patterns = [(w, p) for w, p in TEXT_PATTERNS if not (cards and w.endswith("'#N'"))]
    for n, line in enumerate(text.splitlines(), 1):
        for what, pattern in patterns:
            m = pattern.search(line)
            if m:
                found.append(f"line {n}: {what}: {m.group(0).strip()!r}")
    return found


def names_after_passes(path: Path, text: str) -> list[str]:
    """File, function and class names that name a pass (a numbered pass, or a speed or optimisation pass)."""
    names = [path.stem] + (DEFINED.findall(text) if path.suffix == ".py" else [])
    return [n for n in names if NAME_PATTERN.search(n)]


def test_the_scan_covers_the_packages_tests_and_docs():
    rel = {p.relative_to(ROOT).as_posix() for p in scanned_files()}
    for expected in ("README.md", ".ci/run", "balancelab/cli.py", "nerathsim/game.py", "reports/build.py",
                     "tests/test_protocol.py", "benchmarks/README.md", "nerathsim/README.md"):
        assert expected in rel, expected
    assert not any(r.startswith(ALLOWED) for r in rel)


def test_the_patterns_find_history_and_leave_plain_words_alone():
    # the examples are assembled so that this file, like every other, holds no such text itself
    history = [" ".join(words) for words in (
        ("see", "issue", "14 item 4"), ("Issue", "#3:"), ("measured in", "session", "31"),
        ("the seventh", "speed", "pass"), ("pass", "8", "made it faster"), ("an", "optimisation", "pass"),
        ("the 4th", "pass"), ("the", "stop-" + "28", "run"))] + ["(" + "#16)"]
    for text in history:
        assert history_in(text), text
    plain = ("a pass action", "Pass()", "PASS = 0", "they pass, refuse bad values", 'scope="session"',
             "start the command in its own session", "&#39;greedy&#39;", "colour #fff", "a 2-pass sort",
             "the issue is that", "# 1 seat", "games start..stop-1")
    for text in plain:
        assert history_in(text) == [], text
    assert history_in("Weeper (#46 Homunculi head)", cards=True) == [] and history_in(" ".join(("see", "issue", "3")), cards=True)
    speed_pass7 = "speed_" + "pass" + "7"
    assert names_after_passes(Path(f"test_nerath_{speed_pass7}.py"), "") == [f"test_nerath_{speed_pass7}"]
    assert names_after_passes(Path("t.py"), f"def test_{'pass'}_3_cache():\n    pass\n") == [f"test_{'pass'}_3_cache"]
    assert names_after_passes(Path("test_pass_actions.py"), "def test_a_pass_ends_the_phase():\n") == []


@pytest.mark.parametrize("path", scanned_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_development_history(path):
    text = path.read_text(encoding="utf-8")
    cards = path.relative_to(ROOT).as_posix().startswith(CARD_NOTATION)
    found = history_in(text, cards) + [f"named after a pass: {n}" for n in names_after_passes(path, text)]
    assert found == [], f"{path.relative_to(ROOT)}: " + "; ".join(found)
