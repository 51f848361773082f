"""The engines' shared refusal of an action (`simcore.actions`)."""
from __future__ import annotations

from typing import NamedTuple

import pytest

import dreamsim
import nerathsim
import nightsim
from simcore.actions import IllegalActionError, kinds_apart, shown


class Move(NamedTuple):
    src: int
    dst: int

    def __repr__(self):
        return f"Move {('a', 'b')[self.src]} -> {('a', 'b')[self.dst]}"


def test_shown_is_the_repr_or_the_fields_of_a_malformed_action():
    assert shown(Move(0, 1)) == "Move a -> b"
    assert shown(Move(0, 7)) == "Move(0, 7) (malformed)"


def test_every_game_raises_the_shared_error_naming_the_action():
    for game in (nightsim, dreamsim, nerathsim):
        assert game.IllegalActionError is IllegalActionError and issubclass(IllegalActionError, ValueError)
    rules = nightsim.Rules(players=2)
    s = nightsim.new_game(rules, 0)
    with pytest.raises(IllegalActionError, match=r"illegal action Move\(0, 7\) \(malformed\) for player"):
        nightsim.apply_action(s, Move(0, 7), 0)


class Stop(NamedTuple):
    pass


class Go(NamedTuple):
    pass


class Hop(NamedTuple):
    to: int


class Skip(NamedTuple):
    to: int


kinds_apart((Stop, Go, Hop, Skip))


def test_actions_of_different_kinds_never_compare_equal():
    assert Stop() == Stop() and Stop() != Go() and not (Stop() == Go())
    assert Hop(3) == Hop(3) and Hop(3) != Hop(4) and Hop(3) != Skip(3) and Hop(3) != (3,)
    assert len({Stop(), Go(), Hop(1), Skip(1), Hop(1)}) == 4
    assert hash(Hop(1)) == hash(Hop(1)) and hash(Hop(1)) == hash(("Hop", hash((1,))))


def test_the_games_actions_are_kept_apart_by_kind():
    assert nightsim.engine.actions.Draw() != nightsim.engine.actions.StopDiscard()
    assert dreamsim.engine.actions.Star() != dreamsim.engine.actions.Pass()
    assert nerathsim.game_actions.Fight(3) != nerathsim.game_actions.Amok(3)
