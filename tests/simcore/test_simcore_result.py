"""The shared game record: `simcore.result.GameResult`'s flat row, its equality and pickling, and that
each game's result is that record."""
from __future__ import annotations

import pickle
from dataclasses import dataclass

import numpy as np
import pytest

import dreamsim
import nerathsim
import nightsim
from simcore.result import GameResult, seed_repr


def _format(log, rules, seats):
    return f"{len(log)} events, {rules}, {'/'.join(seats)}"


@dataclass(frozen=True)
class Plain(GameResult):
    format_events = staticmethod(_format)


@dataclass(frozen=True)
class WithFactions(GameResult):
    factions: tuple = ()

    def seat_columns(self, seat):
        return {"faction": self.factions[seat]}


def plain(**kw):
    base = dict(winner=1, seats=("a", "b"), turns=7, decisions=30, timed_out=False, scores=(2, 3),
                stats={"cards": (4, 5), "rounds": 2}, seed=11)
    return Plain(**{**base, **kw})


def test_the_record_is_flat_in_the_shared_column_order():
    rec = plain().to_record()
    assert list(rec.items()) == [
        ("winner", 1), ("turns", 7), ("decisions", 30), ("timed_out", False),
        ("seat0_policy", "a"), ("seat0_score", 2), ("seat1_policy", "b"), ("seat1_score", 3),
        ("seat0_cards", 4), ("seat1_cards", 5), ("rounds", 2)]


def test_a_team_winner_is_joined_and_seat_columns_stand_between_policy_and_score():
    r = WithFactions(winner=(0, 2), seats=("x", "y", "z"), turns=1, decisions=2, timed_out=False,
                     scores=(1, 0, 1), factions=("k", "v", "n"))
    rec = r.to_record()
    assert rec["winner"] == "0+2"
    assert list(rec)[4:7] == ["seat0_policy", "seat0_faction", "seat0_score"]
    assert [rec[f"seat{i}_faction"] for i in range(3)] == ["k", "v", "n"]


def test_log_and_rules_take_no_part_in_equality_or_repr():
    bare, recorded = plain(), plain(log=({"event": "deal"},), rules="R")
    assert bare == recorded and "log" not in repr(recorded) and "rules" not in repr(recorded)
    assert plain() != plain(turns=8)
    assert Plain(**{k: getattr(bare, k) for k in ("winner", "seats", "turns", "decisions", "timed_out",
                                                   "scores", "stats", "seed")}) == bare
    # a game's subclass is not equal to the base record with the same fields
    assert GameResult(**{k: getattr(bare, k) for k in ("winner", "seats", "turns", "decisions", "timed_out",
                                                        "scores", "stats", "seed")}) != bare


def test_a_subclass_pickles_with_its_log():
    r = plain(log=({"event": "deal"}, {"event": "turn"}), rules="R")
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.log == r.log and back.rules == "R" and type(back) is Plain


def test_format_log_uses_the_games_formatter_and_needs_a_log():
    assert plain(log=({}, {}), rules="R").format_log() == "2 events, R, a/b"
    assert plain(log=({},), rules="R").format_log("S") == "1 events, S, a/b"
    with pytest.raises(ValueError, match="no log; play it with record=True"):
        plain().format_log()
    with pytest.raises(ValueError, match="names no log formatter"):
        WithFactions(winner=None, seats=(), turns=0, decisions=0, timed_out=True, scores=(), log=()).format_log()


def test_seed_repr_keeps_ints_and_names_a_seed_sequence():
    assert seed_repr(5) == 5 and type(seed_repr(np.uint64(2 ** 63))) is int and seed_repr(np.uint64(7)) == 7
    ss = np.random.SeedSequence(9, spawn_key=(2,))
    assert seed_repr(ss) == "SeedSequence(entropy=9, spawn_key=(2,))"


@pytest.mark.parametrize("game, lineup", [(nightsim, ("greedy", "random")), (dreamsim, ("heuristic", "random"))])
def test_each_games_result_is_the_shared_record(game, lineup):
    r = game.play_game(game.Rules(players=2), list(lineup), 3, record=True)
    assert isinstance(r, GameResult) and issubclass(game.GameResult, GameResult)
    rec = r.to_record()
    assert list(rec)[:6] == ["winner", "turns", "decisions", "timed_out", "seat0_policy", "seat0_score"]
    assert pickle.loads(pickle.dumps(r)) == r
    assert r == game.play_game(game.Rules(players=2), list(lineup), 3)   # recorded or not: the same game
    assert r.format_log().strip()


def test_nerath_result_is_the_shared_record_with_its_factions():
    assert issubclass(nerathsim.GameResult, GameResult)
    r = nerathsim.GameResult(winner=(0, 2), seats=("a", "b", "c", "d"), turns=3, decisions=9, timed_out=False,
                             scores=(1, 2, 3, 4), factions=("karkoth", "vailin", "iron_circle", "nerath"),
                             stats={"vp": (1, 2, 3, 4), "rounds": 2}, realm_stats={"vp": (1, 2, 3, 4)})
    rec = r.to_record()
    assert rec["winner"] == "0+2" and rec["seat1_faction"] == "vailin" and rec["rounds"] == 2
    assert list(rec)[4:7] == ["seat0_policy", "seat0_faction", "seat0_score"]
    assert pickle.loads(pickle.dumps(r)) == r
