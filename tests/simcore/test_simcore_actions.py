"""The engines' shared refusal of an action (`simcore.actions`)."""
from __future__ import annotations

from typing import NamedTuple

import pytest

import dreamsim
import nerathsim
import nightsim
from simcore.actions import IllegalActionError, shown


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
