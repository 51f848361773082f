"""What `--resume` and `--out` accept.

4. A run records a content hash of every data input (nightsim cards; Nerath map, unit table,
   event, treasure and guardian files), and a resume with other content is refused.
7. A kill during the final clean-up never blocks `--resume` when the finished file exists.
8. A finished results file is not overwritten without --force.
"""
import json
import shutil
from importlib import resources

import pytest

import nerathsim
import nightsim
from analyses import checkpoint
from analyses.checkpoint import parts_dir, simulate_to_file
from analyses.io import read_results
from analyses.metadata import run_metadata
from analyses.runner import prepare_run
from balancelab.cli import main

GAMES, CHUNK = 24, 4
TOY = ["simulate", "toygame", "--games", "12", "--players", "3", "--policies", "strong,random,random",
       "--chunk-size", "3", "--no-progress"]


def other_deck() -> tuple:
    """The published 108 cards with the abilities of two cards of different abilities swapped."""
    cards = list(nightsim.load_cards())
    j = next(k for k, c in enumerate(cards) if c.ability != cards[0].ability)
    cards[0], cards[j] = cards[0]._replace(ability=cards[j].ability), cards[j]._replace(ability=cards[0].ability)
    return tuple(cards)


def run_nightsim(out, cards, **options):
    return simulate_to_file("nightsim", GAMES, out, rules={"players": 3, "cards": cards}, policies="greedy",
                            seed=5, chunk_size=CHUNK, progress=False, **options)


def interrupt_after(monkeypatch, parts: int):
    original, written = checkpoint.write_part, []

    def write_then_stop(folder, frame):
        written.append(original(folder, frame))
        if len(written) == parts:
            raise KeyboardInterrupt
        return written[-1]

    monkeypatch.setattr(checkpoint, "write_part", write_then_stop)


# --- item 4 ---------------------------------------------------------------------------------

def test_two_decks_of_the_same_size_have_different_content_hashes():
    deck = other_deck()
    published, custom = nightsim.Rules(), nightsim.Rules(cards=deck)
    assert published.to_dict()["cards"] is None and custom.to_dict()["cards"] == "108 custom cards"
    assert published.data_hashes() != custom.data_hashes()
    assert nightsim.Rules(cards=nightsim.load_cards()).data_hashes() == published.data_hashes()
    module, spec = prepare_run("nightsim", {"cards": deck}, "greedy", 0, "rotate")
    assert run_metadata(module, spec, 1)["data_hashes"] == custom.data_hashes()


def test_resume_with_another_deck_of_the_same_size_is_refused(tmp_path, monkeypatch):
    out = tmp_path / "deck.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=2)
        with pytest.raises(KeyboardInterrupt):
            run_nightsim(out, nightsim.load_cards())
    manifest = json.loads((parts_dir(out) / "run.json").read_text())
    assert manifest["data_hashes"] == nightsim.Rules().data_hashes()
    with pytest.raises(ValueError, match=r"cannot resume .*data inputs differ from this run's \(cards: content hash"):
        run_nightsim(out, other_deck(), resume=True)
    df = run_nightsim(out, nightsim.load_cards(), resume=True)  # the same deck finishes the run
    assert len(df) == GAMES
    with pytest.raises(ValueError, match=r"data inputs differ.*cards"):  # the finished file checks it too
        run_nightsim(out, other_deck(), resume=True)


