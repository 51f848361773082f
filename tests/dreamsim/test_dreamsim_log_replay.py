"""The event log is complete: a referee rebuilds a Midnighters game from the deal and the events alone.

`Referee` is a small replayer that uses no engine code — only the static tables (card names, which
Suspense card belongs to which location, the board's neighbour cells). It starts from the `deal`
event (hands, the deck in order, the nightmares not yet shuffled in, positions, the board) and
applies each event: every card drawn must be the top of its deck, every card that leaves a hand, the
discard pile, a trap or the cards being played must be there. At the end its hands, deck, discard
pile, traps, positions, board, Horror and winner must equal the engine's.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from dreamsim import Rules, new_game, observe, play_game
from dreamsim.engine.cards import KIND_NAMES, STAR, SUSPENSE_OF, TOWN_HALL
from dreamsim.engine.engine import apply_action, legal_actions
from dreamsim.policies.policies import POLICIES
from simcore.stream import streams

STAR_NAME = KIND_NAMES[STAR]
SUSPENSE = {loc: KIND_NAMES[k] for loc, k in SUSPENSE_OF.items()}


class Referee:
    def __init__(self, rules: Rules):
        self.nb = rules.board[5]                 # static: the neighbour cells of each cell
        self.started = False

    # --- card piles ------------------------------------------------------------------------
    @staticmethod
    def take(pile: Counter, card: str, what: str):
        assert pile[card] > 0, f"{card} is not in {what}"
        pile[card] -= 1

    def move(self, card, src, src_name, dst):
        self.take(src, card, src_name)
        dst[card] += 1

    def on_deal(self, e):
        self.started = True
        self.hands = [Counter(KIND_NAMES[k] for k in h) for h in e["hands"]]
        self.deck, self.reserve = list(e["deck"]), list(e["reserve"])
        self.discard, self.limbo = Counter(), Counter()
        self.traps = [Counter() for _ in e["hands"]]
        self.where, self.grid, self.rot = list(e["where"]), list(e["grid"]), list(e["rot"])
        self.horror, self.winner = -1, None

    def on_nightmares_in(self, e):
        assert Counter(e["order"]) == Counter(self.deck + self.reserve)
        self.deck, self.reserve = list(e["order"]), []

    def on_reshuffle(self, e):
        assert Counter(e["order"]) == +self.discard and not self.deck
        self.deck, self.discard = list(e["order"]), Counter()

    def on_draw(self, e):
        assert self.deck and self.deck[-1] == e["card"], "a draw is the top card of the deck"
        self.hands[e["seat"]][self.deck.pop()] += 1

    def on_card_played(self, e):
        self.move(e["card"], self.hands[e["seat"]], "the hand", self.limbo)

    def on_cards_settled(self, e):
        for c in e["cards"]:
            self.move(c, self.limbo, "play", self.discard if e["to"] < 0 else self.hands[e["to"]])

    def on_trap_set(self, e):
        self.take(self.limbo, SUSPENSE[e["location"]], "play")
        self.take(self.limbo, e["card"], "play")
        self.traps[e["seat"]][(e["location"], e["card"])] += 1

    def _spring(self, seat, loc, card):
        self.take(self.traps[seat], (loc, card), f"seat {seat}'s traps")
        self.discard[SUSPENSE[loc]] += 1
        self.discard[card] += 1

    def on_spring(self, e):
        self._spring(e["seat"], e["location"], e["kind"])

    def on_star_trap(self, e):
        self._spring(e["seat"], e["location"], STAR_NAME)

    def on_remote_town_hall(self, e):
        self._spring(e["seat"], TOWN_HALL, STAR_NAME)

    def on_discard_action(self, e):
        self.move(e["card"], self.hands[e["seat"]], "the hand", self.discard)

    on_surplus_discard = on_th_discard = on_discard_action

    def on_steal(self, e):
        self.move(e["card"], self.hands[e["victim"]], "the victim's hand", self.hands[e["seat"]])

    on_intercepted_hand_card = on_steal

    def on_square_take(self, e):
        self.move(e["card"], self.discard, "the discard pile", self.hands[e["seat"]])

    def on_motel_take(self, e):
        self.move(e["card"], self.hands[e["target"]], "the target's hand", self.hands[e["seat"]])

    def on_give(self, e):
        self.move(e["card"], self.hands[e["seat"]], "the hand", self.hands[e["target"]])

    def on_restaurant_discard(self, e):
        for c in e["cards"]:
            self.move(c, self.hands[e["target"]], "the target's hand", self.discard)

    def on_mix(self, e):
        before = sum((self.hands[q] for q in e["seats"]), Counter())
        after = [Counter(h) for h in e["hands"]]
        assert sum(after, Counter()) == +before and [sum(h.values()) for h in after] == \
            [sum(self.hands[q].values()) for q in e["seats"]]
        for q, h in zip(e["seats"], after):
            self.hands[q] = h

    def on_exchange(self, e):          # Purple: each passes hand and traps to the counter-clockwise neighbour
        g = e["seats"]
        hands, traps = [self.hands[q] for q in g], [self.traps[q] for q in g]
        for i, q in enumerate(g):
            self.hands[q], self.traps[q] = hands[(i + 1) % len(g)], traps[(i + 1) % len(g)]
        assert [+self.hands[q] for q in g] == [Counter(h) for h in e["hands"]]

    # --- positions and the board ---------------------------------------------------------------
    def on_walk(self, e):
        self.where[e["seat"]] = e["to"]

    on_teleport = on_walk

    def on_trap_move(self, e):
        self.where[e["target"]] = e["to"]

    def on_placed(self, e):
        self.where[e["seat"]] = e["to"]

    def on_trap_swap(self, e):
        a, b = e["seat"], e["target"]
        self.where[a], self.where[b] = self.where[b], self.where[a]

    def on_gathered(self, e):
        for q in e["seats"]:
            self.where[q] = e["to"]

    def on_vertigo(self, e):
        loc, op = e["location"], e["op"]
        if op < 4:                                          # move: swap cells with the neighbour
            c1 = self.grid.index(loc)
            c2 = self.nb[c1][op]
            if c2 >= 0:
                self.grid[c1], self.grid[c2] = self.grid[c2], loc
        elif op < 7:                                        # rotate by op - 3 quarter turns
            self.rot[loc] = (self.rot[loc] + op - 3) % 4

    on_trap_vertigo = on_vertigo

    def on_horror(self, e):
        self.horror = e["seat"]

    def on_wake(self, e):
        self.winner = e["winner"]

    on_horror_wins = on_wake

    def replay(self, log):
        for e in log:
            if e["event"] == "deal" or self.started:
                getattr(self, "on_" + e["event"], lambda e: None)(e)
        return self

    def final(self):
        return {"hands": [+h for h in self.hands], "deck": self.deck, "discard": +self.discard,
                "traps": [+t for t in self.traps], "where": self.where, "grid": self.grid, "rot": self.rot,
                "horror": self.horror, "winner": self.winner, "limbo": +self.limbo}


def engine_final(s):
    return {"hands": [Counter(KIND_NAMES[k] for k in h) for h in s.hands], "deck": [KIND_NAMES[k] for k in s.deck],
            "discard": Counter(KIND_NAMES[k] for k in s.discard),
            "traps": [Counter((loc, KIND_NAMES[k]) for loc, k in t) for t in s.traps], "where": s.where,
            "grid": s.grid, "rot": s.rot, "horror": s.horror, "winner": s.winner,
            "limbo": Counter(KIND_NAMES[k] for k in s.limbo)}


def play_through_apply_action(rules, policies, seed):
    """play_game's loop through the public apply_action (same random streams as play_game)."""
    chance, *prngs = streams(seed, 1 + rules.players)
    pols = [POLICIES[p] for p in policies]
    s = new_game(rules, chance, record=True)
    while not s.is_terminal:
        p = s.current_player
        apply_action(s, pols[p](observe(s, p), legal_actions(s), prngs[p]), chance)
    return s


