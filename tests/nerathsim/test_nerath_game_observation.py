"""An observation holds only what its seat may know.

Every few decisions of recorded games, everything the deciding seat may not know is changed —
the other realms' event hands (re-dealt from their decks, sizes kept), every deck order, the
treasure deck, the guardian supply and the face-down guardian tokens, the other seats'
notebooks — and `observe`, `legal_actions` and every shipped policy's choice must not change.
"""
import numpy as np
import pytest

from nerathsim import engine as E
from nerathsim.game import LegalActions
from nerathsim.observation import Observation, observe
from nerathsim.policies import POLICIES
from nerathsim.rules import Rules


def perturb(s, seat, rng):
    """A copy of `s` in which everything hidden from `seat` is re-dealt."""
    c = s.clone()
    mine = set(s.rules.seating[seat])
    for q in range(4):
        if q in mine:
            c.decks[q] = [c.decks[q][i] for i in rng.permutation(len(c.decks[q]))]
            continue
        pool = c.hands[q] + c.decks[q]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        k = len(c.hands[q])
        c.hands[q], c.decks[q] = pool[:k], pool[k:]
        c.must_play[q] = [x for x in c.hands[q] if c.cards.cards[x].timing == "immediate"] if c.cards else []
    c.treasure_deck = [c.treasure_deck[i] for i in rng.permutation(len(c.treasure_deck))]
    hidden = [r for r in c.guardians if r not in c.revealed]
    pool = c.supply + [g for r in hidden for g in c.guardians[r]]
    pool = [pool[i] for i in rng.permutation(len(pool))]
    for r in hidden:
        n = len(c.guardians[r])
        c.guardians[r], pool = pool[:n], pool[n:]
    c.supply = pool
    for i in range(len(c.memo)):
        if i != seat:
            c.memo[i] = {"noise": rng.random()}
    c._legal = None
    return c


def view(o: Observation) -> tuple:
    """Everything an Observation answers, as plain values (but the seat's own notebook, which lives on)."""
    b = o.board
    out = [o.decision, o.phase, o.realm, o.turn_realm, o.round, o.turns, tuple(o.owner), tuple(o.gold), tuple(o.vp),
           o.hand, o.hand_sizes, tuple(o.ships), o.battle, tuple(o.battle_sites), o.window, o.pending_card,
           o.treasures, tuple(o.kept(q) for q in range(4)), tuple(o.income(q) for q in range(4)),
           tuple(o.mobile_regions())]
    out += [tuple(tuple(o.units(r, q)) for q in range(4)) for r in range(b.n)]
    out += [o.dungeon(r) for r in range(b.n) if b.is_dungeon[r]]
    if o.phase == E.PH_PRESS:
        out.append(tuple(o.retreat_options()))
    if o.phase == E.PH_AMOK:
        out.append(tuple(o.amok_targets()))
    if o.phase in (E.PH_BUY, E.PH_REINFORCE):
        out.append(repr(o.placement_spots()))
    return tuple(out)


def held(o: Observation) -> tuple:
    """What the observation's copy holds where the engine keeps hidden things (must not follow them)."""
    c = o._s
    return (repr(c.hands), repr(c.must_play), repr(c.decks), repr(c.treasure_deck), repr(c.supply),
            repr(sorted(c.guardians.items())), repr([m for i, m in enumerate(c.memo) if i != o.player]),
            None if c.pending is None else repr(c.pending.reactors), c.log)


def check_state(s, seed):
    seat = s.current_player
    other = perturb(s, seat, np.random.default_rng(seed))
    assert view(observe(s, seat)) == view(observe(other, seat))
    assert observe(s, seat).memo == observe(other, seat).memo
    assert held(observe(s, seat)) == held(observe(other, seat))
    assert E.legal_actions(s) == E.legal_actions(other)
    for name, policy in POLICIES.items():
        a, b = s.clone(), other.clone()
        got_a = policy(observe(a, seat), LegalActions(a), np.random.default_rng(seed))
        got_b = policy(observe(b, seat), LegalActions(b), np.random.default_rng(seed))
        assert got_a == got_b, (name, s.decision)


@pytest.mark.parametrize("rules, seed", [(Rules(), 1), (Rules(players=2), 2), (Rules(mode="free_for_all"), 3)])
def test_observe_legal_actions_and_every_policy_ignore_what_the_seat_may_not_know(rules, seed):
    kids = np.random.SeedSequence(seed).spawn(5)
    chance = np.random.default_rng(kids[0])
    prng = np.random.default_rng(kids[1])
    s = E.new_game(rules, chance)
    checked = set()
    while not s.is_terminal and s.decisions < 700:
        if s.decisions % 9 == 0 or s.phase in (E.PH_EVENT, E.PH_HIT, E.PH_PRESS) and len(checked) < 400:
            check_state(s, s.decisions)
            checked.add(s.phase)
        p = s.current_player
        E.apply_action(s, POLICIES["balanced"](observe(s, p), LegalActions(s), prng), chance)
    assert {E.PH_MOVE, E.PH_BUY} <= checked


def test_an_observation_is_a_copy_the_game_going_on_does_not_change_it():
    s = E.new_game(Rules(), 5)
    o = observe(s, s.current_player)
    before = view(o)
    prng = np.random.default_rng(0)
    for _ in range(60):
        p = s.current_player
        E.apply_action(s, POLICIES["balanced"](observe(s, p), LegalActions(s), prng), prng)
    assert view(o) == before
    assert o._s is not s and o._s.decks == [[], [], [], []] and o._s.log is None


def test_other_realms_hands_are_only_counted_and_face_down_guardians_stay_unknown():
    s = E.new_game(Rules(), 3)
    seat = s.current_player
    o = observe(s, seat)
    mine = set(s.rules.seating[seat])
    assert o.hand_sizes == tuple(len(h) for h in s.hands)
    assert all(o._s.hands[q] == [] for q in range(4) if q not in mine)
    for r in s.guardians:
        n, shown, _given = o.dungeon(r)
        assert n == len(s.guardians[r]) and shown is None and set(o._s.guardians[r]) == {-1}
