"""An observation holds only what its seat may know: re-dealing everything
the deciding seat may not know — the other hands, the face-down traps of the others, the deck
order — changes neither `observe`, nor `legal_actions`, nor any shipped policy's choice."""
import dataclasses

import numpy as np

import dreamsim
from dreamsim.engine import cards as C
from dreamsim.engine.actions import SET_TRAP
from dreamsim.engine.engine import MotelTake, apply_legal
from dreamsim.engine.observation import _acting_for
from dreamsim.engine.scenario import build_state, step


def redeal(s, p, rng):
    """A copy of s with every card p cannot see shuffled: the hands p does not see (sizes kept,
    the Horror keeps its Black Nightmare), the others' traps (counts kept, each a Suspense card
    and a partner), the deck (size kept)."""
    t = s.clone()
    seen = {p, _acting_for(t, p)}
    if t.stack and type(t.stack[-1]) is MotelTake and t.current_player == p:
        seen.add(t.stack[-1].target)
    hidden = [q for q in range(t.n) if q not in seen]
    pool = list(t.deck)
    sizes = {}
    for q in hidden:
        hand = t.hands[q]
        keep = [C.BLACK] if C.BLACK in hand else []
        pool += [k for k in hand if k != C.BLACK]
        sizes[q] = (keep, len(hand) - len(keep))
    traps = {}
    for q in range(t.n):
        if q != p:
            traps[q] = len(t.traps[q])
            for loc, kind in t.traps[q]:
                pool += [C.SUSPENSE_OF[loc], kind]
    order = rng.permutation(len(pool))
    pool = [pool[int(i)] for i in order]
    for q, count in traps.items():
        t.traps[q] = []
        for _ in range(count):
            su = next(i for i, k in enumerate(pool) if k in C.SUSPENSE_KINDS)
            loc = C.LOCATION_OF_SUSPENSE[pool.pop(su)]
            partner = next(i for i, k in enumerate(pool) if k in C.TRAP_PARTNERS)
            t.traps[q].append((loc, pool.pop(partner)))
    for q, (keep, n) in sizes.items():
        t.hands[q] = keep + pool[:n]
        del pool[:n]
    t.deck = pool
    t.n_traps = sum(1 for ts in t.traps for _, k in ts if k != C.STAR)
    t.legal = None
    return t


def choices(obs, legal, seed):
    return {name: pol(obs, legal, np.random.default_rng(seed)) for name, pol in dreamsim.POLICIES.items()}


def test_redealing_what_a_seat_cannot_see_changes_neither_its_observation_nor_legal_actions_nor_any_policy():
    checked = 0
    for players, seed in ((2, 3), (2, 4), (3, 5), (4, 7), (4, 8), (5, 9), (6, 11)):
        rules = dreamsim.Rules(players=players)
        rng = np.random.default_rng(seed)
        s = dreamsim.new_game(rules, rng)
        lineup = [dreamsim.POLICIES[n] for n in ("trickster", "random", "heuristic", "runner", "horror", "random")]
        while not s.is_terminal and s.turns < 120:
            p = s.current_player
            legal = dreamsim.legal_actions(s)
            obs = dreamsim.observe(s, p)
            if s.decisions % 2 == 0:
                t = redeal(s, p, np.random.default_rng(s.decisions))
                assert t.hands != s.hands or t.deck != s.deck or all(len(h) == 0 for h in s.hands)
                assert dreamsim.observe(t, p) == obs
                assert dreamsim.legal_actions(t) == legal
                assert choices(dreamsim.observe(t, p), dreamsim.legal_actions(t), s.decisions) == \
                    choices(obs, legal, s.decisions)
                checked += 1
            apply_legal(s, lineup[p](obs, legal, rng), rng)
    assert checked > 200


def test_the_location_of_a_trap_being_set_is_shown_to_the_setter_only():
    s = build_state(dreamsim.Rules(players=2), where=["Corridor 4", "Corridor 1"],
                    hands=[["su bridge", "star", "walk", "walk", "walk"], ["walk"] * 5])
    step(s, SET_TRAP[C.BRIDGE])
    assert s.decision == "trap partner card"
    assert dreamsim.observe(s, 0).context == {"location": C.BRIDGE}
    assert dreamsim.observe(s, 1).context == {}


def test_an_observation_is_a_value_without_the_state():
    s = dreamsim.new_game(dreamsim.Rules(players=3), 0)
    obs = dreamsim.observe(s, 1)
    assert isinstance(obs, tuple) and not any(isinstance(v, dreamsim.State) for v in obs)
    assert not hasattr(obs, "_s") and not hasattr(obs, "__dict__")
    before = obs.to_dict()
    dreamsim.apply_action(s, dreamsim.legal_actions(s)[0], np.random.default_rng(0))
    assert obs.to_dict() == before  # a copy: the game going on does not change it
    try:
        obs.hand = ()
    except AttributeError:
        pass
    else:
        raise AssertionError("an observation must be read-only")
    assert dataclasses.is_dataclass(obs.rules) and obs.rules == s.rules
