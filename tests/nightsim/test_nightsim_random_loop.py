"""`random_loop.play_random` (play_game's fused loop when every seat is the built-in RandomPolicy and
nothing is recorded) plays exactly the games of the plain loop: the same records, seed for seed, and
the same final state; its turn-action pick without the list is the listed action's pick."""
from __future__ import annotations

import numpy as np
import pytest

import nightsim
from nightsim.engine import apply_legal, legal_actions, top_frame
from nightsim.random_loop import _placements, play_random
from nightsim.seeding import spawn_generators
from nightsim.state import _open_entry
from nightsim.turn import TURN


class Plain:
    """Random choice the way `RandomPolicy` makes it, as a type play_game has no fast path for."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]


RULES = [
    dict(players=4),
    dict(players=2),
    dict(players=3, seals=True, herald_plays_seals=True, scavenger_optional=True),
    dict(players=4, seals=True, seal_counts_as_play=True, seal_target="any"),
    dict(players=5, min_discard=2, reduced_first_turn_seats=2, hand_size=3),
    dict(players=2, win_timing="end_of_action", penalty_timing="before_abilities"),
    dict(players=4, creatures_to_win=3, max_turns=20),  # short games, some timed out
    dict(players=3, actions_per_turn=3, first_turn_fewer_actions=1, last_seat_extra_cards=2, creature_limit=6),
]


@pytest.mark.parametrize("kwargs", RULES, ids=lambda x: str(x))
def test_the_fused_loop_gives_the_plain_loops_games(kwargs):
    rules = nightsim.Rules(**kwargs)
    for seed in [*range(60), 2**70, "SeedSequence(5)"]:
        fresh = (lambda: np.random.SeedSequence(5)) if isinstance(seed, str) else (lambda: seed)  # spawn() counts
        fast = nightsim.play_game(rules, ["random"] * rules.players, fresh())
        plain = nightsim.play_game(rules, [Plain() for _ in range(rules.players)], fresh())
        logged = nightsim.play_game(rules, ["random"] * rules.players, fresh(), record=True)
        assert fast.to_record() == plain.to_record() == logged.to_record(), f"seed {seed}"


@pytest.mark.parametrize("kwargs", RULES[:3], ids=lambda x: str(x))
def test_the_fused_loop_ends_in_the_state_of_the_step_api(kwargs):
    """The whole final state (deck order, discard pile, hands, creatures, stats), not only the record."""
    rules = nightsim.Rules(**kwargs)
    for seed in range(25):
        chance, *gens = spawn_generators(seed, 1 + rules.players)
        fast = nightsim.new_game(rules, chance)
        play_random(fast, chance, gens)
        chance, *gens = spawn_generators(seed, 1 + rules.players)
        s = nightsim.new_game(rules, chance)
        while not s.is_terminal:
            legal = legal_actions(s)
            apply_legal(s, legal[int(gens[s.current_player].random() * len(legal))], chance)
        assert repr(fast) == repr(s)
        assert (fast.deck, fast.discard, fast.hands, fast.stats, fast.abilities, fast.legion_played,
                fast.decisions, fast.turns, fast.winner) == \
               (s.deck, s.discard, s.hands, s.stats, s.abilities, s.legion_played, s.decisions, s.turns, s.winner)


def test_placements_count_and_order_the_listed_turn_actions():
    """At every turn action of seeded games without seals, the placements counted and targeted per
    fit mask are the listed Play actions, in order (the loop's pick of item i is the list's item i)."""
    rules = nightsim.Rules(players=4)
    rng = np.random.default_rng(3)
    checked = 0
    for seed in range(30):
        s = nightsim.new_game(rules, seed)
        while not s.is_terminal:
            legal = legal_actions(s)
            if top_frame(s) is TURN:
                p = s.turn_player
                mask = s.table.fit_masks[s.turn_legion + 1]
                counts, targets = _placements(s._open[p] or _open_entry(s, p))
                plays = [(c, k) for c in s.hands[p] for k in targets[mask[c]]]
                assert sum(counts[mask[c]] for c in s.hands[p]) == len(plays)
                assert [(a.card, a.creature) for a in legal if type(a) is nightsim.Play] == plays
                assert legal[:len(legal) - len(plays)] == [nightsim.Draw(), nightsim.StartDiscard()][:len(legal) - len(plays)]
                checked += 1
            apply_legal(s, legal[int(rng.random() * len(legal))], rng)
    assert checked > 1000


def test_fit_masks_are_the_fits_columns_filtered_by_the_turn_legion():
    table = nightsim.Rules(seals=True).table
    for legion in range(-1, len(nightsim.LEGIONS)):
        row = table.fit_masks[legion + 1]
        for c in range(len(table.cards)):
            keep = legion < 0 or table.legion[c] == legion
            assert row[c] == (sum(1 << slot for slot in range(3) if table.fits[c][slot]) if keep else 0)
