"""Replay pages: the board rebuilt from the log alone ends where the engine's game ended.

Each game is played through the engine's public `apply_action` (the same random streams as
`play_game`), so the test holds the engine's final `State`; the replay's record is played by
`analyses.replay.record_game` with the same seed and must log the same events.
"""
import re
from collections import Counter

import numpy as np
import pytest

import dreamsim
import nerathsim
import nightsim
import reports
from analyses.metadata import jsonable
from analyses.replay import example_replays, record_from_results, record_game, restore_rules
from analyses.runner import simulate
from analyses.study import analyse_study
from balancelab.cli import main
from dreamsim.engine.cards import KIND_NAMES
from nerathsim import engine as nerath_engine
from nerathsim.game import LegalActions
from nerathsim.maps import REALMS
from reports.replay import Replay, final_board, page_data, people_seats
from simcore.stream import streams


def _streams(module, seed, k):
    """The streams `play_game` gives chance and the seats: simcore's in the card games, numpy's in Nerath."""
    if module is nerathsim:
        return [np.random.default_rng(c) for c in np.random.SeedSequence(seed).spawn(k)]
    return streams(seed, k)


def _loop(module, new_game, apply_action, legal, rules, policies, seed):
    chance, *prngs = _streams(module, seed, 1 + rules.players)
    pols = [module.POLICIES[p] for p in policies]
    s = new_game(rules, chance, record=True)
    while not s.is_terminal:
        p = s.current_player
        apply_action(s, pols[p](module.observe(s, p), legal(s), prngs[p]), chance)
    return s


@pytest.mark.parametrize("players, policies, seed", [(2, "greedy", 0), (3, "random", 1), (4, "greedy", 5)])
def test_nightmarium_board_after_the_last_event_is_the_engines_final_state(players, policies, seed):
    rules = nightsim.Rules(players=players)
    lineup = [policies] * players
    s = _loop(nightsim, nightsim.new_game, nightsim.apply_action, nightsim.legal_actions, rules, lineup, seed)
    record = record_game("nightsim", seed, lineup, rules)
    assert record.log == jsonable(s.log)                   # the record's game is the engine's game
    board = final_board(record).state()
    for i in range(players):
        assert board[f"hand/{i}"] == list(s.hands[i])
        assert [c[0] for c in board[f"creatures/{i}"]] == [list(cr.cards) for cr in s.creatures[i]]
        assert [c[1] for c in board[f"creatures/{i}"]] == [cr.seal for cr in s.creatures[i]]
        assert board[f"score/{i}"] == record.result["scores"][i]
    assert board["deck"] == len(s.deck) and board["discards"] == len(s.discard)
    assert board["winner"] == s.winner


def _dream_final(s):
    return {"hands": [Counter(KIND_NAMES[k] for k in h) for h in s.hands],
            "traps": [Counter((loc, KIND_NAMES[k]) for loc, k in t) for t in s.traps],
            "where": list(s.where), "grid": list(s.grid), "rot": list(s.rot), "horror": s.horror}


@pytest.mark.parametrize("players, policies, seed", [(4, "random", 512), (3, "trickster", 12), (5, "random", 19)])
def test_midnighters_board_after_the_last_event_is_the_engines_final_state(players, policies, seed):
    rules = dreamsim.Rules(players=players)
    lineup = [policies] * players
    s = _loop(dreamsim, dreamsim.new_game, dreamsim.engine.engine.apply_action, dreamsim.engine.engine.legal_actions, rules,
              lineup, seed)
    record = record_game("dreamsim", seed, lineup, rules)
    board = final_board(record).state()
    got = {"hands": [Counter(board[f"hand/{i}"]) for i in range(players)],
           "traps": [Counter(tuple(t) for t in board[f"traps/{i}"]) for i in range(players)],
           "where": board["where"], "grid": board["grid"], "rot": board["rot"], "horror": board["horror"]}
    assert got == _dream_final(s)
    assert board["deck"] == len(s.deck)


