"""The shared field checks of a game's Rules (`simcore.rules`): each refuses with one line naming the
field, the value and what is allowed."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

import dreamsim
import nerathsim
import nightsim
from simcore.rules import bool_fields, choice_fields, int_field


@dataclass
class R:
    n: object = 3
    cap: object = None
    mode: object = "a"
    flag: object = True


@pytest.mark.parametrize("value, lo, hi, none_ok, message", [
    (True, 1, None, False, r"^Rules.n must be an integer, got True$"),
    (2.0, 1, None, False, r"^Rules.n must be an integer, got 2.0$"),
    (0, 1, None, False, r"^Rules.n=0 is not allowed; allowed: >= 1$"),
    (6, 2, 5, False, r"^Rules.n=6 is not allowed; allowed: 2..5$"),
    ("x", 1, None, True, r"^Rules.n must be an integer or None, got 'x'$"),
])
def test_int_field_refuses_with_the_allowed_range(value, lo, hi, none_ok, message):
    with pytest.raises(ValueError, match=message):
        int_field(R(n=value), "n", lo, hi, none_ok)


def test_int_field_accepts_the_range_ends_and_none_when_allowed():
    for v in (2, 5):
        int_field(R(n=v), "n", 2, 5)
    int_field(R(), "cap", 1, none_ok=True)
    with pytest.raises(ValueError, match="must be an integer, got None"):
        int_field(R(), "cap", 1)


def test_choice_and_bool_fields():
    choice_fields(R(), {"mode": ("a", "b")})
    with pytest.raises(ValueError, match=r"^Rules.mode='c' is not allowed; allowed: a, b$"):
        choice_fields(R(mode="c"), {"mode": ("a", "b")})
    bool_fields(R(), ("flag",))
    with pytest.raises(ValueError, match=r"^Rules.flag must be True or False, got 1$"):
        bool_fields(R(flag=1), ("flag",))


@pytest.mark.parametrize("game", [nightsim, dreamsim, nerathsim])
def test_every_games_rules_refuse_a_bad_player_count_by_name(game):
    with pytest.raises(ValueError, match=r"^Rules.players=9 is not allowed; allowed: 2\.\.\d$"):
        game.Rules(players=9)
    with pytest.raises(ValueError, match=r"^Rules.players must be an integer, got True$"):
        game.Rules(players=True)
