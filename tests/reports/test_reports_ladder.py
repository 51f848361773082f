"""The report's "Skill ladder" section, rendered from a stored ladder (`balancelab report --ladder`)."""
import re

import pytest

from analyses import ladder as L
from analyses.study import simulate_study
from balancelab.cli import main


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ladder")
    runs_dir = folder / "runs"
    simulate_study(n_games=40, games=["nightsim"], seed=2, out_dir=runs_dir, progress=False)
    ladder = L.skill_ladder("nightsim", ["random", "greedy", "purist"], games=40, findings_games=40, seed=2,
                            bootstrap=200, progress=False)
    ladder.save(folder / "ladders" / "nightsim.json")
    return folder, runs_dir, ladder


def test_the_report_renders_a_skill_ladder_section_from_a_stored_ladder_without_simulating(stored, capsys, monkeypatch):
    folder, runs_dir, ladder = stored
    monkeypatch.setattr(L, "skill_ladder", lambda *a, **k: pytest.fail("the report must not run a ladder"))
    out = folder / "report.html"
    assert main(["report", "--from", str(runs_dir), "--ladder", str(folder / "ladders"), "--out", str(out),
                 "--no-progress"]) == 0
    html = out.read_text(encoding="utf-8")
    section = html[html.index('id="nightsim-ladder"'):]
    section = re.sub(r'</?span[^>]*>', "", section[:section.index("</section>")])   # cells' no-wrap spans
    assert "<h3>Skill ladder</h3>" in section
    for rung in ("random", "greedy", "purist"):
        assert f"<td>{rung}</td>" in section
    m = ladder.metadata
    assert f"{m['games_played']:,} games, seed 2" in section
    assert f"{m['levels']} significantly distinct level(s)" in section
    verdicts = re.findall(r'data-robust="(yes|no)"', section)
    robust = ladder.findings.groupby("finding", sort=False)["robust"].first()
    assert verdicts == ["yes" if r else "no" for r in robust]
    top = ladder.ratings.sort_values("elo", ascending=False).iloc[0]
    assert f"{top['elo']:.1f} [{top['elo_low']:.1f}, {top['elo_high']:.1f}]" in section
    capsys.readouterr()


def test_without_ladder_the_report_has_no_ladder_section_and_a_bad_ladder_file_fails_first(stored, capsys, tmp_path):
    folder, runs_dir, _ = stored
    out = tmp_path / "plain.html"
    assert main(["report", "--from", str(runs_dir), "--out", str(out), "--no-progress", "--no-stored"]) == 0
    assert "Skill ladder" not in out.read_text(encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    assert main(["report", "--from", str(runs_dir), "--ladder", str(bad), "--out", str(tmp_path / "x.html")]) == 2
    assert "not a skill ladder file" in capsys.readouterr().err


def test_a_ladder_folder_with_no_ladder_yet_is_a_note_not_an_error(stored, capsys, tmp_path):
    """README: `report --from runs/study --ladder runs/ladders` before any ladder was made."""
    _, runs_dir, _ = stored
    out = tmp_path / "r.html"
    assert main(["report", "--from", str(runs_dir), "--ladder", str(tmp_path / "ladders"), "--out", str(out),
                 "--no-progress", "--no-stored"]) == 0
    assert "no skill ladders in" in capsys.readouterr().err and out.exists()