@pytest.mark.parametrize("rules, policies, seed", [
    (nerathsim.Rules(), ["balanced"] * 4, 1),
    (nerathsim.Rules(players=2, max_rounds=6), ["aggressive", "random"], 4),
])
def test_nerath_board_after_the_last_event_is_the_engines_final_state(rules, policies, seed):
    s = _loop(nerathsim, nerath_engine.new_game, nerath_engine.apply_action, LegalActions, rules, policies, seed)
    record = record_game("nerathsim", seed, policies, rules)
    board = final_board(record)
    t = s.tab
    engine_units = {}
    for r in range(s.board.n):
        for q in range(4):
            counts = {t.names[u]: c for u, c in enumerate(s.units[r][q]) if c}
            if counts:
                engine_units.setdefault(r, {})[REALMS[q]] = counts
    assert board.units_at() == engine_units                  # units per region and realm, castles included
    state = board.state()
    assert state["owner"] == list(s.owner) and state["gold"] == list(s.gold) and state["vp"] == list(s.vp)
    assert sorted(state["ships"]) == sorted([REALMS[sh.owner], sh.region, t.names[sh.utype],
                                             sorted(t.names[u] for u in sh.cargo)] for sh in s.ships)


def test_the_page_steps_over_decisions_and_its_changes_rebuild_every_state():
    record = record_game("nightsim", 2, "greedy", {"players": 3})
    data = page_data(record)
    assert all(record.log[st["i"]]["event"] != "decision" for st in data["steps"])
    assert len(data["diffs"]) == len(data["steps"]) - 1
    state = dict(data["first"])
    for changed, removed in data["diffs"]:
        state.update(changed)
        for k in removed:
            del state[k]
    assert state == final_board(record).state()
    text = Replay(record).html()
    assert "<script src" not in text and "http://" not in text and "https://" not in text
    assert 'id="replay-data"' in text and "</script>" not in data_text(text)


@pytest.mark.parametrize("engine, people", [
    ("  seat 0 draws 2 cards", "  seat 1 draws 2 cards"),
    ("Turn 3: seat 1 (greedy), 2 actions", "Turn 3: seat 2 (greedy), 2 actions"),
    ("seat 0 discards seat 2's uncompleted creature: 2 cards", "seat 1 discards seat 3's uncompleted creature: 2 cards"),
    ("Red Nightmare: seats 0, 2 cannot spring traps", "Red Nightmare: seats 1, 3 cannot spring traps"),
    ("the Midnight Horror, seat 2, activates the Town Hall", "the Midnight Horror, seat 3, activates the Town Hall"),
    ("== Karkoth + Iron Circle (seat 1+3) win", "== Karkoth + Iron Circle (seat 2+4) win"),
    ("Seat 9 wins; seated 0 times; 10 seats", "Seat 10 wins; seated 0 times; 10 seats"),
])
def test_the_prose_numbers_seats_from_one(engine, people):
    assert people_seats(engine) == people


SEAT_NUMBERS = re.compile(r"\b[Ss]eats? (\d+(?:(?:, |\+)\d+)*)")


@pytest.mark.parametrize("game, policies, rules", [
    ("nightsim", "greedy,random,purist", {"players": 3}),
    ("dreamsim", "heuristic,runner,trickster,random", {"players": 4}),
    ("nerathsim", "aggressive,random", {"players": 2, "max_rounds": 6}),
])
def test_the_replay_page_says_seat_1_never_seat_0(game, policies, rules):
    """Every seat the page names is counted from 1: each line's seats are the engine's plus one (the record
    keeps the engine's prose and log, numbered from 0), and the page says "seat 1", never "seat 0"."""
    record = record_game(game, 3, policies, rules)
    data = page_data(record)
    seats = len(record.seats)
    shown = [line for step in data["steps"] for line in step["lines"]]
    for step in data["steps"]:
        engine_lines = record.lines[step["i"]]
        page_lines = step["lines"][-len(engine_lines):] if engine_lines else []
        for before, after in zip(engine_lines, page_lines):
            engine = [int(n) for m in SEAT_NUMBERS.findall(before) for n in re.findall(r"\d+", m)]
            people = [int(n) for m in SEAT_NUMBERS.findall(after) for n in re.findall(r"\d+", m)]
            assert people == [n + 1 for n in engine], (before, after)
    numbers = [int(n) for line in shown for m in SEAT_NUMBERS.findall(line) for n in re.findall(r"\d+", m)]
    assert numbers and min(numbers) == 1 and max(numbers) <= max(seats, 4)     # Nerath: 4 realms on 2 seats
    page = Replay(record).html()
    assert "seat 1" in page and not re.search(r"\b[Ss]eats? 0\b", page)
    if game != "nerathsim":    # the engine's prose in the record is untouched (Nerath's names realms, not seats)
        assert any(re.search(r"\bseat 0\b", line) for lines in record.lines for line in lines)


