"""Results shipped with the package (`analyses.shipped`): skill ladders and re-balancing studies the
default report renders with their provenance, marked stale when the rules changed since."""
import json
import shutil

import pytest

import analyses.shipped as shipped
import nightsim
from analyses import ladder as L
from analyses.games import resolve_policies
from analyses.metadata import policy_repr
from analyses.rebalance_search import rebalance
from analyses.sensitivity import load as load_sensitivity
from analyses.sensitivity import save as save_sensitivity
from analyses.sensitivity import sensitivity
from analyses.study import simulate_study
from balancelab.cli import main


def entry(kind, path, version=None, **extra):
    return {"kind": kind, "game": "nightsim", "path": path, "rules_version": version or nightsim.RULES_VERSION,
            "command": f"balancelab {kind} nightsim", "commit": "0123456789abcdef", "date": "2026-12-02", **extra}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A study of 8 nightsim games to report from, a small ladder and a small re-balancing study."""
    folder = tmp_path_factory.mktemp("shipped")
    runs = folder / "runs"
    simulate_study(n_games=8, games=["nightsim"], seed=3, out_dir=runs, progress=False)
    ladder = L.skill_ladder("nightsim", ["random", "greedy"], games=8, findings_games=0, seed=3, bootstrap=50,
                            progress=False)
    rebalance("nightsim", "seat_balance", knobs="last_seat_extra_cards=0:1:1", policies="greedy", budget=2,
              first_games=8, rungs=1, confirm_games=8, store=folder / "study")
    return folder, runs, ladder


def ship(tmp_path, made, monkeypatch, version=None, name="rebalance-seats"):
    """A shipped-results folder holding the ladder and the study, as the package's would."""
    folder, _, ladder = made
    results = tmp_path / "results"
    ladder.save(results / "ladders" / "nightsim.json")
    study = results / "studies" / "nightsim" / name
    study.mkdir(parents=True)
    for part in ("spec.json", "study.journal", "confirmation.json"):
        (study / part).write_bytes((folder / "study" / part).read_bytes())
    manifest = [entry("ladder", "ladders/nightsim.json", version, note="Played on a loaded machine."),
                entry("rebalance", f"studies/nightsim/{name}", version)]
    (results / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(shipped, "SHIPPED_DIR", results)
    return results


def report(made, tmp_path, *extra):
    _, runs, _ = made
    out = tmp_path / "report.html"
    assert main(["report", "--from", str(runs), "--out", str(out), "--no-progress", "--force", *extra]) == 0
    return out.read_text(encoding="utf-8")


def test_the_report_shows_the_shipped_ladder_and_fixes_with_their_command_and_rules_version(made, tmp_path, monkeypatch):
    ship(tmp_path, made, monkeypatch)
    html = report(made, tmp_path)
    section = html[html.index('id="nightsim-ladder"'):]
    assert "made by `balancelab ladder nightsim` on 2026-12-02, 8 games played" in section
    assert f"rules version {nightsim.RULES_VERSION}." in section
    assert "Played on a loaded machine." not in html        # the manifest's note is for maintainers
    assert 'data-stale="no"' in section and "STALE" not in html
    assert "Suggested fixes" in html and "(rebalance-seats) (shipped)" in html
    assert "made by `balancelab rebalance nightsim` on 2026-12-02" in html
    appendix = html[html.index('id="stored-results"'):]     # the commit is listed in the appendix
    assert appendix.count("0123456789abcdef") == 2 and "balancelab ladder nightsim" in appendix


def test_a_result_measured_under_other_rules_is_shown_marked_stale(made, tmp_path, monkeypatch):
    ship(tmp_path, made, monkeypatch, version="nightsim-0.9")
    html = report(made, tmp_path)
    assert 'data-stale="yes"' in html
    assert f"STALE: the installed game is rules version {nightsim.RULES_VERSION}" in html
    assert html.count("STALE:") == 2                                   # the ladder and the study


def test_a_ladder_whose_policy_has_other_parameters_now_is_marked_stale(made, tmp_path, monkeypatch):
    results = ship(tmp_path, made, monkeypatch)
    path = results / "ladders" / "nightsim.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["metadata"]["policy_reprs"]["greedy"] = "HeuristicPolicy(name='greedy', weights=Weights(complete=1.0))"
    path.write_text(json.dumps(data), encoding="utf-8")
    html = report(made, tmp_path)
    section = html[html.index('id="nightsim-ladder"'):]
    assert 'data-stale="yes"' in section
    assert "STALE: policy &#39;greedy&#39; has other parameters now; re-run the command" in section
    assert "Suggested fixes" in html and html.count("STALE:") == 1      # the study's own greedy is unchanged


def test_a_study_whose_policy_has_other_parameters_now_is_marked_stale(made, tmp_path, monkeypatch):
    results = ship(tmp_path, made, monkeypatch)
    spec_path = results / "studies" / "nightsim" / "rebalance-seats" / "spec.json"
    spec = json.loads(spec_path.read_text(encoding="utf-8"))
    assert spec["policies"] == ["greedy"] * 4 and spec["policy_reprs"] == [policy_repr(nightsim, "greedy")] * 4
    (study,) = shipped.shipped_studies("nightsim")
    assert study.changes() == [] and not study.stale
    spec["policy_reprs"] = ["HeuristicPolicy(name='greedy', weights=Weights(complete=1.0))"] * 4
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    assert study.changes() == ["policy 'greedy' has other parameters now"] and study.stale
    html = report(made, tmp_path)
    assert "STALE: policy &#39;greedy&#39; has other parameters now" in html and html.count("STALE:") == 1
    del spec["policy_reprs"]                     # a study stored without them: its policies cannot be checked
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    assert study.changes() == []


def test_no_stored_leaves_the_shipped_results_out(made, tmp_path, monkeypatch):
    ship(tmp_path, made, monkeypatch)
    html = report(made, tmp_path, "--no-stored")
    assert "Skill ladder" not in html and "Suggested fixes" not in html and "Stored result" not in html


def test_a_ladder_given_on_the_command_line_takes_the_place_of_the_shipped_one(made, tmp_path, monkeypatch):
    ship(tmp_path, made, monkeypatch)
    mine = tmp_path / "mine.json"
    made[2].save(mine)
    html = report(made, tmp_path, "--ladder", str(mine))
    section = html[html.index('id="nightsim-ladder"'):]
    section = section[:section.index("</section>")]
    assert "<h3>Skill ladder</h3>" in section and "Stored result" not in section


@pytest.mark.parametrize("bad, message", [
    ("not json", "is not valid JSON"),
    ('{"kind": "ladder"}', "must hold a list"),
    ('[3]', "must be an object"),
    ('[{"kind": "ladder"}]', "lacks game, path, rules_version, command, commit, date"),
    (json.dumps([entry("duel", "x")]), "kind must be one of ladder, rebalance"),
    (json.dumps([entry("ladder", "x") | {"game": "chess"}]), "game must be one of nightsim, dreamsim, nerathsim"),
    (json.dumps([entry("ladder", "ladders/none.json")]), "does not exist"),
    (json.dumps([entry("ladder", "x") | {"colour": "red"}]), "unknown field(s) colour"),
])
def test_a_malformed_manifest_is_a_clear_error(tmp_path, bad, message):
    (tmp_path / "manifest.json").write_text(bad, encoding="utf-8")
    (tmp_path / "x").write_text("")
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        shipped.manifest(tmp_path)


def test_the_package_s_own_shipped_results_load_and_name_their_provenance():
    entries = shipped.manifest()
    for s in entries:
        assert s.game in ("nightsim", "dreamsim", "nerathsim") and s.command.startswith("balancelab ")
        if s.kind == "ladder":
            assert L.Ladder.load(s.path).metadata["game"] == s.game
        elif s.kind == "sensitivity":
            table = load_sensitivity(s.path)
            assert table.attrs["game"] == s.game and len(table) and s.games_played > 0
            assert not table.attrs["shipped"]["stale"] if "shipped" in table.attrs else True
        else:
            assert shipped.shipped_studies(s.game)
    assert set(shipped.shipped_ladders()) == {s.game for s in entries if s.kind == "ladder"}


def test_a_study_of_the_same_name_given_with_from_takes_the_place_of_the_shipped_one(made, tmp_path, monkeypatch):
    folder, runs, _ = made
    ship(tmp_path, made, monkeypatch)
    mine = tmp_path / "mine"
    shutil.copytree(runs, mine)
    study = mine / "nightsim" / "rebalance-seats"
    study.mkdir()
    for name in ("spec.json", "study.journal", "confirmation.json"):
        (study / name).write_bytes((folder / "study" / name).read_bytes())
    out = tmp_path / "mine.html"
    assert main(["report", "--from", str(mine), "--out", str(out), "--no-progress", "--force"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "(rebalance-seats)" in html and "(rebalance-seats) (shipped)" not in html


def test_another_study_given_with_from_does_not_hide_the_shipped_one(made, tmp_path, monkeypatch):
    folder, runs, _ = made
    ship(tmp_path, made, monkeypatch, name="rebalance")                # shipped as the game's plain "rebalance"
    mine = tmp_path / "mine"
    shutil.copytree(runs, mine)
    study = mine / "nightsim" / "rebalance-seats"
    study.mkdir()
    for name in ("spec.json", "study.journal", "confirmation.json"):
        (study / name).write_bytes((folder / "study" / name).read_bytes())
    out = tmp_path / "both.html"
    assert main(["report", "--from", str(mine), "--out", str(out), "--no-progress", "--force"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "(rebalance-seats)" in html and "seat_balance (shipped)" in html


def test_a_search_rung_is_compared_by_what_its_label_resolves_to(tmp_path):
    """A ladder stores a search rung's repr under the repr itself (`ismcts:25` is an object, not a name)."""
    (tmp_path / "l.json").write_text("{}")
    (tmp_path / "manifest.json").write_text(json.dumps([entry("ladder", "l.json")]), encoding="utf-8")
    s = shipped.manifest(tmp_path)[0]
    now = policy_repr(nightsim, resolve_policies(nightsim, ["ismcts:25"], 1)[0])
    assert s.changes(["ismcts:25", "greedy"], {now: now, "greedy": policy_repr(nightsim, nightsim.POLICIES["greedy"])}) == []
    old = now.replace("iterations=25", "iterations=30")
    assert s.changes(["ismcts:25"], {old: old}) == ["policy 'ismcts:25' has other parameters now"]
    assert s.changes(["no_such_policy"], {}) == ["policy 'no_such_policy' no longer exists"]


def test_a_shipped_sensitivity_run_is_shown_as_the_games_readings_with_its_provenance(made, tmp_path, monkeypatch):
    results = ship(tmp_path, made, monkeypatch)
    table = sensitivity("nightsim", ["D-scavenger", "D-win-timing"], n_games=12, policies="greedy", seed=5,
                        engine="python")
    save_sensitivity(table, results / "sensitivity" / "nightsim-greedy.json")
    manifest = json.loads((results / "manifest.json").read_text(encoding="utf-8"))
    manifest.append(entry("sensitivity", "sensitivity/nightsim-greedy.json"))
    (results / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    loaded = shipped.shipped_sensitivity(["nightsim"])["nightsim"]["greedy"]
    assert loaded.attrs["shipped"]["stale"] is False and len(loaded) == len(table)
    assert shipped.manifest()[-1].games_played == 12 * 3            # two alternatives and the published arm
    html = report(made, tmp_path)
    section = html[html.index('id="nightsim-readings"'):]
    section = section[:section.index("</div>")]
    assert "made by `balancelab sensitivity nightsim` on 2026-12-02, 36 games played" in section
    assert "2 decisions, 2 alternatives, 12 paired games an arm" in section
    assert "D-win-timing" in section and "win_timing = " in section and "end_of_action" in section
    assert "published reading" in section and "seat 4 win rate" in section
    appendix = html[html.index('id="stored-results"'):]
    assert "balancelab sensitivity nightsim" in appendix
    old = table.copy()
    old.attrs = dict(table.attrs, policy_reprs=["greedy(old=1)"] * 4)    # played with other parameters
    save_sensitivity(old, results / "sensitivity" / "nightsim-greedy.json")
    again = shipped.shipped_sensitivity(["nightsim"])["nightsim"]["greedy"]
    assert again.attrs["shipped"]["stale"] and "STALE" in again.attrs["shipped"]["provenance"]
