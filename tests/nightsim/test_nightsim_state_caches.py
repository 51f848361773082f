"""The engine's per-seat caches stay equal to what a rebuild from the creatures gives.

`creatures._place` and the Executioner, Scavenger and Devourer update a seat's public creatures
(`State._seat_views`, read by `observation.seat_views` and `creatures_view`) and `_place` its open
slots (`State._open`) in place of dropping them (docs/ARCHITECTURE.md, "Caches the engine keeps in
step"). After every decision of seeded games, with every ability and seals in play, each cached
value must equal the one rebuilt from `State.creatures` after `creatures_changed()`.
"""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim.engine.observation import creatures_view, seat_views

RULES = [
    dict(players=4),
    dict(players=3, seals=True, herald_plays_seals=True, mocker_plays_seals=True, scavenger_optional=True),
    dict(players=2, seals=True, immunity="opponents_only", seal_reactivation_optional=False),
]


def _rebuilt(s):
    """(seat views, open slots) rebuilt from the creatures, on a clone (the state itself is untouched)."""
    c = s.clone()
    c.creatures_changed()
    return list(seat_views(c)), [c.open_slots(p) for p in range(c.n)]


@pytest.mark.parametrize("kwargs", RULES, ids=lambda k: str(k))
def test_cached_creatures_and_open_slots_equal_a_rebuild_after_every_decision(kwargs):
    rules = nightsim.Rules(**kwargs)
    policy = nightsim.POLICIES["aggressor"]
    kinds = set()
    for seed in range(25):
        chance, choices = np.random.default_rng(seed), np.random.default_rng(10_000 + seed)
        s = nightsim.new_game(rules, chance)
        while not s.is_terminal:
            views, slots = _rebuilt(s)
            for p in range(s.n):
                if s._seat_views[p] is not None:
                    assert s._seat_views[p] == views[p], f"seed {seed}, seat {p}, decision {s.decisions}"
                if s._open[p] is not None:
                    assert s.open_slots(p) == slots[p], f"seed {seed}, seat {p}, decision {s.decisions}"
            assert creatures_view(s) == tuple(views)
            legal = nightsim.legal_actions(s)
            obs = nightsim.observe(s, s.current_player)
            # the heuristic half the time, so that abilities fire; random otherwise, for variety
            a = policy(obs, legal, choices) if choices.random() < 0.5 else legal[int(choices.random() * len(legal))]
            kinds.add(type(a).__name__)
            nightsim.apply_action(s, a, chance)
    # the decisions that change creatures were all exercised
    assert {"Play", "Take", "Scavenge", "Devour"} <= kinds
    if rules.seals:
        assert "PlaySeal" in kinds
