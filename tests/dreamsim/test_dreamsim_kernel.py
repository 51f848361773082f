"""The numba batch kernel (dreamsim/kernel*.py, issue 16 item 2) against the Python engine, the
reference: exact agreement at hand-built positions and at every decision of engine games
(legal actions, and the whole state after each step that draws no random number), and equal
distributions of every per-game statistic over fixed seeds (|difference of means| < 4 standard
errors). The first test to run compiles the kernel (or loads it from numba's cache)."""
import dataclasses
from collections import Counter

import numpy as np
import pytest

import dreamsim
from dreamsim import cards as C
from dreamsim import kernel_bridge as KB
from dreamsim import kernel_layout as K
from dreamsim.actions import (
    ALLOW,
    CANCEL,
    DISCARD,
    HOLD,
    INTERCEPT,
    PASS,
    SPRING,
    STAR,
    TARGET,
    TO,
    VERTIGO,
    VOP,
    WALK,
)
from dreamsim.engine import apply_legal, new_game
from dreamsim.kernel import KERNEL
from dreamsim.kernel_play import deal, legal_top, run
from dreamsim.scenario import build_state

R2 = dreamsim.Rules(players=2)
R4 = dreamsim.Rules(players=4)
W5 = ["walk"] * 5
UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
SQ, TH, BR, FO = C.SQUARE, C.TOWN_HALL, C.BRIDGE, C.FOREST
C4, C6 = 3, 5


class FirstLegal:
    """A policy the kernel has no compiled version of (it plays random and HeuristicPolicy)."""

    name = "first-legal"

    def __call__(self, obs, legal, rng):
        return legal[0]


FIRST = FirstLegal()


def S(rules=R2, **kw):
    kw.setdefault("deck", ["walk"] * 16)
    return build_state(rules, record=False, **kw)


def lockstep(s, *actions):
    """Play `actions` in the engine state `s` and, from the same position, in the kernel: the
    legal actions agree before every step and the whole state after it. Returns the kernel array."""
    M = KB.from_state(s)
    rs = KB.new_rng(0)
    for a in actions:
        assert set(KB.legal(M)) == set(s.legal) and len(KB.legal(M)) == len(s.legal)
        assert a in s.legal
        KB.apply(M, rs, a)
        apply_legal(s, a, np.random.default_rng(0))
        assert KB.snapshot_kernel(M) == KB.snapshot_state(s)
    if not s.is_terminal:
        assert set(KB.legal(M)) == set(s.legal)
    return M


# ------------------------------------------------------------------ refusing what it does not implement
def test_the_kernel_refuses_rules_and_policies_it_does_not_implement():
    assert KERNEL.supports(R4, ["random"] * 4) and KERNEL.supports(R2, [dreamsim.RandomPolicy()] * 2)
    assert KERNEL.supports(dataclasses.replace(R4, hand_size=6, max_turns=100, discard_action=False), ["random"] * 4)
    assert not KERNEL.supports(R4, ["random", "random", "random", FIRST])
    assert not KERNEL.supports(R4, ["random"] * 3)
    for change in ({"refill": "end_of_turn"}, {"intercept_own_turn": True}, {"vertigo_rotation": "quarter"},
                   {"shuffle_layout": True}, {"stager": "chance"}):
        rules = dataclasses.replace(R4, **change)
        assert not KERNEL.supports(rules, ["random"] * 4)
        with pytest.raises(ValueError, match=f"Rules.{next(iter(change))}.*Reproduce with"):
            KERNEL.play_batch(rules, ["random"] * 4, [1])


# ------------------------------------------------------------------ records
def test_records_have_the_columns_and_types_of_play_game():
    for rules in (R2, R4, dataclasses.replace(R4, players=6, max_turns=30)):
        policies = ["random"] * rules.players
        engine = dreamsim.play_game(rules, policies, seed=3).to_record()
        for record in KERNEL.play_batch(rules, policies, [3, 4]):
            assert list(record) == list(engine)
            for key, value in record.items():
                assert type(value) is type(engine[key]) or {type(value), type(engine[key])} == {int, type(None)}, key


