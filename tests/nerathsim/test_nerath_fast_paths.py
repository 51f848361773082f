"""The game loop's fast paths: an action the legal actions have already found legal
is not checked a second time, and anything else still is."""
from __future__ import annotations

import pytest

from nerathsim import engine as E
from nerathsim.game import play_game
from nerathsim.rules import Rules

RULES = Rules(mode="free_for_all")


def _live_checks(monkeypatch) -> list:
    """Calls of the engine's legality check on the live state (record=True: only it keeps a log)."""
    calls, real = [], E.is_legal

    def spy(s, a):
        if s.log is not None:
            calls.append(a)
        return real(s, a)
    monkeypatch.setattr(E, "is_legal", spy)
    return calls


def _first_listed(obs, legal, rng):
    return legal[0]


def _asks_then_answers(obs, legal, rng):
    a = legal[-1]
    copy = type(a)(*a)                  # an equal action, another object: found legal by `in`
    assert copy in legal
    return copy


def _equal_copy(obs, legal, rng):
    a = legal[0]
    return type(a)(*a)                  # never asked about: the loop checks it


@pytest.mark.parametrize("policy,checked", [(_first_listed, False), (_asks_then_answers, False),
                                            (_equal_copy, True)])
def test_play_game_checks_on_the_live_state_only_actions_the_legal_actions_did_not_confirm(monkeypatch, policy,
                                                                                            checked):
    calls = _live_checks(monkeypatch)
    res = play_game(RULES, [policy] * 4, seed=3, record=True)
    assert res.decisions > 50
    assert (len(calls) == res.decisions) if checked else not calls


def test_an_illegal_answer_is_still_refused_after_a_legal_one_was_confirmed():
    def sneaky(obs, legal, rng):
        assert legal[0] in legal
        return "not an action"
    with pytest.raises(E.IllegalActionError, match="Reproduce with"):
        play_game(RULES, [sneaky] * 4, seed=1)