CASES = [
    (Rules(players=4), ["random"] * 4, 512),
    (Rules(players=3), ["trickster"] * 3, 12),
    (Rules(players=6), ["horror"] * 6, 320),
    (Rules(players=2), ["runner", "heuristic"], 7),
    (Rules(players=5, refill="end_of_turn", intercept_takes="hand", town_hall_discards="all", stager="chance",
           nightmares="after_first_round", max_turns=300), ["random", "trickster", "horror", "runner", "heuristic"], 3),
    (Rules(players=4, deck_exhaustion="stop", vertigo_trap_optional=True, dreamwalk_trap_self="trap_location",
           cancel_trap_setting=False, shuffle_layout=True, start="own_corridor"), ["random", "trickster"] * 2, 11),
    (Rules(players=4), ["trickster"] * 4, 0),       # Town Hall discards
    (Rules(players=4), ["trickster"] * 4, 3),       # a Midnight Star trap steals an activation
    (Rules(players=5), ["random"] * 5, 0),          # Dutch Angle, Vertigo and Dreamcatcher traps
    (Rules(players=5), ["random"] * 5, 19),         # a Town Hall Star trap against a nightmare
]


@pytest.mark.parametrize("rules, policies, seed", CASES)
def test_a_referee_rebuilds_the_final_state_from_the_deal_and_the_events_alone(rules, policies, seed):
    s = play_through_apply_action(rules, policies, seed)
    assert Referee(rules).replay(s.log).final() == engine_final(s)
    result = play_game(rules, policies, seed, record=True)
    assert list(result.log) == s.log            # play_game logs exactly what apply_action logs
    assert result.winner == s.winner


def test_the_referee_notices_a_missing_or_wrong_event():
    rules, policies, seed = CASES[0]
    log = play_through_apply_action(rules, policies, seed).log
    i = next(i for i, e in enumerate(log) if e["event"] == "draw")
    with pytest.raises(AssertionError, match="top card of the deck"):
        Referee(rules).replay(log[:i] + log[i + 1:])                       # a draw left out
    j = next(i for i, e in enumerate(log) if e["event"] == "steal")
    wrong = dict(log[j], card="Black Nightmare")
    with pytest.raises(AssertionError, match="not in the victim's hand"):
        Referee(rules).replay(log[:j] + [wrong] + log[j + 1:])             # the wrong card stolen
    k = next(i for i, e in enumerate(log) if e["event"] == "card_played")
    with pytest.raises(AssertionError, match="not in play"):
        Referee(rules).replay(log[:k] + log[k + 1:])                       # a card played unlogged


def test_every_event_kind_is_documented_in_rules_md():
    text = (Path(__file__).resolve().parents[2] / "dreamsim" / "RULES.md").read_text(encoding="utf-8")
    kinds = set()
    for rules, policies, seed in CASES:
        kinds |= {e["event"] for e in play_game(rules, policies, seed, record=True).log}
    missing = sorted(k for k in kinds if f"`{k}`" not in text)
    assert not missing, missing


def test_decisions_taken_through_apply_action_are_logged_with_their_arguments():
    rules = Rules(players=3)
    s = new_game(rules, np.random.default_rng(5), record=True)
    a = legal_actions(s)[0]
    n = len(s.log)
    p, decision = s.current_player, s.decision
    apply_action(s, a, np.random.default_rng(6))
    e = s.log[n]
    assert e["event"] == "decision" and e["player"] == p and e["decision"] == decision and e["action"] == repr(a)