def test_a_game_is_a_function_of_its_seed_not_of_its_batch():
    seeds = [11, 2 ** 62 + 5, 0, 2 ** 70]
    together = KERNEL.play_batch(R4, ["random"] * 4, seeds)
    alone = [KERNEL.play_batch(R4, ["random"] * 4, [s])[0] for s in seeds]
    assert together == alone
    assert together[0] != together[2]  # and the seed matters
    # the analyses hook (docs/GAME_PROTOCOL.md): one lineup per seed, names or policy objects
    lineups = [("random",) * 4, (dreamsim.RandomPolicy(),) * 4, ["random"] * 4, ("random",) * 4]
    assert KERNEL.play_batch(R4, lineups, seeds) == together
    assert KERNEL.refusal(R4, ["random"] * 3 + [FIRST]) and KERNEL.refusal(R4, ["random"] * 4) is None
    with pytest.raises(ValueError, match="one per seed"):
        KERNEL.play_batch(R4, lineups[:2], seeds)
    with pytest.raises(ValueError, match="first-legal"):
        KERNEL.play_batch(R4, [("random",) * 4, ("random",) * 3 + (FIRST,)], [1, 2])


def test_a_kernel_game_keeps_every_card_and_ends():
    rules = dreamsim.Rules(players=3, max_turns=150)
    M = KB.from_state(new_game(rules, 0))
    rs = KB.new_rng(7)
    composition = Counter(C.director_cards() + list(C.NIGHTMARES))
    for game in range(8):
        deal(M, rs)
        while True:
            run(M, rs, 1)  # one decision at a time
            cards = Counter(M[K.O_DECK:K.O_DECK + M[K.G_DECK_N]].tolist())
            for k in range(K.N_KINDS):
                cards[k] += int(M[K.O_DISC + k]) + int(M[K.O_HAND + k:K.O_HAND + rules.players * K.N_KINDS:K.N_KINDS].sum())
                for q in range(rules.players):
                    traps = M[K.O_TRAPS + q * K.N_LOC * K.N_PARTNERS:K.O_TRAPS + (q + 1) * K.N_LOC * K.N_PARTNERS]
                    traps = traps.reshape(K.N_LOC, K.N_PARTNERS)
                    if k < K.N_PARTNERS:
                        cards[k] += int(traps[:, k].sum())
                    if C.SU_FOREST <= k <= C.SU_BRIDGE:
                        cards[k] += int(traps[k + 1].sum())
            in_play = Counter()  # cards of plays not yet resolved, and of the reaction chain
            for d in range(M[K.G_SP]):
                f = K.O_STACK + d * K.FRAME_W
                if M[f] == K.F_RESOLVE and M[f + K.RES_STATUS] == 0:
                    in_play.update(M[f + K.RES_C0:f + K.RES_C0 + M[f + K.RES_NC]].tolist())
                if M[f] == K.F_REACT:
                    in_play.update(M[K.O_CHAIN + 1:K.O_CHAIN + 2 * M[K.G_CHAIN_N]:2].tolist())
                if M[f] in (K.F_VOP, K.F_PARTNER):  # the card played waits for its sub-choice
                    in_play[C.VERTIGO if M[f] == K.F_VOP else M[f + 3] - 1] += 1
            assert cards + in_play == composition, (game, M[K.G_TURNS])
            assert (M[K.O_HSIZE:K.O_HSIZE + rules.players] >= 0).all() and M[K.G_AL] >= 0
            if M[K.G_TERM]:
                break
            assert legal_top(M) > 0  # a non-terminal state rests at a decision
        assert M[K.G_TIMEOUT] or M[K.G_WINNER] >= 0


# ------------------------------------------------------------------ exact agreement at hand-built positions
def test_dreamwalk_follows_the_arrows_in_both():
    s = S(where=["Corridor 4", "Corridor 1"], hands=[W5, W5])
    M = lockstep(s, WALK[UP], WALK[RIGHT])
    assert M[K.O_WHERE] == C.MOTEL and M[K.G_TP] == 1


def test_vertigo_moves_a_location_with_its_midnighters_in_both():
    s = S(where=["Square", "Bridge"], hands=[["vertigo"] + W5[:4], W5])
    M = lockstep(s, VERTIGO[SQ], VOP[UP])
    assert M[K.O_GRID + 1] == SQ and M[K.O_GRID + 5] == BR and list(M[K.O_WHERE:K.O_WHERE + 2]) == [SQ, BR]
    gap = S(dataclasses.replace(R2, layout=("R B T F .", "C S M C .", "C C* C C .")),
            where=["Corridor 2", "Corridor 1"], hands=[["vertigo"] + W5[:4], W5])
    M = lockstep(gap, VERTIGO[1], VOP[RIGHT])
    assert M[K.O_GRID + 9] == 1 and M[K.O_GRID + 8] == -1


