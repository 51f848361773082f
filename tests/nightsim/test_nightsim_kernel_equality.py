"""The batch kernel plays exactly `play_game`'s games: for the same int seed, line-up and rules,
`nightsim.kernel.play_batch.play_batch` gives record for record what `play_game(...).to_record()` gives
(winner, turns, decisions, timeouts, scores and every per-seat statistic).

Both draw from the streams of `simcore.stream` (chance: stream 0; seat i: stream 1 + i), the kernel
through their compiled twin, with the same draws in the same order. Covered: random seats at 2-5
players, every built-in heuristic the kernel plays, mixed line-ups, context-feature weights, and every
rules field the lab varies (`nightsim.KNOBS`, `nightsim.DECISIONS` without seals), plus a small deck
(reshuffles), a tight turn cap (timeouts) and seeds near 2**64. A mismatch names the first decision
where the games part (`kernel.bridge.first_divergence`). `benchmarks/tools/kernel_equality.py` checks many
more seeds per case.
"""
from __future__ import annotations

import dataclasses

import pytest

import nightsim
from nightsim import DECISIONS, GREEDY, KNOBS, HeuristicPolicy, Rules, play_game
from nightsim.kernel.bridge import first_divergence
from nightsim.kernel.play_batch import play_batch, refusal
from simcore.equality import check_equal

CONTEXT = HeuristicPolicy(dataclasses.replace(GREEDY, win=7.0, follow=1.25, pair=2.5, crowd=-0.75, mocker_ctx=1.5,
                                              executioner_ctx=0.5, scavenger_ctx=0.75, devourer_ctx=-0.5,
                                              draw_hand=-0.25, discard_dead=0.5, discard_extra=0.25,
                                              discard_value=0.3, fit_value=2.0, threat=3.0, discard=0.0,
                                              draw=0.25), "context")
MIXED = ("greedy", "random", "purist", "aggressor", "random")   # a mixed line-up: its first `players` seats
SMALL_DECK = nightsim.load_cards()[:40]


def lineup_cases() -> list:
    cases = [(Rules(players=n), ("random",) * n) for n in (2, 3, 4, 5)]
    cases += [(Rules(players=4), ("greedy",) * 4), (Rules(players=2), ("greedy", "greedy")),
              (Rules(players=5), ("purist",) * 5), (Rules(players=3), ("aggressor",) * 3),
              (Rules(players=4), MIXED[:4]), (Rules(players=2), ("greedy", "random")),
              (Rules(players=3), ("heuristic", CONTEXT, "random")), (Rules(players=2), (CONTEXT, CONTEXT))]
    if "tuned" in nightsim.POLICIES:
        cases.append((Rules(players=3), ("tuned", "greedy", "random")))
    return cases


def rules_cases() -> list:
    """Each knob at every value of its range but the published one, each decision's alternatives the
    kernel plays, and the other fields (the seal-only ones without seals): a mixed line-up at 3 players
    (4 or 5 where a value needs it)."""
    base = Rules(players=3)
    out = []
    for name, knob in KNOBS.items():
        for value in range(knob["low"], knob["high"] + 1, knob["step"]):
            players = max(3, value) if name == "reduced_first_turn_seats" else 3
            if value == getattr(base, name):
                continue
            try:
                rules = dataclasses.replace(base, players=players, **{name: value})
            except ValueError:
                continue   # a value another field's published value rules out (checked by Rules)
            out.append(rules)
    for d in DECISIONS:
        if not d.requires:
            out += d.variants(base)
    out += [dataclasses.replace(base, min_discard=2), dataclasses.replace(base, creature_limit=7),
            dataclasses.replace(base, cards=SMALL_DECK), dataclasses.replace(base, max_turns=12),
            dataclasses.replace(base, seals_per_legion=1, seal_reactivation_optional=False, seal_target="any",
                                immunity="opponents_only", seal_counts_as_play=False, herald_plays_seals=True,
                                mocker_plays_seals=True),   # the seal-only fields, without seals: nothing changes
            Rules(players=4, actions_per_turn=3, first_turn_fewer_actions=1, reduced_first_turn_seats=2,
                  hand_size=4, creatures_to_win=4, win_timing="end_of_action", penalty_timing="after_abilities",
                  scavenger_optional=True, last_seat_extra_cards=1, cards=SMALL_DECK)]
    return [(r, MIXED[:r.players]) for r in out]


def case_id(case) -> str:
    rules, lineup = case
    changed = {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)
               if f.name != "players" and getattr(rules, f.name) != f.default}
    if "cards" in changed:
        changed["cards"] = len(rules.cards)
    names = "-".join(p if isinstance(p, str) else p.name for p in lineup)
    return f"{rules.players}p-{names}" + "".join(f"-{k}={v}" for k, v in changed.items())


def batch(rules, lineup, seeds) -> list:
    """The kernel's records of one line-up over `seeds` (its batch call takes a line-up per game)."""
    return play_batch(rules, [lineup] * len(seeds), seeds)


def assert_same_games(rules, lineup, seeds):
    assert refusal(rules, lineup) is None
    check_equal(play_game, batch, rules, lineup, seeds, divergence=first_divergence)


@pytest.mark.parametrize("case", lineup_cases(), ids=case_id)
def test_the_kernel_plays_play_games_games_for_every_line_up(case):
    rules, lineup = case
    assert_same_games(rules, lineup, list(range(100)))


@pytest.mark.parametrize("case", rules_cases(), ids=case_id)
def test_the_kernel_plays_play_games_games_under_every_rule_the_lab_varies(case):
    rules, lineup = case
    assert_same_games(rules, lineup, list(range(1000, 1040)))


def test_the_same_games_from_seeds_anywhere_in_64_bits():
    seeds = [2 ** 64 - 1 - i for i in range(20)] + [2 ** 63 + i for i in range(20)] + [2 ** 32 + i for i in range(20)]
    assert_same_games(Rules(players=4), MIXED[:4], seeds)


def test_the_cases_cover_every_knob_and_every_decision_the_kernel_plays():
    varied = {f.name for rules, _ in rules_cases() for f in dataclasses.fields(Rules)
              if getattr(rules, f.name) != f.default}
    assert varied | {"players"} == {f.name for f in dataclasses.fields(Rules)} - {"seals"}   # seals: refused
    assert set(KNOBS) <= varied
    assert {d.field for d in DECISIONS if not d.requires} <= varied
    assert all("seals" in refusal(r, ["random"] * r.players) for d in DECISIONS if d.requires for r in d.variants())


def test_a_seat_policy_gets_a_stream_and_the_seat_streams_are_independent_of_the_others():
    seen = []

    def spy(obs, legal, rng):
        seen.append(type(rng).__name__)
        return legal[rng.integers(len(legal))]
    spy.name = "random"   # plays RandomPolicy's draws: the same game as the built-in random seat
    rules = Rules(players=2)
    assert play_game(rules, [spy, "random"], 5).to_record() == play_game(rules, ["random", "random"], 5).to_record()
    assert set(seen) == {"Stream"}
    # seat 1's stream does not depend on seat 0's policy: the deal is the same whoever sits at seat 0
    a = play_game(rules, ["greedy", "random"], 9, record=True).log[0]
    b = play_game(rules, ["random", "random"], 9, record=True).log[0]
    assert a["hands"] == b["hands"] and a["deck"] == b["deck"]