def test_cli_resume_with_another_deck_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    out = tmp_path / "deck.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=1)
        with pytest.raises(KeyboardInterrupt):
            run_nightsim(out, other_deck())
    # the CLI's deck is the published one
    assert main(["simulate", "nightsim", "--games", str(GAMES), "--players", "3", "--policies", "greedy",
                 "--seed", "5", "--chunk-size", str(CHUNK), "--no-progress", "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "data inputs differ" in err


def test_a_run_without_recorded_content_hashes_is_not_resumed(tmp_path, monkeypatch):
    out = tmp_path / "old.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=1)
        with pytest.raises(KeyboardInterrupt):
            run_nightsim(out, nightsim.load_cards())
    manifest = parts_dir(out) / "run.json"
    old = json.loads(manifest.read_text())
    del old["data_hashes"]
    manifest.write_text(json.dumps(old))
    with pytest.raises(ValueError, match="records no content hash of its data inputs"):
        run_nightsim(out, nightsim.load_cards(), resume=True)


def test_nerath_content_hashes_follow_the_files_not_their_names(tmp_path):
    base = nerathsim.Rules(players=2).data_hashes()
    assert set(base) == {"map", "units", "events", "treasures", "guardians"}
    # the shipped event file copied under another name: same content, same hash
    events = tmp_path / "events.json"
    events.write_text(resources.files("nerathsim").joinpath("data", "cards", "events.json").read_text("utf-8"))
    assert nerathsim.Rules(players=2, event_file=str(events)).data_hashes() == base
    # the same path with other content: another hash (a reordered JSON object parses alike but is other text)
    data = json.loads(events.read_text())
    events.write_text(json.dumps(data, indent=3))
    changed = nerathsim.Rules(players=2, event_file=str(events)).data_hashes()
    assert changed["events"] != base["events"] and {k: v for k, v in changed.items() if k != "events"} == \
        {k: v for k, v in base.items() if k != "events"}
    # a map file: the board's content counts
    shipped = nerathsim.maps.map_path("small")
    mine = tmp_path / "small.json"
    mine.write_text(shipped.read_text("utf-8"))
    small = nerathsim.Rules(players=2, map="small").data_hashes()["map"]
    assert nerathsim.Rules(players=2, map=str(mine)).data_hashes()["map"] == small
    board = json.loads(mine.read_text())
    board["title"] = "renamed, same board"
    mine.write_text(json.dumps(board))
    assert nerathsim.Rules(players=2, map=str(mine)).data_hashes()["map"] == small
    assert nerathsim.Rules(players=2, map="nerath").data_hashes()["map"] != small
    # the unit table
    dearer = nerathsim.BattleRules(units=nerathsim.UnitTable.published().replace("dragon", cost=6))
    assert nerathsim.Rules(players=2, battle=dearer).data_hashes()["units"] != base["units"]


def test_nerath_resume_with_another_event_file_is_refused(tmp_path):
    events = tmp_path / "events.json"
    text = resources.files("nerathsim").joinpath("data", "cards", "events.json").read_text("utf-8")
    events.write_text(text)
    module, spec = prepare_run("nerathsim", {"players": 2, "event_file": str(events)}, "balanced", 0, "rotate")
    before = run_metadata(module, spec, 10)
    events.write_text(json.dumps(json.loads(text), indent=3))
    module, spec = prepare_run("nerathsim", {"players": 2, "event_file": str(events)}, "balanced", 0, "rotate")
    after = run_metadata(module, spec, 10)
    assert before["rules"] == after["rules"]  # the path is the same: only the hash tells them apart
    with pytest.raises(ValueError, match=r"data inputs differ.*\(events: content hash"):
        checkpoint._check_same_run(before, after, tmp_path)


# --- item 7 ---------------------------------------------------------------------------------

def test_a_kill_during_the_final_clean_up_leaves_a_run_that_resume_returns(tmp_path, monkeypatch, capsys):
    out = tmp_path / "toy.parquet"
    real_rmtree = shutil.rmtree

    def killed_half_way(path, *args, **kwargs):
        (path / "run.json").unlink(missing_ok=True)  # the deletion had got as far as run.json
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(checkpoint.shutil, "rmtree", killed_half_way)
        assert main([*TOY, "--out", str(out)]) == 130
    capsys.readouterr()
    assert out.exists()
    assert main([*TOY, "--out", str(out), "--resume"]) == 0, capsys.readouterr().err
    assert not parts_dir(out).exists() and not list(tmp_path.glob("*.parts*"))
    assert len(read_results(out)) == 12
    assert real_rmtree is shutil.rmtree


def test_a_kill_after_the_file_is_written_but_before_the_clean_up_resumes_to_it(tmp_path, monkeypatch, played):
    out = tmp_path / "toy.parquet"

    def killed(folder):
        if folder.exists():  # the run's own clean-up (not the check for an old .trash)
            raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(checkpoint, "_discard", killed)
        assert main([*TOY, "--out", str(out)]) == 130
    assert out.exists() and (parts_dir(out) / "run.json").exists()
    finished = out.read_bytes()
    played.clear()
    assert main([*TOY, "--out", str(out), "--resume"]) == 0
    assert played == [] and out.read_bytes() == finished and not parts_dir(out).exists()


def test_a_csv_whose_sidecar_was_not_written_yet_is_finished_from_its_parts(tmp_path, monkeypatch):
    out = tmp_path / "toy.csv"
    original = checkpoint.write_results

    def csv_only(df, path, csv=None):
        df.to_csv(path, index=False)  # killed before the sidecar
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(checkpoint, "write_results", csv_only)
        assert main([*TOY, "--csv", "--out", str(out)]) == 130
    assert main([*TOY, "--csv", "--out", str(out), "--resume"]) == 0
    assert len(read_results(out)) == 12 and not parts_dir(out).exists()
    assert original is checkpoint.write_results


# --- item 8: overwriting --------------------------------------------------------------------

def test_a_finished_file_is_not_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "toy.parquet"
    assert main([*TOY, "--out", str(out)]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main([*TOY, "--out", str(out), "--seed", "9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds a finished run" in err and "--force" in err
    assert out.read_bytes() == before
    assert main([*TOY, "--out", str(out), "--seed", "9", "--force"]) == 0
    assert read_results(out).attrs["seed"] == 9
    assert main([*TOY, "--out", str(out), "--resume", "--force"]) == 2
    assert "exclude each other" in capsys.readouterr().err


def test_force_discards_an_unfinished_run(tmp_path, monkeypatch):
    out = tmp_path / "toy.parquet"
    with monkeypatch.context() as patch:
        interrupt_after(patch, parts=1)
        assert main([*TOY, "--out", str(out)]) == 130
    assert main([*TOY, "--out", str(out), "--seed", "3", "--force"]) == 0
    assert read_results(out).attrs["seed"] == 3 and not parts_dir(out).exists()
