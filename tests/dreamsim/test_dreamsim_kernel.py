"""The numba batch kernel (dreamsim/kernel*.py) against the Python engine, the reference, at
hand-built positions: the same legal actions in the same order, and the whole state after each
step (both drawing from the same chance stream); its refusals, records and seeds. Whole games,
record for record, are in test_dreamsim_kernel_equality.py. The first test to run compiles the
kernel (or loads it from numba's cache)."""
import dataclasses
from collections import Counter

import pytest

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.actions import (
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
from dreamsim.engine.engine import apply_legal, new_game
from dreamsim.engine.scenario import build_state
from dreamsim.kernel import bridge as KB
from dreamsim.kernel import layout as K
from dreamsim.kernel.play import deal, legal_top, run
from dreamsim.kernel.play_batch import KERNEL
from simcore.stream import Stream

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
    chance = Stream(int(rs[0]))  # the kernel's chance stream, as the engine's
    for a in actions:
        assert KB.legal(M) == list(s.legal)
        assert a in s.legal
        KB.apply(M, rs, a)
        apply_legal(s, a, chance)
        assert KB.snapshot_kernel(M) == KB.snapshot_state(s) and int(rs[0]) == chance.state
    if not s.is_terminal:
        assert KB.legal(M) == list(s.legal)
    return M


# ------------------------------------------------------------------ refusing what it does not implement
def test_the_kernel_refuses_rules_and_policies_it_does_not_implement():
    assert KERNEL.supports(R4, ["random"] * 4) and KERNEL.supports(R2, [dreamsim.RandomPolicy()] * 2)
    assert KERNEL.supports(dataclasses.replace(R4, hand_size=6, max_turns=100, discard_action=False), ["random"] * 4)
    assert not KERNEL.supports(R4, ["random", "random", "random", FIRST])
    assert not KERNEL.supports(R4, ["random"] * 3)
    for change in ({"refill": "end_of_turn"}, {"intercept_own_turn": True}, {"vertigo_rotation": "quarter"},
                   {"shuffle_layout": True}, {"town_hall_discards": "all"}, {"intercept_takes": "hand"}):
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
    seeds = [11, 2 ** 62 + 5, 0, 2 ** 64 - 1]
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
    assert KB.legal(KB.from_state(with_nightmare)) == [DISCARD[C.STAR], PASS]


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