def data_text(page: str) -> str:
    start = page.index('id="replay-data"')
    return page[page.index(">", start) + 1:page.index("</script>", start)]


def test_a_game_of_a_stored_run_replays_to_its_row(tmp_path):
    df = simulate("nightsim", 4, rules={"players": 3}, policies="greedy,random,purist", seed=7, progress=False)
    record = record_from_results(df, 2)
    row = df.iloc[2]
    assert record.seed == int(row["game_seed"]) and record.result["turns"] == int(row["turns"])
    assert record.seats == [row[f"seat{i}_policy"] for i in range(3)]
    with pytest.raises(ValueError, match="--game-index"):
        record_from_results(df, 4)


def test_rules_are_restored_from_a_runs_metadata_or_refused():
    stored = simulate("nightsim", 1, rules={"players": 4, "seals": True}, seed=0, progress=False).attrs["rules"]
    rules = restore_rules(nightsim, stored)
    assert rules.players == 4 and rules.seals
    with pytest.raises(ValueError, match="cannot be restored"):
        restore_rules(nightsim, {**stored, "cards": "3 custom cards"})


def test_balancelab_replay_writes_a_page_and_refuses_bad_input_in_one_line(tmp_path, capsys):
    out = tmp_path / "game.html"
    assert main(["replay", "nightsim", "--seed", "2", "--players", "3", "--out", str(out)]) == 0
    assert out.is_file() and "Nightmarium" in out.read_text(encoding="utf-8")
    assert main(["replay", "nightsim", "--game-index", "1", "--out", str(out)]) == 2
    assert main(["replay", "--from", str(tmp_path / "none.parquet"), "--game-index", "0", "--out", str(out)]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and "--game-index needs --from" in errors[0] and "no such file" in errors[1]
    before = out.read_bytes()  # an existing page is replaced only with --force
    assert main(["replay", "nightsim", "--seed", "3", "--out", str(out)]) == 2
    assert "exists" in capsys.readouterr().err and out.read_bytes() == before
    assert main(["replay", "nightsim", "--seed", "3", "--out", str(out), "--force"]) == 0
    assert out.read_bytes() != before


def test_the_report_links_one_replay_page_per_game_written_next_to_it(tmp_path):
    main = simulate("nightsim", 8, policies="greedy", seed=1, progress=False)
    main.attrs["study_run"] = "main"
    runs = {"nightsim": {"main": main}}                  # the main run is all the report needs
    study = analyse_study(runs)
    replays, missing = example_replays(runs)
    assert set(replays) == {"nightsim"} and missing == {}
    assert replays["nightsim"].seed == int(runs["nightsim"]["main"]["game_seed"].iloc[0])
    path = reports.build(study, tmp_path / "rep.html", replays=replays)
    text = path.read_text(encoding="utf-8")
    assert 'id="watch"' in text and 'href="rep-replays/nightsim.html"' in text
    assert (tmp_path / "rep-replays" / "nightsim.html").is_file()
    assert 'id="watch"' not in reports.build(study, tmp_path / "plain.html").read_text(encoding="utf-8")