def test_waking_on_the_bridge_and_the_horrors_town_hall_in_both():
    M = lockstep(S(where=["Bridge", "Corridor 1"], hands=[["star"] + W5[:4], W5]), STAR)
    assert M[K.G_TERM] and M[K.G_WINNER] == 0 and M[K.G_WOKE] == 0
    M = lockstep(S(where=["Town Hall", "Corridor 1"], hands=[["black", "star"], W5], horror=0), STAR)
    assert M[K.G_TERM] and M[K.G_WINNER] == 0 and M[K.G_HWON] and M[K.G_WOKE] == -1
    with_nightmare = S(where=["Bridge", "Corridor 1"], hands=[["star", "purple"], W5])
    assert STAR not in KB.legal(KB.from_state(with_nightmare)) and set(KB.legal(KB.from_state(with_nightmare))) == {
        PASS, DISCARD[C.STAR]}


def test_traps_resolve_alike():
    s = S(where=["Corridor 4", "Square"], hands=[W5, ["dutch", "catcher"]], traps=[[("Square", "walk")], []])
    M = lockstep(s, PASS, SPRING[SQ][C.DREAMWALK], TARGET[1], TO[C6])
    assert list(M[K.O_WHERE:K.O_WHERE + 2]) == [C4, C6]
    s = S(where=["Corridor 4", "Bridge"], hands=[W5, W5], traps=[[("Bridge", "dutch")], []])
    M = lockstep(s, WALK[UP], SPRING[BR][C.DUTCH], TARGET[1])
    assert list(M[K.O_WHERE:K.O_WHERE + 2]) == [BR, SQ]
    s = S(where=["Bridge", "Corridor 1"], hands=[["star"] + W5[:4], W5], traps=[[], [("Bridge", "star")]])
    M = lockstep(s, STAR, SPRING[BR][C.STAR])
    assert M[K.G_WINNER] == 1
    s = S(where=["Corridor 4", "Square"], hands=[["su bridge", "star", "walk", "walk", "walk"], W5],
          traps=[[("Square", "walk")], [("Town Hall", "star")]], red=0b11, deck=["blue"] + ["walk"] * 10)
    M = lockstep(s, WALK[UP], SPRING[TH][C.STAR])
    assert M[K.G_BLUE] == 0 and M[K.G_RED] == 0
    s = S(where=["Corridor 1", "Square"], hands=[W5, ["walk", "star", "walk", "walk", "walk"]],
          traps=[[("Square", "catcher")], []])
    M = lockstep(s, PASS, SPRING[SQ][C.CATCHER], WALK[LEFT])
    assert M[K.G_CTRL] == 0


def test_reaction_chains_resolve_alike():
    hands = [["dutch"] + W5[:4], ["dutch"] + W5[:4]]
    M = lockstep(S(where=["Corridor 4", "Corridor 1"], hands=hands), WALK[UP], CANCEL, CANCEL)
    assert M[K.O_WHERE] == SQ and list(M[K.O_DEBT:K.O_DEBT + 2]) == [1, 1]
    M = lockstep(S(where=["Corridor 4", "Corridor 1"], hands=[W5, ["catcher"] + W5[:4]]),
                 WALK[UP], INTERCEPT, DISCARD[C.DREAMWALK])
    assert M[K.O_WHERE] == C4 and M[K.O_STATS + K.ST_INTERCEPTS * K.MAX_SEATS + 1] == 1
    lockstep(S(where=["Corridor 4", "Corridor 1"], hands=hands), WALK[UP], CANCEL, ALLOW)
    s = S(R4, where=["Corridor 4", "Corridor 1", "Corridor 2", "Town Hall"],
          hands=[W5, ["star"], ["vertigo"], ["su motel"]], traps=[[], [("Forest", "walk")], [], [("Motel", "walk")]],
          deck=["purple"] + ["walk"] * 9)
    lockstep(s, WALK[UP], HOLD)  # the Purple Nightmare passes hands and traps, then the trap window


