"""The numba batch kernel (nightsim/kernel/play_batch.py) against the Python engine, the reference.

On hand-built positions (loaded into the kernel with nightsim.kernel.bridge) the kernel lists the
same legal actions in the same order and reaches the same state after the same action; its
policies pick what the engine's may pick; the batch API's records, refusals and columns. Whole
games, seed for seed: tests/nightsim/test_nightsim_kernel_equality.py.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import nightsim
from nightsim import POLICIES, Devour, PenaltyDiscard, Play, Rules, legal_actions, new_game, observe, play_game
from nightsim.engine.engine import apply_legal
from nightsim.engine.scenario import build_state, card_id
from nightsim.kernel import bridge as kb
from nightsim.kernel import play_batch as kernel
from nightsim.kernel.play_batch import KERNEL, STAT_COLUMNS, play_arrays, play_batch, refusal, supports
from nightsim.policies.heuristic import HeuristicPolicy, _Context

BASE = Rules()
R2 = Rules(players=2)


def c(number: int) -> int:
    return card_id(BASE, number)


# printed numbers as in tests/nightsim/test_nightsim_rules.py
N_LEGS_WEEPER, N_LEGS_B, N_HEAD = c(12), c(6), c(4)
H_TORSO, H_HEAD_MOCKER, H_HEAD_DEVOURER, H_TORSO_DEVOURER, H_TORSO_WEEPER = c(35), c(31), c(28), c(53), c(47)
H_LEGS, H_LEGS_B, H_HEAD = c(30), c(33), c(37)
I_HEAD_WEEPER, I_HEAD_HERALD, I_LEGS, I_TORSO = c(61), c(55), c(66), c(71)
C_TORSO, N_LEGS = c(86), c(3)
D = [c(39), c(48), c(51), c(52), c(26), c(27)]


def both(s):
    """The engine state and its kernel copy."""
    return s, kb.load_state(s)


def step(s, ks, action):
    assert kb.legal_actions(ks) == legal_actions(s)
    apply_legal(s, action, np.random.default_rng(0))
    kb.apply(ks, action)
    assert kb.view(ks) == kb.engine_view(s)


# ----------------------------------------------------------------------- exact: hand-built positions
def test_nested_mocker_completion_resolves_identically():
    # A = legs Weeper, torso plain, head Mocker; the Mocker completes B (head Weeper): B's Weeper
    # draws the top two cards, then A's legs Weeper the next two (RULES.md row 31)
    s, ks = both(build_state(R2, hands=[[H_HEAD_MOCKER, I_HEAD_WEEPER], []],
                             creatures=[[[N_LEGS_WEEPER, C_TORSO], [N_LEGS_B, H_TORSO]], []],
                             deck=D[:4], unused="remove"))
    step(s, ks, Play(H_HEAD_MOCKER, 0, 2))
    assert kb.legal_actions(ks) == [Play(I_HEAD_WEEPER, 1, 2)]
    step(s, ks, Play(I_HEAD_WEEPER, 1, 2))
    v = kb.view(ks)
    assert v["hands"] == [[D[3], D[2], D[1], D[0]], []] and v["deck"] == [] and v["actions_left"] == 1
    assert v["stats"][0]["ability_weeper"] == 2 and v["stats"][0]["ability_mocker"] == 1
    assert v["stats"][0]["completed"] == 2 and v["stats"][0]["cards_drawn"] == 4


def test_card_eaten_during_a_paused_activation_is_skipped_identically():
    # the Mocker completes B whose two Devourers eat A's head and torso; A's torso Weeper is gone
    # (skipped, gap G11) and A's legs Weeper still draws
    s, ks = both(build_state(R2, hands=[[H_HEAD_MOCKER, H_HEAD_DEVOURER], []],
                             creatures=[[[N_LEGS_WEEPER, H_TORSO_WEEPER], [N_LEGS, H_TORSO_DEVOURER]], []],
                             deck=D[:4], unused="remove"))
    step(s, ks, Play(H_HEAD_MOCKER, 0, 2))
    step(s, ks, Play(H_HEAD_DEVOURER, 1, 2))
    assert kb.legal_actions(ks) == [Devour(0)]            # never the activating creature
    step(s, ks, Devour(0))
    step(s, ks, Devour(0))
    v = kb.view(ks)
    assert v["creatures"] == [[[N_LEGS_WEEPER], [N_LEGS, H_TORSO_DEVOURER, H_HEAD_DEVOURER]], []]
    assert v["hands"] == [[D[3], D[2]], []] and v["discard"] == [H_HEAD_MOCKER, H_TORSO_WEEPER]
    assert v["stats"][0]["ability_weeper"] == 1 and v["stats"][0]["ability_devourer"] == 2


def test_pure_penalty_then_herald_resolve_identically():
    # a pure Insektoid creature with a Herald head: the opponent gives up an Insektoid first
    # (penalty before the abilities), then the Herald turns over two cards and plays what fits
    s, ks = both(build_state(R2, hands=[[I_HEAD_HERALD], [I_LEGS, H_LEGS]],
                             creatures=[[[c(69), I_TORSO]], []], deck=[D[0], H_LEGS_B, H_HEAD],
                             unused="remove"))
    step(s, ks, Play(I_HEAD_HERALD, 0, 2))
    assert kb.view(ks)["current_player"] == 1
    assert kb.legal_actions(ks) == [PenaltyDiscard(I_LEGS)]      # the one Insektoid in hand
    step(s, ks, PenaltyDiscard(I_LEGS))
    assert kb.legal_actions(ks) == [Play(H_LEGS_B, None, 0)]    # the Herald's head card fits nothing
    step(s, ks, Play(H_LEGS_B, None, 0))
    v = kb.view(ks)
    assert v["creatures"][0] == [[c(69), I_TORSO, I_HEAD_HERALD], [H_LEGS_B]]
    assert v["discard"] == [I_LEGS, H_HEAD] and v["deck"] == [D[0]] and v["hands"] == [[], [H_LEGS]]
    assert v["stats"][0]["ability_herald"] == 1 and v["stats"][0]["pure_creatures"] == 1
    assert v["stats"][1]["cards_discarded"] == 1 and v["current_player"] == 0 and v["actions_left"] == 1


# ----------------------------------------------------------------------- the compiled policies
def test_kernel_policies_pick_what_the_engine_policies_may_pick():
    # greedy: the kernel's choice is one of the engine's best-scored actions; random: any legal one
    rules = Rules(players=3)
    s = new_game(rules, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    for _ in range(150):
        if s.is_terminal:
            break
        ks = kb.load_state(s, 7)
        legal = legal_actions(s)
        context = _Context(observe(s, s.current_player), POLICIES["greedy"].weights)
        best = max(context.score(a) for a in legal)
        assert context.score(kb.choose(ks, POLICIES["greedy"])) == best
        assert kb.choose(ks, POLICIES["random"]) in legal
        apply_legal(s, legal[int(rng.integers(len(legal)))], rng)


def test_first_divergence_names_the_first_decision_where_the_games_part(monkeypatch):
    rules = Rules(players=2, max_turns=12)
    assert kb.first_divergence(rules, ("greedy", "random"), 3) is None    # the same game throughout
    real = kb.choose

    def next_one(ks, policy):   # a kernel policy that picks the action after the right one
        legal = kb.legal_actions(ks)
        return legal[(legal.index(real(ks, policy)) + 1) % len(legal)]

    monkeypatch.setattr(kb, "choose", next_one)
    where = kb.first_divergence(rules, ("random", "random"), 3)
    assert where.startswith("seed 3, decision #") and "the policy 'random' chose" in where


# ----------------------------------------------------------------------- the batch API
def test_records_have_the_engines_columns_and_do_not_depend_on_batching():
    rules = Rules(players=3)
    lineups = [("greedy", "random", "heuristic"), ("random", "random", "random"), ("purist", "aggressor", "greedy")]
    batch = play_batch(rules, lineups, [5, 6, 7])
    alone = [play_batch(rules, [lineup], [seed])[0] for lineup, seed in zip(lineups, [5, 6, 7])]
    assert batch == alone
    engine = play_game(rules, list(lineups[0]), 5).to_record()
    assert list(batch[0]) == list(engine)
    assert [batch[0][f"seat{i}_policy"] for i in range(3)] == ["greedy", "random", "heuristic"]
    for record in batch:
        assert record["winner"] in (0, 1, 2) and not record["timed_out"]
        assert record[f"seat{record['winner']}_score"] >= rules.creatures_to_win
        assert all(record[f"seat{i}_score"] <= record[f"seat{i}_completed"] for i in range(3))


def test_a_deal_is_the_same_whatever_the_policies():
    # the chance stream does not depend on the seats' policies: in a 1-action game that ends at the
    # turn cap after one turn, seat 0 draws the same card under any policy
    rules = Rules(players=2, max_turns=1, actions_per_turn=1)
    draws = {tuple(play_arrays(rules, [(p, "random")], [42])["stats"][0, 0]) for p in ("greedy", "random")}
    assert len(draws) <= 2   # both deal the same cards: only the chosen action may differ
    a = play_arrays(rules, [("greedy", "greedy")], [42])
    b = play_arrays(rules, [("greedy", "greedy")], [42])
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_timeouts_are_counted_like_the_engine():
    rules = Rules(players=2, max_turns=3)
    arrays = play_arrays(rules, [("random", "random")] * 20, range(20))
    assert arrays["timed_out"].all() and (arrays["winner"] == -1).all() and (arrays["turns"] == 3).all()
    assert play_game(rules, ["random", "random"], 0).turns == 3


def test_swept_weights_are_played_by_the_kernel():
    strong = HeuristicPolicy(dataclasses.replace(nightsim.GREEDY, pure=5.0), "pure5")
    assert supports(BASE, [strong, "random"])
    records = play_batch(R2, [(strong, "random")] * 50, range(50))
    assert {r["seat0_policy"] for r in records} == {"pure5"}
    wins = sum(r["winner"] == 0 for r in records)
    assert wins > 35   # a heuristic beats random nearly always


def test_refusals_name_what_the_kernel_lacks():
    assert "seals" in refusal(Rules(seals=True), ["random"] * 4)
    assert not supports(Rules(seals=True), ["random"] * 4)

    def custom(obs, legal, rng):
        return legal[0]

    assert "no kernel" in refusal(BASE, ["random", custom, "random", "random"])
    assert "no kernel" in refusal(BASE, ["nonexistent"] * 4)
    with pytest.raises(ValueError, match="seals"):
        play_batch(Rules(seals=True), [("random",) * 4], [1])
    with pytest.raises(ValueError, match="lineup"):
        play_batch(BASE, [("random",) * 3], [1])
    with pytest.raises(ValueError, match="seed"):
        play_batch(BASE, [("random",) * 4], [-1])
    assert KERNEL.supports(BASE, ["greedy"] * 4) and nightsim.KERNEL is KERNEL


def test_every_rules_field_is_played_by_the_kernel_or_refused_by_name(monkeypatch):
    """Each Rules field is one the kernel plays (test_nightsim_kernel_equality.py varies them) or a field
    of the seals expansion (refused as seals=True; nothing without seals); any other field is refused
    by name when it differs from its default."""
    names = [f.name for f in dataclasses.fields(Rules)]
    assert sorted(names) == sorted(kernel.PLAYED_FIELDS + kernel.SEAL_FIELDS)
    assert "Rules.seals=True" in refusal(Rules(seals=True), ["random"] * 4)
    # a field the kernel does not know (as if added to Rules later): refused by name once changed
    monkeypatch.setattr(kernel, "PLAYED_FIELDS", tuple(n for n in kernel.PLAYED_FIELDS if n != "min_discard"))
    assert "Rules.min_discard (=2; it plays only 1)" in refusal(Rules(min_discard=2), ["random"] * 4)
    assert refusal(Rules(), ["random"] * 4) is None
    with pytest.raises(ValueError, match=r"nightsim kernel: .*Rules\.seals=True"):
        play_batch(Rules(seals=True, players=2), [("random", "random")], [1])


def test_stat_columns_are_the_engines():
    record = play_game(R2, ["random", "random"], 1).to_record()
    assert [k[len("seat0_"):] for k in record if k.startswith("seat0_")][2:] == list(STAT_COLUMNS)