# ------------------------------------------------------------------ exact agreement along engine games
def _agree_along_engine_games(rules, seeds, max_decisions, kinds):
    """At every decision of random engine games: the same legal actions; after every step in
    which the kernel draws no random number, the same whole state. Returns the steps compared."""
    compared = 0
    for seed in seeds:
        rng = np.random.default_rng(seed)
        chance = np.random.default_rng(seed + 100)
        s = new_game(rules, chance)
        rs = KB.new_rng(seed)
        while not s.is_terminal and s.decisions < max_decisions:
            M = KB.from_state(s)
            legal = KB.legal(M)
            assert set(legal) == set(s.legal) and len(legal) == len(s.legal), (rules, seed, s.decisions)
            kinds[s.decision] += 1
            a = s.legal[int(rng.random() * len(s.legal))]
            draws = KB.apply(M, rs, a)
            apply_legal(s, a, chance)
            if draws == 0:
                compared += 1
                assert KB.snapshot_kernel(M) == KB.snapshot_state(s), (rules, seed, s.decisions, a)
    return compared


def test_the_kernel_agrees_with_the_engine_at_every_decision_of_engine_games():
    """Random engine games with 2-6 players under the default rules."""
    kinds, compared = Counter(), 0
    for players in (2, 3, 4, 5, 6):
        compared += _agree_along_engine_games(dreamsim.Rules(players=players), range(2), 1500, kinds)
    assert compared > 5000
    assert len(kinds) >= 15, kinds  # most kinds of decision were met


@pytest.mark.parametrize("change", [
    {"players": 3, "discard_action": False, "hand_size": 6},
    {"players": 5, "actions_per_turn": 3, "trap_actions": 1, "steal_actions": 0, "dutch_angle_actions": 1,
     "cancel_debt": 2, "debt_carries_over": False},
    {"players": 4, "layout": ("R B T F .", "C S M C .", "C C* C C ."), "multicolour_actions": 4,
     "colourless_actions": 2},
    {"players": 2, "layout": ("R1 B2 T F3", "C S M1 C", "C C C* C2")},
])
def test_the_kernel_agrees_with_the_engine_under_the_rule_parameters_it_takes(change):
    rules = dataclasses.replace(dreamsim.Rules(max_turns=150), **change)
    assert KERNEL.supports(rules, ["random"] * rules.players)
    assert _agree_along_engine_games(rules, range(3), 600, Counter()) > 300


# ------------------------------------------------------------------ equal distributions
def _columns(records):
    """Every numeric per-game statistic, plus indicator columns for the winner by seat, the
    Horror's seat and the timeout cause."""
    cols = {}
    n = sum(1 for k in records[0] if k.endswith("_policy"))
    for key, value in records[0].items():
        if isinstance(value, (bool, int)) and not key.endswith("_score") and key not in ("winner", "horror_seat"):
            cols[key] = np.array([float(r[key]) for r in records])
    for i in range(n):
        cols[f"winner=={i}"] = np.array([r["winner"] == i for r in records], dtype=float)
        cols[f"horror_seat=={i}"] = np.array([r["horror_seat"] == i for r in records], dtype=float)
    for cause in dreamsim.game.TIMEOUT_CAUSES:
        cols[f"timeout_cause=={cause}"] = np.array([r["timeout_cause"] == cause for r in records], dtype=float)
    return cols


@pytest.mark.parametrize("players, engine_games", [(2, 600), (4, 300)])
def test_every_per_game_statistic_has_the_engines_distribution(players, engine_games):
    rules = dreamsim.Rules(players=players)
    policies = ["random"] * players
    engine = _columns([dreamsim.play_game(rules, policies, seed=s).to_record() for s in range(engine_games)])
    kernel = _columns(KERNEL.play_batch(rules, policies, range(10_000, 30_000)))
    assert engine.keys() == kernel.keys()
    for key, e in engine.items():
        k = kernel[key]
        # the standard error of the difference under "same distribution": the pooled variance
        # (a rare event the engine's sample never met still has a standard error)
        se = np.sqrt(np.concatenate([e, k]).var(ddof=1) * (1 / len(e) + 1 / len(k)))
        diff = abs(e.mean() - k.mean())
        if se == 0:
            assert diff == 0, key
        else:
            assert diff < 4 * se, (key, e.mean(), k.mean(), se)
